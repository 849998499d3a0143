#!/bin/sh
# The finders of src/linux/ (tests/tools/pgw-roots): the root scan, the
# VMCOREINFO search and the kernel-root scan on the real 96-128 MiB
# images, and the root scan on large images from pgw-mkimage, to show the
# cost is linear in RAM.  Each scan looks at every page once, so two costs
# add up: pgwalk's (a few compares per page) and the kernel's for mapping
# each page of the file.  Large raw images show both (their file pages
# must be mapped); large ELF images whose memory is mostly zero-fill
# (p_memsz > p_filesz, no bytes in the file) show pgwalk's alone.
# Times are the best of RUNS, after a run that warms the page cache: the
# scan's own wall time, and the CPU time of the whole process (opening
# the image and choosing the kernel root included), which the other jobs
# of a shared machine disturb less.
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
for t in 1:raw 4:raw 4:zero 16:zero; do
	gib=${t%%:*} kind=${t#*:}
	ext=$([ "$kind" = raw ] && echo raw || echo elf)
	img=$TMP/big-$gib.$ext
	big_spec "$gib" "$kind" >"$TMP/big.spec"
	opt=$([ "$kind" = raw ] && echo -r || echo -e)
	if ! "$PGW_TOOLS/pgw-mkimage" "$opt" "$img" "$TMP/big.spec"; then
		echo "(pgw-mkimage failed for $gib GiB)"
		continue
	fi
	row "$gib GiB $( [ "$kind" = raw ] && echo raw || echo "ELF, zero-fill")" \
		"$gib" roots --mode=x86-64 --root=0x1000000 "$img"
	rm -f "$img"
done
