#!/bin/sh
# Output shapes of translate: text, JSON Lines, TSV and CSV for one address
# of every kind, compared with golden files (tests/golden/formats.*), plus
# the documented field names checked on their own.  After a deliberate
# format change: PGW_UPDATE_GOLDEN=1 make check, and review the diff.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"

GOLDEN=${PGW_GOLDEN:-$REPO/tests/golden}
"$MKIMAGE" -e "$TMP/f.elf" "$SPECS/formats.spec"
# 1 GiB, 2 MiB and 4 KiB leaves, PROT_NONE, swap, non-canonical, reserved
# bits, a frame and a table outside the image, nothing, a bad input line.
printf '%s\n' 0xffff888000001000 0xffffffff81234567 0x400123 0x401000 \
	0x402000 0x800000000000 0x8000000000 0x500000 0x7f0000000000 0x0 \
	zzz >"$TMP/addrs"

for f in text json tsv csv; do
	ext=$f
	[ "$f" = text ] && ext=txt
	(cd "$TMP" && "$PGWALK" translate --format="$f" f.elf - <addrs \
		>"out.$ext" 2>"err.$ext")
	rc=$?
	is "$rc" 1 "$f: exit 1 (some addresses did not translate)"
	is "$(cat "$TMP/err.$ext")" "pgwalk: stdin line 11: 'zzz' is not an address" \
		"$f: the bad line is reported once on stderr"
	if updating_golden; then
		cp "$TMP/out.$ext" "$GOLDEN/formats.$ext"
		echo "# rewrote $GOLDEN/formats.$ext"
	fi
	if cmp -s "$TMP/out.$ext" "$GOLDEN/formats.$ext"; then
		ok 0 "$f output equals tests/golden/formats.$ext"
	else
		ok 1 "$f output equals tests/golden/formats.$ext"
		diff "$GOLDEN/formats.$ext" "$TMP/out.$ext" | head -10 |
			sed 's/^/#   /'
	fi
done

# The documented shapes, independent of the golden files.
out=$(sed -n 1p "$TMP/out.json")
hex='"0x[0-9a-f]+"'
like "^\\{\"va\":$hex,\"pa\":$hex,\"size\":[0-9]+,\"level\":\"(pgd|p4d|pud|pmd|pte)\",\"flags\":\\[(\"[a-z]+\",?)+\\],\"effective\":\\[[a-z\",]*\\],\"in_image\":(true|false),\"levels\":\\[\\{\"level\":\"pgd\",\"table\":$hex,\"index\":[0-9]+,\"entry_pa\":$hex,\"entry\":$hex," \
	"JSON mapped: va, pa, size, level, flags, effective, in_image, levels[level, table, index, entry_pa, entry]"
out=$(sed -n 4p "$TMP/out.json")
like "^\\{\"va\":$hex,\"pa\":null,\"error\":\"[a-z -]+\",\"level\":\"pte\",\"levels\":\\[" \
	"JSON unmapped: pa null, error, level where it stopped, levels"
out=$(sed -n 11p "$TMP/out.json")
is "$out" '{"input":"zzz","va":null,"pa":null,"error":"not an address"}' \
	"JSON: a line that is not an address"
if command -v jq >/dev/null 2>&1; then
	jq -e . "$TMP/out.json" >/dev/null 2>&1
	ok $? "every JSON line parses (jq)"
else
	skip "jq not installed: JSON syntax not checked"
fi
out=$(awk -F '\t' 'NF != 4 { print NR": "$0 }' "$TMP/out.tsv")
is "$out" "" "TSV: four tab-separated columns on every line"
out=$(grep -v '^0x[0-9a-f]*	\(0x[0-9a-f]*	[0-9]*	[a-z,]*\|-	-	-\)$' "$TMP/out.tsv")
is "$out" "-	-	-	-" "TSV: va, pa, size, flags; '-' for unmapped (and bad input)"
is "$(sed -n 1p "$TMP/out.csv")" "va,pa,size,level,flags,in_image,error" \
	"CSV header"
out=$(awk -F, 'NF != 7 { print NR": "$0 }' "$TMP/out.csv")
is "$out" "" "CSV: seven fields on every line"
out=$(grep -c '^VIRTUAL 0x' "$TMP/out.txt")
is "$out" 10 "text: one VIRTUAL block per address"

done_testing
