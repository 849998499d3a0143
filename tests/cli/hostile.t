#!/bin/sh
# Hostile page tables through the CLI (tests/tools/mkhostile.c writes them;
# tests/unit/hostile_walk.c walks the same tables through the library):
# `pgwalk dump` ends on each with the right result and message, and the
# work it does is bounded by what it must read, measured in page-table
# entries examined (the JSON summary's "entries"), not in seconds: a walk
# that completes does so within 4096 entries (each table read once), one
# the budget stops examines exactly the budget plus the entry that ran
# out.  Tables shared so that they map one frame everywhere are reported at
# once ("same frame"); `dump --leaves`, which lists every leaf, is stopped
# by the entry budget instead.  Files that claim more memory than they
# hold (mkhostile.c) get no bigger budget.
. "$(dirname "$0")/lib.sh"
plan 42

H=$TMP/hostile
"$PGW_TOOLS/mkhostile" "$H" || { echo "Bail out! mkhostile failed"; exit 1; }
T=${PGW_TIMEOUT:-60}
BUDGET=1052672

# dump NAME MODE [OPTION]: sets rc, err; text output in $TMP/out; the JSON
# summary's entry count and completeness in $entries, $complete.
dump() {
	# Raw images only: ELF and kdump files are probed.
	_fmt=--image-format=raw
	case $1 in *.raw) ;; *) _fmt= ;; esac
	# shellcheck disable=SC2086
	timeout "$T" "$PGWALK" dump $_fmt --mode="$2" --cr3=0x1000 ${3:-} \
		"$H/$1" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	err=$(cat "$TMP/err")
	# shellcheck disable=SC2086
	summary=$(timeout "$T" "$PGWALK" dump $_fmt --mode="$2" --cr3=0x1000 \
		--format=json ${3:-} "$H/$1" 2>/dev/null | tail -1)
	entries=$(printf '%s\n' "$summary" | sed -n 's/.*"entries":\([0-9]*\).*/\1/p')
	complete=$(printf '%s\n' "$summary" | sed -n 's/.*"complete":\([a-z]*\).*/\1/p')
}
# bounded NAME: a complete walk examined at most 4096 entries; a budget
# stop examined exactly the budget and one more.
bounded() {
	if [ "$complete" = true ]; then
		[ -n "$entries" ] && [ "$entries" -le 4096 ]
		ok $? "$1: complete after examining $entries entries (at most 4096: every table once)"
	else
		is "$complete/$entries" "false/$((BUDGET + 1))" \
			"$1: stopped by the budget after exactly $BUDGET + 1 entries"
	fi
}
budget() {
	is "$rc" 4 "$1: exit 4 (entry budget)"
	case $err in
	"pgwalk: $H/$2: entry budget of 1052672 exhausted at va 0x"*"(raise --max-entries)")
		ok 0 "$1: one-line budget message naming the file" ;;
	*) ok 1 "$1: budget message"; echo "#   got: $err" ;;
	esac
}

tab=$(printf '\t')
while IFS=$tab read -r name mode what; do
	dump "$name" "$mode"
	case $what in
	shared)
		is "$rc" 0 "$name: exit 0, walk complete"
		n=$(grep -c 'same frame' "$TMP/out")
		ok "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "$name: repeated mappings of one frame reported at once ($n lines)"
		is "$err" "" "$name: nothing on stderr"
		bounded "$name"
		dump "$name" "$mode" --leaves
		budget "$name --leaves" "$name"
		bounded "$name --leaves"
		continue ;;
	budget)
		budget "$name" "$name" ;;
	cycles)
		is "$rc" 0 "$name: exit 0"
		n=$(grep -c ' hole [a-z0-9]* cycle: entry 0x' "$TMP/out")
		ok "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "$name: cycles reported as holes ($n lines)"
		is "$err" "" "$name: nothing on stderr"
		# The CPU follows the cycle (translate says what it maps):
		# the W+X count must not read "0" as if nothing could be.
		n=$(grep -c '^# W+X: 0 ranges, 0; and [0-9]*[KMGT] under page-table cycles, not walked: permissions unknown$' "$TMP/out")
		is "$n" 1 "$name: the W+X summary flags the cycle ranges as unknown permissions"
		case $summary in
		*'"unknown_permissions_bytes":281474976710656,'*)
			ok 0 "$name: JSON counts 256 TiB of unknown permissions" ;;
		*) ok 1 "$name: JSON counts 256 TiB of unknown permissions"
		   echo "#   $summary" ;;
		esac ;;
	complete)
		is "$rc" 0 "$name: exit 0, walk complete"
		is "$err" "" "$name: nothing on stderr" ;;
	beyond)
		is "$rc" 0 "$name: exit 0"
		n=$(grep -c ' table-beyond-memory (outside): entry 0x7fff000023 at 0x' "$TMP/out")
		is "$n" 1 "$name: the entry past memory is reported, with its value" ;;
	esac
	bounded "$name"
done <"$H/MANIFEST"

# A sparse raw file of 64 GiB holding the same chain: the budget follows
# the bytes the file holds, not its size.
cp "$H/loop-back.raw" "$H/loop-back-sparse.raw"
if truncate -s 64G "$H/loop-back-sparse.raw" 2>/dev/null &&
   [ "$(du -k "$H/loop-back-sparse.raw" | cut -f1)" -lt 65536 ]; then
	dump loop-back-sparse.raw x86-64
	budget loop-back-sparse.raw loop-back-sparse.raw
	bounded loop-back-sparse.raw
	rm -f "$H/loop-back-sparse.raw"
else
	skip "no sparse files here"
fi

# A kdump whose bitmap claims 8 Mi pages of RAM, all but 4 filtered out:
# the scans step over a run of excluded pages at once (page by page it
# took 4.6 s; under a watchdog, which cost is checked as work, not time).
# Every page counted, exactly as many absent as info counts excluded.
run "$PGWALK" info "$H/loop-back-claims.kdump"
excluded=$(printf '%s\n' "$out" | sed -n 's/^pages: *ram 8388608, dumped 4, excluded \([0-9]*\)$/\1/p')
run timeout 60 "$PGW_TOOLS/pgw-roots" vmcoreinfo --max-pages=0x1000000 \
	"$H/loop-back-claims.kdump"
is "$rc:$(printf '%s\n' "$out" | sed -n 's/^scan pages=\([0-9]*\) scanned=\([0-9]*\) absent=\([0-9]*\) .* complete=\([a-z]*\) .*/\1 \2 \3 \4/p')" \
	"1:8388608 8388608 ${excluded:-?} yes" \
	"a kdump claiming 8 Mi pages, $excluded excluded: every page looked at, the excluded ones not in the image (none found: exit 1)"

# The budget is the user's to raise, and a small one is honoured.
run "$PGWALK" dump --image-format=raw --mode=x86-64 --cr3=0x1000 --max-entries=100 "$H/loop-back.raw"
is "$rc" 4 "--max-entries=100: exit 4"
case $err in *"entry budget of 100 exhausted"*) ok 0 "--max-entries=100: named in the message" ;;
*) ok 1 "--max-entries=100 message"; echo "#   got: $err" ;; esac
run "$PGWALK" dump --image-format=raw --mode=x86-64 --cr3=0x1000 --max-entries=0 "$H/loop-back.raw"
is "$rc" 64 "--max-entries=0 is a usage error"

done_testing
