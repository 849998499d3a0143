#!/bin/sh
# PTI for the kernel's own root: its user copy (+4 KiB) has an empty user
# half, like the kernel root itself, and maps only the entry text and the
# CPU entry area of the kernel half.  roots pairs it, diff --pti without
# a root option compares the pair (it said "the kernel runs without
# page-table isolation", exit 3), and a kernel address asked of a user
# copy hints --kernel-root when the kernel copy maps it.  x86-64 and PAE.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 12

for s in kernel-pti kernel-pti-pae; do
	"$MKIMAGE" -e "$TMP/$s.elf" "$SPECS/$s.spec" || bail "pgw-mkimage $s failed"
	img=$TMP/$s.elf
	case $s in *pae) va=0xf8000000 pa=0x3000000 ;; *) va=0xffffc90000000000 pa=0x3000000 ;; esac
	run "$PGWALK" roots --format=json "$img"
	like '^\{"type":"root","root":"0x1000000","kind":"kernel",.*"pti_user":"0x1001000",' \
		"$s: roots pairs the kernel root with its user copy"
	like '^\{"type":"root","root":"0x400000","kind":"process",.*"pti_user":"0x401000",' \
		"$s: ... and the process root with its own"
	run "$PGWALK" diff --pti --format=json "$img"
	is "$rc:$(printf '%s\n' "$out" | tail -1 | sed -n 's/.*"root_a":"\([^"]*\)","root_b":"\([^"]*\)".*/\1 \2/p')" \
		"1:0x1000000 0x1001000" "$s: diff --pti with no root compares the kernel root's pair (exit 1: they differ)"
	run "$PGWALK" translate --cpu=1 "$img" $va
	is "$rc:$err" "1:pgwalk: $va: root 0x401000 is the user copy of a PTI pair, which maps little of the kernel; its kernel copy 0x400000 maps it: give --kernel-root" \
		"$s: a kernel address asked of CPU 1's user copy hints --kernel-root"
	run "$PGWALK" translate --cpu=1 --kernel-root --format=csv "$img" $va
	like "^$va,$pa,4096,pte," "$s: ... which translates it"
	run "$PGWALK" translate --cpu=0 "$img" $va
	out="$rc:$out$err"
	unlike 'kernel-root' "$s: the kernel root itself: no --kernel-root hint"
done
done_testing
