#!/bin/sh
# Regenerate the fuzz seeds in DIR (default fuzz/corpus): tests/tools/
# mkseeds writes ELF, raw and walker seeds; pgw-mkdump turns the raw ones
# into kdump (every codec, both header layouts, flattened), LiME and AVML.
# Run after `make build/tools/mkseeds build/tools/pgw-mkdump
# build/tools/pgw-mkimage`.  Reproducers of past findings (crash-*) are
# kept, not regenerated.
set -eu
T=${PGW_TOOLS:-build/tools}
D=${1:-fuzz/corpus}
"$T/mkseeds" "$D"
R=$D/image_raw
M=$T/pgw-mkdump
mkdir -p "$D/image_kdump" "$D/image_lime" "$D/image_avml"
for c in zlib lzo snappy zstd; do
	"$M" kdump --raw="$R/x86-64.raw" --codec=$c "$D/image_kdump/x86-64-$c.kdump" >/dev/null
done
"$M" kdump --raw="$R/i386.raw" --layout=32 --codec=zlib "$D/image_kdump/i386-32bit-zlib.kdump" >/dev/null
"$M" kdump --raw="$R/x86-64.raw" --codec=none --exclude-zero "$D/image_kdump/x86-64-exclude-zero.kdump" >/dev/null
"$M" kdump --raw="$R/x86-64.raw" --codec=zlib --flat=4096 --flat-overlap "$D/image_kdump/x86-64-flat-overlap.kdump" >/dev/null
"$M" kdump --raw="$R/x86-64.raw" --codec=snappy --flat=8192 --flat-reverse "$D/image_kdump/x86-64-flat-reverse.kdump" >/dev/null
"$M" lime --raw="$R/x86-64.raw" "$D/image_lime/x86-64.lime" >/dev/null
"$M" lime --raw="$R/pae.raw" --holes "$D/image_lime/pae-holes.lime" >/dev/null
"$M" avml --raw="$R/x86-64.raw" --avml-block=8192 "$D/image_avml/x86-64.avml" >/dev/null
"$M" avml --raw="$R/i386.raw" --holes --avml-block=4096 "$D/image_avml/i386-holes.avml" >/dev/null
# Issue 32: PAE slots that each name another page directory, in a kdump
# (the directories were decompressed outside the scan's budget).
"$M" kdump --raw="$R/issue32-pae-forged-slots.raw" --codec=zlib "$D/image_kdump/issue32-pae-forged-slots.kdump" >/dev/null
rm "$R/issue32-pae-forged-slots.raw"   # 80 KB the kdump holds in 18

# Reproducers of issue 12's hostile inputs, cut and patched from the seeds
# (the same cases at full size are in tests/tools/mkcorrupt).
# le32 FILE OFFSET VALUE: write a little-endian 32-bit value in place.
le32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $(($3 >> 8 & 255)) \
		$(($3 >> 16 & 255)) $(($3 >> 24 & 255)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
# rd32 FILE OFFSET: a little-endian 32-bit value.
rd32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
K=$D/image_kdump/x86-64-zlib.kdump
# A kdump cut in its page data (once taken as whole): pages truncated.
head -c $(($(wc -c <"$K") - 300)) "$K" >"$D/image_kdump/issue12-cut-in-data.kdump"
# One descriptor of size 0: that page corrupt, not the image.
desc=$(( (1 + $(rd32 "$K" 432) + $(rd32 "$K" 436)) * 4096 ))
cp "$K" "$D/image_kdump/issue12-desc-size-0.kdump"
le32 "$D/image_kdump/issue12-desc-size-0.kdump" $((desc + 2 * 24 + 8)) 0
# A zero-filled tail over the next PT_LOAD: the next one's bytes win.
E=$D/image_elf/issue12-zero-fill-over-next.elf
cp "$D/image_elf/x86-64-segments.elf" "$E"
le32 "$E" $((64 + 56 + 40)) $((0x5000))
# An ELF core cut inside its memory: what is there reads.
head -c 12345 "$D/image_elf/pae-qemu.elf" >"$D/image_elf/issue12-cut-in-load.elf"
head -c 1500 "$D/image_avml/x86-64.avml" >"$D/image_avml/issue12-cut-in-range.avml"
head -c 20000 "$D/image_lime/x86-64.lime" >"$D/image_lime/issue12-cut-in-range.lime"
# Conflicting mode evidence: CPU 0's CR4 says LA57, CPU 1 and VMCOREINFO
# say 4-level (tests/specs/mode-conflict.spec at full size).
printf '%s\n' 'mode x86-64' 'ram 0 64K' 'root 0x1000' 'alloc 0x2000' \
	'map 0x400000 0x8000 16K rw user' 'map 0xffff888000000000 0 64K rw g nx' \
	'cpu 0x80050033 0x1000 0x16f0 long' 'cpu 0x80050033 0x1000 0x6f0 long user' \
	'vmcoreinfo OSRELEASE=6.1.0-conflict' 'vmcoreinfo NUMBER(pgtable_l5_enabled)=0' |
	"$T/pgw-mkimage" -e "$D/image_elf/issue12-mode-conflict.elf"
