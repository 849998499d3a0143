#!/bin/sh
# Time to name the processes of a real dump from the image alone
# (tests/tools/pgw-tasks): decode kallsyms, read and parse the kernel's
# BTF, walk the task list and translate each mm->pgd -- what a `roots`
# command pays before its own work, on the 128 MiB x86-64 guests, from
# the ELF core, from the raw image (kallsyms tables from the VMCOREINFO
# text), and from the zlib kdump (its pages decompressed).  Wall time is
# the best of N runs with the process start; CPU time per phase is the
# tool's own (--time, CLOCK_PROCESS_CPUTIME_ID) from the fastest run.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${PGW_BENCH_RUNS:-20}
T=$PGW_TOOLS/pgw-tasks

report() {  # report WHAT ARGS...
	what=$1
	shift
	ms=$(best_ms "$RUNS" "$T" "$@")
	kb=$(measure /dev/null /dev/null "$T" "$@" | cut -d' ' -f3)
	phases=$("$T" --time "$@" 2>&1 >/dev/null | sed -n 's/^time kallsyms/kallsyms/p')
	tasks=$("$T" "$@" 2>/dev/null | wc -l)
	printf '%-30s %8s ms %7s KiB %4s tasks  %s\n' "$what" "$ms" "$kb" \
		"$tasks" "$phases"
}

if [ -d "$SHARED" ] && sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null 2>&1; then
	printf '%-30s %11s %11s %10s  %s\n' "task list (best of $RUNS)" "wall" \
		"peak RSS" "" "CPU ms per phase"
	for dump in x64-4l-a x64-5l-a; do
		S=$SHARED/$dump
		[ -f "$UNPACKED/$dump/vmcore.elf" ] || continue
		mode=x86-64
		[ "$dump" = x64-5l-a ] && mode=la57
		root=$(sed -n 's/^kernel .*pgd_phys=\(0x[0-9a-f]*\).*/\1/p' \
			"$S/process-roots.txt")
		report "$dump ELF" "$UNPACKED/$dump/vmcore.elf"
		report "$dump raw + VMCOREINFO text" \
			--vmcoreinfo="$S/vmcoreinfo.txt" --cr3="$root" \
			--mode=$mode --format=raw "$UNPACKED/$dump/mem.raw"
		[ -f "$S/vmcore-d31.kdump" ] &&
			report "$dump kdump -d 31 (zlib)" "$S/vmcore-d31.kdump"
	done
else
	echo "(no ../shared/testdata: nothing to measure)"
fi
