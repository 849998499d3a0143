#!/bin/sh
# ps lists every thread, as crash's ps does: each process's other threads
# right after it, through signal_struct.thread_head and thread_node
# (3.14+) or the older thread_group ring (pgw-mkkernel --threads: pid 10
# has threads 11 "worker-a" and 12 "worker-b", sharing its root
# 0x603000); without thread links in BTF only the leaders, said so; a
# thread list that loops or reaches another thread group: the summary
# incomplete, exit 65, the leaders after it still listed, never a thread
# of another process.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 13

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
# pid:tgid:root:comm of every task record, in order.
tasks() { jq -r 'select(.type == "task") | "\(.pid):\(.tgid):\(.root):\(.comm)"' | tr '\n' ' '; }
all="0:0:null:swapper/0 1:1:0x601000:init 2:2:null:kthreadd 10:10:0x603000:\u001b[31mred\\x 11:10:0x603000:worker-a 12:10:0x603000:worker-b 20:20:null:lost-pgd 30:30:0x605000:sixteen-letters! "
all=$(printf '%s' "$all" | sed 's/\\u001b/\x1b/')
for how in signal group; do
	mk --threads=$how "$TMP/t.elf"
	run "$PGWALK" ps --format=json "$TMP/t.elf"
	is "$(printf '%s\n' "$out" | tasks)" "$all" \
		"$how links: every thread, each process's after it, with its own pid and comm, its tgid and root"
	printf '%s\n' "$out" | jq -s -e 'map(select(.type == "summary"))[0] |
		.tasks == 8 and .processes == 4 and .kernel_threads == 2 and
		.threads == true and .complete == true' >/dev/null
	ok $? "$how links: summary 8 tasks, 4 processes, 2 kernel threads, threads true"
done
run "$PGWALK" ps "$TMP/t.elf"
like '^# 8 tasks: 4 processes, 2 other threads, 2 kernel threads; read by vmcoreinfo\+btf; every thread$' \
	"text: the summary counts the other threads"
run "$PGWALK" ps --format=csv "$TMP/t.elf"
like '^summary,.*tasks=8 processes=4 kernel_threads=2 method=vmcoreinfo\+btf threads=true cpu_registers=0' \
	"csv: the summary's detail says threads=true"

mk "$TMP/none.elf"
run "$PGWALK" ps "$TMP/none.elf"
like '^# 6 tasks: 4 processes, 0 other threads, 2 kernel threads; read by vmcoreinfo\+btf; thread-group leaders only \(the layout has no thread links\)$' \
	"no thread links in BTF: the leaders, and the summary says so"

mk --threads=signal --thread-loop "$TMP/loop.elf"
run "$PGWALK" ps --format=json "$TMP/loop.elf"
is "$rc" 65 "a looping thread list: exit 65"
is "$(printf '%s\n' "$out" | tasks | cut -d' ' -f5-)" "11:10:0x603000:worker-a 12:10:0x603000:worker-b 20:20:null:lost-pgd 30:30:0x605000:sixteen-letters! " \
	"... the threads before the loop once, the leaders after it still listed"
printf '%s\n' "$out" | jq -s -e 'map(select(.type == "summary"))[0] |
	.complete == false and (.why | test("pid 10: its thread list loops"))' >/dev/null
ok $? "... the summary incomplete, saying where"

mk --threads=group --thread-foreign "$TMP/foreign.elf"
run "$PGWALK" ps --format=json "$TMP/foreign.elf"
is "$rc" 65 "a thread list reaching another thread group: exit 65"
is "$(printf '%s\n' "$out" | tasks | cut -d' ' -f5-)" "11:10:0x603000:worker-a 20:20:null:lost-pgd 30:30:0x605000:sixteen-letters! " \
	"... pid 12 (of thread group 1) not listed as pid 10's thread"
out=$err
like 'the thread lists are cut short: pid 10: its thread list reaches task 0xffff888000401c00 \(pid 12\) of thread group 1' \
	"... stderr says so"
