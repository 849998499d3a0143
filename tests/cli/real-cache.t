#!/bin/sh
# The paging-structure cache on real kernels' tables: for each real dump
# and CPU, 20 000 random addresses of that CPU's space (pgw-randaddr: half
# in mappings of every size, half in holes at every level, shuffled) are
# translated from the root and through one cache, with every step, with
# the last alone and briefly (where the cache answers so), and every
# answer must equal the root walk's field by field (pgw-xlatcmp); without
# pages read between them, most answers must come brief.  On the ELF core
# and on mem.raw; on the real zlib kdumps (plain and flattened) and on an
# AVML image written from mem.raw,
# two random frames are read between addresses, so that the image's page
# cache gives up the table pages the cache's slots keep.  The root walk
# itself is held to QEMU and crash by real-oracle.t and real-crash.t.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
N=20000
plan 23   # 4 per dump (2 CPUs x ELF, raw), 2 per kdump file (3), 1 AVML

# same WHAT [-e N] ARGS...: pgw-xlatcmp agrees on the whole batch; with
# -e, pages were read between the addresses.
same() {
	_what=$1
	shift
	run "$PGW_TOOLS/pgw-xlatcmp" "$@" <"$TMP/vas"
	_brief=$(echo "$out" | sed -n 's/.*; \([0-9]*\) answered briefly,.*/\1/p')
	case "$1:$rc:$out" in
	-e:0:"$N addresses: 0 answers differ"*"; 0 pages read"*) ok 1 "$_what: no page read between addresses" ;;
	-e:0:"$N addresses: 0 answers differ"*) ok 0 "$_what: $N answers cached as walked ($_brief brief)" ;;
	*:0:"$N addresses: 0 answers differ"*)
		if [ "${_brief:-0}" -gt $((N / 2)) ]; then
			ok 0 "$_what: $N answers cached as walked ($_brief brief)"
		else
			ok 1 "$_what: only ${_brief:-no} of $N answers brief"
		fi ;;
	*)	ok 1 "$_what: cached answers equal walked ones"
		printf '%s\n%s\n' "$out" "$err" | sed 's/^/#   /' ;;
	esac
}

# batch IMAGE CPU: the addresses, drawn from IMAGE's space of CPU.
batch() {
	"$PGW_TOOLS/pgw-randaddr" -n "$N" -s "$(($2 + 7))" -c "$2" "$1" \
		>"$TMP/vas" 2>"$TMP/gen" || bail "pgw-randaddr: $(cat "$TMP/gen")"
}

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	for c in $(cpus_of "$SHARED/$d"); do
		batch "$elf" "$c"
		same "$d cpu$c vmcore.elf" -c "$c" "$elf"
		same "$d cpu$c mem.raw" -f raw -r "$(cr3_of "$SHARED/$d" "$c")" \
			-m "$mode" "$raw"
	done
done

for f in x64-4l-a/vmcore-d31.kdump x64-4l-a/vmcore-d31-zlib.flat \
	 i386-pae-a/vmcore.kdump-zlib; do
	for c in 0 1; do
		batch "$UNPACKED/${f%%/*}/vmcore.elf" "$c"
		same "$f cpu$c, pages read between" -e 2 -c "$c" "$SHARED/$f"
	done
done

run "$PGW_TOOLS/pgw-mkdump" avml --raw="$UNPACKED/x64-4l-a/mem.raw" "$TMP/img"
[ "$rc" = 0 ] || bail "pgw-mkdump avml: $err"
batch "$UNPACKED/x64-4l-a/vmcore.elf" 1
same "x64-4l-a as AVML cpu1, pages read between" -e 2 \
	-r "$(cr3_of "$SHARED/x64-4l-a" 1)" -m x86-64 "$TMP/img"
rm -f "$TMP/img"

done_testing
