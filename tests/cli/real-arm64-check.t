#!/bin/sh
# check's rules that compare and bound, in arm64's two-root modes, on the
# 4k guest.  kernel-half-mismatch: the kernel half is the upper table's
# whole (TTBR1 = swapper_pg_dir, shared by every CPU); an upper table
# given by hand that is another differs wherever its top entries do --
# counted here from the two tables' bytes in mem.raw (file offset =
# physical address), not by pgwalk.  beyond-ram: the linear map maps RAM
# and nothing else; one of its entries moved past RAM (README: RAM ends
# at 0x50000000) is found, with that entry as evidence.  The real guest
# has neither (as its own boot-time checks).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-arm64.sh"
d=arm64-4k-a D=$SHARED/$d
elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
plan 9

for g in $ARM64_DUMPS; do
	run "$PGWALK" check -f json --all-roots "$UNPACKED/$g/vmcore.elf"
	is "$(printf '%s\n' "$out" | grep -c '"rule":"\(kernel-half-mismatch\|beyond-ram\)"')" 0 \
		"$g: the guest as it is: no kernel-half-mismatch, no beyond-ram"
done

# A process's table (vCPU1's TTBR0) given as the upper one.
t0=$(sed -n 's/^TTBR0_EL1=//p' "$D/sysregs-cpu1.txt")
t0=$(printf '0x%x' $((t0 & 0xfffffffffffe)))
t1=$(sed -n 's/^TTBR1_EL1=//p' "$D/sysregs-cpu1.txt")
t1=$(printf '0x%x' $((t1 & 0xfffffffffffe)))
dd if="$raw" bs=4096 skip=$((t0 / 4096)) count=1 status=none | od -An -v -tx8 -w8 >"$TMP/t0"
dd if="$raw" bs=4096 skip=$((t1 / 4096)) count=1 status=none | od -An -v -tx8 -w8 >"$TMP/t1"
ndiff=$(paste "$TMP/t0" "$TMP/t1" | awk '$1 != $2' | grep -c '')
first=$(paste "$TMP/t0" "$TMP/t1" | awk '$1 != $2 { print NR - 1; exit }')
run "$PGWALK" check -f json --ttbr1="$t0" "$elf"
printf '%s\n' "$out" | grep '"rule":"kernel-half-mismatch"' >"$TMP/khm"
is "$(grep -c '' "$TMP/khm")" "$ndiff" \
	"--ttbr1=$t0: one kernel-half-mismatch per top entry that differs from swapper_pg_dir's ($ndiff, by od)"
out=$(head -1 "$TMP/khm")
like "\"severity\":\"high\",\"va\":\"0x[0-9a-f]*\".*\"evidence\":\\[\\{\"level\":\"pgd\",\"table\":\"$t0\",\"index\":$first,.*\\{\"level\":\"pgd\",\"table\":\"$t1\",\"index\":$first," \
	"... the first at index $first, both tables' entries as evidence"
is "$rc" 1 "... findings at or above the threshold: exit 1"
run "$PGWALK" check -f json --ttbr1="$t1" "$elf"
is "$(printf '%s\n' "$out" | grep -c '"rule":"kernel-half-mismatch"')" 0 \
	"--ttbr1 naming swapper_pg_dir itself ($t1, TTBR1's table): nothing differs"

# A linear-map PTE moved past RAM, in a RAM-only raw copy (its base
# found from its own VMCOREINFO).
ram=$TMP/ram.raw
arm64_ram_only "$d" "$ram"
va=0xffff000008000000
run "$PGWALK" translate --levels "$ram" "$va"
like "^VIRTUAL $va -> PHYSICAL 0x48000000 \\(4K page at pte\\)" "$va is a 4K page of the linear map at 0x48000000"
epa=$(printf '%s\n' "$out" | sed -n 's/^  pte .* entry \(0x[0-9a-f]*\): .*/\1/p')
# Byte 3 of the entry holds frame bits 31..24: 0x48 -> 0x90.
printf '\220' | dd of="$ram" bs=1 seek=$((epa - start + 3)) conv=notrunc status=none
run "$PGWALK" check -f json "$ram"
printf '%s\n' "$out" | grep '"rule":"beyond-ram"' >"$TMP/br"
is "$(grep -c '' "$TMP/br")" 1 "one beyond-ram finding"
out=$(cat "$TMP/br")
like "\"va\":\"$va\",\"end\":\"0xffff000008001000\",.*\"entry_pa\":\"$epa\",\"entry\":\"0xe8000090000707\".*physical 0x90000000-0x90001000, outside every range of RAM" \
	"... at $va, its PTE as evidence, the frame named"
done_testing
