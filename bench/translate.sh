#!/bin/sh
# Batch translation side by side with a peer (issue 15): N random
# addresses (tests/tools/pgw-randaddr: half in mapped pages, half in
# holes, over CPU 1's address space of x64-4l-a) through `pgwalk translate
# --cr3 -` in every format, and through libkdumpfile's addrxlat
# (bench/peers/addrxlat_vtop.c, the same root and batch) on the ELF core,
# the raw image and the zlib kdump.  Each row: the median wall time of
# RUNS runs (pgw-timeit: clock_gettime, process start included) with the
# fastest and slowest, addresses per second, output bytes per second, the
# ratio to the peer's median in the same run (the peer's runs and the tsv
# row's taken in turn, so that load falls on both alike), and the
# process's peak anonymous memory (RssAnon, polled in a run of its own).
# Before timing, the answers are compared with the peer's on the whole
# batch.
# pgwalk runs on its default threads (the CPUs it may run on: the header
# says how many); the "tsv 1 thread" row is --threads=1's.
# Targets: tsv/csv >= 10x the peer, json >= 5x, text and json --levels
# >= 1 GB/s of output, anonymous RSS < 2 MiB.  A benchmark: it never fails.
# Environment: PGWALK, PGW_TOOLS (set by make bench), BENCH_N (1000000),
# BENCH_RUNS (7).
. "$(dirname "$0")/lib/measure.sh"
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-7}
d=x64-4l-a
T=$PGW_TOOLS/pgw-timeit

if [ ! -d "$SHARED/$d" ]; then
	echo "translate: no real dumps ($SHARED); nothing to measure"
	exit 0
fi
sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null || exit 1
elf=$UNPACKED/$d/vmcore.elf
raw=$UNPACKED/$d/mem.raw
kdump=$SHARED/$d/vmcore-d31.kdump

"$PGW_TOOLS/pgw-randaddr" -n "$n" -c 1 "$elf" >"$TMP/addrs" 2>"$TMP/gen" ||
	{ cat "$TMP/gen"; exit 1; }
cr3=$("$PGWALK" info --format=json "$elf" |
	sed -E 's/.*"cpu":1,"registers":\{"cr0":"[^"]*","cr3":"([^"]*)".*/\1/')

build_peer

# row NAME PEER_MS PEER_CPU_MS TIMING CMD...: time CMD on the batch (or
# take TIMING, pgw-timeit's fields, when not empty), print its row.
row() {
	_name=$1 _peer_ms=$2 _peer_cpu=$3 _t=$4
	shift 4
	if [ -z "$_t" ]; then
		_t=$("$T" -n "$runs" -i "$TMP/addrs" "$@") ||
			{ echo "$_name: failed"; return; }
	fi
	_a=$("$T" -n 1 -a -i "$TMP/addrs" "$@")
	"$@" <"$TMP/addrs" 2>/dev/null | wc -c >"$TMP/bytes"
	awk -v nm="$_name" -v n="$n" -v med="$(field wall_ms "$_t")" \
	    -v lo="$(field min_ms "$_t")" -v hi="$(field max_ms "$_t")" \
	    -v b="$(cat "$TMP/bytes")" -v p="$_peer_ms" \
	    -v cpu="$(field cpu_ms "$_t")" -v pc="$_peer_cpu" \
	    -v anon="$(field anon_kib "$_a")" 'BEGIN {
		ratio = p > 0 ? sprintf("%.1fx", p / med) : "-"
		cratio = pc > 0 && cpu > 0 ? sprintf("%.1fx", pc / cpu) : "-"
		printf "%-24s %8.1f %8.1f-%-8.1f %7.2f %8.0f %7s %7.1f %7s %7s\n",
		       nm, med, lo, hi, n / med / 1000, b / med / 1000, ratio,
		       cpu, cratio, anon
	}'
}

echo "pgwalk on its default threads: $(nproc 2>/dev/null || echo "?") here"
printf '%-24s %8s %17s %7s %8s %7s %7s %7s %7s\n' "$d, $n addresses" \
	"ms(med)" "min-max" "M/s" "MB/s" "vs peer" "cpu ms" "vs(cpu)" "anonKiB"
for img in elf raw kdump; do
	case $img in
	elf) file=$elf fmt='' pflag='' ;;
	raw) file=$raw fmt=--image-format=raw pflag=--raw ;;
	kdump) file=$kdump fmt='' pflag='' ;;
	esac
	[ -f "$file" ] || continue
	pg="$PGWALK translate $fmt --mode=x86-64 --cr3=$cr3"
	pms=0 pcpu=0 tsv_t=
	if [ -n "$peer" ]; then
		# The peer's runs and the tsv row's take turns, so that a
		# spell of load on this machine falls on both alike.
		: >"$TMP/peer.runs"
		: >"$TMP/tsv.runs"
		i=0
		while [ "$i" -lt "$runs" ]; do
			# shellcheck disable=SC2086  # pflag, pg: words
			if ! once "$TMP/peer.out" "$peer" $pflag "$file" \
				"$cr3" >>"$TMP/peer.runs" ||
			   ! once /dev/null $pg --format=tsv "$file" - \
				>>"$TMP/tsv.runs"; then
				echo "$img: a timed run failed"
				break
			fi
			i=$((i + 1))
		done
		pt=$(timing "$TMP/peer.runs")
		tsv_t=$(timing "$TMP/tsv.runs")
		pms=$(field wall_ms "$pt")
		pcpu=$(field cpu_ms "$pt")
		# shellcheck disable=SC2086
		$pg --format=tsv "$file" - <"$TMP/addrs" 2>/dev/null |
			sed 1d | cut -f1,2 >"$TMP/ours"
		if cmp -s "$TMP/ours" "$TMP/peer.out"; then
			same="answers identical to addrxlat's on all $n"
		else
			same="answers DIFFER from addrxlat's on $(diff "$TMP/ours" \
				"$TMP/peer.out" | grep -c '^<') of $n"
		fi
		echo "-- $img: $same"
		awk -v nm="addrxlat ($img)" -v n="$n" -v med="$pms" \
		    -v lo="$(field min_ms "$pt")" -v hi="$(field max_ms "$pt")" \
		    -v cpu="$pcpu" \
		    'BEGIN { printf "%-24s %8.1f %8.1f-%-8.1f %7.2f %8s %7s %7.1f\n",
			     nm, med, lo, hi, n / med / 1000, "", "", cpu }'
	else
		echo "-- $img"
	fi
	for f in tsv csv json "json --levels" text "text --levels"; do
		_pre=
		[ "$f" = tsv ] && _pre=$tsv_t
		# shellcheck disable=SC2086  # options are words
		row "pgwalk $f" "$pms" "$pcpu" "$_pre" $pg --format=$f "$file" -
	done
	row "pgwalk tsv 1 thread" "$pms" "$pcpu" "" $pg --threads=1 \
		--format=tsv "$file" -
done
echo "(median, fastest and slowest of $runs runs, process start included;"
echo " MB/s of output; vs peer: the peer's median / pgwalk's median (the"
echo " peer's runs alternate with the tsv row's, one each in turn); cpu ms:"
echo " median user+system time, and the same ratio of it, which a loaded"
echo " machine disturbs less;"
echo " $(sed 's/^pgw-randaddr: //' "$TMP/gen"))"

# One address: the whole process against /bin/true, 51 runs each; on
# the raw image also with the mode left to pgwalk (a validation walk).
t0=$("$T" -n 51 /bin/true)
printf '\n%-40s %8s %17s %8s\n' "one address (51 runs)" "ms(med)" "min-max" "vs true"
for img in elf raw raw-detect; do
	case $img in
	elf) file=$elf fmt=--mode=x86-64 ;;
	raw) file=$raw fmt="--image-format=raw --mode=x86-64" ;;
	raw-detect) file=$raw fmt= ;;
	esac
	# shellcheck disable=SC2086
	t=$("$T" -n 51 "$PGWALK" translate $fmt --cr3="$cr3" "$file" 0x403390)
	awk -v nm="pgwalk translate ($img) 0x403390" \
	    -v med="$(field wall_ms "$t")" -v lo="$(field min_ms "$t")" \
	    -v hi="$(field max_ms "$t")" -v tr="$(field wall_ms "$t0")" \
	    'BEGIN { printf "%-40s %8.3f %8.3f-%-8.3f %7.1fx\n", nm, med, lo,
		     hi, med / tr }'
done
awk -v med="$(field wall_ms "$t0")" -v lo="$(field min_ms "$t0")" \
    -v hi="$(field max_ms "$t0")" \
    'BEGIN { printf "%-40s %8.3f %8.3f-%-8.3f\n", "/bin/true", med, lo, hi }'
