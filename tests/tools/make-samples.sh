#!/bin/sh
# Rebuild testdata/ (the small samples a fresh clone tests against) from
# the real dumps in ../shared/testdata: for each dump, pgw-extract keeps
# every page-table page reachable from the kernel root and each CPU's CR3
# plus the data pages of the markers of CPU 1's process, and the oracle
# files the tests need are copied beside it.  Run from the repository
# after `make`: sh tests/tools/make-samples.sh.  Deterministic.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
shared=${PGW_SHARED:-$repo/../shared/testdata}
unpacked=${PGW_UNPACKED:-$repo/build/unpacked}
extract=$repo/build/tools/pgw-extract
out=$repo/testdata
. "$repo/tests/cli/oracles.sh"

[ -x "$extract" ] || { echo "build first: make build/tools/pgw-extract" >&2; exit 1; }
sh "$shared/unpack.sh" "$unpacked" >/dev/null
mkdir -p "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for dm in $DUMPS; do
	d=${dm%%:*}
	src=$shared/$d dst=$out/$d
	mkdir -p "$dst"
	for f in gva2gpa.txt registers-cpu0.txt registers-cpu1.txt \
		 vmcoreinfo.txt README.txt process-roots.txt; do
		[ -f "$src/$f" ] && tr -d '\r' <"$src/$f" >"$dst/$f"
	done
	pid=$(owner "$src")
	{ echo "# owner pid $pid: the PGWALK lines of the process whose top table is CPU 1's CR3, from console.log"
	  tr -d '\r' <"$src/console.log" |
		grep -E "^PGWALK(-FINAL)? pid=$pid "; } >"$dst/markers.txt"
	markers "$src" "$pid" | awk '$2 != "-" { print $1 }' >"$tmp"
	"$extract" -a "$tmp" "$unpacked/$d/vmcore.elf" "$out/$d.elf"
done
