#!/bin/sh
# make bench: every bench/*.sh, each printing its own table.  Benchmarks
# measure; they never fail the build on a number.
set -u
here=$(cd "$(dirname "$0")" && pwd)
for b in "$here"/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	echo "== $(basename "$b" .sh)"
	sh "$b" || echo "(benchmark $(basename "$b") failed: $?)"
done
