#!/bin/sh
# search on the real 128 MiB x86-64 guest (x64-4l-a), each against its
# peer on the same bytes:
# - a literal over physical memory of the raw image (--phys), against
#   grep -c -a of the same string in the same file: GB/s per core from
#   the CPU time (one core: pinned);
# - 82 marker strings at once (one pass: they start alike);
# - --all-roots against --phys (the same scan, then every root walked
#   once) and ptov --all-roots of one address (the roots scan, the task
#   list and the walks alone);
# - one process's space (--pid=129) with the same literal;
# - tests/rules/markers.yar (a regular expression and a hex string)
#   against the yara command on the same file;
# - --regex: an ordinary expression and the worst tried.
# Best of RUNS (default 3) after a warming run; the hits are checked once
# against grep's count.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${RUNS:-3}
D=$UNPACKED/x64-4l-a
if [ ! -f "$D/mem.raw" ]; then
	echo "(no unpacked x64-4l-a: run make check once, or set PGW_UNPACKED)"
	exit 0
fi
RAW=$D/mem.raw
LIT=PGWALK-MARKER-129-7fdb5e4f1000
MIB=$(($(wc -c <"$RAW") >> 20))
RULES=$REPO/tests/rules/markers.yar

hits=$("$PGWALK" search --phys --format=json --string="$LIT" "$RAW" 2>/dev/null |
	sed -n 's/.*"type":"summary".*"hits":\([0-9]*\),.*/\1/p')
lines=$(grep -c -a "$LIT" "$RAW")
echo "(literal: $hits hits; grep -c -a: $lines lines holding it)"
set --
for m in $(tr -d '\r' <"$SHARED/x64-4l-a/console.log" 2>/dev/null |
	sed -n 's/^PGWALK-FINAL .*marker="\(PGWALK-[^"]*\)".*/\1/p' | sort -u); do
	set -- "$@" "--string=$m"
done
MARKERS="$*"

echo "| search, x64-4l-a mem.raw ($MIB MiB) | CPU s | wall s | GB/s per core | peer | peer CPU s |"
echo "|---|---|---|---|---|---|"
# row WHAT PEER PEER-CMD -- CMD...: best of RUNS of each.
row() {
	_what=$1 _peer=$2 _pcmd=$3
	shift 3
	"$@" >/dev/null 2>&1
	# shellcheck disable=SC2046  # three numbers
	set -- $(best_of "$RUNS" /dev/null $PIN "$@")
	_p=-
	if [ -n "$_pcmd" ]; then
		# shellcheck disable=SC2046,SC2086
		set -- "$@" $(best_of "$RUNS" /dev/null $PIN sh -c "$_pcmd")
		_p=$4
	fi
	awk -v w="$_what" -v c="$1" -v s="$2" -v mib="$MIB" -v p="$_peer" -v pc="$_p" \
		'BEGIN { printf "| %s | %.3f | %.3f | %.2f | %s | %s |\n", w, c, s,
			 mib * 1048576 / 1e9 / (c > 0 ? c : 0.001), p, pc }'
}
row "--phys --string (one literal)" "grep -c -a" "grep -c -a '$LIT' '$RAW'" \
	"$PGWALK" search --phys --string="$LIT" "$RAW"
# shellcheck disable=SC2086
row "--phys, the $(echo "$MARKERS" | wc -w) marker strings" "" "" \
	"$PGWALK" search --phys --max-hits=100000 $MARKERS "$RAW"
row "--all-roots --string (one literal)" "ptov --all-roots 0x1000" \
	"'$PGWALK' ptov --all-roots '$RAW' 0x1000" \
	"$PGWALK" search --all-roots --string="$LIT" "$RAW"
row "--pid=129 --string (one literal)" "" "" \
	"$PGWALK" search --pid=129 --string="$LIT" "$RAW"
if command -v yara >/dev/null 2>&1; then
	row "--phys --yara=markers.yar" "yara -s" "yara -s '$RULES' '$RAW'" \
		"$PGWALK" search --phys --max-hits=100000 --yara="$RULES" "$RAW"
fi
row "--phys --regex='PGWALK-(MARKER|FILE)-[0-9A-Z-]+'" "" "" \
	"$PGWALK" search --phys --max-hits=100000 \
	--regex='PGWALK-(MARKER|FILE)-[0-9A-Z-]+' "$RAW"
row "--phys --regex='(.*)*x' (the worst tried)" "" "" \
	"$PGWALK" search --phys --max-hits=1 --regex='(.*)*x' "$RAW"
