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
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
PGWALK=${PGWALK:-$repo/build/pgwalk}
PGW_TOOLS=${PGW_TOOLS:-$repo/build/tools}
shared=${PGW_SHARED:-$repo/../shared/testdata}
unpacked=${PGW_UNPACKED:-$repo/build/unpacked}
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-3}
d=x64-4l-a

if [ ! -d "$shared/$d" ]; then
	echo "kdump: no real dumps ($shared); nothing to measure"
	exit 0
fi
sh "$shared/unpack.sh" "$unpacked" >/dev/null || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
elf=$unpacked/$d/vmcore.elf
timer=
if /usr/bin/time -f '%e' true 2>/dev/null; then
	timer=/usr/bin/time
else
	echo "(no /usr/bin/time: RSS from VmHWM, polled; apt-get install time)"
fi
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

"$PGW_TOOLS/pgw-randaddr" -n "$n" -c 1 "$elf" >"$tmp/addrs" 2>"$tmp/gen" ||
	{ cat "$tmp/gen"; exit 1; }
cr3=$("$PGWALK" info --format=json "$elf" |
	sed -E 's/.*"cpu":1,"cr0":"[^"]*","cr3":"([^"]*)".*/\1/')

# measure IMAGE ARGS...: one run; prints "cpu_seconds wall_seconds peak_kib".
measure() {
	img=$1
	shift
	if [ -n "$timer" ]; then
		$pin $timer -f '%U %S %e %M' -o "$tmp/t" "$PGWALK" translate \
			--format=tsv "$@" "$img" - <"$tmp/addrs" >/dev/null
		tail -n 1 "$tmp/t" |
			awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }'
	else
		start=$(date +%s.%N)
		$pin "$PGWALK" translate --format=tsv "$@" "$img" - \
			<"$tmp/addrs" >/dev/null &
		pid=$! hwm=0
		while kill -0 "$pid" 2>/dev/null; do
			v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' \
				"/proc/$pid/status" 2>/dev/null)
			[ -n "$v" ] && hwm=$v
			sleep 0.01
		done
		wait "$pid"
		end=$(date +%s.%N)
		awk -v s="$start" -v e="$end" -v m="$hwm" \
			'BEGIN { printf "%.3f %.3f %d\n", e - s, e - s, m }'
	fi
}

# anon_kib IMAGE ARGS...: peak RssAnon of a translate run, polled.
anon_kib() {
	img=$1
	shift
	(cat "$tmp/addrs"; sleep 0.3) |
		"$PGWALK" translate --format=tsv "$@" "$img" - >/dev/null &
	pid=$! hwm=0   # the last command of the pipeline: pgwalk
	while kill -0 "$pid" 2>/dev/null; do
		v=$(sed -n 's/^RssAnon:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status" 2>/dev/null)
		[ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
		sleep 0.02
	done
	wait
	echo "$hwm"
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
	best_cpu= best_wall= rss=0 walk=
	i=0
	while [ "$i" -lt "$runs" ]; do
		set -- $(measure "$img" "$@") "$@"
		best_cpu=$(awk -v a="$1" -v b="${best_cpu:-1e9}" 'BEGIN { print (a < b ? a : b) }')
		best_wall=$(awk -v a="$2" -v b="${best_wall:-1e9}" 'BEGIN { print (a < b ? a : b) }')
		[ "$3" -gt "$rss" ] && rss=$3
		shift 3
		w=$(walk_ms "$img")
		walk=$(awk -v a="$w" -v b="${walk:-1e9}" 'BEGIN { print (a < b ? a : b) }')
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
row "kdump zlib -d 31" "$shared/$d/vmcore-d31.kdump" $root
row "kdump zlib -d 31, flattened" "$shared/$d/vmcore-d31-zlib.flat" $root
for c in lzo snappy zstd; do
	"$PGW_TOOLS/pgw-mkdump" kdump --raw="$unpacked/$d/mem.raw" --codec=$c \
		"$tmp/k-$c" >/dev/null 2>&1 || continue
	row "kdump $c (all pages)" "$tmp/k-$c" $root
	rm -f "$tmp/k-$c"
done
echo "(fastest of $runs runs of $n addresses, pinned to one core; walk = whole"
echo " address space of CPU 1 in a fresh process, every table decoded once;"
echo " $(sed 's/^pgw-randaddr: //' "$tmp/gen"))"
