#!/bin/sh
# Time and peak memory of `pgwalk dump`:
#  - over the kernel address space of each real dump (ELF core), and over
#    CPU 1's whole address space (user and kernel), the target being a full
#    x86-64 address space in under 20 ms wall;
#  - over a synthetic address space of 8 Mi leaf PTEs (32 GiB of 4 KiB
#    pages) built by tests/tools/mkpt: coalesced (walk-bound) and --leaves
#    in text and JSON (one line per leaf: formatting-bound).
# Wall times are the best of N runs (process start included); peak RSS is
# GNU time's maximum resident set, which counts the image's pages pgwalk
# touched (page tables are read through mmap).  The anonymous memory of a
# streaming dump is sampled mid-run to show it stays flat.
set -u
: "${PGWALK:?run through make bench}"
: "${PGW_TOOLS:?run through make bench}"
here=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$here/.." && pwd)
SHARED=${PGW_SHARED:-$REPO/../shared/testdata}
UNPACKED=${PGW_UNPACKED:-$REPO/build/unpacked}
RUNS=${PGW_BENCH_RUNS:-20}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

now_ns() { date +%s%N; }

# best_ms CMD...: best wall time of $RUNS runs, in ms with 2 decimals.
best_ms() {
	best=
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(now_ns)
		"$@" >/dev/null 2>&1
		t1=$(now_ns)
		d=$((t1 - t0))
		if [ -z "$best" ] || [ $d -lt "$best" ]; then best=$d; fi
		i=$((i + 1))
	done
	awk -v ns="$best" 'BEGIN { printf "%.2f", ns / 1e6 }'
}

# peak_kb CMD...: maximum RSS in KiB (GNU time), or "?" without it.
peak_kb() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$TMP/rss" "$@" >/dev/null 2>&1
		cat "$TMP/rss"
	else
		echo "?"
	fi
}

report() {  # report WHAT CMD...
	what=$1
	shift
	ms=$(best_ms "$@")
	kb=$(peak_kb "$@")
	lines=$("$@" 2>/dev/null | wc -l)
	printf '%-44s %9s ms %8s KiB %9s lines\n' "$what" "$ms" "$kb" "$lines"
}

printf '%-44s %12s %12s %15s\n' "dump (best of $RUNS)" "wall" "peak RSS" "output"
if [ -d "$SHARED" ] && sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null 2>&1; then
	for dump in x64-4l-a x64-5l-a i386-pae-a i386-2l-a; do
		elf=$UNPACKED/$dump/vmcore.elf
		[ -f "$elf" ] || continue
		case $dump in
		x64-4l-*) kernel=0xffff800000000000 ;;
		x64-5l-*) kernel=0xff00000000000000 ;;
		*) kernel=0xc0000000 ;;
		esac
		report "$dump kernel space" "$PGWALK" dump --range=$kernel- "$elf"
		report "$dump kernel space, json" "$PGWALK" dump --format=json \
			--range=$kernel- "$elf"
		report "$dump cpu1 whole space" "$PGWALK" dump --cpu=1 "$elf"
		report "$dump cpu1 whole space, --leaves" "$PGWALK" dump --cpu=1 \
			--leaves "$elf"
	done
else
	echo "(no ../shared/testdata: real dumps skipped)"
fi

# 8 Mi leaf PTEs: 16384 page tables (64 MiB) in a 72 MiB raw image.
cat >"$TMP/big.spec" <<'SPEC'
mode x86-64
memory 72m
tables 1m
fill 0x100000000000 8388608 0x0 4k 4k rw nx a d
SPEC
cr3=$("$PGW_TOOLS/mkpt" "$TMP/big.spec" "$TMP/big.raw" | sed -n 's/^cr3 //p')
big="--image-format=raw --mode=x86-64 --cr3=$cr3"
RUNS=3
# shellcheck disable=SC2086
{
	report "synthetic 8Mi PTEs, coalesced" "$PGWALK" dump $big "$TMP/big.raw"
	report "synthetic 8Mi PTEs, --leaves text" "$PGWALK" dump $big --leaves "$TMP/big.raw"
	report "synthetic 8Mi PTEs, --leaves json" "$PGWALK" dump $big --leaves --format=json "$TMP/big.raw"
}

# Anonymous memory while streaming: sample it as output is consumed.
mkfifo "$TMP/fifo"
# shellcheck disable=SC2086
"$PGWALK" dump $big --leaves "$TMP/big.raw" >"$TMP/fifo" &
pid=$!
exec 3<"$TMP/fifo"
for mb in 1 100 400; do
	head -c $((mb * 1024 * 1024)) <&3 >/dev/null
	anon=$(awk '/^RssAnon/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
	printf '  --leaves text, after %4d MiB of output: RssAnon %s KiB\n' \
		"$mb" "${anon:-?}"
done
cat <&3 >/dev/null
exec 3<&-
wait $pid
