#!/bin/sh
# Real makedumpfile and QEMU kdumps (../shared/testdata) against the ELF
# core of the same guest state: every gva2gpa.txt address must translate
# exactly as on the ELF (in_image aside: -d 31 leaves user data out) and as
# QEMU answered, and every page the kdump holds must equal the ELF's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
CMP=$PGW_TOOLS/pgw-cmp-images
plan 55   # 12 per real kdump file (3), 3 per written format (5), 4 more

norm() { sed -E 's/,"in_image":(true|false)(,"absence":"[a-z-]*")?//'; }
# "va pa" or "va Unmapped", hex without leading zeros, like gva2gpa.txt.
short() {
	sed -E 's/^\{"type":"translation","va":"([^"]*)","pa":"([^"]*)".*/\1 \2/; s/^\{"type":"translation","va":"([^"]*)","pa":null.*/\1 Unmapped/'
}
# not_in_image IMAGE: the bytes of CPU 1's mappings whose data IMAGE lacks.
not_in_image() {
	"$PGWALK" dump --cpu=1 --format=json "$1" | tail -1 |
		sed -n 's/.*"bytes_not_in_image":\([0-9]*\).*/\1/p'
}
qemu() {
	awk -v c="cpu$2" '$1 == c { print $2, ($3 == "gpa:" ? $4 : $3) }' "$SHARED/$1/gva2gpa.txt" |
		sed -E 's/0x0*([0-9a-f])/0x\1/g; s/ 0$/ 0x0/'   # QEMU prints "gpa: 0"
}

check() {
	dir=$1 file=$2
	elf=$UNPACKED/$dir/vmcore.elf
	kd=$SHARED/$dir/$file
	for cpu in 0 1; do
		awk -v c="cpu$cpu" '$1 == c { print $2 }' "$SHARED/$dir/gva2gpa.txt" >"$TMP/vas"
		"$PGWALK" translate --cpu=$cpu --format=json "$elf" - <"$TMP/vas" | norm >"$TMP/elf.json"
		"$PGWALK" translate --cpu=$cpu --format=json "$kd" - <"$TMP/vas" | norm >"$TMP/kd.json"
		n=$(wc -l <"$TMP/kd.json")
		[ "$n" -gt 400 ] && [ "$n" = "$(wc -l <"$TMP/vas")" ]
		ok $? "$dir/$file cpu$cpu: $n answers"
		if cmp -s "$TMP/elf.json" "$TMP/kd.json"; then
			ok 0 "$dir/$file cpu$cpu: identical to the ELF"
		else
			ok 1 "$dir/$file cpu$cpu: identical to the ELF"
			diff "$TMP/elf.json" "$TMP/kd.json" | head -5 | sed 's/^/#   /'
		fi
		short <"$TMP/kd.json" >"$TMP/ours"
		qemu "$dir" $cpu >"$TMP/qemu"
		if cmp -s "$TMP/ours" "$TMP/qemu"; then
			ok 0 "$dir/$file cpu$cpu: equal to QEMU's gva2gpa"
		else
			ok 1 "$dir/$file cpu$cpu: equal to QEMU's gva2gpa"
			diff "$TMP/qemu" "$TMP/ours" | head -5 | sed 's/^/#   /'
		fi
	done
	run "$CMP" "$elf" "$kd"
	is "$rc" 0 "$dir/$file: every page it holds equals the ELF ($out)"
	# `dump` and `regions` see the same address space; dump also says
	# which mapped data each image lacks, so that is set aside here.
	drop='/^# not in image: /d; s/ *not in image: [0-9]*[KMGTPE]*$//'
	for c in dump regions; do
		"$PGWALK" $c --cpu=1 "$elf" >"$TMP/e.$c" 2>&1
		erc=$?
		"$PGWALK" $c --cpu=1 "$kd" >"$TMP/k.$c" 2>&1
		krc=$?
		sed -i "$drop" "$TMP/e.$c" "$TMP/k.$c"
		[ "$erc/$krc" = 0/0 ] && [ -s "$TMP/e.$c" ] && cmp -s "$TMP/e.$c" "$TMP/k.$c"
		ok $? "$dir/$file: $c --cpu=1 exits 0 and prints what it prints for the ELF"
	done
	# ... and a filtered dump (-d 31: user data left out) says so, in
	# the ranges and in the summary: it never passes for the whole.
	ne=$(not_in_image "$elf") nk=$(not_in_image "$kd")
	case $file in
	*d31*) [ "${nk:-0}" -gt "${ne:-0}" ] ;;
	*) [ "${nk:-0}" -ge "${ne:-0}" ] ;;
	esac
	ok $? "$dir/$file: dump's bytes_not_in_image ${nk:-?} (the ELF's ${ne:-?})"
	# Whole address spaces: the same leaves, holes and tables.
	for cpu in 0 1; do
		e=$("$PGW_TOOLS/pgw-walkcount" "$elf" $cpu | sed 's/ seconds=.*//')
		k=$("$PGW_TOOLS/pgw-walkcount" "$kd" $cpu | sed 's/ seconds=.*//')
		case $e in
		leaves=[1-9]*) is "$k" "$e" "$dir/$file cpu$cpu: whole walk equals the ELF's ($k)" ;;
		*) ok 1 "$dir/$file cpu$cpu: pgw-walkcount on the ELF: '$e'" ;;
		esac
	done
}

check x64-4l-a vmcore-d31.kdump
check x64-4l-a vmcore-d31-zlib.flat
check i386-pae-a vmcore.kdump-zlib

# The other codecs, LiME and AVML have no real file here: write them from
# the real memory (mem.raw) and hold them to the ELF, from CPU 1's CR3.
elf=$UNPACKED/x64-4l-a/vmcore.elf
cr3=$("$PGWALK" info --format=json "$elf" | sed -E 's/.*"cpu":1,"registers":\{"cr0":"[^"]*","cr3":"([^"]*)".*/\1/')
awk '$1 == "cpu1" { print $2 }' "$SHARED/x64-4l-a/gva2gpa.txt" >"$TMP/vas"
"$PGWALK" translate --cr3="$cr3" --mode=x86-64 --format=json "$elf" - <"$TMP/vas" | norm >"$TMP/elf.json"
for what in "kdump --codec=lzo" "kdump --codec=snappy" "kdump --codec=zstd --layout=32" lime avml; do
	run "$PGW_TOOLS/pgw-mkdump" $what --raw="$UNPACKED/x64-4l-a/mem.raw" "$TMP/img"
	if [ "$rc" = 77 ]; then   # the build lacks the codec: nothing to test
		skip "$what: $err"; skip "$what: $err"; skip "$what: $err"
		continue
	fi
	is "$rc" 0 "real memory as $what: pgw-mkdump writes it"
	"$PGWALK" translate --cr3="$cr3" --mode=x86-64 --format=json "$TMP/img" - <"$TMP/vas" | norm >"$TMP/img.json"
	cmp -s "$TMP/elf.json" "$TMP/img.json"
	ok $? "real memory as $what: translations equal the ELF's"
	run "$CMP" "$elf" "$TMP/img"
	is "$rc" 0 "real memory as $what: pages equal the ELF's ($out)"
done

# -d 31 leaves pages out: some must be NODATA in the kdump only.
run "$CMP" "$UNPACKED/x64-4l-a/vmcore.elf" "$SHARED/x64-4l-a/vmcore-d31.kdump"
nb=$(printf '%s\n' "$out" | sed -E 's/.*nodata_b=([0-9]+).*/\1/')
[ "$nb" -gt 10000 ]
ok $? "x64-4l-a -d 31: $nb pages filtered out of the kdump"

run "$PGWALK" info "$SHARED/x64-4l-a/vmcore-d31-zlib.flat"
case "$out" in
*"flattened_records: 475"*"dump_level: 31"*"compression: zlib"*) ok 0 "flattened kdump: info facts" ;;
*) ok 1 "flattened kdump: info facts"; printf '%s\n' "$out" | head -12 | sed 's/^/#   /' ;;
esac
run "$PGWALK" info "$SHARED/i386-pae-a/vmcore.kdump-zlib"
case "$out" in
*"64-bit layout"*"machine: i686"*) ok 0 "QEMU i386 kdump: 64-bit header layout, i686 machine" ;;
*) ok 1 "QEMU i386 kdump: 64-bit header layout, i686 machine" ;;
esac
case "$out" in
*"mode:        pae"*) ok 0 "QEMU i386 kdump: PAE mode from the CPU notes" ;;
*) ok 1 "QEMU i386 kdump: PAE mode from the CPU notes" ;;
esac
done_testing
