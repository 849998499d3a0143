#!/bin/sh
# Processes named without BTF, on the real dumps: the task layout inferred
# from the image (pgw_task_layout_infer, anchored on init_task's comm
# "swapper/0") against independent oracles:
# - i386 (no BTF, no init_task in kallsyms): every task the guest's own ps
#   listed (console.log's PGWALK-PS: pid, ppid, comm; kworkers' comm there
#   carries the workqueue after a '-'; ps itself had exited), and the
#   process roots `pgwalk roots` names from the ELF, the raw image and
#   (PAE) QEMU's kdump, each CPU's CR3 on the process the README says it
#   runs; the method said as inferred-layout in the summary and -v.
# - x86-64 (which has BTF, the inference forced by pgw-tasks --infer): the
#   inferred layout equal to BTF's field by field, init_task to kallsyms',
#   the task list to the BTF one, and every ppid to crash's ps.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"

T=$PGW_TOOLS/pgw-tasks
[ -x "$T" ] || bail "pgw-tasks is not built"
plan 23

# console_ps DIR: "pid ppid comm" of the guest's ps but ps itself.
console_ps() {
	awk '/^PGWALK-PS-BEGIN/ { f = 1; next } /^PGWALK-PS-END/ { f = 0 }
	     f && $1 ~ /^[0-9]+$/ && $3 != "ps" { print $1, $2, $3 }' \
		"$1/console.log" | sort -n
}
# procs DIR NAME: the pid console.log's PGWALK-PROCS gives NAME.
procs() {
	sed -n "s/^PGWALK-PROCS .*\\b$2=\\([0-9]*\\).*/\\1/p" "$1/console.log"
}
# cr3 DIR CPU: the table of CPU's CR3 (registers-cpuN.txt).
cr3() {
	sed -n 's/.*CR3=\([0-9a-f]*\).*/0x\1/p' "$1/registers-cpu$2.txt" |
		head -1 | hexnorm
}

for d in i386-2l-a i386-pae-a; do
	S=$SHARED/$d
	U=$UNPACKED/$d
	# Ours: pid ppid comm, swapper/0 (pid 0, which ps does not list)
	# aside; a kworker's comm the prefix of ps's before its '-'.
	run "$T" --infer "$U/vmcore.elf"
	printf '%s\n' "$out" | awk -F '\t' '$1 != 0 { print $1, $7, $2 }' |
		sort -n >"$TMP/ours"
	console_ps "$S" >"$TMP/ps"
	n=$(wc -l <"$TMP/ps")
	bad=$(awk 'NR == FNR { want[$1] = $2 " " $3; next }
		{ split(want[$1], w, " ")
		  if (!($1 in want) || w[1] != $2 ||
		      !(w[2] == $3 || index(w[2], $3 "-") == 1)) print
		  delete want[$1] }
		END { for (p in want) print "missing", p, want[p] }' \
		"$TMP/ps" "$TMP/ours")
	[ "$rc" = 0 ] && [ "$n" -ge 55 ] && [ -z "$bad" ]
	ok $? "$d: inferred task list = the guest's ps ($n tasks: pid, ppid, comm)"
	[ -z "$bad" ] || printf '%s\n' "$bad" | head -5 | sed 's/^/#   /'

	spin=$(procs "$S" spin)
	for img in vmcore.elf mem.raw; do
		run "$PGWALK" roots -v "$U/$img"
		named=$(printf '%s\n' "$out" |
			awk '$2 == "process" && $3 ~ /^[0-9]+$/ { print $3, $4 }' |
			sort -n | tr '\n' ' ')
		want=$(for p in $(sed -n 's/^PGWALK-PROCS //p' "$S/console.log" |
				tr ' ' '\n' | sed 's/.*=//'); do
			awk -v p="$p" '$1 == p { print $1, $3 }' "$TMP/ps"
		done | sort -n | tr '\n' ' ')
		[ "$rc" = 0 ] && [ "$named" = "$want" ]
		ok $? "$d $img: roots names the 7 processes as console.log: $named"
		like "named by the task list \\(60 tasks, 7 with an mm; inferred-layout\\)" \
			"$d $img: ... by the inferred layout, says the summary"
		out=$err
		like '^pgwalk: names: inferred layout: init_task 0x[0-9a-f]+ \(its comm at 0x[0-9a-f]+\), a ring of 60 tasks' \
			"$d $img: ... and -v says how"
	done
	# The CPUs: CPU 0 idles on init's mm (lazy TLB), CPU 1 runs pgw-spin.
	run "$PGWALK" roots "$U/vmcore.elf"
	r0=$(cr3 "$S" 0); r1=$(cr3 "$S" 1)
	got=$(printf '%s\n' "$out" | awk -v a="$r0" -v b="$r1" '
		{ r = $1; sub(/^0x0*/, "0x", r) }
		r == a || r == b { print r, $3 }' | sort | tr '\n' ' ')
	want=$(printf '%s 1\n%s %s\n' "$r0" "$r1" "$spin" | sort | tr '\n' ' ')
	is "$got" "$want" "$d: CPU 0's CR3 is init's root, CPU 1's pgw-spin's (pid $spin)"
done
# QEMU's kdump of the PAE guest: the same names.
run "$PGWALK" roots "$SHARED/i386-pae-a/vmcore.kdump-zlib"
named=$(printf '%s\n' "$out" | awk '$2 == "process" { print $3, $4 }' |
	sort -n | tr '\n' ' ')
run "$PGWALK" roots "$UNPACKED/i386-pae-a/vmcore.elf"
want=$(printf '%s\n' "$out" | awk '$2 == "process" { print $3, $4 }' |
	sort -n | tr '\n' ' ')
[ -n "$named" ] && [ "$named" = "$want" ]
ok $? "i386-pae-a kdump: the same processes named as from the ELF: $named"

for d in x64-4l-a x64-5l-a; do
	S=$SHARED/$d
	E=$UNPACKED/$d/vmcore.elf
	btf=$("$T" --info "$E" | sed -n 's/^layout task_size=[0-9]* /layout /p')
	inf=$("$T" --infer --info "$E")
	kinit=$("$T" --sym=init_task "$E" | cut -f3)
	[ -n "$btf" ] &&
		[ "$(printf '%s\n' "$inf" | sed -n 's/^layout task_size=0 /layout /p')" = "$btf" ] &&
		printf '%s\n' "$inf" | grep -q "^init_task $kinit "
	ok $? "$d: the inferred layout is BTF's, field by field, and init_task kallsyms' ($kinit)"
	"$T" "$E" | sort >"$TMP/btf"
	"$T" --infer "$E" >"$TMP/inf"
	cut -f1-6 "$TMP/inf" | sort | cmp -s - "$TMP/btf"
	ok $? "$d: the inferred task list is the BTF one ($(wc -l <"$TMP/btf") tasks: pid, comm, root, kind, task, mm)"
	# crash's ps: PID PPID CPU TASK ...; ours: pid, task, ppid.
	bad=$(awk 'NR == FNR { if ($1 == ">") { $1 = "" ; $0 = $0 }
			if ($1 ~ /^[0-9]+$/) ppid["0x" $4] = $2; next }
		{ if (!($5 in ppid) || ppid[$5] != $7) print }' \
		"$S/crash-ps.txt" FS='\t' "$TMP/inf")
	[ -z "$bad" ] && [ -s "$TMP/inf" ]
	ok $? "$d: every inferred ppid is crash's"
	[ -z "$bad" ] || printf '%s\n' "$bad" | head -3 | sed 's/^/#   /'
done
