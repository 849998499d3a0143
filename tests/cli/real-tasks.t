#!/bin/sh
# Names without symbol files, on the real dumps: kallsyms decoded from the
# tables VMCOREINFO names, the kernel's BTF, and the task list read through
# pgwalk's own translation (tests/tools/pgw-tasks), against what crash
# (with the debug vmlinux) and the guest itself reported:
# - x86-64: every process of crash's process-roots.txt with its pid, comm,
#   mm and pgd_phys; the whole list equal to crash's `ps` (pid, comm,
#   kernel thread or not, task address) but for the idle tasks of the
#   other CPUs, which are not on init_task's list; the same from the raw
#   image (kallsyms tables from the VMCOREINFO text, kernel root from
#   process-roots.txt) and from the filtered kdump; kallsyms addresses
#   equal to the guest's /proc/kallsyms (console.log's PGWALK-KVAR) and to
#   VMCOREINFO; the BTF scan finds the blob __start_BTF names; the BTF
#   fuzz seed cut from x64-4l-a gives its task layout.
# - i386: kallsyms _text/_etext as the guest's /proc/kallsyms (README),
#   _stext as VMCOREINFO, and the absence of BTF (and of init_task, the
#   kernel having no CONFIG_KALLSYMS_ALL) said as such.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 44

T=$PGW_TOOLS/pgw-tasks

# crash_ps DIR: "pid comm kind task" from crash's ps, idle tasks of CPUs
# other than 0 left out; crash brackets the comm of kernel threads.
crash_ps() {
	awk '$1 ~ /^[0-9]+$/ || ($1 == ">" && $2 ~ /^[0-9]+$/) {
		if ($1 == ">") $1 = ""
		$0 = $0
		pid = $1; task = $4; comm = $9
		for (i = 10; i <= NF; i++) comm = comm " " $i
		kind = "user"
		if (comm ~ /^\[.*\]$/) { kind = "kthread"; comm = substr(comm, 2, length(comm) - 2) }
		if (pid == 0 && comm != "swapper/0") next
		print pid, comm, kind, "0x" task }' "$1/crash-ps.txt" | sort
}
# ours FILE: the same columns from pgw-tasks' output.
ours() {
	awk -F '\t' '{ print $1, $2, $4, $5 }' "$1" | sort
}
# roots DIR: "pid comm mm pgd_phys" from crash's process-roots.txt.
roots() {
	awk '$1 ~ /^pid=/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["pid"], v["comm"], v["mm"], v["pgd_phys"] }' \
		"$1/process-roots.txt" | hexnorm | sort
}
vmci() { sed -n "s/^SYMBOL($2)=\([0-9a-f]*\).*/0x\1/p" "$1/vmcoreinfo.txt" | hexnorm; }

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf
	S=$SHARED/$d
	case $d in
	x64*)
		run "$T" "$elf"
		is "$rc" 0 "$d: task list read (${err:-no error})"
		printf '%s\n' "$out" >"$TMP/tasks"
		n=$(grep -c . "$TMP/tasks")
		roots "$S" >"$TMP/want-roots"
		awk -F '\t' '$3 != "-" { print $1, $2, $6, $3 }' "$TMP/tasks" |
			sort >"$TMP/got-roots"
		is "$(comm -23 "$TMP/want-roots" "$TMP/got-roots" | tr '\n' ';')" "" \
			"$d: all $(grep -c . "$TMP/want-roots") processes of process-roots.txt: pid, comm, mm, pgd_phys"
		is "$(comm -13 "$TMP/want-roots" "$TMP/got-roots" | tr '\n' ';')" "" \
			"$d: no process with a root that crash does not list"
		crash_ps "$S" >"$TMP/want-ps"
		ours "$TMP/tasks" >"$TMP/got-ps"
		is "$(diff "$TMP/want-ps" "$TMP/got-ps" | grep '^[<>]' | head -5 | tr '\n' ';')" "" \
			"$d: all $n tasks as crash's ps: pid, comm, kernel thread, task_struct"
		is "$(awk -F '\t' '$4 == "kthread" && $3 != "-"' "$TMP/tasks")" "" \
			"$d: kernel threads have no root"

		run "$T" --simple "$elf"
		is "$out" "$(cat "$TMP/tasks")" "$d: pgw_linux_tasks gives the same list"

		kroot=$(sed -n 's/^kernel .*pgd_phys=\(0x[0-9a-f]*\).*/\1/p' "$S/process-roots.txt")
		run "$T" --vmcoreinfo="$S/vmcoreinfo.txt" --cr3="$kroot" \
			--mode="$mode" --format=raw "$UNPACKED/$d/mem.raw"
		is "$rc" 0 "$d: mem.raw: task list read (${err:-no error})"
		is "$out" "$(cat "$TMP/tasks")" \
			"$d: mem.raw with the VMCOREINFO text gives the ELF's list"

		# The guest's /proc/kallsyms (PGWALK-KVAR addr=) and VMCOREINFO.
		tr -d '\r' <"$S/console.log" |
			sed -n 's/^PGWALK-KVAR name=\([^ ]*\) addr=\(0x[0-9a-f]*\).*/\1 \2/p' |
			hexnorm | sort -u >"$TMP/want-sym"
		set -- $(cut -d' ' -f1 "$TMP/want-sym" | sed 's/^/--sym=/')
		run "$T" "$@" "$elf"
		printf '%s\n' "$out" | awk -F '\t' '{ print $1, $3 }' | sort >"$TMP/got-sym"
		is "$(diff "$TMP/want-sym" "$TMP/got-sym" | grep '^[<>]' | tr '\n' ';')" "" \
			"$d: $(grep -c . "$TMP/want-sym") kallsyms addresses as the guest's /proc/kallsyms"
		run "$T" --sym=_stext --sym=init_top_pgt --sym=init_uts_ns "$elf"
		is "$(printf '%s\n' "$out" | cut -f3 | tr '\n' ' ')" \
			"$(vmci "$S" _stext) $(vmci "$S" swapper_pg_dir) $(vmci "$S" init_uts_ns) " \
			"$d: _stext, init_top_pgt (swapper_pg_dir), init_uts_ns as VMCOREINFO"
		swapper=$(sed 's/^ *> */ /' "$S/crash-ps.txt" |
			awk '$1 == 0 && $NF == "[swapper/0]" { print "0x" $4 }' | hexnorm)
		run "$T" --sym=init_task "$elf"
		is "$(printf '%s\n' "$out" | cut -f2,3 | tr '\t' ' ')" "D $swapper" \
			"$d: init_task is crash's swapper/0 task, a data symbol"

		run "$T" --info "$elf"
		like '^kallsyms symbols=[0-9]+ data=[0-9]+ absolute_percpu=1 ' \
			"$d: kallsyms with absolute percpu offsets (x86-64 SMP)"
		like '^btf va=0x[0-9a-f]+ size=[0-9]+ types=[0-9]+ how=kallsyms __start_BTF' \
			"$d: BTF between __start_BTF and __stop_BTF"
		btf=$(printf '%s\n' "$out" | sed -n 's/^btf \(va=[^ ]* size=[^ ]* types=[^ ]*\).*/\1/p')
		lay=$(printf '%s\n' "$out" | grep '^layout ')
		if [ "$d" = x64-4l-a ]; then
			run "$T" --btf-blob="$REPO/fuzz/corpus/kernel_btf/x86-64-cut"
			is "$out" "$lay" "$d: the BTF fuzz seed cut from it has its task layout"
		fi
		run "$T" --info --scan "$elf"
		like "^btf $btf how=found by scanning" \
			"$d: the scan finds the same BTF ($btf)"
		;;
	*)
		run "$T" --sym=_text --sym=_etext --sym=_stext --sym=init_task "$elf"
		is "$rc" 0 "$d: kallsyms decoded (${err:-no error})"
		want=$(sed -n 's/.*kallsyms _text = \(0x[0-9a-f]*\), _etext = \(0x[0-9a-f]*\).*/\1 \2/p' "$S/README.txt")
		is "$(printf '%s\n' "$out" | sed -n '1,2p' | cut -f3 | tr '\n' ' ')" "$want " \
			"$d: _text and _etext as the guest's /proc/kallsyms ($want)"
		is "$(printf '%s\n' "$out" | sed -n 3p | cut -f2,3 | tr '\t' ' ')" \
			"T $(vmci "$S" _stext)" "$d: _stext as VMCOREINFO, a text symbol"
		is "$(printf '%s\n' "$out" | sed -n 4p)" "init_task	-	-" \
			"$d: no init_task (text symbols only)"
		run "$T" --info "$elf"
		like '^kallsyms symbols=[0-9]+ data=[01] absolute_percpu=0 ' \
			"$d: kallsyms: base-relative offsets, no data symbols"
		# No BTF, no init_task: the layout is inferred instead
		# (real-infer.t holds it to the guest's ps).
		run "$T" --simple "$elf"
		is "$rc:$(printf '%s\n' "$out" | grep -c .)" "0:60" \
			"$d: the task list all the same (60 tasks, the layout inferred)"
		run "$T" "$elf"
		case $err in
		*"no BTF: the kernel was built without CONFIG_DEBUG_INFO_BTF"*)
			ok 0 "$d: BTF's absence said as such" ;;
		*) ok 1 "$d: BTF's absence said as such"; echo "#   $err" ;;
		esac
		;;
	esac
done

# The filtered kdump (makedumpfile -d 31 keeps kernel data): the same.
kd=$SHARED/x64-4l-a/vmcore-d31.kdump
if [ -f "$kd" ]; then
	run "$T" "$UNPACKED/x64-4l-a/vmcore.elf"
	want=$out
	run "$T" "$kd"
	is "$out" "$want" "x64-4l-a: vmcore-d31.kdump gives the ELF's list (${err:-no error})"
fi

done_testing
