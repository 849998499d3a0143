#!/bin/sh
# make bench: run every bench/*.sh (each prints its own report).
# Environment from make: PGWALK (the binary), PGW_TOOLS (test tools).
set -u
here=$(cd "$(dirname "$0")" && pwd)
status=0
for b in "$here"/*.sh; do
	[ "$(basename "$b")" = run.sh ] && continue
	echo "== $(basename "$b")"
	sh "$b" || status=1
done
exit $status
