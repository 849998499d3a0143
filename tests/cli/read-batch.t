#!/bin/sh
# pgwalk read IMAGE -: many ADDR LEN requests on stdin, the image's
# set-up paid once.  The oracle is read itself, one request a command:
# the batch's stdout (text, JSON, CSV, raw, --phys) is exactly what the
# single reads print one after another (CSV: their header once), its
# stderr their stop lines, its exit status the worst of theirs; lines
# that are not ADDR LEN are said and counted as no answer while the rest
# are answered; a LEN after - is a usage error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 14

"$MKIMAGE" -e "$TMP/x.elf" "$SPECS/read-x86-64.spec" ||
	bail "pgw-mkimage read-x86-64 failed"
X=$TMP/x.elf

# Across 4 KiB pages, a 2 MiB page's end, a stop past RAM (exit 2), a
# not-present page (exit 1), and LEN in hex.
cat >"$TMP/req" <<'REQ'
# comment, then a blank line

0x400ff8 14
  0x401ffff8	16
0xffff888003fffff8 16
0x402000 16
0x400ff8 0x5
REQ
# singles FMT-ARGS...: the requests read one command each, their stdout
# and stderr appended, the worst exit status in $worst.
singles() {
	: >"$TMP/s.out"
	: >"$TMP/s.err"
	worst=0
	grep -v '^#' "$TMP/req" | grep -v '^$' | while read -r a l; do
		"$PGWALK" read "$@" "$X" "$a" "$l" >>"$TMP/s.out" 2>>"$TMP/s.err"
		echo $?
	done >"$TMP/s.rc"
	worst=$(sort -n "$TMP/s.rc" | tail -1)
}
batch() {
	"$PGWALK" read "$@" "$X" - <"$TMP/req" >"$TMP/b.out" 2>"$TMP/b.err"
	rc=$?
}

for f in text json; do
	singles --format=$f
	batch --format=$f
	cmp -s "$TMP/s.out" "$TMP/b.out" && cmp -s "$TMP/s.err" "$TMP/b.err" &&
		[ "$(grep -c 'read stopped after' "$TMP/b.err")" = 2 ] &&
		[ "$(grep -c '' "$TMP/b.out")" -ge 5 ]
	ok $? "$f: the batch prints what the 5 reads print, stdout and stderr (the 2 stop lines)"
	is "$rc:$worst:$(sort -n "$TMP/s.rc" | tr '\n' ' ')" "2:2:0 0 0 1 2 " \
		"... exit 2, the worst of the reads'"
done
singles --format=csv
batch --format=csv
awk 'NR == 1 || !/^type,/' "$TMP/s.out" | cmp -s - "$TMP/b.out"
ok $? "csv: the reads' rows, their header once"
singles --raw --skip-unreadable
batch --raw --skip-unreadable
cmp -s "$TMP/s.out" "$TMP/b.out"
ok $? "--raw --skip-unreadable: the same bytes ($(wc -c <"$TMP/b.out" | tr -d ' '))"
printf 'CROSS-4K-PAGES2M-ENDS\0004K-NEXT\000\0\0\0\0\0\0\0\0CROSS' |
	cmp -s - "$TMP/b.out"
ok $? "... the spec's strings in order, nothing for what was skipped"

printf '0x3000ff8 14\n0x1003ffff8 7\n' >"$TMP/req"
singles --phys
batch --phys
cmp -s "$TMP/s.out" "$TMP/b.out" && [ "$rc" = "$worst" ]
ok $? "--phys: the same hexdumps, exit $rc"

# Lines that are not ADDR LEN: said, exit 1, the good ones answered.
printf '0x400ff8\nzz 4\n0x400ff8 4 5\n0x400ff8 0\n0x400ff8 14\n' >"$TMP/req"
batch --raw
is "$rc:$(cat "$TMP/b.out")" "1:CROSS-4K-PAGES" \
	"bad lines: exit 1, the good line still read"
is "$(grep -c "is not ADDR LEN (an address and a length)$" "$TMP/b.err")" 4 \
	"... each of the 4 bad lines said on stderr"
grep -q "^pgwalk: stdin line 2: 'zz 4' is not ADDR LEN" "$TMP/b.err"
ok $? "... by its line number and text"

# Set-up once: -v says what it chose once for the whole batch.
printf '0x400ff8 14\n0x400ff8 14\n0x400ff8 14\n' >"$TMP/req"
"$PGWALK" read -v --raw "$X" 0x400ff8 14 2>"$TMP/one.err" >/dev/null
batch -v --raw
is "$(cat "$TMP/b.out")" "CROSS-4K-PAGESCROSS-4K-PAGESCROSS-4K-PAGES" \
	"-v: three requests answered"
cmp -s "$TMP/one.err" "$TMP/b.err"
ok $? "... and the set-up said once, as for one read ($(grep -c '' "$TMP/b.err") lines)"

run "$PGWALK" read "$X" - 14
is "$rc" 64 "a LEN after -: usage error"
