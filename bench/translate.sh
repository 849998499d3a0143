#!/bin/sh
# Batch translation speed: 1 M random addresses (half in mapped pages, half
# in holes, drawn by tests/tools/pgw-randaddr from a range walk of CPU 1's
# address space) through `pgwalk translate --format=tsv -` on each real
# dump's vmcore.elf (mmapped ELF).  Reports addresses per second of CPU
# time (one core: pgwalk is single-threaded) and of wall time, and peak
# RSS.  Target: >= 5 M/s, RSS < 16 MiB.  A benchmark: it never fails.
# Environment: PGWALK, PGW_TOOLS (set by make bench), BENCH_N (1000000),
# BENCH_RUNS (5: the fastest run counts), BENCH_DUMPS.
. "$(dirname "$0")/lib/measure.sh"
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-5}
dumps=${BENCH_DUMPS:-x64-4l-a x64-5l-a i386-2l-a i386-pae-a}

if [ ! -d "$SHARED" ]; then
	echo "translate: no real dumps ($SHARED); nothing to measure"
	exit 0
fi
sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null || exit 1

printf '%-11s %10s %12s %12s %9s\n' dump addresses "M/s (cpu)" "M/s (wall)" "RSS KiB"
for d in $dumps; do
	img=$UNPACKED/$d/vmcore.elf
	[ -f "$img" ] || continue
	"$PGW_TOOLS/pgw-randaddr" -n "$n" -c 1 "$img" >"$TMP/addrs" \
		2>"$TMP/gen" || { cat "$TMP/gen"; continue; }
	# shellcheck disable=SC2046,SC2086  # three numbers; PIN is a command
	set -- $(best_of "$runs" "$TMP/addrs" $PIN "$PGWALK" translate \
		--format=tsv --cpu=1 "$img" -)
	awk -v d="$d" -v n="$n" -v c="$1" -v w="$2" -v r="$3" \
		'BEGIN { printf "%-11s %10d %12.2f %12.2f %9d\n", d, n,
			 n / (c > 0 ? c : 1e-9) / 1e6, n / (w > 0 ? w : 1e-9) / 1e6, r }'
done
echo "(fastest of $runs runs; $(sed 's/^pgw-randaddr: //' "$TMP/gen"))"
