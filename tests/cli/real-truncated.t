#!/bin/sh
# The real dumps (../shared/testdata) cut short, as a full disk or an
# interrupted copy leaves them: every page still in the file reads as in
# the whole file, every other page is not in the image with the reason
# "truncated", CPU 1's addresses translate as in the whole file or stop at
# a table that is not in the image, dump walks the whole space with those
# tables as holes, and info says the file is cut.  (`head -c 5000000
# vmcore-d31.kdump` once passed as complete.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
CMP=$PGW_TOOLS/pgw-cmp-images
plan 34   # 4 per cut (7), 6 more

D=$SHARED/x64-4l-a
awk '$1 == "cpu1" { print $2 }' "$D/gva2gpa.txt" >"$TMP/vas"
norm() { sed -E 's/,"in_image":(true|false)(,"absence":"[a-z-]*")?//'; }

# check FULL CUT-AT DESC: cut FULL at CUT-AT bytes and hold it to FULL.
check() {
	full=$1 at=$2 d=$3
	head -c "$at" "$full" >"$TMP/cut"
	run "$CMP" "$full" "$TMP/cut"
	a=$(printf '%s\n' "$out" | sed -E 's/.*why_a=([^ ]*).*/\1/')
	b=$(printf '%s\n' "$out" | sed -E 's/.*why_b=([^ ]*).*/\1/')
	# B lacks what A lacks (filtered pages), plus truncated pages only.
	rest=$(printf '%s\n' "$b" | tr ',' '\n' | grep -v '^truncated:' |
		grep -vxF "$(printf '%s\n' "$a" | tr ',' '\n')" | tr '\n' ' ')
	if [ "$rc" = 0 ] && [ -z "$rest" ]; then
		ok 0 "$d: what is left reads as in the whole file, the rest is truncated ($b)"
	else
		ok 1 "$d: pages"; echo "#   rc=$rc rest='$rest': $out"
	fi
	trunc=$(printf '%s\n' "$b" | tr ',' '\n' | sed -n 's/^truncated://p')
	trunc=${trunc:-0}

	"$PGWALK" translate --cpu=1 --format=json "$full" - <"$TMP/vas" | norm >"$TMP/full.json"
	"$PGWALK" translate --cpu=1 --format=json "$TMP/cut" - <"$TMP/vas" 2>"$TMP/err" |
		norm >"$TMP/cut.json"
	paste -d '\n' "$TMP/full.json" "$TMP/cut.json" | awk '
		NR % 2 == 1 { f = $0; next }
		$0 == f { same++; next }
		/"reason":"table-not-in-image","absence":"truncated"/ { lost++; next }
		{ bad++ }
		END { printf "%d %d %d\n", same, lost, bad }' >"$TMP/counts"
	read -r same lost bad <"$TMP/counts"
	[ "$bad" = 0 ] && [ "$((same + lost))" = "$(wc -l <"$TMP/vas")" ]
	ok $? "$d: CPU 1's addresses as in the whole file ($same) or at a table not in the image ($lost)"

	run "$PGWALK" dump --cpu=1 "$TMP/cut"
	holes=$(printf '%s\n' "$out" | grep -c ' table-not-in-image (truncated)')
	# Exit 2 exactly when tables were lost: partial evidence.
	want=0
	[ "$holes" -gt 0 ] && want=2
	if [ "$rc" = "$want" ] && { [ "$lost" = 0 ] || [ "$holes" -gt 0 ]; }; then
		ok 0 "$d: dump --cpu=1 walks the whole space ($holes holes of tables not in the image, exit $rc)"
	else
		ok 1 "$d: dump --cpu=1 walks the whole space"; echo "#   rc=$rc holes=$holes lost=$lost: $err"
	fi
	run "$PGWALK" info "$TMP/cut"
	if [ "$trunc" -gt 0 ]; then
		like 'incomplete: .*file truncated' "$d: info says the file is truncated"
	else
		unlike 'file truncated' "$d: nothing truncated, and info says nothing of it"
	fi
}

kd=$D/vmcore-d31.kdump
size=$(wc -c <"$kd")
check "$kd" 5000000 "vmcore-d31.kdump cut at 5000000"
[ "$trunc" -gt 1000 ]
ok $? "... thousands of pages lost ($trunc)"
like "incomplete: file truncated: $trunc of 15525 dumped pages missing \\($trunc truncated" \
	"... and info counts exactly those"
# The kernel's own root is among them: said, with the reason.
run "$PGWALK" dump "$TMP/cut"
case $rc:$err in
3:*"root table 0x6210000"*"is not in the image (truncated)") ok 0 "... the kernel root's table is truncated (exit 3)" ;;
*) ok 1 "... the kernel root's table is truncated"; echo "#   rc=$rc $err" ;;
esac
check "$kd" 12000017 "vmcore-d31.kdump cut at 12000017"
check "$kd" $((size - 1)) "vmcore-d31.kdump one byte short"
[ "$trunc" -ge 1 ]
ok $? "... its last page is lost ($trunc)"

flat=$D/vmcore-d31-zlib.flat
check "$flat" 5000000 "vmcore-d31-zlib.flat cut at 5000000"
[ "$trunc" -gt 1000 ]
ok $? "... thousands of pages lost ($trunc)"
check "$flat" 9000001 "vmcore-d31-zlib.flat cut at 9000001"

elf=$UNPACKED/x64-4l-a/vmcore.elf
# Between CPU 1's root (0x295e000) and the kernel's (0x6210000).
check "$elf" 60000000 "vmcore.elf cut at 60000000"
like 'incomplete: file truncated: 2 of 2 PT_LOADs' "... info names the PT_LOADs cut"
check "$elf" 134000001 "vmcore.elf cut at 134000001"

done_testing
