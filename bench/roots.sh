#!/bin/sh
# The finders of src/linux/ (tests/tools/pgw-roots): the root scan, the
# VMCOREINFO search and the kernel-root scan on the real 96-128 MiB
# images, and the root scan on large images from pgw-mkimage, to show the
# cost is linear in RAM.  Each scan looks at every page once, so two costs
# add up: pgwalk's (a few compares per page) and the kernel's for mapping
# each page of the file.  Large dense raw images show both (their file
# pages must be mapped); sparse ones show the holes skipped; large ELF
# images whose memory is mostly zero-fill (p_memsz > p_filesz, no bytes
# in the file) show pgwalk's alone.
# Times are the best of RUNS, after a run that warms the page cache: the
# scan's own wall time, and the CPU time of the whole process (opening
# the image and choosing the kernel root included), which the other jobs
# of a shared machine disturb less.  Then the same for the whole `pgwalk
# roots` command, process start included, with the ratio per GiB.
. "$(dirname "$0")/lib/measure.sh"
ROOTS=$PGW_TOOLS/pgw-roots
RUNS=${RUNS:-3}
if [ ! -x "$ROOTS" ]; then
	echo "(pgw-roots is not built: make $PGW_TOOLS/pgw-roots)"
	exit 0
fi

# scan_ms ARGS...: the best of RUNS of the scan's own time (the "ms=" of
# its scan line), after one run to warm the page cache.
scan_ms() {
	"$ROOTS" "$@" >/dev/null 2>&1
	_best=
	_i=0
	while [ "$_i" -lt "$RUNS" ]; do
		_ms=$("$ROOTS" "$@" 2>/dev/null |
			sed -n 's/^scan .* ms=\([0-9.]*\).*/\1/p')
		[ -z "$_best" ] && _best=$_ms
		_best=$(min "$_best" "${_ms:-$_best}")
		_i=$((_i + 1))
	done
	echo "$_best"
}
# row WHAT GIB ARGS...: one line of the table for pgw-roots ARGS.
row() {
	_what=$1 _gib=$2
	shift 2
	_n=$("$ROOTS" "$@" 2>/dev/null | grep -c '^root=')
	[ "$1" = roots ] || _n=-
	_ms=$(scan_ms "$@")
	# shellcheck disable=SC2046  # three numbers
	set -- $(best_of "$RUNS" /dev/null "$ROOTS" "$@")
	printf '| %s | %s | %s | %.0f | %.0f | %.0f | %d |\n' "$_what" \
		"$_gib" "$_n" "$_ms" "$(awk -v c="$1" 'BEGIN { print c * 1000 }')" \
		"$(awk -v c="$1" -v g="$_gib" 'BEGIN { print c * 1000 / g }')" \
		"$(($3 / 1024))"
}

# cmd_row WHAT GIB ARGS...: one line of the second table, for the whole
# `pgwalk roots ARGS` command (process start, finding the kernel's facts,
# the scan, the task list and the output): the best wall time of RUNS
# (after a warming run), the best CPU time, and both per GiB.
cmd_row() {
	_what=$1 _gib=$2
	shift 2
	"$PGWALK" roots "$@" >/dev/null 2>&1
	_n=$("$PGWALK" roots --format=json "$@" 2>/dev/null | grep -c '^{"type":"root"')
	_named=$("$PGWALK" roots --format=json "$@" 2>/dev/null |
		sed -n 's/^{"type":"names",.*"roots_named":\([0-9]*\).*/\1/p')
	_wall=$(best_ms "$RUNS" "$PGWALK" roots "$@")
	# shellcheck disable=SC2046  # three numbers
	set -- $(best_of "$RUNS" /dev/null "$PGWALK" roots "$@")
	printf '| %s | %s | %s | %s | %.1f | %.0f | %.0f | %.0f | %d |\n' \
		"$_what" "$_gib" "$_n" "${_named:-0}" "$_wall" \
		"$(awk -v c="$1" 'BEGIN { print c * 1000 }')" \
		"$(awk -v w="$_wall" -v g="$_gib" 'BEGIN { print w / g }')" \
		"$(awk -v c="$1" -v g="$_gib" 'BEGIN { print c * 1000 / g }')" \
		"$(($3 / 1024))"
}

CMD_HEAD="| image | GiB | roots | named | wall ms | CPU ms | wall ms/GiB | CPU ms/GiB | peak RSS MiB |"

echo "| image | GiB | roots | scan ms (wall) | process CPU ms | CPU ms/GiB | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|"
for d in x64-4l-a x64-5l-a i386-2l-a i386-pae-a; do
	for f in mem.raw vmcore.elf; do
		img=$UNPACKED/$d/$f
		[ -f "$img" ] || continue
		gib=$(awk -v b="$(wc -c <"$img")" 'BEGIN { printf "%.3f", b / 2^30 }')
		row "$d/$f roots" "$gib" roots "$img"
	done
done
img=$UNPACKED/x64-4l-a/mem.raw
if [ -f "$img" ]; then
	row "x64-4l-a/mem.raw VMCOREINFO" 0.125 vmcoreinfo "$img"
	row "x64-4l-a/mem.raw kernel root" 0.125 kernel-root "$img"
fi

# Large images: the kernel root and 100 processes of roots-x86-64.spec's
# shape, tables spread over the memory.
# big_spec GIB ZEROFILL: the spec on stdout.
big_spec() {
	echo "mode x86-64"
	if [ "$2" = zero ]; then
		echo "ram 0 64M"
		echo "ram 0x100000000 $1G filesz=64M"
	else
		echo "ram 0 $1G"
	fi
	sed -n '/^root 0x1000000/,/^map 0xfffffe/p' \
		"$REPO/tests/specs/roots-x86-64.spec"
	# Process tables every 1/100 of the memory above 4 GiB (zero-fill)
	# or above 128 MiB (raw), each with a 16 KiB user mapping.
	_i=0
	while [ "$_i" -lt 100 ]; do
		if [ "$2" = zero ]; then
			_r=$((0x100000000 + _i * 0x80000))
		else
			_r=$((0x8000000 + _i * ($1 * 0x40000000 - 0x8000000) / 100))
			_r=$((_r & ~0x1fff))
		fi
		printf 'root 0x%x\nclone-kernel 0x1000000\n' "$_r"
		printf 'map 0x400000 0x%x 16K user a\n' $((_r + 0x2000))
		_i=$((_i + 1))
	done
}
# raw: as pgw-mkimage writes it, sparse (the scans skip its holes);
# dense: copied with every block written, so the kernel maps every page;
# zero: an ELF whose memory is mostly zero-fill (pgwalk's own cost).
for t in 1:raw 4:raw 1:dense 2:dense 4:zero 16:zero; do
	gib=${t%%:*} kind=${t#*:}
	ext=$([ "$kind" = zero ] && echo elf || echo raw)
	img=$TMP/big-$gib.$ext
	big_spec "$gib" "$kind" >"$TMP/big.spec"
	opt=$([ "$kind" = zero ] && echo -e || echo -r)
	if ! "$PGW_TOOLS/pgw-mkimage" "$opt" "$img" "$TMP/big.spec"; then
		echo "(pgw-mkimage failed for $gib GiB)"
		continue
	fi
	if [ "$kind" = dense ]; then
		cp --sparse=never "$img" "$img.dense" && mv "$img.dense" "$img" ||
			{ echo "(no room for a dense $gib GiB image)"; rm -f "$img" "$img.dense"; continue; }
	fi
	case $kind in
	raw) what="$gib GiB raw, sparse" ;;
	dense) what="$gib GiB raw, dense" ;;
	*) what="$gib GiB ELF, zero-fill" ;;
	esac
	row "$what" "$gib" roots --mode=x86-64 --root=0x1000000 "$img"
	cmd_row "$what" "$gib" --mode=x86-64 --root=0x1000000 "$img" >>"$TMP/cmd"
	rm -f "$img"
done
echo
echo "pgwalk roots --mode=x86-64 --root=0x1000000 on the same large images"
echo "(no VMCOREINFO, no names: the scan alone, process start included):"
echo
echo "$CMD_HEAD"
echo "|---|---|---|---|---|---|---|---|---|"
cat "$TMP/cmd"
echo
echo "pgwalk roots, the whole command with no options (process start, the"
echo "kernel's facts: the note, else VMCOREINFO found in memory; the scan;"
echo "the task list):"
echo
echo "$CMD_HEAD"
echo "|---|---|---|---|---|---|---|---|---|"
for d in x64-4l-a x64-5l-a i386-2l-a i386-pae-a; do
	for f in mem.raw vmcore.elf; do
		img=$UNPACKED/$d/$f
		[ -f "$img" ] || continue
		gib=$(awk -v b="$(wc -c <"$img")" 'BEGIN { printf "%.3f", b / 2^30 }')
		cmd_row "$d/$f" "$gib" "$img"
	done
done
img=$SHARED/x64-4l-a/vmcore-d31.kdump
[ -f "$img" ] && cmd_row "x64-4l-a/vmcore-d31.kdump (zlib, every page decompressed)" 0.125 "$img"
echo
