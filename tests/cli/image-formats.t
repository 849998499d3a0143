#!/bin/sh
# Every image format written from one synthetic memory (tests/tools/
# pgw-mkdump): kdump with each codec and both header layouts, filtered and
# flattened, LiME and AVML.  Translations must equal the raw image's, every
# page must read the same, and `info` must show the format's facts.
. "$(dirname "$0")/lib.sh"
plan 50
MK=$PGW_TOOLS/pgw-mkdump
CMP=$PGW_TOOLS/pgw-cmp-images

# JSON lines without in_image: a filtered data page legitimately differs.
norm() { sed -E 's/,"in_image":(true|false)(,"absence":"[a-z-]*")?//'; }
xl() { "$PGWALK" translate --cr3="$cr3" --mode=x86-64 --format=json "$@" - <"$TMP/vas" | norm; }

run "$MK" raw "$TMP/mem.raw" --holes --vas="$TMP/vas"
is "$rc" 0 "synthetic memory written"
eval "$out"   # cr3= filtered_table_va= npages=
ref=$(xl --image-format=raw "$TMP/mem.raw")
[ "$(printf '%s\n' "$ref" | grep -c '"pa":"0x')" -gt 80 ]
ok $? "raw: over 80 addresses map"

# same IMAGE NAME: translations and every page as in the raw image.
same() {
	is "$(xl "$1" | md5sum)" "$(printf '%s\n' "$ref" | md5sum)" "$2: translations equal raw"
	run "$CMP" "raw:$TMP/mem.raw" "$1"
	is "$rc" 0 "$2: pages equal raw ($out)"
}

for codec in none zlib lzo snappy zstd; do
	for layout in 64 32; do
		run "$MK" kdump --holes --codec=$codec --layout=$layout "$TMP/k"
		if [ "$rc" = 77 ]; then skip "no $codec in this build"; continue; fi
		same "$TMP/k" "kdump $codec/$layout"
		run "$PGWALK" info --cr3="$cr3" "$TMP/k"
		case "$out" in *"compression: $codec"*"${layout}-bit layout"*|*"${layout}-bit layout"*"compression: $codec"*) ok 0 "kdump $codec/$layout: info facts" ;; *) ok 1 "kdump $codec/$layout: info facts"; echo "$out" | sed 's/^/#   /' ;; esac
	done
done

"$MK" kdump --holes --share-zero --flat=10000 --flat-reverse --flat-overlap "$TMP/kf" >/dev/null
same "$TMP/kf" "kdump flattened (backwards, overwritten records)"
run "$PGWALK" info --cr3="$cr3" "$TMP/kf"
case "$out" in *"flattened_records: "*) ok 0 "flattened: info counts records" ;; *) ok 1 "flattened: info counts records" ;; esac

"$MK" lime --holes "$TMP/l" >/dev/null
same "$TMP/l" "lime"
run "$PGWALK" info --cr3="$cr3" "$TMP/l"
case "$out" in *"lime_ranges: 2"*) ok 0 "lime: info counts ranges" ;; *) ok 1 "lime: info counts ranges" ;; esac

run "$MK" avml --holes --avml-block=1048576 "$TMP/a"
if [ "$rc" = 0 ]; then
	same "$TMP/a" "avml"
	run "$PGWALK" info --cr3="$cr3" "$TMP/a"
	case "$out" in *"avml_ranges: 17 (17 snappy-compressed)"*) ok 0 "avml: info counts ranges" ;; *) ok 1 "avml: info counts ranges"; echo "$out" | sed 's/^/#   /' ;; esac
elif [ "$rc" = 77 ]; then
	skip "no snappy in this build"
else
	ok 1 "pgw-mkdump avml (exit $rc: $err)"
fi

# Filtered: the table behind filtered_table_va (it maps 0x7f0000000000
# and the next pages) is left out, everything else translates as in the
# raw image.
"$MK" kdump --holes --filter --exclude-zero --codec=zlib "$TMP/kd" >/dev/null
got=$(xl "$TMP/kd" | grep -v '"va":"0x7f00000')
want=$(printf '%s\n' "$ref" | grep -v '"va":"0x7f00000')
is "$(printf '%s\n' "$got" | md5sum)" "$(printf '%s\n' "$want" | md5sum)" "filtered kdump: other translations equal raw"
run "$PGWALK" translate --cr3="$cr3" --mode=x86-64 --format=json "$TMP/kd" "$filtered_table_va"
case "$out" in *'"reason":"table-not-in-image","absence":"excluded"}'*) ok 0 "filtered table: table-not-in-image, excluded" ;; *) ok 1 "filtered table: table-not-in-image, excluded"; echo "# $out" ;; esac
is "$rc" 2 "... exit 2: partial evidence"
run "$PGWALK" translate --cr3="$cr3" --mode=x86-64 "$TMP/kd" "$filtered_table_va"
case "$out" in *"excluded from the dump (filtered"*) ok 0 "filtered table: text says it was excluded" ;; *) ok 1 "filtered table: text says it was excluded" ;; esac
run "$CMP" "raw:$TMP/mem.raw" "$TMP/kd"
is "$rc" 0 "filtered kdump: pages present equal raw"
case "$out" in *"nodata_a=0 "*"nodata_b=0 "*) ok 1 "filtered kdump: some pages are NODATA" ;; *) ok 0 "filtered kdump: some pages are NODATA ($out)" ;; esac

# Damaged files: one line on stderr, exit 65 (bad image), no crash.
head -c 300 "$TMP/k" >"$TMP/cut"
run "$PGWALK" info "$TMP/cut"
is "$rc" 65 "truncated kdump header: exit 65"
is "$(printf '%s\n' "$err" | wc -l)" 1 "truncated kdump header: one line: $err"
head -c 5000 "$TMP/kf" >"$TMP/cutf"
run "$PGWALK" info "$TMP/cutf"
is "$rc" 65 "flattened file cut in its header records: exit 65 ($err)"
done_testing
