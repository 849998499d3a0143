#!/bin/sh
# `pgwalk ps` on the real dumps, against independent oracles:
# - x86-64: crash's ps (crash-ps.txt, with the kernel's debug info): every
#   task's pid, ppid, comm, state (RU IN ID ...), CPU, task_struct and the
#   running mark (crash's ">"), but the idle tasks of the other CPUs (not
#   on init_task's list); each process's root is crash's pgd_phys
#   (process-roots.txt); from the ELF, the raw image and (x64-4l-a) the
#   filtered kdump alike; and with the CPUs' registers (not in the raw
#   image) the tasks they show running are crash's ">" ones.
# - i386 (no BTF: the layout inferred): the guest's own ps in console.log
#   (pid, ppid, comm; ps itself had exited, and a kworker's comm there
#   carries its workqueue after a '-'), from the ELF, the raw image and
#   (PAE) QEMU's kdump; the task CPU 1's user-mode CR3 shows running is
#   the one README.txt names.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 26

# crash_ps DIR: "pid ppid comm state cpu task running" from crash's ps,
# the other CPUs' idle tasks left out; kernel threads' [comm] unbracketed.
crash_ps() {
	awk '$1 ~ /^[0-9]+$/ || ($1 == ">" && $2 ~ /^[0-9]+$/) {
		run = "false"
		if ($1 == ">") { $1 = ""; $0 = $0; run = "true" }
		comm = $9
		for (i = 10; i <= NF; i++) comm = comm " " $i
		if (comm ~ /^\[.*\]$/) comm = substr(comm, 2, length(comm) - 2)
		if ($1 == 0 && comm != "swapper/0") next
		print $1, $2, comm, $5, $3, "0x" $4, run }' "$1/crash-ps.txt" | sort
}
# ours FILE: the same columns from ps --format=tsv (task rows).
ours() {
	awk -F '\t' '$1 == "task" { print $2, $4, $5, $6, $7, $12, $8 }' "$1" |
		sort
}
# crash_counts DIR: "tasks=N processes=P kernel_threads=K" of crash's ps
# (the other CPUs' idle tasks left out, kernel threads bracketed).
crash_counts() {
	awk '($1 ~ /^[0-9]+$/ || ($1 == ">" && $2 ~ /^[0-9]+$/)) {
		if ($1 == ">") { $1 = ""; $0 = $0 }
		if ($1 == 0 && $9 != "[swapper/0]") next
		n++; k += $9 ~ /^\[/ }
		END { printf "tasks=%d processes=%d kernel_threads=%d\n", n, n - k, k }' \
		"$1/crash-ps.txt"
}
# crash_roots DIR: "pid root" per process of process-roots.txt.
crash_roots() {
	awk '$1 ~ /^pid=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["pid"], v["pgd_phys"] }' "$1/process-roots.txt" |
		hexnorm | sort
}

for d in x64-4l-a x64-5l-a; do
	S=$SHARED/$d
	crash_ps "$S" >"$TMP/crash"
	crash_roots "$S" >"$TMP/croots"
	imgs="$UNPACKED/$d/vmcore.elf $UNPACKED/$d/mem.raw"
	[ "$d" = x64-4l-a ] && imgs="$imgs $S/vmcore-d31.kdump"
	for img in $imgs; do
		"$PGWALK" ps --format=tsv "$img" >"$TMP/ps.tsv" 2>"$TMP/err"
		rc=$?
		ours "$TMP/ps.tsv" >"$TMP/ours"
		agree "$d $(basename "$img"): ps = crash's ps (pid ppid comm state cpu task running; exit $rc)" \
			"$TMP/crash" "$TMP/ours"
		awk -F '\t' '$1 == "task" && $14 ~ /^0x/ { print $2, $14 }' \
			"$TMP/ps.tsv" | sort >"$TMP/roots"
		agree "$d $(basename "$img"): every process's root is crash's pgd_phys" \
			"$TMP/croots" "$TMP/roots"
		# The summary's counts: crash brackets kernel threads' comms.
		is "$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "detail") c = i }
			$1 == "summary" { print $c }' "$TMP/ps.tsv" |
			sed 's/ method=.*//')" "$(crash_counts "$S")" \
			"$d $(basename "$img"): the summary counts crash's tasks, processes and kernel threads"
		# The CPUs' saved registers (not in a raw image): the tasks
		# they show running are crash's ">" ones, on crash's CPU.
		[ "$(basename "$img")" = mem.raw ] && continue
		awk '$7 == "true" { print $1, $5 }' "$TMP/crash" >"$TMP/cur.want"
		awk -F '\t' '$1 == "task" && $9 ~ /^[0-9]+$/ { print $2, $9 }' \
			"$TMP/ps.tsv" | sort >"$TMP/cur"
		agree "$d $(basename "$img"): the tasks the CPUs' registers show running are crash's > ones ($(tr '\n' ' ' <"$TMP/cur.want"))" \
			"$TMP/cur.want" "$TMP/cur"
	done
done

# console_ps DIR: "pid ppid comm" of the guest's ps but ps itself.
console_ps() {
	awk '/^PGWALK-PS-BEGIN/ { f = 1; next } /^PGWALK-PS-END/ { f = 0 }
	     f && $1 ~ /^[0-9]+$/ && $3 != "ps" { print $1, $2, $3 }' \
		"$1/console.log" | sort -n
}
for d in i386-2l-a i386-pae-a; do
	S=$SHARED/$d
	console_ps "$S" >"$TMP/want"
	imgs="$UNPACKED/$d/vmcore.elf $UNPACKED/$d/mem.raw"
	[ "$d" = i386-pae-a ] && imgs="$imgs $S/vmcore.kdump-zlib"
	for img in $imgs; do
		"$PGWALK" ps --format=json "$img" >"$TMP/ps.json" 2>/dev/null
		rc=$?
		jq -r 'select(.type == "task" and .pid != 0) |
			"\(.pid) \(.ppid) \(.comm)"' "$TMP/ps.json" |
			sort -n >"$TMP/ours"
		bad=$(awk 'NR == FNR { want[$1] = $2 " " $3; next }
			{ split(want[$1], w, " ")
			  if (!($1 in want) || w[1] != $2 ||
			      !(w[2] == $3 || index(w[2], $3 "-") == 1)) print
			  delete want[$1] }
			END { for (p in want) print "missing", p }' \
			"$TMP/want" "$TMP/ours")
		[ "$rc" = 0 ] && [ -z "$bad" ] &&
			[ "$(wc -l <"$TMP/ours")" = "$(wc -l <"$TMP/want")" ]
		ok $? "$d $(basename "$img"): ps = the guest's ps ($(wc -l <"$TMP/want") tasks: pid, ppid, comm; the layout inferred)"
		[ -z "$bad" ] || printf '%s\n' "$bad" | head -3 | sed 's/^/#   /'
		# CPU 1 spins in user mode: its CR3 is the root of the pid
		# README.txt names; CPU 0 halts in the kernel (CPL=0 HLT=1):
		# CPU 0's idle task, init_task, found by ESP in its stack.
		[ "$(basename "$img")" = mem.raw ] && continue
		grep -q '^cpu0: .* CPL=0 HLT=1$' "$S/README.txt" ||
			bail "$d: README.txt does not say cpu0 halted in the kernel"
		want=$(sed -n '/^cpu1: CR3=/{n;s/.*CR3 belongs to pid \([0-9]*\) .*/0 0 stack\
\1 1 cr3/p}' "$S/README.txt")
		got=$(jq -r 'select(.type == "task" and .current_cpu != null) |
			"\(.pid) \(.current_cpu) \(.current_by)"' "$TMP/ps.json")
		[ -n "$want" ] || bail "$d: README.txt names no pid for cpu1's CR3"
		is "$got" "$want" "$d $(basename "$img"): the tasks the CPUs' registers show running: cpu0's idle swapper/0, cpu1's CR3 owner ($(echo $want))"
	done
done
