#!/bin/sh
# Regenerate the fuzz seeds in DIR (default fuzz/corpus): tests/tools/
# mkseeds writes ELF, raw and walker seeds; pgw-mkdump turns the raw ones
# into kdump (every codec, both header layouts, flattened), LiME and AVML.
# Run after `make build/tools/mkseeds build/tools/pgw-mkdump`.  Reproducers
# of past findings (crash-*) are kept, not regenerated.
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
