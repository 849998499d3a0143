#!/bin/sh
# The task layout inferred without BTF, on the synthetic kernel of
# tests/tools/pgw-mkkernel --no-btf (ksynth.h's inferable layout, whose
# offsets the tool wrote, and kallsyms of text symbols only, so neither
# BTF nor init_task): the offsets found are the ones written, the
# processes named, the method said; a kernel whose list lies (two tasks
# with one pid, a list that loops) names nothing and says why.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 18

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }

mk --no-btf "$TMP/k.elf"
run "$PGW_TOOLS/pgw-tasks" --infer --info "$TMP/k.elf"
is "$out" "init_task 0xffffffff80300000 real_parent=56
layout task_size=0 tasks=16 next=0 pid=48 tgid=52 comm=80/16 flags=4/4 mm=32 pgd=72" \
	"the inferred offsets are the ones ksynth.h wrote, init_task where it put it"
run "$PGWALK" roots "$TMP/k.elf"
is "$rc:$err" "0:" "roots exits 0, nothing on stderr"
is "$(printf '%s\n' "$out" | awk '$2 == "process" { print $1, $3, $4 }' | tr '\n' ' ')" \
	'0x601000 1 init 0x603000 10 \x1b[31mred\\x 0x604000 20 lost-pgd 0x605000 30 fifteen-letters ' \
	"every process root named: pid and comm (an escape sequence escaped)"
like '4 named by the task list \(6 tasks, 4 with an mm; inferred-layout\)' \
	"... by the inferred layout, says the summary"
run "$PGWALK" roots --format=json "$TMP/k.elf"
like '^\{"type":"names","complete":true,"tasks":6,"processes":4,"roots_named":4,"method":"inferred-layout","method_why":"inferred layout: init_task 0xffffffff80300000 ' \
	"JSON: the names record says the method and how"
run "$PGW_TOOLS/pgw-tasks" --infer "$TMP/k.elf"
is "$(printf '%s\n' "$out" | cut -f1,7 | tr '\t\n' ': ')" "0:0 1:0 2:0 10:1 20:1 30:1 " \
	"ppids from real_parent: init_task's own 0, kthreadd's 0, init's children 1"
run "$PGWALK" translate --pid=10 --format=tsv "$TMP/k.elf" 0x400000
is "$rc:$(printf '%s\n' "$out" | tail -1 | cut -f2)" "0:0x703000" \
	"--pid=10 through the inferred task list: its page at 0x703000"
run "$PGWALK" info "$TMP/k.elf"
like '^names: +6 tasks, 4 with an mm, by inferred-layout \(inferred layout: ' \
	"info says how the processes are named"
mk --no-btf --raw "$TMP/k.raw"
run "$PGWALK" roots "$TMP/k.raw"
like '4 named by the task list \(6 tasks, 4 with an mm; inferred-layout\)' \
	"a raw image (VMCOREINFO in memory): the same"

# Lies: nothing named, and why.
mk --no-btf --dup-pid "$TMP/dup.elf"
run "$PGWALK" roots "$TMP/dup.elf"
like 'unnamed \(no task list\)' "pid 30 claims pid 10 too: nothing named"
out=$err
like 'inferred layout: pid/tgid: no offset fits$' "... and stderr says which check failed"
run "$PGWALK" ps --format=json "$TMP/dup.elf"
is "$rc:$(printf '%s\n' "$out" | jq -c '[.type, .tasks, .method, .complete]')" \
	'0:["summary",0,null,false]' \
	"ps of that kernel: no task, no method, incomplete, exit 0 (why on stderr and in the summary)"
mk --no-btf --loop "$TMP/loop.elf"
run "$PGWALK" roots "$TMP/loop.elf"
like 'unnamed \(no task list\)' "a task list that loops: nothing named"
out=$err
like 'inferred layout: no ring of tasks through a list_head near comm 0xffffffff80300050$' \
	"... and stderr says so"

# task_struct.stack, before usage and flags: kept when every task's is
# THREAD_SIZE-aligned and unlike the others' (KS_STACK(i): 16 KiB each
# from 0xffff888000440000), and then a CPU in kernel mode whose stack
# pointer lies in kthreadd's (task 2) marks it running.
mk --no-btf --infer-stack --cpu-cr3=0x1000 --cpu-sp=0xffff88800044bf00 "$TMP/stack.elf"
run "$PGWALK" ps -v --format=json "$TMP/stack.elf"
like 'flags \+116, stack \+104; ' "the inferred layout has task_struct.stack at +104, said in -v"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "task" and .current_cpu != null) | "\(.pid) \(.current_cpu) \(.current_by)"')" \
	"2 0 stack" "a stack pointer in kthreadd's stack marks kthreadd, by stack"
mk --no-btf --cpu-cr3=0x1000 --cpu-sp=0xffff88800044bf00 "$TMP/nostack.elf"
run "$PGWALK" ps -v --format=json "$TMP/nostack.elf"
like 'flags \+4, no stack; ' "flags at +4 leaves no room for stack and usage before it: no stack, said"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "task" and .current_cpu != null) | .pid')" "" \
	"... and without it the same stack pointer marks no task"
