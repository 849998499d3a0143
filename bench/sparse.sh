#!/bin/sh
# Server-sized memory that is mostly holes: x64-4l-a's 128 MiB mem.raw
# at the start of sparse raw files of 1, 16 and 64 GiB (truncate, then the
# data written in place), deleted at exit.  `info`, `roots` and `dump`
# each look at every physical page for VMCOREINFO and page tables; a hole
# of the file is stepped over in one step (SEEK_DATA), so what the larger
# files add over the 1 GiB one is the hole's cost.  Times are the best of
# RUNS: the command's CPU time and wall time (process start included,
# nanosecond clock); the last line is the hole's cost per GiB, from the
# wall times of 64 and 1 GiB (target: at most 0.1 ms per GiB).
. "$(dirname "$0")/lib/measure.sh"
RUNS=${RUNS:-5}
MEM=$UNPACKED/x64-4l-a/mem.raw
if [ ! -s "$MEM" ]; then
	echo "(no $MEM: unpack the real dumps, or set PGW_UNPACKED)"
	exit 0
fi
SIZES="1 16 64"
for g in $SIZES; do
	if ! truncate -s "${g}G" "$TMP/s$g.raw" ||
	   ! dd if="$MEM" of="$TMP/s$g.raw" bs=1M conv=notrunc status=none; then
		echo "(cannot make a ${g} GiB sparse file in $TMP)"
		exit 0
	fi
	if [ "$(du -k "$TMP/s$g.raw" | cut -f1)" -gt $((256 * 1024)) ]; then
		echo "(the file system of $TMP does not keep files sparse)"
		exit 0
	fi
done
echo "| command | GiB | CPU ms | wall ms |"
echo "|---|---|---|---|"
for c in info roots dump; do
	for g in $SIZES; do
		# shellcheck disable=SC2046  # three numbers
		set -- $(best_of "$RUNS" /dev/null "$PGWALK" "$c" "$TMP/s$g.raw")
		_wall=$(best_ms "$RUNS" "$PGWALK" "$c" "$TMP/s$g.raw")
		printf '| %s | %s | %.0f | %s |\n' "$c" "$g" \
			"$(awk -v s="$1" 'BEGIN { print s * 1000 }')" "$_wall"
		eval "wall_${c}_$g=\$_wall"
	done
	eval "_lo=\$wall_${c}_1 _hi=\$wall_${c}_64"
	awk -v c="$c" -v lo="$_lo" -v hi="$_hi" 'BEGIN {
		printf "%s: a hole costs %.3f ms per GiB ((64 GiB - 1 GiB) / 63)\n",
		       c, (hi - lo) / 63 }'
done
