#!/bin/sh
# Time and peak memory of `pgwalk dump`:
#  - over the kernel address space of each real dump (ELF core), and over
#    CPU 1's whole address space (user and kernel), the target being a full
#    x86-64 address space in under 20 ms wall;
#  - over a synthetic address space of 8 Mi leaf PTEs (32 GiB of 4 KiB
#    pages) built by tests/tools/pgw-mkimage: coalesced (walk-bound) and
#    --leaves in text and JSON (one line per leaf: formatting-bound), in
#    ns per PTE (per line) with the ratio to a plain read of the table
#    bytes (pgw-sumwords), medians of 5 runs (pgw-timeit); targets 10 ns
#    per PTE coalesced, 30 ns per --leaves line.
# Wall times are the best of N runs (process start included); peak RSS is
# GNU time's maximum resident set, which counts the image's pages pgwalk
# touched (page tables are read through mmap).  The anonymous memory of a
# streaming dump is its peak RssAnon, polled.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${PGW_BENCH_RUNS:-20}

report() {  # report WHAT CMD...
	what=$1
	shift
	ms=$(best_ms "$RUNS" "$@")
	kb=$(measure /dev/null /dev/null "$@" | cut -d' ' -f3)
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
"$PGW_TOOLS/pgw-mkimage" -r "$TMP/big.raw" <<'SPEC'
mode x86-64
ram 0 72M
root 0x100000
upper rw user
map 0x100000000000 0 32G rw nx a d
SPEC
big="--image-format=raw --mode=x86-64 --cr3=0x100000"
T=$PGW_TOOLS/pgw-timeit
pte=$((8 * 1024 * 1024))
# field KEY LINE: the value of KEY= in a pgw-timeit line.
field() { echo "$2" | sed -n "s/.* $1=\([^ ]*\).*/\1/p; s/^$1=\([^ ]*\).*/\1/p"; }
# The floor: the image's 72 MiB (64 MiB of them the page tables) read
# once through a mapping, every 8-byte entry added up (pgw-sumwords).
floor=$("$T" -n 5 "$PGW_TOOLS/pgw-sumwords" "$TMP/big.raw")
fms=$(field wall_ms "$floor")
printf '\n%-40s %9s %17s %8s %9s %8s\n' "8 Mi 4 KiB PTEs (5 runs)" "ms(med)" \
	"min-max" "ns/PTE" "vs read" "anonKiB"
printf '%-40s %9.1f %8.1f-%-8.1f %8.2f %9s %8s\n' "plain read of the table bytes" \
	"$fms" "$(field min_ms "$floor")" "$(field max_ms "$floor")" \
	"$(awk -v m="$fms" -v n="$pte" 'BEGIN { print m * 1e6 / n }')" - -
# synth WHAT ARGS...: one row for `pgwalk dump ARGS` on the image.
synth() {
	_what=$1
	shift
	# shellcheck disable=SC2086  # big is options
	_t=$("$T" -n 5 "$PGWALK" dump $big "$@" "$TMP/big.raw")
	# shellcheck disable=SC2086
	_a=$("$T" -n 1 -a "$PGWALK" dump $big "$@" "$TMP/big.raw")
	_m=$(field wall_ms "$_t")
	printf '%-40s %9.1f %8.1f-%-8.1f %8.2f %8.1fx %8s\n' "$_what" "$_m" \
		"$(field min_ms "$_t")" "$(field max_ms "$_t")" \
		"$(awk -v m="$_m" -v n="$pte" 'BEGIN { print m * 1e6 / n }')" \
		"$(awk -v m="$_m" -v f="$fms" 'BEGIN { print m / f }')" \
		"$(field anon_kib "$_a")"
}
synth "dump, coalesced (59 lines)"
synth "dump --leaves, text (1 line per PTE)" --leaves
synth "dump --leaves --format=json" --leaves --format=json
echo "(median, fastest and slowest of 5 runs, process start included;"
echo " ns/PTE: per leaf entry, per output line with --leaves; vs read: the"
echo " plain read's median; anonKiB: peak RssAnon polled in a run of its own)"
