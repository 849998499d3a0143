#!/bin/sh
# Files cut short (a full disk, an interrupted copy) and segments that
# overlap, on synthetic images of every format: what is still in the file
# reads exactly as in the whole file, every other page is not in the image
# with the reason "truncated" (never zeros, never an error of the whole
# image), translations either agree with the whole file's or stop at a
# table that is not in the image, and info says the file is cut.  The
# real dumps get the same treatment in real-truncated.t.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 132
CMP=$PGW_TOOLS/pgw-cmp-images
MK=$PGW_TOOLS/pgw-mkdump
OUTSIDE_OK= FULL_JSON_OF=

# extra_absent OUT: the reasons pgw-cmp-images gives for B beyond A's own
# ("why_b" minus "why_a"), as "reason:count,..." or "none".
extra_absent() {
	printf '%s\n' "$1" | awk '{
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "why_a") a = kv[2]; else if (kv[1] == "why_b") b = kv[2]
		}
		n = split(a, pa, ","); for (i = 1; i <= n; i++) { split(pa[i], x, ":"); ca[x[1]] = x[2] }
		n = split(b, pb, ","); out = ""
		for (i = 1; i <= n; i++) {
			split(pb[i], x, ":")
			if (x[1] == "none") continue
			d = x[2] - ca[x[1]]
			if (d != 0) out = out (out ? "," : "") x[1] ":" d
		}
		print out ? out : "none"
	}'
}

# check_cut FULL CUT DESC [TRANSLATE-OPTIONS]: the cut file against the
# whole one.  Sets $trunc to the pages it lost.
check_cut() {
	_full=$1 _cut=$2 _d=$3
	shift 3
	run "$CMP" "$_full" "$_cut"
	_extra=$(extra_absent "$out")
	trunc=0
	# Pages of ranges whose headers a cut AVML file lost are not
	# described any more: outside, as well as truncated.
	[ -n "$OUTSIDE_OK" ] && _extra=$(printf '%s\n' "$_extra" |
		sed -E 's/^outside:[0-9]+,?//; s/^$/none/')
	lost=$(printf '%s\n' "$out" | sed -E 's/.*nodata_a=([0-9]+) nodata_b=([0-9]+).*/\2 \1/' |
		awk '{ print $1 - $2 }')
	case $_extra in
	none) ;;
	truncated:*) trunc=${_extra#truncated:} ;;
	*) trunc=bad ;;
	esac
	if [ "$rc" = 0 ] && [ "$trunc" != bad ]; then
		ok 0 "$_d: pages there read as in the whole file, $trunc more truncated"
	else
		ok 1 "$_d: pages there read as in the whole file, the rest truncated"
		echo "#   rc=$rc extra=$_extra: $out"
	fi
	[ -n "$VAS" ] || return 0
	[ "$_full" = "$FULL_JSON_OF" ] ||
		"$PGWALK" translate --format=json "$@" "$_full" - <"$VAS" 2>/dev/null |
		sed -E 's/,"in_image":(true|false)(,"absence":"[a-z-]*")?//' >"$TMP/full.json"
	FULL_JSON_OF=$_full
	"$PGWALK" translate --format=json "$@" "$_cut" - <"$VAS" 2>/dev/null |
		sed -E 's/,"in_image":(true|false)(,"absence":"[a-z-]*")?//' >"$TMP/cut.json"
	_bad=$(paste -d '\n' "$TMP/full.json" "$TMP/cut.json" | awk '
		NR % 2 == 1 { f = $0; next }
		$0 != f && $0 !~ /"reason":"table-not-in-image","absence":"truncated"/ { n++ }
		END { print n + 0 }')
	_lines=$(wc -l <"$TMP/cut.json")
	if [ "$_bad" = 0 ] && [ "$_lines" = "$(wc -l <"$VAS")" ]; then
		ok 0 "$_d: every address as in the whole file, or its table not in the image"
	else
		ok 1 "$_d: translations"; echo "#   $_bad differ, $_lines lines"
	fi
}

# cuts FULL DESC TRANSLATE-OPTIONS...: cut FULL at 5 points from its
# first 4 KiB on (odd offsets, so inside pages and records) and one byte
# short; the pages lost never grow as more of the file is kept.
cuts() {
	_full=$1 _desc=$2
	shift 2
	_size=$(wc -c <"$_full")
	_prev= _grew=0
	for _k in 1 2 3 4 5; do
		_at=$((4096 + (_size - 4096) * _k / 6 + _k * 7))
		head -c "$_at" "$_full" >"$TMP/cut"
		check_cut "$_full" "$TMP/cut" "$_desc cut at $_at of $_size" "$@"
		if [ -n "$_prev" ] && [ "$lost" -gt "$_prev" ]; then
			_grew=1
		fi
		_prev=$lost
	done
	is "$_grew" 0 "$_desc: a longer cut never loses more pages"
	head -c $((_size - 1)) "$_full" >"$TMP/cut"
	check_cut "$_full" "$TMP/cut" "$_desc cut one byte short" "$@"
	run "$PGWALK" info "$@" "$TMP/cut"
	like '(incomplete: .*(file truncated|the file ends inside)|flattened_incomplete: no end record)' \
		"$_desc one byte short: info says the file is cut"
}

# Synthetic memory in every dump format; translated from its CR3.
VAS=$TMP/vas
run "$MK" kdump --vas="$VAS" "$TMP/k-zlib"
eval "$out"   # cr3= filtered_table_va= npages=
ROOT="--cr3=$cr3 --mode=x86-64"
# shellcheck disable=SC2086  # ROOT is options
cuts "$TMP/k-zlib" "kdump zlib" $ROOT
"$MK" kdump --codec=none "$TMP/k-none" >/dev/null
# shellcheck disable=SC2086
cuts "$TMP/k-none" "kdump uncompressed" $ROOT
if "$MK" kdump --codec=zstd --layout=32 --share-zero "$TMP/k-zstd" >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	cuts "$TMP/k-zstd" "kdump zstd, 32-bit layout, shared zero page" $ROOT
else
	skip "no zstd in this build"
fi
"$MK" kdump --flat=4096 "$TMP/k-flat" >/dev/null
# shellcheck disable=SC2086
cuts "$TMP/k-flat" "flattened kdump" $ROOT
"$MK" lime "$TMP/lime" >/dev/null
# shellcheck disable=SC2086
cuts "$TMP/lime" "LiME" $ROOT
if "$MK" avml --avml-block=1048576 "$TMP/avml" >/dev/null 2>&1; then
	OUTSIDE_OK=1
	# shellcheck disable=SC2086
	cuts "$TMP/avml" "AVML" $ROOT
	OUTSIDE_OK=
else
	skip "no snappy in this build"
fi

# LiME is uncompressed: the pages a cut keeps are known exactly.
size=$(wc -c <"$TMP/lime")
for n in 40000 1000000 $((size / 2 + 123)); do
	head -c "$n" "$TMP/lime" >"$TMP/cut"
	run "$CMP" "$TMP/lime" "$TMP/cut"
	want=$((npages - (n - 32) / 4096))
	case $out in
	*"why_b=truncated:$want"*) ok 0 "LiME cut at $n: exactly $want pages truncated" ;;
	*) ok 1 "LiME cut at $n: exactly $want pages truncated"; echo "#   $out" ;;
	esac
done

# ELF cores (pgw-mkimage), from their CPU notes.
VAS=$TMP/elf.vas
mkimg x <"$SPECS/x86-64.spec"
cut -f1 "$TMP/x.exp" >"$VAS"
cuts "$TMP/x.elf" "ELF"
mkimg q -q <"$SPECS/x86-64.spec"
cuts "$TMP/q.elf" "ELF, QEMU 7.2 layout"
run "$PGWALK" info "$TMP/cut"
like 'elf_segments: [0-9]+' "ELF one byte short: opens"

# A kdump cut in its descriptors holds no page data at all: every page
# is truncated (none zero), and info counts them.
VAS=
size=$(wc -c <"$TMP/k-zlib")
head -c 60000 "$TMP/k-zlib" >"$TMP/cut"
check_cut "$TMP/k-zlib" "$TMP/cut" "kdump cut in its descriptors"
is "$trunc" "$npages" "... all $npages pages truncated"
run "$PGWALK" info "$TMP/cut"
like "incomplete: file truncated: $npages of $npages dumped pages missing \\($npages truncated" \
	"... info counts them"

# dump keeps walking past tables that are not in the image: a kdump cut
# after its root but before its last table ends with exit 2 (partial
# evidence), the lost tables as holes, the summary saying so.  Such a cut
# is found by cutting the uncompressed kdump half a page at a time.
# shellcheck disable=SC2086
run "$PGWALK" dump $ROOT "$TMP/k-none"
full_maps=$(printf '%s\n' "$out" | grep -c '^0x')
n=60000 found=
while [ "$n" -lt 1000000 ] && [ -z "$found" ]; do
	head -c "$n" "$TMP/k-none" >"$TMP/cut"
	# shellcheck disable=SC2086
	run "$PGWALK" dump $ROOT "$TMP/cut"
	[ "$rc" = 2 ] && found=$n
	n=$((n + 2048))
done
[ -n "$found" ]
ok $? "a cut between the root and the last table: dump exits 2 (at ${found:-none})"
cut_maps=$(printf '%s\n' "$out" | grep -c '^0x')
[ "$cut_maps" -gt 0 ] && [ "$cut_maps" -le "$full_maps" ]
ok $? "... with its ranges ($cut_maps lines, $full_maps whole)"
like '^0x.* hole .* table-not-in-image \(truncated\): entry ' \
	"... the lost tables are holes, truncated"
like '^# walk: .*; INCOMPLETE: page tables not in the image$' \
	"... and the summary says the answer is incomplete"
# shellcheck disable=SC2086
run "$PGWALK" dump --format=json $ROOT "$TMP/cut"
like '^\{"type":"summary",.*"tables_not_in_image":[1-9][0-9]*,.*"complete":false,"reason":"table-not-in-image"\}$' \
	"... in JSON too: complete false, reason table-not-in-image"

# Overlapping PT_LOADs: the same memory twice (as /proc/vmcore lists the
# kernel text) reads; where the two copies differ the pages are corrupt,
# and only those.
printf 'mode x86-64\nram 0 2M\nram 1M 2M\nroot 0x1000\nmap 0x400000 0x105000 4K\ncpu 0x80050033 0x1000 0x20 long\n' |
	"$MKIMAGE" -e "$TMP/ov.elf" -r "$TMP/ov.raw"
run "$CMP" "raw:$TMP/ov.raw" "$TMP/ov.elf"
case $out in
*"differ=0"*"errors_b=0 state_wrong=0 why_a=none why_b=none") ok 0 "overlap, same bytes: every page reads as the raw image" ;;
*) ok 1 "overlap, same bytes: every page reads"; echo "#   $out" ;;
esac
run "$PGWALK" info "$TMP/ov.elf"
like '^  overlapping_segments: 1 stretch from 0x100000 ' "... info says the stretch is described twice"
# The second PT_LOAD's bytes start where the first one's end: change a
# byte of its copy of physical 0x105000 (the first has its own copy).
off=$(( $(wc -c <"$TMP/ov.elf") - 0x200000 + 0x5000 + 7 ))
cp "$TMP/ov.elf" "$TMP/ov2.elf"
printf '\377' | dd of="$TMP/ov2.elf" bs=1 seek="$off" conv=notrunc 2>/dev/null
run "$CMP" "$TMP/ov.elf" "$TMP/ov2.elf"
case $out in
*"why_b=corrupt:1") ok 0 "overlap, one byte differs: that page is corrupt, the rest reads" ;;
*) ok 1 "overlap, one byte differs: that page is corrupt"; echo "#   $out" ;;
esac
run "$PGWALK" translate --format=json --cpu=0 "$TMP/ov2.elf" 0x400000
like '"in_image":false' "... translate: its data is not in the image"

# An excluded tail (p_memsz > p_filesz) over the next PT_LOAD: the
# PT_LOAD's bytes win.
printf 'mode x86-64\nram 0 1M\nram 1M 1M\nroot 0x1000\nmap 0x400000 0x180000 4K\ncpu 0x80050033 0x1000 0x20 long\n' |
	"$MKIMAGE" -e "$TMP/zf.elf" -r "$TMP/zf.raw"
# p_memsz of the first PT_LOAD (program header 1, at 64 + 56): 2 MiB.
printf '\000\000\040\000\000\000\000\000' |
	dd of="$TMP/zf.elf" bs=1 seek=$((64 + 56 + 40)) conv=notrunc 2>/dev/null
run "$CMP" "raw:$TMP/zf.raw" "$TMP/zf.elf"
case $out in
*"differ=0"*"why_b=none") ok 0 "an excluded tail over a PT_LOAD: its real bytes read" ;;
*) ok 1 "an excluded tail over a PT_LOAD: its real bytes read"; echo "#   $out" ;;
esac
run "$PGWALK" info "$TMP/zf.elf"
like '^  excluded_overlaps: 0x100000 bytes' "... and info says so"

# Truncated while it is read: dump --leaves of 32768 pages stalls on a
# pipe nobody reads, the file is emptied under it, and the next table it
# touches is past the end of the mapping (SIGBUS): one line naming the
# image, exit 65, not a signal.
{ printf 'mode x86-64\nram 0 16M\nroot 0x1000\n'
  for i in 1 2 3 4 5 6 7 8; do printf 'map 0x%x 0 16M\n' $((0x10000000 * i)); done; } |
	"$MKIMAGE" -r "$TMP/big.raw"
{ "$PGWALK" dump --leaves --image-format=raw --mode=x86-64 --cr3=0x1000 \
	"$TMP/big.raw" 2>"$TMP/err"; echo $? >"$TMP/rc"; } |
	{ head -c 1000 >/dev/null; : >"$TMP/big.raw"; cat >/dev/null; }
is "$(cat "$TMP/rc")" 65 "truncated while dump reads it: exit 65, not SIGBUS"
is "$(cat "$TMP/err")" \
	"pgwalk: $TMP/big.raw: the file shrank while it was read (truncated by another process?)" \
	"... one line naming the image"

done_testing
