#!/bin/sh
# The benchmark's server-sized image (tests/tools/pgw-bigimage), checked
# against the image it is made from: x64-4l-a's mem.raw at 0 and copied to
# 4 GiB in an 8 GiB sparse file, the copy's process page tables relocated.
#  - the original is untouched: the kernel root's dump and every process
#    root's dump equal mem.raw's (but for bytes_not_in_image: frames
#    mem.raw lacks, MMIO at 0xfec00000 and up, the 8 GiB file holds as
#    holes);
#  - each process root's copy (its table + 4 GiB) maps the same user
#    addresses to the same frames + 4 GiB, with the same flags, and the
#    kernel half as the kernel's: its dump is mem.raw's, user frames
#    moved by 4 GiB;
#  - roots finds the copies as roots too (twice mem.raw's process roots),
#    and the file is sparse (its data about twice the guest's).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
unpack_shared || bail "cannot unpack the real dumps"
MEM=$UNPACKED/x64-4l-a/mem.raw
"$PGWALK" roots --format=tsv "$MEM" >"$TMP/roots" ||
	bail "roots of mem.raw failed"
procs=$(awk -F'\t' '$1 == "root" && $3 == "process" { print $2 }' "$TMP/roots")
nprocs=$(echo "$procs" | grep -c .)
plan $((4 + 2 * nprocs))

"$PGW_TOOLS/pgw-bigimage" "$MEM" "$TMP/big.raw" 8 >"$TMP/made"
is "$?:$(sed 's/ tables=.*//' "$TMP/made")" "0:copies=1" \
	"an 8 GiB image: mem.raw and one copy"
BIG=$TMP/big.raw
data=$(du -k "$BIG" | cut -f1) guest=$(du -k "$MEM" | cut -f1)
[ "$data" -le $((2 * guest + 1024)) ]
ok $? "sparse: ${data} KiB of data for 8 GiB (the guest: ${guest} KiB)"
# dump ARGS...: dump's TSV without bytes_not_in_image.
dump() { "$PGWALK" dump --format=tsv "$@" | cut -f1-11,13-; }
dump "$MEM" >"$TMP/a"
dump "$BIG" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b"
ok $? "the kernel root's dump is mem.raw's"

# moved FILE: the dump's user-half frames (va shorter than a kernel
# address's 18 characters) 4 GiB higher.
moved() {
	perl -F'\t' -lane 'if (length($F[1]) < 18 && $F[4] =~ /^0x/) {
		$F[4] = sprintf("0x%x", hex($F[4]) + 0x100000000) }
		print join("\t", @F)' "$1"
}
for r in $procs; do
	dump --root="$r" "$MEM" >"$TMP/a"
	dump --root="$r" "$BIG" >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b"
	ok $? "process root $r: its dump is mem.raw's"
	c=$(printf '0x%x' $((r + 0x100000000)))
	dump --root="$c" "$BIG" >"$TMP/c"
	moved "$TMP/a" | cmp -s - "$TMP/c"
	ok $? "its copy $c: the same dump, user frames 4 GiB higher"
done
n=$("$PGWALK" roots --format=tsv "$BIG" |
	awk -F'\t' '$1 == "root" && $3 == "process"' | grep -c .)
is "$n" $((2 * nprocs)) "roots: every process root and its copy"
done_testing
