#!/bin/sh
# Which task a CPU was running, by the registers the dump saved
# (pgw-mkkernel --cpu-cr3: a QEMU CPU note; --cpu-user: in user mode;
# --cpu-sp: an NT_PRSTATUS with that stack pointer): in user mode the
# task whose root CR3 is, when one task has it; in kernel mode the task
# whose kernel stack (ksynth.h's KS_STACK: 16 KiB each from
# 0xffff888000440000, task index order) holds the stack pointer; nothing
# when the registers match no task or several.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 7

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
current() { jq -r 'select(.type == "task" and .current_cpu != null) | "\(.pid):\(.current_cpu):\(.current_by)"' | tr '\n' ' '; }

mk --cpu-cr3=0x601000 --cpu-user "$TMP/user.elf"
run "$PGWALK" ps "$TMP/user.elf"
like '^>       1       1       - -    0 ' "user mode, CR3 pid 1's root: > before pid 1, CPU 0"
run "$PGWALK" ps --format=json "$TMP/user.elf"
is "$(printf '%s\n' "$out" | current)" "1:0:cr3 " "... JSON: current_cpu 0, current_by cr3, pid 1 only"

mk --threads=signal --cpu-cr3=0x603000 --cpu-user "$TMP/shared.elf"
run "$PGWALK" ps --format=json "$TMP/shared.elf"
is "$(printf '%s\n' "$out" | current)/$(printf '%s\n' "$out" | jq -r 'select(.type == "summary") | .cpu_registers')" "/1" \
	"user mode, CR3 the root three threads share (none says it is on the CPU): no task marked"

mk --threads=signal --cpu-cr3=0x1000 "$TMP/kernel.elf"
run "$PGWALK" ps --format=json "$TMP/kernel.elf"
is "$(printf '%s\n' "$out" | current)" "" "kernel mode without a saved stack pointer: no task marked"

# kthreadd is task 2: its stack 0xffff888000448000-0xffff88800044c000.
mk --threads=signal --cpu-cr3=0x1000 --cpu-sp=0xffff88800044bf00 "$TMP/stack.elf"
run "$PGWALK" ps --format=json "$TMP/stack.elf"
is "$(printf '%s\n' "$out" | current)" "2:0:stack " "kernel mode, the stack pointer in kthreadd's stack: kthreadd, by stack"
run "$PGWALK" ps "$TMP/stack.elf"
like '^>       2       2       - -    0 ' "... text: > before pid 2, CPU 0"

mk --threads=signal --cpu-cr3=0x1000 --cpu-sp=0xffff888000460000 "$TMP/nostack.elf"
run "$PGWALK" ps --format=json "$TMP/nostack.elf"
is "$(printf '%s\n' "$out" | current)" "" "a stack pointer in no task's stack: no task marked"
