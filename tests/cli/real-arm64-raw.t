#!/bin/sh
# A raw image of the arm64 guests' RAM alone (byte 0 = physical
# 0x40000000, as pmemsave of mach-virt.ram writes it), given no --base:
# pgwalk finds where RAM starts from the file's own VMCOREINFO
# (NUMBER(PHYS_OFFSET); on the 16K kernel built for 52-bit VAs, biased,
# unbiased by VA_BITS vs TCR_EL1_T1SZ), chosen because swapper_pg_dir
# maps itself and _stext with it.  Oracles: the README's RAM start (QEMU
# info mtree), QEMU's gva2gpa (vCPU0's kernel half, vCPU1's user half by
# its process's pid, as real-arm64.t models them).  A file that starts
# elsewhere is an error with the hint, and --base still decides.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-arm64.sh"
plan 12


for a in arm64-4k-a:"NUMBER\\(PHYS_OFFSET\\) of" \
	 arm64-16k-a:"NUMBER\\(PHYS_OFFSET\\) unbiased \\(VA_BITS vs TCR_EL1_T1SZ\\) of"; do
	d=${a%%:*} evidence=${a#*:} D=$SHARED/$d ram=$TMP/$d.raw
	arm64_ram_only "$d" "$ram"
	run "$PGWALK" info "$ram"
	like "^  base: +$start: $evidence the VMCOREINFO at file offset 0x[0-9a-f]*: with byte 0 there, swapper_pg_dir 0x[0-9a-f]* maps itself and _stext under arm64-" \
		"$d: RAM alone, no --base: byte 0 is at $start (README), by $(printf '%s' "$evidence" | tr -d '\\')"
	arm64_answers "$D" 0 kernel >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$ram" - | arm64_walked el1 |
		cut -f2 >"$TMP/pa"
	cut -f1 "$TMP/want" | paste - "$TMP/pa" >"$TMP/got"
	agree "$d: vCPU0's kernel half from RAM alone, no --base" "$TMP/want" "$TMP/got"
	owner=$(sed -n 's/.*vCPU1 TTBR0.*owner by gva2gpa of all markers: (\([0-9]*\),.*/\1/p' "$D/README.txt" | head -1)
	arm64_answers "$D" 1 user >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --pid="$owner" "$ram" - |
		arm64_walked el0 | cut -f2 >"$TMP/pa"
	cut -f1 "$TMP/want" | paste - "$TMP/pa" >"$TMP/got"
	agree "$d: vCPU1's user half from RAM alone by --pid=$owner, no --base" \
		"$TMP/want" "$TMP/got"
	run "$PGWALK" translate --cpu=1 "$ram" 0x402098
	is "$rc" 3 "$d: --cpu on the raw image: no registers (exit 3)"
	rm -f "$ram"
done

# The sparse mem.raw (byte N = physical N) keeps 0: its VMCOREINFO walks so.
run "$PGWALK" info "$UNPACKED/arm64-4k-a/mem.raw"
unlike "^  base:" "mem.raw (file offset = physical address): no base to find"

# RAM 2 MiB into the file: no base the facts name walks.
d=arm64-4k-a ram=$TMP/shifted.raw
arm64_ram_only "$d" "$TMP/ram.raw"
{ dd if=/dev/zero bs=1048576 count=2 status=none; cat "$TMP/ram.raw"; } >"$ram"
rm -f "$TMP/ram.raw"
run "$PGWALK" info "$ram"
is "$rc:$err" "3:pgwalk: $ram: raw image: where its RAM starts is unknown: the arm64 VMCOREINFO at file offset 0x2919000 names kernel tables that walk with byte 0 at none of 0, 0x40000000; give --base=ADDR (the physical address of the file's first byte)" \
	"RAM 2 MiB into the file: exit 3, the bases tried, the hint"
# --mode and a root given: nothing in memory is looked for, the base
# neither (byte 0 is 0): no such error, whatever else fails.
run "$PGWALK" info --mode=arm64-4k-48 --ttbr1=0x41858000 "$ram"
is "$(printf '%s\n' "$err" | grep -c 'where its RAM starts')" 0 \
	"--mode and --ttbr1 given: no base looked for"
swapper=$(sed -n 's/^SYMBOL(swapper_pg_dir)=/0x/p' "$SHARED/$d/vmcoreinfo.txt")
run "$PGWALK" translate -f tsv --base=0x3fe00000 "$ram" "$swapper"
is "$(printf '%s\n' "$out" | sed 1d | cut -f2)" 0x41858000 \
	"... and --base=0x3fe00000 decides: swapper_pg_dir at its TTBR1 table"
done_testing
