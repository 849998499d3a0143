# shellcheck shell=sh disable=SC2034  # the variables are for the sourcing script
# Sourced by the benchmarks (bench/run.sh runs bench/*.sh only, not this):
# their environment and the ways they measure a run.
# Sets REPO, PGWALK and PGW_TOOLS (from make bench, else the build tree),
# SHARED and UNPACKED (PGW_SHARED, PGW_UNPACKED move them), TMP (removed
# on exit) and PIN (taskset to one core, when there is taskset).
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
PGWALK=${PGWALK:-$REPO/build/pgwalk}
PGW_TOOLS=${PGW_TOOLS:-$REPO/build/tools}
SHARED=${PGW_SHARED:-$REPO/../shared/testdata}
UNPACKED=${PGW_UNPACKED:-$REPO/build/unpacked}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"
_timer=
/usr/bin/time -f '%e' true 2>/dev/null && _timer=/usr/bin/time

# min A B, max A B: the smaller or larger of two numbers (decimals too).
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN { print (a > b ? a : b) }'; }

# peak_status PID FIELD: sets PEAK to the highest FIELD (kB, e.g. VmHWM,
# RssAnon) of /proc/PID/status, polled while PID runs, and reaps PID.
# Call it from the shell that started PID, not in $(...): a child no one
# waits for stays a zombie, which kill -0 still finds.
peak_status() {
	PEAK=0
	while kill -0 "$1" 2>/dev/null; do
		_v=$(sed -n "s/^$2:[[:space:]]*\([0-9]*\).*/\1/p" \
			"/proc/$1/status" 2>/dev/null)
		[ -n "$_v" ] && [ "$_v" -gt "$PEAK" ] && PEAK=$_v
		sleep 0.01
	done
	wait "$1"
}

# measure IN OUT CMD...: one run of CMD, stdin from IN, stdout to OUT;
# prints "cpu_seconds wall_seconds peak_kib".  Without GNU time: CPU time
# is the wall time and the peak is VmHWM, polled.
measure() {
	_in=$1 _out=$2
	shift 2
	if [ -n "$_timer" ]; then
		$_timer -f '%U %S %e %M' -o "$TMP/.time" "$@" <"$_in" >"$_out" \
			2>/dev/null
		# (time(1) puts "Command exited with non-zero status" first.)
		tail -n 1 "$TMP/.time" |
			awk '{ printf "%.3f %.3f %d\n", $1 + $2, $3, $4 }'
	else
		_start=$(date +%s.%N)
		"$@" <"$_in" >"$_out" 2>/dev/null &
		peak_status $! VmHWM
		_end=$(date +%s.%N)
		awk -v s="$_start" -v e="$_end" -v m="$PEAK" \
			'BEGIN { printf "%.3f %.3f %d\n", e - s, e - s, m }'
	fi
}

# best_of N IN CMD...: N runs of measure IN /dev/null CMD; prints the
# fastest CPU and wall seconds and the highest peak: "cpu wall kib".
best_of() {
	_runs=$1 _bin=$2 _i=0 _cpu=1e9 _wall=1e9 _kib=0
	shift 2
	while [ "$_i" -lt "$_runs" ]; do
		# shellcheck disable=SC2046  # three numbers
		set -- $(measure "$_bin" /dev/null "$@") "$@"
		_cpu=$(min "$1" "$_cpu")
		_wall=$(min "$2" "$_wall")
		_kib=$(max "$3" "$_kib")
		shift 3
		_i=$((_i + 1))
	done
	echo "$_cpu $_wall $_kib"
}

# best_ms N CMD...: the fastest wall time of N runs in ms (2 decimals),
# process start included, from the nanosecond clock (runs of a few ms).
best_ms() {
	_runs=$1 _i=0 _best=
	shift
	while [ "$_i" -lt "$_runs" ]; do
		_t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		_t1=$(date +%s%N)
		_d=$((_t1 - _t0))
		if [ -z "$_best" ] || [ "$_d" -lt "$_best" ]; then _best=$_d; fi
		_i=$((_i + 1))
	done
	awk -v ns="$_best" 'BEGIN { printf "%.2f", ns / 1e6 }'
}

if [ -z "$_timer" ]; then
	echo "(no /usr/bin/time: RSS from VmHWM, polled; apt-get install time)"
fi

# field KEY LINE: the value of KEY= in a pgw-timeit line.
field() { echo "$2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p; s/^$1=\([^ ]*\).*/\1/p"; }

# timing FILE: pgw-timeit's fields (median, fastest and slowest wall ms,
# median CPU ms) of FILE's "WALL CPU" lines, one per run.
timing() {
	cut -d' ' -f1 "$1" | sort -n | awk '{ v[NR] = $1 } END {
		printf "wall_ms=%s min_ms=%s max_ms=%s ", v[int((NR + 1) / 2)],
		       v[1], v[NR] }'
	cut -d' ' -f2 "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print "cpu_ms=" v[int((NR + 1) / 2)] }'
}

# once OUT CMD...: one timed run of CMD on the batch $TMP/addrs (stdout
# to OUT) by pgw-timeit ($T), its "WALL CPU".
once() {
	_o=$1
	shift
	_r=$("$T" -n 1 -i "$TMP/addrs" -o "$_o" "$@") || return 1
	echo "$(field wall_ms "$_r") $(field cpu_ms "$_r")"
}

# build_peer: sets peer to bench/peers/addrxlat_vtop built against
# libkdumpfile (empty, said, when pkg-config finds none).
build_peer() {
	peer=
	# shellcheck disable=SC2046  # pkg-config's words
	if pkg-config --exists libaddrxlat libkdumpfile 2>/dev/null &&
	   cc -O2 -o "$TMP/addrxlat_vtop" "$REPO/bench/peers/addrxlat_vtop.c" \
		$(pkg-config --cflags --libs libkdumpfile libaddrxlat) 2>"$TMP/cc"; then
		peer=$TMP/addrxlat_vtop
	else
		echo "peer: skipped -- pkg-config finds no libaddrxlat/libkdumpfile" \
		     "(apt-get install libkdumpfile-dev); no ratios"
	fi
}
