#!/bin/sh
# The library's iterators (pgwalk.h: pgw_runs_iter, pgw_diff_iter,
# pgw_findings_iter, pgw_roots_iter) give what the callbacks they stand
# beside give: the same items in the same order, field by field, the same
# end status and stats (tests/tools/pgw-iters), on the committed samples
# (real kernels' tables in all four modes): CPU 0's runs, coalesced and
# one per leaf (thousands, so the walk's thread hands over a hundred
# times), its diff against CPU 1's space, the check findings of the
# kernel root and of CPU 1's, the roots a scan finds; and an iterator
# freed in the middle of its walk stops it (the tool returns at all).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracles.sh"
plan 4

for dm in $DUMPS; do
	d=${dm%%:*}
	img=$REPO/testdata/$d.elf
	[ -f "$img" ] || bail "sample $img is missing"
	run "$PGW_TOOLS/pgw-iters" "$img"
	case "$rc:$out" in
	"0:runs "[1-9]*", leaf runs "[1-9]*", diff ranges "[1-9]*", findings "*", roots "[1-9]*": 0 differ")
		ok 0 "$d sample: iterators = callbacks ($out)" ;;
	*)	ok 1 "$d sample: iterators = callbacks"
		printf '%s\n%s\n' "$out" "$err" | head -8 | sed 's/^/#   /' ;;
	esac
done
