#!/bin/sh
# --cpu=N on the arm64 dumps, whose NT_PRSTATUS notes carry x0-x30, sp,
# pc and pstate but no TTBR (QEMU's target/arm/arch_dump.c): the task
# list says which task runs on CPU N (on_cpu, cpu), and its mm->pgd (an
# idle CPU's borrowed active_mm) is the lower root.  Oracles: each vCPU's
# TTBR0_EL1 from the gdbstub (sysregs-cpuN.txt, answers only) and QEMU's
# gva2gpa through that vCPU, both halves, modelled at its EL as
# real-arm64.t does (EL1 with PAN: EL0 pages Unmapped; EL0: kernel pages).
# ps marks the task each CPU runs by the registers alone (EL1: sp in the
# task's kernel stack; EL0: pc and sp mapped by the task's tables): the
# README's owner of vCPU1's TTBR0 (gva2gpa), and the task --cpu finds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-arm64.sh"
plan 24

# marks IMAGE: "pid cpu by" of each task ps marks running (> in text).
marks() {
	"$PGWALK" ps --format=json "$1" | jq -r 'select(.type == "task" and
		.current_cpu != null) | "\(.pid) \(.current_cpu) \(.current_by)"'
}

# ttbr0_table DIR CPU: the table TTBR0_EL1 names (CnP bit 0 cleared).
ttbr0_table() {
	v=$(sed -n 's/^TTBR0_EL1=//p' "$1/sysregs-cpu$2.txt")
	printf '0x%x' $((v & 0xfffffffffffe))
}

for d in $ARM64_DUMPS; do
	D=$SHARED/$d elf=$UNPACKED/$d/vmcore.elf
	for c in 0 1; do
		t=$(ttbr0_table "$D" "$c")
		run "$PGWALK" info --cpu="$c" "$elf"
		like "^root: +$t \\(CPU $c runs pid [0-9]+ " \
			"$d: --cpu=$c's lower root is vCPU$c's TTBR0 table $t (sysregs)"
		el=el1; [ "$c" = 1 ] && el=el0
		qemu_answers "$D" "$c" >"$TMP/want"
		cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --cpu="$c" \
			"$elf" - | arm64_walked "$el" | cut -f2 >"$TMP/pa"
		cut -f1 "$TMP/want" | paste - "$TMP/pa" >"$TMP/got"
		agree "$d: gva2gpa through vCPU$c, both halves, by --cpu=$c" \
			"$TMP/want" "$TMP/got"
	done
	# What each says of its registers: CPU 1 in EL0 at a pc its
	# process maps; CPU 0 idle in EL1 on swapper/0's stack, with the
	# mm the last process left (active_mm).
	run "$PGWALK" info --cpu=1 "$elf"
	like "^root: .*mm->pgd 0x[0-9a-f]*; EL0 at pc 0x$(sed -n 's/^ PC=0*\([0-9a-f]*\) .*/\1/p' "$D/registers-cpu1.txt"), mapped there" \
		"$d: CPU 1's pc (registers-cpu1.txt) is checked in its process's tables"
	run "$PGWALK" info --cpu=0 "$elf"
	like "^root: .*runs pid 0 \\(swapper/0\\).*active_mm->pgd .*EL1, sp 0x0*$(sed -n 's/.* SP=0*\([0-9a-f]*\).*/\1/p' "$D/registers-cpu0.txt") in its kernel stack" \
		"$d: CPU 0 idles in EL1 (registers-cpu0.txt's SP on swapper/0's stack), its TTBR0 the borrowed mm's"
	spin=$(sed -n "s/^  vCPU1 TTBR0_EL1=.*owner by gva2gpa of all markers: (\([0-9]*\), .*/\1/p" "$D/README.txt")
	[ -n "$spin" ] || bail "$d: README.txt names no owner of vCPU1's TTBR0"
	is "$(marks "$elf" | tr '\n' ' ')" "0 0 stack $spin 1 user-pc " \
		"$d: ps marks swapper/0 on CPU 0 by its stack and pid $spin (README: vCPU1's TTBR0 owner) on CPU 1 by pc and sp"
	cpus=""
	for c in 0 1; do
		cpus="$cpus$("$PGWALK" info --cpu="$c" "$elf" |
			sed -n "s/^root: .*(CPU $c runs pid \([0-9]*\) .*/\1 $c/p") "
	done
	is "$(marks "$elf" | cut -d' ' -f1,2 | tr '\n' ' ')" "$cpus" \
		"$d: ps's running task per CPU is the one --cpu finds ($cpus)"
done

# The kdump QEMU wrote of the same state: the same notes, the same roots.
d=arm64-4k-a D=$SHARED/$d
for c in 0 1; do
	t=$(ttbr0_table "$D" "$c")
	run "$PGWALK" info --cpu="$c" "$D/vmcore.kdump-zlib"
	like "^root: +$t \\(CPU $c runs" "$d: vmcore.kdump-zlib --cpu=$c is TTBR0 $t"
done
is "$(marks "$D/vmcore.kdump-zlib" | tr '\n' ' ')" "$(marks "$UNPACKED/$d/vmcore.elf" | tr '\n' ' ')" \
	"$d: ps marks the same running tasks in the kdump as in the ELF"

# No such CPU, and no registers at all, are said, with exit 3.
run "$PGWALK" translate --cpu=2 "$UNPACKED/$d/vmcore.elf" 0x402098
is "$rc:$err" "3:pgwalk: $UNPACKED/$d/vmcore.elf: --cpu=2: the image has AArch64 registers (NT_PRSTATUS) for 2 CPUs" \
	"--cpu=2 of two CPUs: exit 3, saying how many there are"
run "$PGWALK" translate --cpu=1 "$UNPACKED/$d/mem.raw" 0x402098
is "$rc:$err" "3:pgwalk: $UNPACKED/$d/mem.raw: --cpu=1: the image has no CPU registers (no NT_PRSTATUS note)" \
	"--cpu on a raw image: exit 3, no registers"

# Registers that contradict the task list are a conflict, not a guess:
# CPU 1's pc moved into the kernel half while it stays in EL0.
elf=$UNPACKED/$d/vmcore.elf
pc=$(LC_ALL=C head -c 65536 "$elf" | LC_ALL=C grep -obUaP '\x98\x20\x40\x00\x00\x00\x00\x00' |
	head -1 | cut -d: -f1)
[ -n "$pc" ] || bail "CPU 1's pc 0x402098 not found in $elf's notes"
cp "$elf" "$TMP/moved.elf"
printf '\377\377' |
	dd of="$TMP/moved.elf" bs=1 seek=$((pc + 6)) conv=notrunc 2>/dev/null
run "$PGWALK" info --cpu=1 "$TMP/moved.elf"
like "^root: +none" "a pc the task's tables do not map: no root"
run "$PGWALK" translate --cpu=1 "$TMP/moved.elf" 0x402098
is "$rc:$err" "65:pgwalk: $TMP/moved.elf: --cpu=1: the CPU is in EL0 at pc 0xffff000000402098, which the tables of pid 126, the task the list runs there, do not map: the notes and the task list disagree" \
	"registers against the task list: exit 65, both named"
is "$(marks "$TMP/moved.elf" | tr '\n' ' ')" "0 0 stack " \
	"ps: a pc in EL0 that no task's tables map marks no task on CPU 1"
rm -f "$TMP/moved.elf"
done_testing
