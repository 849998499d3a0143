#!/bin/sh
# Side by side with a peer: 1 M+ kernel virtual addresses (the kernel
# addresses of x64-4l-a's gva2gpa.txt, repeated) translated by pgwalk and by
# libkdumpfile's addrxlat through the kernel's page tables, on the same ELF.
# Needs ../shared/testdata and, for the peer, libkdumpfile-dev.  Prints
# wall time, addresses/s, peak RSS, and whether the answers agree.
set -u
: "${PGWALK:?run through make bench}"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
shared=${PGW_SHARED:-$repo/../shared/testdata}
unpacked=${PGW_UNPACKED:-$repo/build/unpacked}
[ -d "$shared/x64-4l-a" ] || { echo "no ../shared/testdata: skipped"; exit 0; }
mkdir -p "$unpacked" && sh "$shared/unpack.sh" "$unpacked" >/dev/null
elf=$unpacked/x64-4l-a/vmcore.elf
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk '$2 ~ /^0xf/ { print $2 }' "$shared/x64-4l-a/gva2gpa.txt" > "$tmp/k"
n=$(wc -l < "$tmp/k"); reps=$((1000000 / n + 1))
i=0; while [ $i -lt $reps ]; do cat "$tmp/k"; i=$((i + 1)); done > "$tmp/addrs"
total=$(wc -l < "$tmp/addrs")

measure() { # NAME CMD... ; stdin from $tmp/addrs, stdout to $tmp/NAME.out
	name=$1; shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%e %M" -o "$tmp/$name.time" "$@" < "$tmp/addrs" > "$tmp/$name.out" 2>/dev/null
		set -- $(tail -n 1 "$tmp/$name.time")
		awk -v n="$total" -v t="$1" -v r="$2" -v name="$name" \
			'BEGIN { printf "%-10s %8.3f s %12.0f addr/s %8d KiB peak RSS\n", name, t, n / t, r }'
	else
		start=$(date +%s.%N); "$@" < "$tmp/addrs" > "$tmp/$name.out" 2>/dev/null; end=$(date +%s.%N)
		awk -v n="$total" -v s="$start" -v e="$end" -v name="$name" \
			'BEGIN { printf "%-10s %8.3f s %12.0f addr/s\n", name, e - s, n / (e - s) }'
	fi
}

echo "kernel addresses: $total (x64-4l-a, kernel root from VMCOREINFO)"
measure pgwalk "$PGWALK" translate --format=tsv "$elf" -
if [ -f /usr/include/libkdumpfile/kdumpfile.h ] &&
   cc -O2 -o "$tmp/addrxlat_vtop" "$here/peers/addrxlat_vtop.c" -lkdumpfile -laddrxlat 2>/dev/null; then
	measure addrxlat "$tmp/addrxlat_vtop" "$elf"
	cut -f1,2 "$tmp/pgwalk.out" > "$tmp/a"
	if cmp -s "$tmp/a" "$tmp/addrxlat.out"; then echo "answers: identical"
	else echo "answers: DIFFER ($(diff "$tmp/a" "$tmp/addrxlat.out" | grep -c '^<') lines)"; fi
else
	echo "addrxlat: libkdumpfile-dev not installed (apt-get install libkdumpfile-dev)"
fi
