#!/bin/sh
# pgwalk maps --all against pgwalk roots on the 128 MiB x86-64 guests
# (issue 35: maps within 2x roots): every process's VMAs and paths read
# through BTF, and with --smaps each VMA measured against the page
# tables, from the ELF core, the raw image and the zlib kdump.  Wall time
# is the best of N runs with the process start.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${PGW_BENCH_RUNS:-20}

if [ -d "$SHARED" ] && sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null 2>&1; then
	printf '%-28s %10s %10s %14s %7s\n' "best of $RUNS, ms" roots maps \
		"maps --smaps" "ratio"
	for dump in x64-4l-a x64-5l-a; do
		for img in "$UNPACKED/$dump/vmcore.elf" "$UNPACKED/$dump/mem.raw" \
			   "$SHARED/$dump/vmcore-d31.kdump"; do
			[ -f "$img" ] || continue
			r=$(best_ms "$RUNS" "$PGWALK" roots "$img")
			m=$(best_ms "$RUNS" "$PGWALK" maps --all "$img")
			s=$(best_ms "$RUNS" "$PGWALK" maps --smaps "$img")
			printf '%-28s %10s %10s %14s %6sx\n' \
				"$dump ${img##*/}" "$r" "$m" "$s" \
				"$(awk -v a="$m" -v b="$r" 'BEGIN { printf "%.2f", a / b }')"
		done
	done
else
	echo "(no ../shared/testdata: nothing to measure)"
fi
