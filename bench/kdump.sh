#!/bin/sh
# kdump vs ELF of the same guest state (x64-4l-a): 1 M random addresses
# (tests/tools/pgw-randaddr over CPU 1's address space, half mapped, half
# holes) through `pgwalk translate --format=tsv -`, a whole walk of CPU 1's
# address space (tests/tools/pgw-walkcount, in a fresh process, so every
# table page is decoded once), and peak RSS, for the ELF core, the zlib
# -d 31 kdump, its flattened form, and kdumps of the same memory this
# script writes with lzo, snappy and zstd.  Every image is walked from CPU
# 1's CR3 given as --cr3 with --mode, so all do the same work.  RSS: the
# peak (time's %M, which counts the file pages mapped, and the kernel may
# map a large page-cache folio for one page touched) and the process's own
# memory (RssAnon, polled).  A benchmark: it never fails.
# Environment: PGWALK, PGW_TOOLS (set by make bench), BENCH_N (1000000),
# BENCH_RUNS (3: the fastest run counts).
. "$(dirname "$0")/lib/measure.sh"
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-3}
d=x64-4l-a

if [ ! -d "$SHARED/$d" ]; then
	echo "kdump: no real dumps ($SHARED); nothing to measure"
	exit 0
fi
sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null || exit 1
elf=$UNPACKED/$d/vmcore.elf

"$PGW_TOOLS/pgw-randaddr" -n "$n" -c 1 "$elf" >"$TMP/addrs" 2>"$TMP/gen" ||
	{ cat "$TMP/gen"; exit 1; }
cr3=$("$PGWALK" info --format=json "$elf" |
	sed -E 's/.*"cpu":1,"registers":\{"cr0":"[^"]*","cr3":"([^"]*)".*/\1/')

# anon_kib IMAGE ARGS...: peak RssAnon of a translate run, polled.
anon_kib() {
	img=$1
	shift
	(cat "$TMP/addrs"; sleep 0.3) |
		"$PGWALK" translate --format=tsv "$@" "$img" - >/dev/null &
	peak_status $! RssAnon   # $!: the last command of the pipeline, pgwalk
	echo "$PEAK"
}

# walk_ms IMAGE: CPU 1's whole address space, fresh process, in ms.
walk_ms() {
	"$PGW_TOOLS/pgw-walkcount" "$1" "$cr3" 2>/dev/null |
		sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' | awk '{ printf "%.2f", $1 * 1000 }'
}

row() { # NAME IMAGE ARGS...
	name=$1
	img=$2
	shift 2
	# shellcheck disable=SC2046,SC2086  # three numbers; PIN is a command
	set -- $(best_of "$runs" "$TMP/addrs" $PIN "$PGWALK" translate \
		--format=tsv "$@" "$img" -) "$@"
	best_cpu=$1 best_wall=$2 rss=$3
	shift 3
	walk=1e9
	i=0
	while [ "$i" -lt "$runs" ]; do
		walk=$(min "$(walk_ms "$img")" "$walk")
		i=$((i + 1))
	done
	anon=$(anon_kib "$img" "$@")
	size=$(du -m "$img" | cut -f1)
	awk -v nm="$name" -v s="$size" -v n="$n" -v c="$best_cpu" -v w="$best_wall" \
		-v r="$rss" -v a="$anon" -v wk="$walk" \
		'BEGIN { printf "%-28s %6d %9.2f %10.2f %8s %9d %9d\n", nm, s,
			 n / (c > 0 ? c : 1e-9) / 1e6, n / (w > 0 ? w : 1e-9) / 1e6, wk, r, a }'
}

root="--mode=x86-64 --cr3=$cr3"
printf '%-28s %6s %9s %10s %8s %9s %9s\n' image MiB "M/s(cpu)" "M/s(wall)" \
	"walk ms" "peak KiB" "anon KiB"
row "ELF vmcore.elf" "$elf" $root
row "kdump zlib -d 31" "$SHARED/$d/vmcore-d31.kdump" $root
row "kdump zlib -d 31, flattened" "$SHARED/$d/vmcore-d31-zlib.flat" $root
for c in lzo snappy zstd; do
	"$PGW_TOOLS/pgw-mkdump" kdump --raw="$UNPACKED/$d/mem.raw" --codec=$c \
		"$TMP/k-$c" >/dev/null 2>&1 || continue
	row "kdump $c (all pages)" "$TMP/k-$c" $root
	rm -f "$TMP/k-$c"
done
echo "(fastest of $runs runs of $n addresses, pinned to one core; walk = whole"
echo " address space of CPU 1 in a fresh process, every table decoded once;"
echo " $(sed 's/^pgw-randaddr: //' "$TMP/gen"))"
