#!/bin/sh
# The 2-thread speed-up of the threaded commands, in under 2 minutes, so
# it can be re-run on a quiet machine:
#   sh bench/speedup.sh          (make bench runs it with the others)
# On a dense raw image of roots-x86-64.spec's shape, 100 processes spread
# over BENCH_MIB MiB (512): roots, check, ptov and search --all-roots,
# and search --phys for a string, a regular expression and YARA rules.
#  (a) Amdahl: with perf, the calling thread's share s of the CPU time of
#      the 2-thread run (the set-up, the merge and what runs on one
#      thread); the workers' work units are the rest.  The speed-up that
#      allows: 1 / (s + (1 - s) / N), for N = 2 and 64.
#      And the wall ratio the CPU times predict, which counts what a
#      second thread adds to the work too: C1 / (C2 (s + (1 - s) / 2)),
#      C1 and C2 the median CPU times of 1 and 2 threads (the calling
#      thread's work waits for no worker, the workers' is shared).
#  (b) wall clock: REPS runs of 1 and 2 threads interleaved (1, 2, 1, 2,
#      ...), so a load that comes and goes hits both alike; the median of
#      each and their ratio, and the smallest and largest ratio of a pair.
# The load average is printed with the table: on a shared machine (b)
# says little while it is high, (a) and the CPU times much more.
. "$(dirname "$0")/lib/measure.sh"
. "$(dirname "$0")/lib/roots_image.sh"
MIB=${BENCH_MIB:-512}
REPS=${REPS:-5}
if [ ! -x "$PGW_TOOLS/pgw-mkimage" ]; then
	echo "(pgw-mkimage is not built)"
	exit 0
fi
img=$TMP/big.raw
roots_spec "$MIB" >"$TMP/big.spec"
"$PGW_TOOLS/pgw-mkimage" -r "$img" "$TMP/big.spec" >/dev/null &&
	cp --sparse=never "$img" "$img.dense" && mv "$img.dense" "$img" ||
	{ echo "(no room for a dense $MIB MiB image)"; exit 0; }
YAR=$REPO/tests/rules/markers.yar

# median FILE: the middle of FILE's numbers.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# main_share ARGS...: the calling thread's share (0..1) of the CPU time
# of pgwalk ARGS --threads=2, by perf; empty without perf.
main_share() {
	command -v perf >/dev/null 2>&1 || return 0
	perf record -q -e task-clock -o "$TMP/perf.data" "$PGWALK" "$@" \
		--threads=2 >/dev/null 2>&1
	[ -s "$TMP/perf.data" ] || return 0
	# The calling thread's id is the process's: the smallest.
	perf report -i "$TMP/perf.data" --sort=pid --stdio 2>/dev/null |
		sed -n 's/^ *\([0-9.]*\)% *\([0-9]*\):.*/\2 \1/p' | sort -n |
		head -1 | awk '{ printf "%.3f", $2 / 100 }'
	rm -f "$TMP/perf.data"
}

# row WHAT ARGS...: one line of the table for pgwalk ARGS.
row() {
	_what=$1
	shift
	: >"$TMP/w1"; : >"$TMP/w2"; : >"$TMP/c1"; : >"$TMP/c2"; : >"$TMP/r"
	_i=0
	while [ "$_i" -lt "$REPS" ]; do
		for _t in 1 2; do
			# shellcheck disable=SC2046  # three numbers
			set -- $(measure /dev/null /dev/null "$PGWALK" "$@" \
				--threads=$_t) "$@"
			echo "$1" >>"$TMP/c$_t"
			echo "$2" >>"$TMP/w$_t"
			eval "_w$_t=\$2"
			shift 3
		done
		awk -v a="$_w1" -v b="$_w2" 'BEGIN { print (b > 0 ? a / b : 0) }' >>"$TMP/r"
		_i=$((_i + 1))
	done
	_s=$(main_share "$@")
	_c1=$(median "$TMP/c1")
	_c2=$(median "$TMP/c2")
	printf '| %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f–%.2f | %s | %s | %s | %s |\n' \
		"$_what" \
		"$(awk -v v="$(median "$TMP/w1")" 'BEGIN { print v * 1000 }')" \
		"$(awk -v v="$(median "$TMP/w2")" 'BEGIN { print v * 1000 }')" \
		"$(awk -v v="$_c1" 'BEGIN { print v * 1000 }')" \
		"$(awk -v v="$_c2" 'BEGIN { print v * 1000 }')" \
		"$(awk -v a="$(median "$TMP/w1")" -v b="$(median "$TMP/w2")" \
			'BEGIN { print (b > 0 ? a / b : 0) }')" \
		"$(sort -n "$TMP/r" | head -1)" "$(sort -n "$TMP/r" | tail -1)" \
		"${_s:-?}" \
		"$(awk -v s="${_s:-}" 'BEGIN { if (s == "") print "?"; else printf "%.2f", 1 / (s + (1 - s) / 2) }')" \
		"$(awk -v s="${_s:-}" 'BEGIN { if (s == "") print "?"; else printf "%.1f", 1 / (s + (1 - s) / 64) }')" \
		"$(awk -v s="${_s:-}" -v a="$_c1" -v b="$_c2" 'BEGIN { if (s == "" || b <= 0) print "?"; else printf "%.2f", a / (b * (s + (1 - s) / 2)) }')"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $REPS pairs of runs"
echo
echo "| command ($MIB MiB dense raw) | wall 1 ms | wall 2 ms | CPU 1 ms | CPU 2 ms | speed-up (medians) | pairs | calling thread's share | Amdahl 2 | Amdahl 64 | predicted 2 |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
row "roots" roots --mode=x86-64 --root=0x1000000 "$img"
row "check --all-roots" check --all-roots --mode=x86-64 "$img"
row "ptov --all-roots" ptov --all-roots --mode=x86-64 "$img" 0x8002000
row "search --all-roots" search --all-roots --mode=x86-64 \
	--string=PGWALK-NONE "$img"
row "search --phys --string" search --phys --string=PGWALK-NONE "$img"
row "search --phys --regex" search --phys --regex='PGWALK-[A-Z]+-[0-9a-f]+' "$img"
if "$PGWALK" search --phys --yara="$YAR" "$img" >/dev/null 2>&1 ||
   [ $? -ne 69 ]; then
	row "search --phys --yara" search --phys --yara="$YAR" "$img"
fi
