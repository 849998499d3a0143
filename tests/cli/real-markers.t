#!/bin/sh
# Markers of the process that owns CPU 1's CR3 (the guest's own pagemap
# view): each translates through CPU 1 to its pa, the marker string really
# is at that pa in mem.raw, PROT_NONE pages are unmapped but name their
# real frame, and pages with no frame are unmapped.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 12   # 3 per dump

# The marker strings are read from mem.raw, the raw image of the same RAM.
read_raw_mem() { read_raw "${1%/vmcore.elf}/mem.raw" "$2" "$3"; }

for dm in $DUMPS; do
	d=${dm%%:*}
	pid=$(owner "$SHARED/$d")
	markers "$SHARED/$d" "$pid" >"$TMP/m"
	n=$(grep -c '' "$TMP/m")
	[ -n "$pid" ] && [ "$n" -gt 10 ]
	ok $? "$d: $n markers of pid $pid, the owner of CPU 1's CR3 $(cr3_of "$SHARED/$d" 1)"
	check_markers "$d" "$UNPACKED/$d/vmcore.elf" "$TMP/m" read_raw_mem
done

done_testing
