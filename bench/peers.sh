#!/bin/sh
# Side by side with a peer: 1 M+ kernel virtual addresses (the kernel
# addresses of x64-4l-a's gva2gpa.txt, repeated) translated by pgwalk and by
# libkdumpfile's addrxlat through the kernel's page tables, on the same ELF.
# Needs ../shared/testdata and, for the peer, libkdumpfile-dev.  Prints
# wall time, addresses/s, peak RSS, and whether the answers agree.
. "$(dirname "$0")/lib/measure.sh"
[ -d "$SHARED/x64-4l-a" ] || { echo "no ../shared/testdata: skipped"; exit 0; }
mkdir -p "$UNPACKED" && sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null
elf=$UNPACKED/x64-4l-a/vmcore.elf
awk '$2 ~ /^0xf/ { print $2 }' "$SHARED/x64-4l-a/gva2gpa.txt" > "$TMP/k"
n=$(wc -l < "$TMP/k"); reps=$((1000000 / n + 1))
i=0; while [ $i -lt $reps ]; do cat "$TMP/k"; i=$((i + 1)); done > "$TMP/addrs"
total=$(wc -l < "$TMP/addrs")

report() { # NAME CMD... ; stdin from $TMP/addrs, stdout to $TMP/NAME.out
	name=$1; shift
	# shellcheck disable=SC2046  # cpu, wall, peak
	set -- $(measure "$TMP/addrs" "$TMP/$name.out" "$@")
	awk -v n="$total" -v t="$2" -v r="$3" -v name="$name" \
		'BEGIN { printf "%-10s %8.3f s %12.0f addr/s %8d KiB peak RSS\n", name, t, n / t, r }'
}

echo "kernel addresses: $total (x64-4l-a, kernel root from VMCOREINFO)"
report pgwalk "$PGWALK" translate --format=tsv "$elf" -
if [ -f /usr/include/libkdumpfile/kdumpfile.h ] &&
   cc -O2 -o "$TMP/addrxlat_vtop" "$REPO/bench/peers/addrxlat_vtop.c" -lkdumpfile -laddrxlat 2>/dev/null; then
	report addrxlat "$TMP/addrxlat_vtop" "$elf"
	sed 1d "$TMP/pgwalk.out" | cut -f1,2 > "$TMP/a"   # after the header row
	if cmp -s "$TMP/a" "$TMP/addrxlat.out"; then echo "answers: identical"
	else echo "answers: DIFFER ($(diff "$TMP/a" "$TMP/addrxlat.out" | grep -c '^<') lines)"; fi
else
	echo "addrxlat: libkdumpfile-dev not installed (apt-get install libkdumpfile-dev)"
fi
