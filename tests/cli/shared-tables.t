#!/bin/sh
# Shared tables that map one frame everywhere (KASAN's shadow; a hostile
# image): dump reports their span at once, as one range of "same frame",
# instead of re-walking them (the work is measured in entries examined,
# the JSON summary's "entries", not in time); --leaves still lists every
# leaf and is bounded by the entry budget.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 13

# 512 GiB of 4 KiB pages onto one frame: every PDPT entry points to one PD,
# every PD entry to one PT, every PT entry to frame 0x5000.
{
	echo "mode x86-64"
	echo "ram 0 32K"
	echo "root 0x1000"
	echo "entry 0x1000 0x2067"
	i=0
	while [ $i -lt 512 ]; do
		echo "entry $((0x2000 + i * 8)) 0x3067"
		echo "entry $((0x3000 + i * 8)) 0x4067"
		echo "entry $((0x4000 + i * 8)) 0x8000000000005065"
		i=$((i + 1))
	done
} > "$TMP/one.spec"
"$MKIMAGE" -r "$TMP/one.raw" < "$TMP/one.spec" || echo "# pgw-mkimage failed"

run "$PGWALK" dump --format=json --no-holes --mode=x86-64 --cr3=0x1000 "$TMP/one.raw"
is "$rc" 0 "dump of 512 GiB onto one frame succeeds"
maps=$(printf '%s\n' "$out" | grep -c '"type":"map"')
is "$maps" 1 "... as one range"
like '"va":"0x0","end":"0x8000000000".*"pa":"0x5000".*"entries":134217728.*"same_frame":true' \
	"... of 512 GiB, 2^27 leaves, all at frame 0x5000, marked same_frame"
like '^\{"type":"summary",.*"entries":2048,.*"complete":true\}$' \
	"... after examining 2048 entries: the 512 of each of the 4 tables, once"

run "$PGWALK" dump --mode=x86-64 --cr3=0x1000 "$TMP/one.raw" --no-holes --no-summary
like 'same frame' "text output says same frame"

# Permissions are those of the whole chain: the tables grant RW, the PT
# entries are read-only, user, NX.
run "$PGWALK" dump --format=csv --no-holes --no-summary --mode=x86-64 --cr3=0x1000 "$TMP/one.raw"
like '^map,0x0,0x8000000000,[0-9]+,0x5000,4096,pte,134217728,[a-z|]*,user\|nx,user,0,,,same_frame$' \
	"CSV marks the run same-frame with the chain's effective flags (user, read-only, nx)"

run "$PGWALK" dump --leaves --format=tsv --max-entries=100000 --mode=x86-64 --cr3=0x1000 "$TMP/one.raw"
is "$rc" 4 "--leaves lists every leaf, so the budget stops it (exit 4)"
out=$err like 'entry budget of 100000 exhausted' "... with the budget message on stderr"

run "$PGWALK" translate --format=tsv --mode=x86-64 --cr3=0x1000 "$TMP/one.raw" 0x7fffffffff 0x123456789
is "$(printf '%s\n' "$out" | sed 1d | cut -f1-6)" "$(printf '0x7fffffffff\t0x5fff\t4096\tpte\tpresent|user|accessed|dirty|nx\tuser|nx\n0x123456789\t0x5789\t4096\tpte\tpresent|user|accessed|dirty|nx\tuser|nx')" \
	"translate agrees with the repeated mapping"

# regions counts the repeated pages, not one leaf per report.
run "$PGWALK" regions --format=tsv --mode=x86-64 --cr3=0x1000 "$TMP/one.raw"
like '^region	User Space	user	0x0	0x800000000000	140737488355328	549755813888	134217728	' \
	"regions: User Space has 512 GiB mapped in 2^27 leaves"

# The same tables at the top of the space: the run is cut at every region
# boundary and the pieces share out the 2^27 leaves.
sed 's/^entry 0x1000 0x2067$/entry 0x1ff8 0x2067/' "$TMP/one.spec" |
	"$MKIMAGE" -r "$TMP/top.raw" || echo "# pgw-mkimage failed"
run "$PGWALK" dump --format=tsv --no-holes --no-summary --mode=x86-64 --cr3=0x1000 "$TMP/top.raw"
is "$(printf '%s\n' "$out" | awk -F'\t' '$1 == "map" { n += $8 } END { print n }')" 134217728 \
	"pieces cut at region boundaries add up to 2^27 leaves"
is "$(printf '%s\n' "$out" | awk -F'\t' '$1 == "map" && $11 == "vsyscall" { print $8 }')" 1 \
	"the 4 KiB vsyscall piece holds one leaf"
is "$(printf '%s\n' "$out" | awk -F'\t' '$1 == "map" && $11 == "modules" { print $8 }')" 389120 \
	"the modules piece holds 1520 MiB / 4 KiB leaves"

done_testing
