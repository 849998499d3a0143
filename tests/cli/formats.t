#!/bin/sh
# Output shapes of translate: text, JSON Lines, TSV and CSV for one address
# of every kind, compact and with --levels, compared with golden files
# (tests/golden/formats*), plus the documented field names checked on
# their own (docs/output.md).  After a deliberate format change:
# PGW_UPDATE_GOLDEN=1 make check, and review the diff.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 48

golden_dir
"$MKIMAGE" -e "$TMP/f.elf" "$SPECS/formats.spec"
# 1 GiB, 2 MiB and 4 KiB leaves, PROT_NONE, swap, non-canonical, reserved
# bits, a frame and a table outside the image, nothing, a bad input line.
printf '%s\n' 0xffff888000001000 0xffffffff81234567 0x400123 0x401000 \
	0x402000 0x800000000000 0x8000000000 0x500000 0x7f0000000000 0x0 \
	zzz 'a,"b' >"$TMP/addrs"

for run in text:txt json:json tsv:tsv csv:csv text:levels.txt \
	   json:levels.json csv:levels.csv; do
	f=${run%%:*} ext=${run#*:}
	case $ext in levels.*) lv=--levels ;; *) lv= ;; esac
	# shellcheck disable=SC2086  # $lv: no option or one
	(cd "$TMP" && "$PGWALK" translate --format="$f" $lv f.elf - <addrs \
		>"out.$ext" 2>"err.$ext")
	rc=$?
	is "$rc" 1 "$f $lv: exit 1 (some addresses did not translate)"
	is "$(cat "$TMP/err.$ext")" "$(printf "%s\n%s" \
		"pgwalk: stdin line 11: 'zzz' is not an address" \
		"pgwalk: stdin line 12: 'a,\"b' is not an address")" \
		"$f $lv: the bad lines are reported once each on stderr"
	if updating_golden; then
		cp "$TMP/out.$ext" "$GOLDEN/formats.$ext"
		echo "# rewrote $GOLDEN/formats.$ext"
	fi
	if cmp -s "$TMP/out.$ext" "$GOLDEN/formats.$ext"; then
		ok 0 "$f $lv output equals tests/golden/formats.$ext"
	else
		ok 1 "$f $lv output equals tests/golden/formats.$ext"
		diff "$GOLDEN/formats.$ext" "$TMP/out.$ext" | head -10 |
			sed 's/^/#   /'
	fi
done

# The documented shapes, independent of the golden files.
hex='"0x[0-9a-f]+"'
out=$(sed -n 1p "$TMP/out.json")
like "^\\{\"type\":\"translation\",\"va\":$hex,\"pa\":$hex,\"page_size\":[0-9]+,\"level\":\"(pgd|p4d|pud|pmd|pte)\",\"flags\":\\[(\"[a-z]+\",?)+\\],\"effective\":\\[[a-z\",]*\\],\"in_image\":(true|false)\\}$" \
	"JSON mapped, compact: type, va, pa, page_size, level, flags, effective, in_image"
out=$(sed -n 1p "$TMP/out.levels.json")
like "^\\{\"type\":\"translation\",\"va\":$hex,.*,\"in_image\":true,\"levels\":\\[\\{\"level\":\"pgd\",\"table\":$hex,\"index\":[0-9]+,\"entry_pa\":$hex,\"entry\":$hex," \
	"JSON --levels: levels[level, table, index, entry_pa, entry]"
out=$(sed -n 4p "$TMP/out.json")
like "^\\{\"type\":\"translation\",\"va\":$hex,\"pa\":null,\"level\":\"pte\",\"reason\":\"not-present\",\"non_present\":\\{\"kind\":\"protnone\",\"pa\":$hex\\}\\}$" \
	"JSON unmapped: pa null, level where it stopped, reason, non_present"
out=$(sed -n 9p "$TMP/out.json")
like "\"reason\":\"table-beyond-memory\",\"absence\":\"outside\"\\}$" \
	"JSON: a table past memory, with its absence"
out=$(sed -n 11p "$TMP/out.json")
is "$out" '{"type":"translation","va":null,"pa":null,"input":"zzz","reason":"not-an-address"}' \
	"JSON: a line that is not an address"
out=$(sed -n 12p "$TMP/out.json")
is "$out" '{"type":"translation","va":null,"pa":null,"input":"a,\"b","reason":"not-an-address"}' \
	"JSON: the bad line echoed, JSON-escaped"
if command -v jq >/dev/null 2>&1; then
	jq -e . "$TMP/out.json" "$TMP/out.levels.json" >/dev/null 2>&1
	ok $? "every JSON line parses (jq)"
else
	skip "jq not installed: JSON syntax not checked"
fi
out=$(sed -n 3p "$TMP/out.json")
like ',"effective":\["rw","user"\],"pkey":3,"in_image":true\}$' \
	"JSON: a leaf's protection key after effective, only when not 0"
cols=va,pa,page_size,level,flags,effective,in_image,reason,absence,input,pkey
is "$(sed -n 1p "$TMP/out.csv")" "$cols" "CSV header"
is "$(sed -n 1p "$TMP/out.tsv")" "$(printf '%s' "$cols" | tr , '\t')" \
	"TSV header: the same columns"
is "$(sed -n 1p "$TMP/out.levels.csv")" "$cols,levels" \
	"CSV --levels: a levels column"
out=$(awk -F '\t' 'NF != 11 { print NR": "$0 }' "$TMP/out.tsv")
is "$out" "" "TSV: eleven tab-separated columns on every line"
out=$(sed 1d "$TMP/out.tsv" | grep -v '^0x[0-9a-f]*	\(0x[0-9a-f]*	[0-9]*	[a-z]*	[a-z|]*	[a-z|-]*	\(true	-	-\|false	-	[a-z-]*\)	-	\([1-9][0-9]*\|-\)\|-	-	[a-z]*	-	-	-	[a-z-]*	[a-z-]*	-	-\)$')
is "$out" "$(printf '%s\n%s' "-	-	-	-	-	-	-	not-an-address	-	zzz	-" \
	"-	-	-	-	-	-	-	not-an-address	-	a,\"b	-")" \
	"TSV: every row as documented, '-' for an empty cell; bad input kept"
out=$(sed 's/"[^"]*"//g' "$TMP/out.csv" | awk -F, 'NF != 11 { print NR": "$0 }')
is "$out" "" "CSV: eleven fields on every line (quoted fields counted once)"
is "$(sed -n 13p "$TMP/out.csv")" ',,,,,,,not-an-address,,"a,""b",' \
	"CSV: a bad line with a comma and a quote, quoted as RFC 4180 says"
is "$(grep -c '|' "$TMP/out.csv")" "$(grep -c '|' "$TMP/out.tsv")" \
	"CSV and TSV join flags with '|' alike"
out=$(grep -c '^0x[0-9a-f]* -> ' "$TMP/out.txt")
is "$out" 10 "text, a batch: one line per address"
is "$(grep -c '' "$TMP/out.txt")" 12 "... and one per bad line: nothing else"
out=$(grep -c '^VIRTUAL 0x' "$TMP/out.levels.txt")
is "$out" 10 "text --levels: one VIRTUAL block per address"
run "$PGWALK" translate "$TMP/f.elf" 0x400123
like '^VIRTUAL 0x400123 -> PHYSICAL 0x200123 \(4K page at pte\)$' \
	"text, a single ADDR: the whole walk"
run "$PGWALK" translate -v --format=json "$TMP/f.elf" 0x400123
is "$(printf '%s\n' "$out" | grep -c '^{"type":"translation"')" 1 \
	"-v: stdout holds the record only"
like_err() { out=$err; like "$@"; }
like_err '^pgwalk: mode x86-64 \(' "-v: the mode and why on stderr"
like_err '^pgwalk: root 0x1000 \(' "-v: the root and why on stderr"

# A few addresses as arguments are walked from the root, a batch (stdin,
# or more than 64 arguments) through the table cache: the records agree.
head -10 "$TMP/addrs" >"$TMP/ten"
for f in "tsv" "json --levels"; do
	# shellcheck disable=SC2046,SC2086  # the addresses, the options
	a=$("$PGWALK" translate --format=$f "$TMP/f.elf" $(cat "$TMP/ten"))
	# shellcheck disable=SC2086
	b=$("$PGWALK" translate --format=$f "$TMP/f.elf" - <"$TMP/ten")
	is "$a" "$b" "$f: ten addresses as arguments answered as on stdin"
	for i in 1 2 3 4 5 6 7; do cat "$TMP/ten"; done >"$TMP/seventy"
	# shellcheck disable=SC2046,SC2086
	a=$("$PGWALK" translate --format=$f "$TMP/f.elf" $(cat "$TMP/seventy"))
	# shellcheck disable=SC2086
	b=$("$PGWALK" translate --format=$f "$TMP/f.elf" - <"$TMP/seventy")
	is "$a" "$b" "$f: seventy as arguments (a cache) as on stdin"
done

done_testing
