#!/bin/sh
# Batch translation speed: 1 M random addresses (half in mapped pages, half
# in holes, drawn by tests/tools/pgw-randaddr from a range walk of CPU 1's
# address space) through `pgwalk translate --format=tsv -` on each real
# dump's vmcore.elf (mmapped ELF).  Reports addresses per second of CPU
# time (one core: pgwalk is single-threaded) and of wall time, and peak
# RSS.  Target: >= 5 M/s, RSS < 16 MiB.  A benchmark: it never fails.
# Environment: PGWALK, PGW_TOOLS (set by make bench), BENCH_N (1000000),
# BENCH_RUNS (5: the fastest run counts), BENCH_DUMPS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
PGWALK=${PGWALK:-$repo/build/pgwalk}
PGW_TOOLS=${PGW_TOOLS:-$repo/build/tools}
shared=${PGW_SHARED:-$repo/../shared/testdata}
unpacked=${PGW_UNPACKED:-$repo/build/unpacked}
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-5}
dumps=${BENCH_DUMPS:-x64-4l-a x64-5l-a i386-2l-a i386-pae-a}

if [ ! -d "$shared" ]; then
	echo "translate: no real dumps ($shared); nothing to measure"
	exit 0
fi
sh "$shared/unpack.sh" "$unpacked" >/dev/null || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timer=
if /usr/bin/time -f '%e' true 2>/dev/null; then
	timer=/usr/bin/time
else
	echo "(no /usr/bin/time: RSS from VmHWM, polled; apt-get install time)"
fi
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"

# measure IMAGE: one run; prints "cpu_seconds wall_seconds peak_kib".
measure() {
	if [ -n "$timer" ]; then
		$pin $timer -f '%U %S %e %M' -o "$tmp/t" "$PGWALK" translate \
			--format=tsv --cpu=1 "$1" - <"$tmp/addrs" >/dev/null
		# (time(1) puts "Command exited with non-zero status" first.)
		tail -n 1 "$tmp/t" |
			awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }'
	else
		start=$(date +%s.%N)
		$pin "$PGWALK" translate --format=tsv --cpu=1 "$1" - \
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
		# No per-process CPU time without time(1): wall time twice.
		awk -v s="$start" -v e="$end" -v m="$hwm" \
			'BEGIN { printf "%.3f %.3f %d\n", e - s, e - s, m }'
	fi
}

printf '%-11s %10s %12s %12s %9s\n' dump addresses "M/s (cpu)" "M/s (wall)" "RSS KiB"
for d in $dumps; do
	img=$unpacked/$d/vmcore.elf
	[ -f "$img" ] || continue
	"$PGW_TOOLS/pgw-randaddr" -n "$n" -c 1 "$img" >"$tmp/addrs" \
		2>"$tmp/gen" || { cat "$tmp/gen"; continue; }
	best_cpu= best_wall= rss=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		set -- $(measure "$img")
		best_cpu=$(awk -v a="$1" -v b="${best_cpu:-1e9}" 'BEGIN { print (a < b ? a : b) }')
		best_wall=$(awk -v a="$2" -v b="${best_wall:-1e9}" 'BEGIN { print (a < b ? a : b) }')
		[ "$3" -gt "$rss" ] && rss=$3
		i=$((i + 1))
	done
	awk -v d="$d" -v n="$n" -v c="$best_cpu" -v w="$best_wall" -v r="$rss" \
		'BEGIN { printf "%-11s %10d %12.2f %12.2f %9d\n", d, n,
			 n / (c > 0 ? c : 1e-9) / 1e6, n / (w > 0 ? w : 1e-9) / 1e6, r }'
done
echo "(fastest of $runs runs; $(sed 's/^pgw-randaddr: //' "$tmp/gen"))"
