#!/bin/sh
# makedumpfile -E -d 31 of the real x64-4l-a core: the pages its dump
# level leaves out are written as the tail of a PT_LOAD past p_filesz.
# They are excluded, never zeros: info counts them as readelf's headers
# say, read of a user marker page (console.log) refuses it, diff --data
# against the full core changes nothing and leaves exactly them
# uncompared; --zero-excluded reads them as zeros, here and on the
# makedumpfile -d 31 kdump.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 8

D=x64-4l-a
full=$UNPACKED/$D/vmcore.elf
if ! command -v makedumpfile >/dev/null 2>&1; then
	skip_all "makedumpfile is not installed"
fi
# makedumpfile reads program headers right after the ELF header and
# refuses QEMU 7.2's layout (section table first, e_ehsize 8): a copy
# with the three program headers moved to offset 64 and no sections.
cp "$full" "$TMP/in.elf" || bail "cannot copy $full"
dd if="$full" of="$TMP/in.elf" bs=1 skip=192 seek=64 count=168 conv=notrunc 2>/dev/null &&
	printf '\100\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' |
	dd of="$TMP/in.elf" bs=1 seek=32 conv=notrunc 2>/dev/null &&
	printf '\100\0' | dd of="$TMP/in.elf" bs=1 seek=52 conv=notrunc 2>/dev/null &&
	printf '\0\0\0\0\0\0' | dd of="$TMP/in.elf" bs=1 seek=58 conv=notrunc 2>/dev/null ||
	bail "cannot rewrite the copy's header"
makedumpfile -E -d 31 "$TMP/in.elf" "$TMP/f31.elf" >"$TMP/mdf.log" 2>&1 ||
	bail "makedumpfile failed: $(tail -2 "$TMP/mdf.log")"
rm -f "$TMP/in.elf"

# The oracle: readelf's p_memsz - p_filesz summed over the PT_LOADs.
excluded=0
for d in $(readelf -lW "$TMP/f31.elf" | awk '$1 == "LOAD" { print $5 "-" $6 }'); do
	excluded=$((excluded + (${d#*-} - ${d%-*}) / 4096))
done
run "$PGWALK" info --format=json "$TMP/f31.elf"
like "\"complete\":false,\"intact\":true,.*\"excluded\":$excluded,\"truncated\":0,.*\"zero_excluded\":false" \
	"info: $excluded pages excluded (readelf: p_memsz - p_filesz), intact, not complete"

# A user marker page (console.log: its VA and the string that starts it).
line=$(grep -m1 'PGWALK-FINAL .*kind=anon4k' "$SHARED/$D/console.log")
pid=$(printf '%s\n' "$line" | sed -n 's/.* pid=\([0-9]*\) .*/\1/p')
va=$(printf '%s\n' "$line" | sed -n 's/.* marker_va=\(0x[0-9a-f]*\) .*/\1/p')
marker=$(printf '%s\n' "$line" | sed -n 's/.* marker="\([^"]*\)".*/\1/p')
[ -n "$pid" ] && [ -n "$va" ] && [ -n "$marker" ] || bail "no anon4k marker in console.log"
run "$PGWALK" read --raw --pid="$pid" "$full" "$va" ${#marker}
is "$rc:$out" "0:$marker" "the full core: pid $pid's page at $va starts with its marker"
run "$PGWALK" read --raw --pid="$pid" "$TMP/f31.elf" "$va" ${#marker}
is "$rc:$out" "2:" "the -E -d 31 core: the user page is not read (exit 2), no bytes"
out=$err
like "data-not-in-image \(excluded\) at pte" "... stderr: excluded"
"$PGWALK" read --raw --zero-excluded --pid="$pid" "$TMP/f31.elf" "$va" ${#marker} >"$TMP/z"
rc=$?
is "$rc:$(tr -d '\000' <"$TMP/z" | wc -c):$(wc -c <"$TMP/z")" "0:0:${#marker}" \
	"--zero-excluded: ${#marker} zero bytes, exit 0"
"$PGWALK" read --raw --zero-excluded --pid="$pid" "$SHARED/$D/vmcore-d31.kdump" "$va" ${#marker} >"$TMP/z"
rc=$?
is "$rc:$(tr -d '\000' <"$TMP/z" | wc -c):$(wc -c <"$TMP/z")" "0:0:${#marker}" \
	"--zero-excluded on the -d 31 kdump alike"

# diff --data: the kernel's space in both; what the filtered core lacks is
# what dump says it lacks beyond what the full core lacks (MMIO).
bni() { "$PGWALK" dump --format=json "$1" | tail -1 | sed -n 's/.*"bytes_not_in_image":\([0-9]*\).*/\1/p'; }
lack=$(( $(bni "$TMP/f31.elf") - $(bni "$full") ))
run "$PGWALK" diff --data --format=json "$full" "$TMP/f31.elf"
sum=$(printf '%s\n' "$out" | tail -1)
case $sum in
*'"changed":0,"uncompared":'$lack',"same":'*) r=0 ;;
*) r=1 ;;
esac
[ "$lack" -gt 50000000 ] && [ "$rc" = 2 ]
ok $((r | $?)) "diff --data full -E: nothing changed, $lack bytes uncompared as dump counts them, exit $rc"
run "$PGWALK" diff --data --format=json "$full" "$full"
is "$rc:$(printf '%s\n' "$out" | grep -c '"type":"uncompared"')" "0:0" \
	"diff --data of the core with itself: alike, exit 0 (its MMIO pages are no partial evidence)"
done_testing
