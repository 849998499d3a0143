#!/bin/sh
# Every paging mode on a synthetic image: every mapping and every empty
# entry of every table built translates as built, from ELF (CPU notes:
# mode from the registers) and from raw (--cr3, with --mode and by the
# validation walk); info says which mode and why.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 37

for m in i386 pae x86-64 la57; do
	mkimg "$m" "$SPECS/$m.spec"
	root=$(awk '$1 == "root" { print $2; exit }' "$SPECS/$m.spec")
	exp=$TMP/$m.exp
	expect_tsv "$m: ELF, mode and root from the CPU notes" "$exp" \
		"$TMP/$m.elf"
	expect_tsv "$m: ELF, --cpu=0" "$exp" --cpu=0 "$TMP/$m.elf"
	expect_tsv "$m: raw, --cr3=$root --mode=$m" "$exp" --image-format=raw \
		--cr3="$root" --mode="$m" "$TMP/$m.raw"
	expect_tsv "$m: raw, --cr3=$root, mode detected" "$exp" \
		--image-format=raw --cr3="$root" "$TMP/$m.raw"

	run "$PGWALK" info "$TMP/$m.elf"
	like "^mode: +$m \\(CPU 0 registers: CR0.PG=1" \
		"$m: info picks $m from the CPU registers and says so"
	run "$PGWALK" info --image-format=raw --cr3="$root" "$TMP/$m.raw"
	like "^mode: +$m \\(validation walk: $m maps a linear direct map" \
		"$m: info on raw picks $m by the validation walk"
	like "^root: +$root \\(--cr3=$root\\)" "$m: info on raw names the root"
done

# The same memory in other ELF layouts gives the same answers.
for layout in "-q:QEMU 7.2 layout (section table first, e_ehsize 8)" \
	      "-P 0x2000:program headers at 0x2000, after a gap" \
	      "-P end:program headers after the last segment" \
	      "-3:ELF32"; do
	opt=${layout%%:*} what=${layout#*:}
	for m in i386 x86-64; do
		"$MKIMAGE" $opt -e "$TMP/lay.elf" "$SPECS/$m.spec"
		expect_tsv "$m: $what" "$TMP/$m.exp" "$TMP/lay.elf"
	done
done
run "$PGWALK" info "$TMP/lay.elf"
like '^format: +elf, ELF32, machine x86-64' "info reports ELF32"

done_testing
