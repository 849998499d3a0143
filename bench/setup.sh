#!/bin/sh
# The set-up a command pays before it reads anything, on x64-4l-a's
# mem.raw (no VMCOREINFO note: it is found in memory, every page looked
# at): a 16-byte read of the kernel's _stext and of pid 1's first page,
# without the facts cache, with it (the warming run fills it), and with
# the mode and root given (no set-up: the floor), medians of RUNS
# (pgw-timeit, CPU ms); the set-up is each minus the floor.  Then 100
# reads in one command (`read IMAGE -`) against one read.  Targets: with
# the cache a second command's set-up at most 10 % of the first's; 100
# reads in one command at most 2x one read's set-up.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${RUNS:-21}
MEM=$UNPACKED/x64-4l-a/mem.raw
T=$PGW_TOOLS/pgw-timeit
if [ ! -s "$MEM" ]; then
	echo "(no $MEM: unpack the real dumps, or set PGW_UNPACKED)"
	exit 0
fi
export XDG_CACHE_HOME=$TMP/cache
STEXT=0xffffffffa5200000   # SYMBOL(_stext) of its VMCOREINFO
cpu() { "$T" -n "$RUNS" "$@" | sed -n 's/.*cpu_ms=\([0-9.]*\).*/\1/p'; }
floor=$(cpu "$PGWALK" read --mode=x86-64 --cr3=0x6210000 "$MEM" $STEXT 16)
echo "| read of 16 bytes, x64-4l-a mem.raw | CPU ms | set-up ms | cached / uncached |"
echo "|---|---|---|---|"
printf '| --mode --cr3 given (no set-up) | %s | 0 | |\n' "$floor"
for who in "kernel _stext:$STEXT" "--pid=1 0x400000:0x400000"; do
	what=${who%%:*} addr=${who#*:}
	set --
	case $what in --pid*) set -- --pid=1 ;; esac
	a=$(cpu "$PGWALK" read --no-cache "$@" "$MEM" "$addr" 16)
	b=$(cpu "$PGWALK" read "$@" "$MEM" "$addr" 16)
	awk -v w="$what" -v a="$a" -v b="$b" -v f="$floor" 'BEGIN {
		printf "| %s, --no-cache | %.2f | %.2f | |\n", w, a, a - f
		printf "| %s, cached | %.2f | %.2f | %.1f %% |\n", w, b, b - f,
		       (a > f ? 100 * (b - f) / (a - f) : 0) }'
done
i=0
while [ $i -lt 100 ]; do
	printf '0xffffffffa5%06x 16\n' $((0x200000 + i * 4096))
	i=$((i + 1))
done >"$TMP/req"
one=$(cpu "$PGWALK" read --no-cache "$MEM" $STEXT 16)
many=$(cpu -i "$TMP/req" "$PGWALK" read --no-cache "$MEM" -)
awk -v o="$one" -v m="$many" -v f="$floor" 'BEGIN {
	printf "100 reads in one command (--no-cache): %.2f ms CPU, one read %.2f: %.2fx one read'"'"'s set-up (%.2f ms)\n",
	       m, o, (o > f ? (m - f) / (o - f) : 0), o - f }'
