#!/bin/sh
# The output contract (docs/output.md, schemas in contract.sh) on the real
# dumps: every JSON line info, translate, dump, regions and roots print for
# each dump — its ELF core, its raw memory (with no options too: VMCOREINFO
# found in memory), and the kdump and flattened files — holds to the
# schema of its record type.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
. "$(dirname "$0")/contract.sh"
plan 62   # 12 per dump (4), 5 per x64-4l-a kdump file (2), 4 for i386-pae-a's

command -v jq >/dev/null 2>&1 || bail "jq is needed to check the contract"

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	awk '{ print $2 }' "$SHARED/$d/gva2gpa.txt" | sort -u >"$TMP/vas"
	contract info "$d vmcore.elf" "$elf"
	contract translate "$d vmcore.elf --cpu=0" --cpu=0 "$elf" - <"$TMP/vas"
	contract translate "$d vmcore.elf --cpu=1 --levels" --cpu=1 --levels \
		"$elf" - <"$TMP/vas"
	contract dump "$d vmcore.elf (the kernel's root)" "$elf"
	contract dump "$d vmcore.elf --cpu=1 --non-present" --cpu=1 \
		--non-present "$elf"
	contract regions "$d vmcore.elf" "$elf"
	contract roots "$d vmcore.elf" "$elf"
	contract roots "$d mem.raw (no options)" "$raw"
	contract info "$d mem.raw (no options)" "$raw"
	cr3=$(cr3_of "$SHARED/$d" 1)
	contract info "$d mem.raw" --image-format=raw --cr3="$cr3" "$raw"
	contract translate "$d mem.raw" --image-format=raw --cr3="$cr3" \
		--mode="$mode" "$raw" - <"$TMP/vas"
	contract dump "$d mem.raw" --image-format=raw --cr3="$cr3" \
		--mode="$mode" "$raw"
done

awk '$1 == "cpu1" { print $2 }' "$SHARED/x64-4l-a/gva2gpa.txt" >"$TMP/vas"
for f in vmcore-d31.kdump vmcore-d31-zlib.flat; do
	k=$SHARED/x64-4l-a/$f
	contract info "x64-4l-a $f" "$k"
	contract translate "x64-4l-a $f --cpu=1" --cpu=1 "$k" - <"$TMP/vas"
	contract dump "x64-4l-a $f --cpu=1" --cpu=1 "$k"
	contract regions "x64-4l-a $f" "$k"
	contract roots "x64-4l-a $f" "$k"
done
k=$SHARED/i386-pae-a/vmcore.kdump-zlib
awk '$1 == "cpu1" { print $2 }' "$SHARED/i386-pae-a/gva2gpa.txt" >"$TMP/vas"
contract info "i386-pae-a vmcore.kdump-zlib" "$k"
contract translate "i386-pae-a vmcore.kdump-zlib --cpu=1 --levels" --cpu=1 \
	--levels "$k" - <"$TMP/vas"
contract dump "i386-pae-a vmcore.kdump-zlib --cpu=1" --cpu=1 "$k"
contract roots "i386-pae-a vmcore.kdump-zlib" "$k"

done_testing
