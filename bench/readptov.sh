#!/bin/sh
# read and ptov on the real 128 MiB x86-64 guest (x64-4l-a):
# - ptov --all-roots of 1 M physical addresses (random, inside RAM, from
#   stdin): the whole command (the roots scan, the task list, one walk per
#   root into the reverse map, then a lookup per address), and the same
#   command with one address, so the difference is the lookups' cost;
# - read --raw of 64 MiB of the kernel's direct map from the raw image,
#   against dd of the same bytes from the same file (its ratio), and the
#   peak RSS of a 4 MiB and a 64 MiB read (memory stays flat).
# Best of RUNS (default 3; read: wall time from the nanosecond clock,
# process start included) after a warming run; the output is checked
# once (the read's bytes are dd's).
. "$(dirname "$0")/lib/measure.sh"
RUNS=${RUNS:-3}
D=$UNPACKED/x64-4l-a
if [ ! -f "$D/mem.raw" ] || [ ! -f "$D/vmcore.elf" ]; then
	echo "(no unpacked x64-4l-a: run make check once, or set PGW_UNPACKED)"
	exit 0
fi

# 1 M addresses below 128 MiB, byte-granular.
awk 'BEGIN { srand(11); for (i = 0; i < 1048576; i++)
	printf "0x%x\n", int(rand() * 134217728) }' >"$TMP/pas"
echo "| ptov --all-roots, x64-4l-a | image | addresses | mappings | wall s | CPU s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|"
for img in vmcore.elf mem.raw; do
	"$PGWALK" ptov --all-roots --format=tsv "$D/$img" - <"$TMP/pas" \
		>"$TMP/ptov.out" 2>/dev/null
	n=$(($(grep -c '' "$TMP/ptov.out") - 1))
	printf '0x1000\n' >"$TMP/one"
	for in in one pas; do
		# shellcheck disable=SC2046  # three numbers
		set -- $(best_of "$RUNS" "$TMP/$in" $PIN "$PGWALK" ptov \
			--all-roots --format=tsv "$D/$img" -)
		count=$(grep -c '' "$TMP/$in")
		m=1
		[ "$in" = pas ] && m=$n
		printf '| | %s | %s | %s | %.3f | %.3f | %d |\n' "$img" "$count" \
			"$m" "$2" "$1" "$(($3 / 1024))"
	done
done

# The direct map's base, from the kernel's own layout.
base=$("$PGWALK" regions --format=json "$D/vmcore.elf" 2>/dev/null |
	sed -n 's/.*"name":"page_offset_base","value":"\(0x[0-9a-f]*\)".*/\1/p')
# base + 32 MiB: the base is 1 GiB-aligned (its last 7 hex digits are 0),
# and sh's arithmetic is signed 64-bit.
va=${base%0000000}2000000
echo
echo "| read --raw, direct map of x64-4l-a at $va (pa 32 MiB) | MiB | wall ms | CPU s | peak RSS MiB | peak anon KiB | MiB/s |"
echo "|---|---|---|---|---|---|---|"
"$PGWALK" read --raw "$D/mem.raw" "$va" $((64 << 20)) >"$TMP/read.out"
dd if="$D/mem.raw" bs=1M skip=32 count=64 2>/dev/null | cmp -s - "$TMP/read.out" ||
	echo "(the bytes read differ from dd's!)"
# row WHAT MIB CMD...: best of RUNS, and the peak anonymous memory (RSS
# counts the pages of the mapped image too; anon is pgwalk's own).
row() {
	_what=$1 _mib=$2
	shift 2
	"$@" >/dev/null 2>&1 &
	peak_status $! RssAnon
	_anon=$PEAK
	_ms=$(best_ms "$RUNS" $PIN "$@")
	# shellcheck disable=SC2046  # three numbers
	set -- $(best_of "$RUNS" /dev/null $PIN "$@")
	printf '| %s | %d | %.1f | %.3f | %d | %d | %.0f |\n' "$_what" "$_mib" \
		"$_ms" "$1" "$(($3 / 1024))" "$_anon" \
		"$(awk -v m="$_mib" -v w="$_ms" 'BEGIN { print (w > 0 ? m * 1000 / w : 0) }')"
	WALL=$_ms
}
row "pgwalk read --raw mem.raw" 4 "$PGWALK" read --raw "$D/mem.raw" "$va" $((4 << 20))
row "pgwalk read --raw mem.raw" 64 "$PGWALK" read --raw "$D/mem.raw" "$va" $((64 << 20))
raw=$WALL
row "pgwalk read --raw vmcore.elf" 64 "$PGWALK" read --raw "$D/vmcore.elf" "$va" $((64 << 20))
elf=$WALL
row "dd bs=1M of the same bytes of mem.raw" 64 dd if="$D/mem.raw" bs=1M skip=32 count=64
awk -v a="$raw" -v e="$elf" -v b="$WALL" 'BEGIN { if (b > 0)
	printf "pgwalk read / dd (wall): %.2f from mem.raw (finding VMCOREINFO in memory included), %.2f from vmcore.elf\n", a / b, e / b }'
