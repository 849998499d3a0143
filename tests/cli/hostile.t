#!/bin/sh
# Hostile page tables through the CLI (tests/tools/mkhostile.c writes them;
# tests/unit/hostile_walk.c walks the same tables through the library):
# `pgwalk dump` ends on each with the right result and message, in under a
# second with its whole text output (no time limit under sanitizers or
# valgrind, only the timeout).  Tables shared so that they map one frame
# everywhere are reported at once ("same frame"); `dump --leaves`, which
# lists every leaf, is stopped by the entry budget instead.  Files that
# claim more memory than they hold (mkhostile.c) get no bigger budget.
. "$(dirname "$0")/lib.sh"

H=$TMP/hostile
"$PGW_TOOLS/mkhostile" "$H" || { echo "Bail out! mkhostile failed"; exit 1; }
T=${PGW_TIMEOUT:-30}
timed=1
[ -n "${PGW_SAN:-}" ] && timed=
[ -n "${PGW_VALGRIND:-}" ] && timed=

# dump NAME MODE [OPTION]: sets rc, err, secs; output in $TMP/out.
dump() {
	t0=$(date +%s.%N)
	_fmt=--format=raw
	case $1 in *.raw) ;; *) _fmt= ;; esac
	# shellcheck disable=SC2086  # no format option for ELF and kdump
	timeout "$T" "$PGWALK" dump $_fmt --mode="$2" --cr3=0x1000 ${3:-} \
		"$H/$1" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	t1=$(date +%s.%N)
	secs=$(awk "BEGIN { print $t1 - $t0 }")
	err=$(cat "$TMP/err")
}
timed() {
	if [ -n "$timed" ]; then
		ok "$(awk "BEGIN { print ($secs < 1) ? 0 : 1 }")" "$1: done in ${secs}s (under 1 s)"
	else
		skip "$1: timing under sanitizers/valgrind (${secs}s)"
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
		timed "$name"
		dump "$name" "$mode" --leaves
		budget "$name --leaves" "$name"
		timed "$name --leaves"
		continue ;;
	budget)
		budget "$name" "$name" ;;
	cycles)
		is "$rc" 0 "$name: exit 0"
		n=$(grep -c 'page-table cycle' "$TMP/out")
		ok "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "$name: cycles reported as holes ($n lines)"
		is "$err" "" "$name: nothing on stderr" ;;
	complete)
		is "$rc" 0 "$name: exit 0, walk complete"
		is "$err" "" "$name: nothing on stderr" ;;
	beyond)
		is "$rc" 0 "$name: exit 0"
		n=$(grep -c 'page table beyond the end of physical memory: entry 0x7fff000023' "$TMP/out")
		is "$n" 1 "$name: the entry past memory is reported, with its value" ;;
	esac
	timed "$name"
done <"$H/MANIFEST"

# A sparse raw file of 64 GiB holding the same chain: the budget follows
# the bytes the file holds, not its size.
cp "$H/loop-back.raw" "$H/loop-back-sparse.raw"
if truncate -s 64G "$H/loop-back-sparse.raw" 2>/dev/null &&
   [ "$(du -k "$H/loop-back-sparse.raw" | cut -f1)" -lt 65536 ]; then
	dump loop-back-sparse.raw x86-64
	budget loop-back-sparse.raw loop-back-sparse.raw
	timed loop-back-sparse.raw
	rm -f "$H/loop-back-sparse.raw"
else
	skip "no sparse files here"
fi

# The budget is the user's to raise, and a small one is honoured.
run "$PGWALK" dump --format=raw --mode=x86-64 --cr3=0x1000 --max-entries=100 "$H/loop-back.raw"
is "$rc" 4 "--max-entries=100: exit 4"
case $err in *"entry budget of 100 exhausted"*) ok 0 "--max-entries=100: named in the message" ;;
*) ok 1 "--max-entries=100 message"; echo "#   got: $err" ;; esac
run "$PGWALK" dump --format=raw --mode=x86-64 --cr3=0x1000 --max-entries=0 "$H/loop-back.raw"
is "$rc" 64 "--max-entries=0 is a usage error"

done_testing
