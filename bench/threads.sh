#!/bin/sh
# --threads: the scaling curve of the scans of physical memory, 1 and 2
# threads (BENCH_THREADS moves it, e.g. "1 2 4 8"), on a dense 1 GiB raw
# image of roots-x86-64.spec's shape with 100 processes spread over it
# (BENCH_GIB moves the size) and on a 240 MiB zlib kdump of that shape:
#  - roots, check --all-roots and search --phys, the whole command: the
#    best wall time of RUNS and the best CPU time (all threads), each
#    against 1 thread (speed-up: wall(1) / wall(N));
#  - for the zlib kdumps (this one, given --root, and the real x64-4l-a
#    -d 31 one, whose VMCOREINFO note spares the kernel-root scan), the
#    floor: the VMCOREINFO scan (pgw-roots vmcoreinfo: every dumped page inflated
#    once, a compare each, nothing else) on the same threads, and roots
#    against it, in wall and CPU time;
#  - with perf, each thread's share of the CPU time of roots on the kdump
#    (perf record -e task-clock, by thread): the workers' shares even, the
#    calling thread's (the merge, and the work after the scans) small.
# On a machine others share, wall times say little while the load is
# high: the load average is printed with the table; the CPU times (which
# the others disturb less) show the work does not grow with the threads.
. "$(dirname "$0")/lib/measure.sh"
. "$(dirname "$0")/lib/roots_image.sh"
RUNS=${RUNS:-3}
GIB=${BENCH_GIB:-1}
THREADS=${BENCH_THREADS:-1 2}
ROOTS=$PGW_TOOLS/pgw-roots
if [ ! -x "$ROOTS" ] || [ ! -x "$PGW_TOOLS/pgw-mkimage" ]; then
	echo "(pgw-roots or pgw-mkimage is not built)"
	exit 0
fi

img=$TMP/big.raw
roots_spec $((GIB * 1024)) >"$TMP/big.spec"
"$PGW_TOOLS/pgw-mkimage" -r "$img" "$TMP/big.spec" ||
	{ echo "(pgw-mkimage failed)"; exit 0; }
cp --sparse=never "$img" "$img.dense" && mv "$img.dense" "$img" ||
	{ echo "(no room for a dense $GIB GiB image)"; exit 0; }
# The kdump: 240 MiB, so that its scans stay inside the default
# decompression budget (PGW_SCAN_MAX_DECODED: 256 MiB) and run whole.
roots_spec 240 >"$TMP/k.spec"
"$PGW_TOOLS/pgw-mkimage" -r "$TMP/k.raw" "$TMP/k.spec" &&
	"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/k.raw" --codec=zlib \
		"$TMP/big.kdump" >/dev/null || { echo "(pgw-mkdump failed)"; exit 0; }
rm -f "$TMP/k.raw"
R="--mode=x86-64 --root=0x1000000"

# row WHAT ARGS...: one line per thread count of `pgwalk ARGS`.
row() {
	_what=$1
	shift
	_w1=
	for _t in $THREADS; do
		# shellcheck disable=SC2046  # three numbers
		set -- $(best_of "$RUNS" /dev/null "$PGWALK" "$@" --threads="$_t") "$@"
		_cpu=$1 _wall=$2
		shift 3
		[ -z "$_w1" ] && _w1=$_wall
		printf '| %s | %s | %.0f | %.0f | %.2f |\n' "$_what" "$_t" \
			"$(awk -v w="$_wall" 'BEGIN { print w * 1000 }')" \
			"$(awk -v c="$_cpu" 'BEGIN { print c * 1000 }')" \
			"$(awk -v a="$_w1" -v b="$_wall" 'BEGIN { print (b > 0 ? a / b : 0) }')"
	done
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
echo
echo "| command ($GIB GiB dense raw, 240 MiB zlib kdump) | threads | wall ms | CPU ms | speed-up |"
echo "|---|---|---|---|---|"
# shellcheck disable=SC2086  # the options
row "roots" roots $R "$img"
# shellcheck disable=SC2086
row "check --all-roots" check --all-roots --mode=x86-64 "$img"
# shellcheck disable=SC2086
row "search --phys" search --phys --string=PGWALK-NONE "$img"
# shellcheck disable=SC2086
row "roots, zlib kdump" roots $R "$TMP/big.kdump"
echo
echo "The kdumps' floor: every dumped page inflated once (the VMCOREINFO"
echo "scan), and roots against it on the same threads (best of $RUNS):"
echo
echo "| kdump | threads | inflate all: wall ms | CPU ms | roots: wall ms | CPU ms | roots / floor (wall) | (CPU) |"
echo "|---|---|---|---|---|---|---|---|"
# floor_rows WHAT KDUMP ROOTS-ARGS...
floor_rows() {
	_what=$1 _k=$2
	shift 2
	for _t in $THREADS; do
		# shellcheck disable=SC2046  # three numbers
		set -- $(best_of "$RUNS" /dev/null "$ROOTS" vmcoreinfo \
			--threads="$_t" "$_k") "$@"
		_fc=$1 _fw=$2
		shift 3
		# shellcheck disable=SC2046
		set -- $(best_of "$RUNS" /dev/null "$PGWALK" roots "$@" \
			--threads="$_t" "$_k") "$@"
		_rc=$1 _rw=$2
		shift 3
		printf '| %s | %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |\n' \
			"$_what" "$_t" "$(awk -v v="$_fw" 'BEGIN { print v * 1000 }')" \
			"$(awk -v v="$_fc" 'BEGIN { print v * 1000 }')" \
			"$(awk -v v="$_rw" 'BEGIN { print v * 1000 }')" \
			"$(awk -v v="$_rc" 'BEGIN { print v * 1000 }')" \
			"$(awk -v r="$_rw" -v f="$_fw" 'BEGIN { print (f > 0 ? r / f : 0) }')" \
			"$(awk -v r="$_rc" -v f="$_fc" 'BEGIN { print (f > 0 ? r / f : 0) }')"
	done
}
# shellcheck disable=SC2086
floor_rows "240 MiB synthetic (roots: --root, no VMCOREINFO)" \
	"$TMP/big.kdump" $R
real=$SHARED/x64-4l-a/vmcore-d31.kdump
[ -f "$real" ] && floor_rows "x64-4l-a vmcore-d31.kdump" "$real"
echo
# (Not on its exit status: roots may say its roots are unnamed.)
command -v perf >/dev/null 2>&1 &&
	perf record -e task-clock -o "$TMP/perf.data" "$PGWALK" roots $R \
		--threads=2 "$TMP/big.kdump" >/dev/null 2>&1
if [ -s "$TMP/perf.data" ]; then
	echo "Each thread's share of roots' CPU time on the 240 MiB kdump, 2 threads"
	echo "(the main thread, then two workers for each of the two scans):"
	echo
	perf report -i "$TMP/perf.data" --sort=pid --stdio 2>/dev/null |
		sed -n 's/^ *\([0-9.]*%\) *\([0-9]*\):.*/| \2 | \1 |/p' |
		sort -t'|' -k2n | sed '1i| thread | share |\n|---|---|'
	echo
fi
