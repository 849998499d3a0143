#!/bin/sh
# A server-sized image with real data: x64-4l-a's 128 MiB mem.raw at 0 and
# copied to every 4 GiB from 4 GiB up, each copy's process page tables
# relocated into it (tests/tools/pgw-bigimage), in a sparse raw file of
# BIG_GIB (default 64) GiB, deleted at exit.  Each command's median wall
# and CPU time (pgw-timeit, RUNS runs after a warming one, the facts cache
# in $TMP: the warming run fills it) beside the read floor: the file's
# data extents read once through a mapping (pgw-sumwords).  info also
# without the cache (its set-up paid in full).  search --phys too: the
# holes are stepped over (searched at their ends), so it pays the data.
# Peers: crash and makedumpfile do not read raw memory without a vmlinux
# or a kdump header, and libkdumpfile's addrxlat translates one address
# (bench/translate.sh), so no peer does these commands on this image.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${RUNS:-3}
GIB=${BIG_GIB:-64}
MEM=$UNPACKED/x64-4l-a/mem.raw
T=$PGW_TOOLS/pgw-timeit
if [ ! -s "$MEM" ]; then
	echo "(no $MEM: unpack the real dumps, or set PGW_UNPACKED)"
	exit 0
fi
# The data: a copy of the guest's pages (about 104 MiB) every 4 GiB.
need_kib=$(( (GIB / 4 + 1) * 110 * 1024 ))
avail=$(df -Pk "$TMP" | awk 'NR == 2 { print $4 }')
if [ "${avail:-0}" -lt "$need_kib" ]; then
	echo "(not enough room in $TMP for the ${GIB} GiB image's data: $need_kib KiB)"
	exit 0
fi
export XDG_CACHE_HOME=$TMP/cache
if ! "$PGW_TOOLS/pgw-bigimage" "$MEM" "$TMP/big$GIB.raw" "$GIB" \
	>"$TMP/made$GIB"; then
	echo "(cannot make the ${GIB} GiB image in $TMP)"
	exit 0
fi
echo "$GIB GiB image: $(cat "$TMP/made$GIB"); $(du -h "$TMP/big$GIB.raw" | cut -f1) on disk"
# field KEY FILE: KEY's value in a pgw-timeit line.
field() { sed -n "s/.*\\b$1=\\([0-9.]*\\).*/\\1/p" "$2"; }
"$T" -n "$RUNS" "$PGW_TOOLS/pgw-sumwords" "$TMP/big$GIB.raw" >"$TMP/floor"
echo "| command | GiB | wall ms | CPU ms | / read floor (wall) | exit |"
echo "|---|---|---|---|---|---|"
printf '| read floor (pgw-sumwords, data extents) | %s | %s | %s | 1.00 | 0 |\n' \
	"$GIB" "$(field wall_ms "$TMP/floor")" "$(field cpu_ms "$TMP/floor")"
# row GIB FLOOR-FILE LABEL ARGS...
row() {
	_g=$1 _f=$2 _label=$3
	shift 3
	"$T" -n "$RUNS" "$PGWALK" "$@" >"$TMP/t"
	awk -v l="$_label" -v g="$_g" -v w="$(field wall_ms "$TMP/t")" \
		-v c="$(field cpu_ms "$TMP/t")" -v f="$(field wall_ms "$_f")" \
		-v s="$(sed -n 's/.*status=\([0-9]*\).*/\1/p' "$TMP/t")" \
		'BEGIN { printf "| %s | %s | %.1f | %.1f | %.2f | %s |\n",
			 l, g, w, c, (f > 0 ? w / f : 0), s }'
}
B=$TMP/big$GIB.raw
row "$GIB" "$TMP/floor" "info --no-cache" info --no-cache "$B"
row "$GIB" "$TMP/floor" "info (facts cached)" info "$B"
row "$GIB" "$TMP/floor" roots roots "$B"
row "$GIB" "$TMP/floor" dump dump "$B"
row "$GIB" "$TMP/floor" "check --all-roots" check --all-roots "$B"
row "$GIB" "$TMP/floor" "search --phys --string=pgw-main" search --phys \
	--string=pgw-main "$B"
