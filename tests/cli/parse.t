#!/bin/sh
# Addresses as translate reads them (src/cli/parse.c and the stdin reader):
# hex with or without 0x, decimal as 0d..., 64-bit limits, spaces; stdin
# with CRLF, blank and comment lines, no final newline, lines longer than
# the read buffer, and many blocks.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"

mkimg x "$SPECS/x86-64.spec"
img=$TMP/x.elf
# tsv_va ARGS...: the va column of translate --format=tsv ARGS.
tsv_va() { "$PGWALK" translate --format=tsv --cpu=0 "$img" "$@" 2>/dev/null | cut -f1 | tr '\n' ' '; }

for c in "0x400000=0x400000" "400000=0x400000" "0X40000A=0x40000a" \
	 "0xABCdef=0xabcdef" "0d4194304=0x400000" "0D10=0xa" \
	 "0d18446744073709551615=0xffffffffffffffff" \
	 "0xffffffffffffffff=0xffffffffffffffff" \
	 "0x00000000000000000000400000=0x400000" "0=0x0" "0x0=0x0"; do
	is "$(tsv_va "${c%%=*}")" "${c#*=} " "argument ${c%%=*} is ${c#*=}"
done
for a in 0x1ffffffffffffffff 0d18446744073709551616 0x 0d "" 12g 0d12a \
	 "0x 12" 0x-1 +5; do
	run "$PGWALK" translate --cpu=0 "$img" "$a"
	one_error "argument '$a' is not an address" 64
done

printf ' 0x400000 \r\n\t400001\t\n\n# a comment\n0d4194306\r\n-1\n0x400003' \
	>"$TMP/in"
run sh -c "'$PGWALK' translate --format=tsv --cpu=0 '$img' - <'$TMP/in'"
is "$(printf '%s\n' "$out" | cut -f1 | tr '\n' ' ')" \
	"0x400000 0x400001 0x400002 - 0x400003 " \
	"stdin: spaces, tabs, CRLF, blank and comment lines, no final newline"
is "$err" "pgwalk: stdin line 6: '-1' is not an address" \
	"stdin: a bad line is named with its line number"

# A line longer than the read buffer, between good lines.
{ echo 0x400000; head -c 100000 /dev/zero | tr '\0' '7'; echo
  echo 0x400001; } >"$TMP/in"
run sh -c "'$PGWALK' translate --format=tsv --cpu=0 '$img' - <'$TMP/in'"
is "$(printf '%s\n' "$out" | cut -f1 | tr '\n' ' ')" "0x400000 - 0x400001 " \
	"stdin: a 100000-character line is one bad line, and reading goes on"
like_err() { out=$err; like "$@"; }
like_err "^pgwalk: stdin line 2: '7{80}' is not an address\$" \
	"... reported once by its start, with its line number"

# Many blocks: stdin and arguments agree line for line.
awk 'BEGIN { for (i = 0; i < 30000; i++) printf "0x%x\n", 0x400000 + i * 4093 }' \
	>"$TMP/many"
"$PGWALK" translate --format=tsv --cpu=0 "$img" - <"$TMP/many" >"$TMP/a"
xargs "$PGWALK" translate --format=tsv --cpu=0 "$img" <"$TMP/many" \
	>"$TMP/b" 2>/dev/null
is "$(grep -c '' "$TMP/a")" 30000 "stdin: 30000 lines in, 30000 out"
cmp -s "$TMP/a" "$TMP/b"
ok $? "stdin across read blocks gives what arguments give"

done_testing
