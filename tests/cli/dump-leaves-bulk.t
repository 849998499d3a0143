#!/bin/sh
# dump --leaves prints a stretch of leaves that follow one another frame
# after frame by copying the first's record with each leaf's numbers put
# in (src/cli/stencil.c).  Here every way that copy could go wrong, on one
# i386 image built by pgw-mkimage: a JSON pa growing from 5 to 6 digits
# inside a stretch, a stretch whose frames run past the end of RAM half
# way (bytes_not_in_image changes inside it), one wholly past it, whose
# last page ends at 2^32 (9 digits where text pads to 8), and a region
# boundary inside that stretch.  Every record is checked against
# arithmetic on the spec, not against pgwalk: va and end from
# pgw-mkimage's own list of the leaves it built, pa = the mapping's PA +
# (va - its VA), not in the image iff pa >= 2 MiB.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
plan 8

cat >"$TMP/spec" <<'SPEC'
mode i386
ram 0 2M
root 0x80000
alloc 0x90000
map 0x400000 0xf8000 64K rw
map 0x800000 0x1f8000 64K rw
map 0xffc00000 0x300000 4M rw
SPEC
"$PGW_TOOLS/pgw-mkimage" -r "$TMP/i.raw" -L "$TMP/leaves" "$TMP/spec" ||
	bail "pgw-mkimage failed"
dump() { "$PGWALK" dump --image-format=raw --mode=i386 --cr3=0x80000 \
	--leaves "$@" "$TMP/i.raw"; }
nleaves=$(wc -l <"$TMP/leaves")

# check: lines "va end pa absent" on stdin against the spec; prints the
# number of records and the first that is wrong.
check() {
	awk -v leaves="$TMP/leaves" '
	function num(s,  v, i) {   # hex with 0x (exact below 2^53)
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { while ((getline l < leaves) > 0) { split(l, f, "\t"); want[n++] = num(f[1]) } }
	{
		va = num($1); end = num($2); pa = num($3); absent = $4 + 0
		if (va < 8388608) wpa = num("0xf8000") + va - num("0x400000")
		else if (va < 4290772992) wpa = num("0x1f8000") + va - num("0x800000")
		else wpa = num("0x300000") + va - num("0xffc00000")
		wabs = wpa >= num("0x200000") ? 4096 : 0
		if (va != want[seen + 0] || end != va + 4096 || pa != wpa ||
		    absent != wabs) { if (!bad) bad = $0 }
		seen++
	}
	END { print seen, (bad ? bad : "-") }'
}

run dump --format=json
[ "$rc" = 0 ] || echo "# exit $rc: $err"
printf '%s\n' "$out" | grep '"type":"map"' |
	sed 's/.*"va":"\([^"]*\)","end":"\([^"]*\)".*"pa":"\([^"]*\)".*"bytes_not_in_image":\([0-9]*\).*/\1 \2 \3 \4/' |
	check >"$TMP/res"
read -r n bad <"$TMP/res"
is "$n" "$nleaves" "json: a map record per leaf ($n)"
is "$bad" "-" "json: every va, end, pa and bytes_not_in_image as the spec says"
like '"pa":"0xff000","page_size"' \
	"json: a pa of 5 hex digits is there ..."
like '"pa":"0x100000","page_size"' "... and the next, of 6, too"

run dump --format=tsv
printf '%s\n' "$out" | awk -F'\t' '$1 == "map" { print $2, $3, $5, $12 }' |
	check >"$TMP/res"
read -r n bad <"$TMP/res"
is "$n $bad" "$nleaves -" "tsv: every record as the spec says"

run dump
printf '%s\n' "$out" | awk '/^0x/ && $3 != "hole" {
	split($1, s, "-"); print s[1], s[2], $3, (/not in image: 4K/ ? 4096 : 0) }' |
	check >"$TMP/res"
read -r n bad <"$TMP/res"
is "$n $bad" "$nleaves -" "text: every line as the spec says"
like '^0xfffff000-0x100000000 +4K 0x00006ff000 .*not in image: 4K$' \
	"text: the last page's end spelled with its 9 digits"
# The region boundary at 0xfffff000 falls inside the stretch of the top
# table: the marker comes just before the last leaf.
printf '%s\n' "$out" | grep -B1 '^0xfffff000-' | head -1 | grep -q '^---\[ unused \]---$'
ok $? "text: a region that begins inside a stretch is announced before its first leaf"
done_testing
