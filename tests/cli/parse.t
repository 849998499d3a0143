#!/bin/sh
# Addresses as translate reads them (src/cli/parse.c and the stdin reader):
# 0x hex, 0d decimal, a single digit, bare hex only with --hex (so "bad1"
# is never 0xbad1; under --hex "0d000000", as QEMU prints it, is hex),
# 64-bit limits, spaces; stdin with CRLF, blank and comment lines, no
# final newline, lines longer than the read buffer, a NUL inside a line,
# many blocks, a closed stdin.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 59

mkimg x "$SPECS/x86-64.spec"
img=$TMP/x.elf
# tsv_va ARGS...: the va column of translate --format=tsv ARGS (no header).
tsv_va() { "$PGWALK" translate --format=tsv --cpu=0 "$img" "$@" 2>/dev/null | sed 1d | cut -f1 | tr '\n' ' '; }

for c in "0x400000=0x400000" "0X40000A=0x40000a" \
	 "0xABCdef=0xabcdef" "0d4194304=0x400000" "0D10=0xa" \
	 "0d18446744073709551615=0xffffffffffffffff" \
	 "0xffffffffffffffff=0xffffffffffffffff" \
	 "0x00000000000000000000400000=0x400000" "0=0x0" "7=0x7" "0x0=0x0" \
	 " 0x400000 =0x400000"; do
	is "$(tsv_va "${c%%=*}")" "${c#*=} " "argument '${c%%=*}' is ${c#*=}"
done
for a in 0x1ffffffffffffffff 0d18446744073709551616 0x 0d "" 12g 0d12a \
	 "0x 12" 0x-1 +5 400000 bad1 10 ffffffff81000000; do
	run "$PGWALK" translate --cpu=0 "$img" "$a"
	one_error "argument '$a' is not an address" 64
done
case $err in
*"bare hex with --hex"*) ok 0 "... and the message names --hex" ;;
*) ok 1 "... and the message names --hex"; echo "#   $err" ;;
esac
for c in "400000=0x400000" "bad1=0xbad1" "0x10=0x10" "0d10=0xd10" \
	 "0d000000=0xd000000" "0D0=0xd0" \
	 "ffffffff81000000=0xffffffff81000000"; do
	is "$(tsv_va --hex "${c%%=*}")" "${c#*=} " \
		"--hex: argument '${c%%=*}' is ${c#*=}"
done
run "$PGWALK" translate --hex --cr3=100000 --format=tsv "$img" 400000
is "$(printf '%s\n' "$out" | sed 1d | cut -f1,2)" "$(printf '0x400000\t0x3100000')" \
	"--hex applies to option values too (--cr3=100000)"
run "$PGWALK" translate --cr3=100000 "$img" 0x400000
one_error "--cr3=100000 without --hex is not an address" 64

printf ' 0x400000 \r\n\t0x400001\t\n\n# a comment\n0d4194306\r\n-1\n400004\n0x400003' \
	>"$TMP/in"
run sh -c "'$PGWALK' translate --format=tsv --cpu=0 '$img' - <'$TMP/in'"
is "$(printf '%s\n' "$out" | sed 1d | cut -f1 | tr '\n' ' ')" \
	"0x400000 0x400001 0x400002 - - 0x400003 " \
	"stdin: spaces, tabs, CRLF, blank and comment lines, no final newline"
is "$(printf '%s\n' "$out" | sed 1d | awk -F'\t' '$1 == "-" { print $8, $10 }' | tr '\n' ' ')" \
	"not-an-address -1 not-an-address 400004 " \
	"stdin: a bad line is a record of its own, reason and input kept"
is "$err" "$(printf "pgwalk: stdin line 6: '-1' is not an address\npgwalk: stdin line 7: '400004' is not an address")" \
	"stdin: a bad line is named with its line number"
is "$rc" 1 "stdin: bad lines make exit status 1"
run sh -c "'$PGWALK' translate --hex --format=tsv --cpu=0 '$img' - <'$TMP/in'"
is "$(printf '%s\n' "$out" | sed 1d | cut -f1 | tr '\n' ' ')" \
	"0x400000 0x400001 0xd4194306 - 0x400004 0x400003 " \
	"stdin with --hex: the bare word is an address, 0d... hex too"

# Usual lines are answered in runs (lines.c): a bad line after more than
# two runs' worth, and good ones after it, all in order.
{ i=0; while [ $i -lt 130 ]; do printf '0x%x\n' $((0x400000 + i)); i=$((i + 1)); done
  echo nope; echo 0x400000; echo 0x400001; echo 0x400002; } >"$TMP/in"
run sh -c "'$PGWALK' translate --format=tsv --cpu=0 '$img' - <'$TMP/in'"
{ i=0; while [ $i -lt 130 ]; do printf '0x%x\n' $((0x400000 + i)); i=$((i + 1)); done
  echo -; echo 0x400000; echo 0x400001; echo 0x400002; } >"$TMP/want"
is "$(printf '%s\n' "$out" | sed 1d | cut -f1)" "$(cat "$TMP/want")" \
	"stdin: 130 usual lines, a bad one, three more: every record, in order"
is "$err" "pgwalk: stdin line 131: 'nope' is not an address" \
	"... the bad line is named by its number after the runs"

# A line longer than the read buffer, between good lines.
{ echo 0x400000; head -c 100000 /dev/zero | tr '\0' '7'; echo
  echo 0x400001; } >"$TMP/in"
run sh -c "'$PGWALK' translate --format=tsv --cpu=0 '$img' - <'$TMP/in'"
is "$(printf '%s\n' "$out" | sed 1d | cut -f1 | tr '\n' ' ')" "0x400000 - 0x400001 " \
	"stdin: a 100000-character line is one bad line, and reading goes on"
like_err() { out=$err; like "$@"; }
like_err "^pgwalk: stdin line 2: '7{80}' is not an address\$" \
	"... reported once by its start, with its line number"

# A NUL inside a line: not ignored, the line is not an address.
printf '0x400000\n0x400001\0garbage\n0x400002\n' >"$TMP/in"
run sh -c "'$PGWALK' translate --format=json --cpu=0 '$img' - <'$TMP/in'"
is "$rc" 1 "stdin: a NUL inside a line: exit 1"
is "$(printf '%s\n' "$out" | sed -n 2p)" \
	'{"type":"translation","va":null,"pa":null,"input":"0x400001\u0000garbage","reason":"not-an-address"}' \
	"... that line is not an address, echoed with the NUL escaped"
is "$err" "pgwalk: stdin line 2: '0x400001\\x00garbage' is not an address (a NUL byte inside the line)" \
	"... and said so on stderr"
is "$(printf '%s\n' "$out" | grep -c '"va":"0x40000[02]"')" 2 \
	"... the lines around it are answered"

# A closed stdin: the image (opened next, fd 0) is never read as addresses.
run sh -c "exec <&-; '$PGWALK' translate --format=tsv --cpu=0 '$img' -"
is "$rc" 66 "closed stdin: exit 66"
is "$err" "pgwalk: cannot read standard input: Bad file descriptor" \
	"... says it cannot read standard input"
is "$out" "" "... and prints nothing"
run sh -c "exec <&-; '$PGWALK' translate --format=tsv --cpu=0 '$img' 0x400000"
is "$rc" 0 "closed stdin, addresses as arguments: not needed, not an error"

# Many blocks: stdin and arguments agree line for line.
awk 'BEGIN { for (i = 0; i < 30000; i++) printf "0x%x\n", 0x400000 + i * 4093 }' \
	>"$TMP/many"
"$PGWALK" translate --format=tsv --cpu=0 "$img" - <"$TMP/many" >"$TMP/a"
xargs "$PGWALK" translate --format=tsv --cpu=0 "$img" <"$TMP/many" \
	>"$TMP/b" 2>/dev/null
is "$(grep -c '' "$TMP/a")" 30001 "stdin: 30000 lines in, a header and 30000 out"
# xargs may run pgwalk more than once: each run prints its header row.
grep -v '^va	' "$TMP/a" >"$TMP/a.rows"
grep -v '^va	' "$TMP/b" >"$TMP/b.rows"
cmp -s "$TMP/a.rows" "$TMP/b.rows"
ok $? "stdin across read blocks gives what arguments give"

# Stdin's 0x lines are read eight digits at a time (parse.c): every length
# from 1 to 16 digits, both cases, and now and then a byte just outside a
# digit range ('/' ':' '@' 'G' '`' 'g'), a space or a byte above 0x7f.
# The answer for each line is worked out here as text: the digits,
# lower-cased, leading zeros dropped; blanks at the end are allowed (as
# everywhere), and a line with any other byte is not an address.
LC_ALL=C awk 'BEGIN {
	srand(15); hex = "0123456789abcdefABCDEF"; odd = "/:@G`g \200"
	for (i = 0; i < 20000; i++) {
		n = 1 + int(rand() * 16); s = rand() < 0.5 ? "0x" : "0X"
		for (k = 0; k < n; k++)
			s = s (rand() < 0.03 ? substr(odd, 1 + int(rand() * 8), 1) \
					     : substr(hex, 1 + int(rand() * 22), 1))
		print s
	}
}' >"$TMP/mixed"
LC_ALL=C awk '{
	d = substr($0, 3); sub(/ +$/, "", d)
	if (d !~ /^[0-9a-fA-F]+$/) { print "-"; next }
	d = tolower(d); sub(/^0+/, "", d); print "0x" (d == "" ? "0" : d)
}' "$TMP/mixed" >"$TMP/want"
"$PGWALK" translate --format=tsv --cpu=0 "$img" - <"$TMP/mixed" 2>/dev/null |
	sed 1d | cut -f1 >"$TMP/got"
is "$(grep -c '^-$' "$TMP/want") $(grep -c '' "$TMP/got")" \
	"$(grep -c '^-$' "$TMP/got") 20000" \
	"20000 mixed lines: a record each, the same ones not addresses"
cmp -s "$TMP/want" "$TMP/got"
ok $? "... and every address read as the text says"
# The usual lines (0x, digits, newline) are parsed by the reader itself
# (lines.c, hexdigits.h: hex0x_body), the others by the general parser;
# the same lines with CRLF endings all go the general way, and the
# answers agree.
sed 's/$/\r/' "$TMP/mixed" >"$TMP/mixed.crlf"
"$PGWALK" translate --format=tsv --cpu=0 "$img" - <"$TMP/mixed.crlf" \
	2>/dev/null | sed 1d | cut -f1 >"$TMP/got.crlf"
cmp -s "$TMP/want" "$TMP/got.crlf"
ok $? "... and read the same with CRLF endings (the general parser)"
# A line cut by the end of input: without its newline it is no usual
# line, whatever follows in the reader's buffer.  Here 10-byte lines fill
# the first 64 KiB block, and the last line, two digits and the newline
# short, ends where the first block still holds "00\n" of an older line.
{ awk 'BEGIN { for (i = 0; i < 7000; i++) print "0x4000000" }'
  printf '0x40000'; } >"$TMP/cut"
"$PGWALK" translate --format=tsv --cpu=0 "$img" - <"$TMP/cut" 2>/dev/null |
	sed 1d | cut -f1 | uniq -c | tr -s ' ' >"$TMP/cut.va"
is "$(tr '\n' ' ' <"$TMP/cut.va")" " 7000 0x4000000  1 0x40000 " \
	"a last line without a newline is read as it is (not with the bytes after it)"

done_testing
