#!/bin/sh
# The output contract (docs/output.md, schemas in contract.sh) on the real
# dumps: every JSON line info, translate, dump, regions, roots, read,
# ptov, check, diff, maps and search print for
# each dump — its ELF core, its raw memory (with no options too: VMCOREINFO
# found in memory), and the kdump and flattened files — holds to the
# schema of its record type.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
. "$(dirname "$0")/contract.sh"
plan 121  # 23 per dump (4), 9 per x64-4l-a kdump file (2), 3 maps per x86-64
          # dump (2), 5 for i386-pae-a's

command -v jq >/dev/null 2>&1 || bail "jq is needed to check the contract"

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	awk '{ print $2 }' "$SHARED/$d/gva2gpa.txt" | sort -u >"$TMP/vas"
	contract info "$d vmcore.elf" "$elf"
	contract translate "$d vmcore.elf --cpu=0" --cpu=0 "$elf" - <"$TMP/vas"
	contract translate "$d vmcore.elf --cpu=1 --levels --names" --cpu=1 \
		--levels --names "$elf" - <"$TMP/vas"
	contract dump "$d vmcore.elf (the kernel's root)" "$elf"
	contract dump "$d vmcore.elf --cpu=1 --non-present --names" --cpu=1 \
		--non-present --names "$elf"
	contract regions "$d vmcore.elf" "$elf"
	contract roots "$d vmcore.elf" "$elf"
	contract roots "$d mem.raw (no options)" "$raw"
	contract ps "$d vmcore.elf" "$elf"
	contract ps "$d mem.raw (no options)" "$raw"
	contract info "$d mem.raw (no options)" "$raw"
	cr3=$(cr3_of "$SHARED/$d" 1)
	contract info "$d mem.raw" --image-format=raw --cr3="$cr3" "$raw"
	contract translate "$d mem.raw" --image-format=raw --cr3="$cr3" \
		--mode="$mode" "$raw" - <"$TMP/vas"
	contract dump "$d mem.raw" --image-format=raw --cr3="$cr3" \
		--mode="$mode" "$raw"
	# Every frame QEMU says a CPU maps, and the first user page CPU 1
	# maps with 64 KiB around it (holes skipped).
	awk '$3 == "gpa:" { v = $4; if (v !~ /^0x/) v = "0x" v; print v }' \
		"$SHARED/$d/gva2gpa.txt" | sort -u >"$TMP/pas"
	contract ptov "$d vmcore.elf --all-roots" --all-roots "$elf" - <"$TMP/pas"
	va=$(awk '$1 == "cpu1" && $3 == "gpa:" { print $2; exit }' "$SHARED/$d/gva2gpa.txt")
	contract read "$d vmcore.elf --cpu=1 --skip-unreadable at $va" --cpu=1 \
		--skip-unreadable "$elf" "$(printf '0x%x' $(( (va & ~0xfff) - 0x8000 )))" 0x10000
	contract check "$d vmcore.elf --all-roots" --all-roots \
		--severity=info "$elf"
	contract check "$d vmcore.elf --cpu=1" --cpu=1 --severity=info "$elf"
	contract search "$d vmcore.elf --cpu=1, every marker" --cpu=1 \
		--string=PGWALK- --max-hits=100000 "$elf"
	contract search "$d mem.raw --phys" --phys --string=PGWALK- "$raw"
	contract search "$d vmcore.elf --all-roots" --all-roots \
		--string=PGWALK-SHARED "$elf"
	contract diff "$d vmcore.elf --cpu=0 --cpu=1" --cpu=0 --cpu=1 "$elf"
	contract diff "$d vmcore.elf against mem.raw, --data" --cr3="$cr3" \
		--data "$elf" "$raw"
done

awk '$1 == "cpu1" { print $2 }' "$SHARED/x64-4l-a/gva2gpa.txt" >"$TMP/vas"
for f in vmcore-d31.kdump vmcore-d31-zlib.flat; do
	k=$SHARED/x64-4l-a/$f
	contract info "x64-4l-a $f" "$k"
	contract translate "x64-4l-a $f --cpu=1" --cpu=1 "$k" - <"$TMP/vas"
	contract dump "x64-4l-a $f --cpu=1" --cpu=1 "$k"
	contract regions "x64-4l-a $f" "$k"
	contract roots "x64-4l-a $f" "$k"
	contract read "x64-4l-a $f --pid=129 --skip-unreadable" --pid=129 \
		--skip-unreadable "$k" 0x7fdb5e4f0000 0x4000
	contract search "x64-4l-a $f --pid=129 (user data left out)" \
		--pid=129 --string=PGWALK-MARKER-129 "$k"
	contract diff "x64-4l-a vmcore.elf against $f --cpu=1 --data" \
		--cpu=1 --data "$UNPACKED/x64-4l-a/vmcore.elf" "$k"
	contract maps "x64-4l-a $f" "$k"
done
for d in x64-4l-a x64-5l-a; do
	contract maps "$d vmcore.elf" "$UNPACKED/$d/vmcore.elf"
	contract maps "$d mem.raw (no options)" "$UNPACKED/$d/mem.raw"
	contract maps "$d vmcore.elf --pages" --pages "$UNPACKED/$d/vmcore.elf"
done
k=$SHARED/i386-pae-a/vmcore.kdump-zlib
awk '$1 == "cpu1" { print $2 }' "$SHARED/i386-pae-a/gva2gpa.txt" >"$TMP/vas"
contract info "i386-pae-a vmcore.kdump-zlib" "$k"
contract translate "i386-pae-a vmcore.kdump-zlib --cpu=1 --levels" --cpu=1 \
	--levels "$k" - <"$TMP/vas"
contract dump "i386-pae-a vmcore.kdump-zlib --cpu=1" --cpu=1 "$k"
contract roots "i386-pae-a vmcore.kdump-zlib" "$k"
contract check "i386-pae-a vmcore.kdump-zlib --all-roots" --all-roots "$k"

done_testing
