#!/bin/sh
# Physical memory as the image lays it out: several PT_LOADs with gaps,
# segments above 4 GiB, segments that start and end inside a page (a page
# assembled from two segments), p_memsz > p_filesz, raw images that start
# above 0.  Frames outside the image still translate (in_image false);
# tables outside it stop the walk.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 27

# jline VA: the JSON line for VA in $out_all.
jline() { printf '%s\n' "$out_all" | grep "^{\"type\":\"translation\",\"va\":\"$1\""; }

# ---- gaps and memory above 4 GiB ----
cat >"$TMP/gaps.spec" <<'EOS'
mode x86-64
ram 0 1M
ram 0x400000 1M
ram 0x100000000 2M
root 0x100000000
alloc 0x100001000
map 0x400000 0x400000 4K rw user
map 0x401000 0x200000 4K rw user
map 0x402000 0x100100000 4K rw user
map 0xffff888000000000 0 2M rw page=2m
alloc 0x300000
map 0x7f0000000000 0x0 4K user
EOS
mkimg gaps "$TMP/gaps.spec"
run "$PGWALK" info "$TMP/gaps.elf"
like '^physical: +3 ranges, 4194304 bytes \(4M\)$' \
	"info: three ranges"
like '^  0x400000-0x500000$' "info lists the middle range, half-open"
like '^  0x100000000-0x100200000$' "... and the highest, above 4 GiB"
run "$PGWALK" translate --format=json --cr3=0x100000000 --mode=x86-64 \
	"$TMP/gaps.elf" 0x400000 0x401000 0x402000 0x7f0000000000
out_all=$out
out=$(jline 0x400000); like '"pa":"0x400000".*"in_image":true' \
	"frame in the second segment: in the image"
out=$(jline 0x401000); like '"pa":"0x200000".*"in_image":false' \
	"frame in the gap: translates, not in the image"
out=$(jline 0x402000); like '"pa":"0x100100000".*"in_image":true' \
	"frame above 4 GiB: in the image"
out=$(jline 0x7f0000000000)
like '"pa":null,"level":"pud","reason":"table-not-in-image","absence":"outside"' \
	"a table in the gap stops the walk, outside the image"
# Everything under the PML4 entry whose table is in the gap, 0x7f0..-0x7f7..
grep -v '^0x7f[0-7]' "$TMP/gaps.exp" >"$TMP/gaps-in.exp"
expect_tsv "tables above 4 GiB: everything else as built" "$TMP/gaps-in.exp" \
	--cr3=0x100000000 --mode=x86-64 "$TMP/gaps.elf"

# ---- segments that start and end inside pages ----
# The root page 0x100000 is half in one PT_LOAD and half in the next (their
# bytes are not adjacent in the file); the last page is only partly there.
cat >"$TMP/split.spec" <<'EOS'
mode x86-64
ram 0 0x100800
ram 0x100800 0x9800
ram 0x10a000 0x200
root 0x100000
alloc 0x101000
map 0x400000 0x1000 4K user
map 0xffff888000000000 0 2M rw page=2m
map 0xffffc90000000000 0x10a000 4K rw
EOS
mkimg split "$TMP/split.spec"
expect_tsv "root page assembled from two segments, ELF" "$TMP/split.exp" \
	--cr3=0x100000 --mode=x86-64 "$TMP/split.elf"
expect_tsv "... and the same memory as raw" "$TMP/split.exp" --image-format=raw \
	--cr3=0x100000 --mode=x86-64 "$TMP/split.raw"
run "$PGWALK" translate --format=json --cr3=0x100000 --mode=x86-64 \
	"$TMP/split.elf" 0xffffc90000000000 0x400000
out_all=$out
out=$(jline 0xffffc90000000000)
like '"pa":"0x10a000".*"in_image":false' \
	"a page only partly covered by a segment is not in the image"
out=$(jline 0x400000)
like '"pa":"0x1000".*"in_image":true' "a page fully covered is"
run "$PGWALK" info "$TMP/split.elf"
like "^physical: +1 range, $((0x10a200)) bytes" \
	"three adjacent segments make one range"

# ---- p_memsz > p_filesz: the tail is excluded (makedumpfile -E) ----
cat >"$TMP/zero.spec" <<'EOS'
mode x86-64
ram 0 16M filesz=8M
root 0x1000
alloc 0x10000
map 0x400000 0xc00000 4K user
map 0xffff888000000000 0 8M rw page=2m
alloc 0xc01000
map 0x7f0000000000 0x1000 4K user
EOS
"$MKIMAGE" -e "$TMP/zero.elf" "$TMP/zero.spec"
run "$PGWALK" translate --format=json --levels --cr3=0x1000 --mode=x86-64 \
	"$TMP/zero.elf" 0x400000 0x7f0000000000
out_all=$out
out=$(jline 0x400000)
like '"pa":"0xc00000".*"in_image":false,"absence":"excluded"' \
	"a frame in the tail past p_filesz is excluded, not in the image"
out=$(jline 0x7f0000000000)
like '"pa":null,"level":"pud","reason":"table-not-in-image","absence":"excluded"' \
	"a table in the tail is not in the image (excluded)"
run "$PGWALK" translate --zero-excluded --format=json --levels --cr3=0x1000 \
	--mode=x86-64 "$TMP/zero.elf" 0x400000 0x7f0000000000
out_all=$out
out=$(jline 0x400000)
like '"pa":"0xc00000".*"in_image":true' "--zero-excluded: the frame reads (as zeros)"
out=$(jline 0x7f0000000000)
like '"pa":null,"level":"pud","reason":"not-present","levels":.*"level":"pud",[^}]*"entry":"0x0"\}\]' \
	"--zero-excluded: a table in the tail reads as zeros"
run "$PGWALK" info "$TMP/zero.elf"
like '^physical: +1 range, 16777216 bytes' "info counts the tail as memory"

# ---- raw images that start above 0 (--base) ----
dd if="$TMP/gaps.raw" of="$TMP/based.raw" bs=1M skip=4 count=1 2>/dev/null
run "$PGWALK" translate --format=tsv --image-format=raw --base=0x400000 \
	--cr3=0x100000000 --mode=x86-64 "$TMP/based.raw" 0x400000
one_error "--base: the root is outside this raw image" 3
cat >"$TMP/base.spec" <<'EOS'
mode x86-64
ram 0 8M
root 0x400000
alloc 0x401000
map 0x400000 0x410000 0x4000 rw user
map 0xffff888000000000 0 8M rw page=2m
EOS
mkimg base "$TMP/base.spec"
dd if="$TMP/base.raw" of="$TMP/based.raw" bs=1M skip=4 2>/dev/null
expect_tsv "--base=0x400000: a raw image of [4 MiB, 8 MiB)" "$TMP/base.exp" \
	--image-format=raw --base=0x400000 --cr3=0x400000 --mode=x86-64 \
	"$TMP/based.raw"
run "$PGWALK" info --image-format=raw --base=0x400000 --cr3=0x400000 "$TMP/based.raw"
like "^  0x400000-0x800000\$" "info: the raw range starts at the base"
like '^mode: +x86-64 \(validation walk' "... and detection works from it"

# A vmcore as the kernel's kdump writes it: NT_PRSTATUS but no CPU
# registers, VMCOREINFO, and the kernel text described twice (its own
# PT_LOAD inside the RAM one).  Mode and root come from VMCOREINFO; the
# repeated stretch is kept, compared when read, and said so.
{ grep -v '^cpu\|^ram' "$SPECS/x86-64.spec"
  echo "ram 0 64M"
  echo "ram 0x1000000 8M"
  echo "prstatus 2"
  echo "vmcoreinfo OSRELEASE=6.1.0-test"
  echo "vmcoreinfo NUMBER(pgtable_l5_enabled)=0"
  echo "vmcoreinfo SYMBOL(init_top_pgt)=ffffffffa0b00000"
  echo "vmcoreinfo NUMBER(phys_base)=-547356672"; } |
	"$MKIMAGE" -e "$TMP/kvmcore.elf" -x "$TMP/kvmcore.exp"
run "$PGWALK" info "$TMP/kvmcore.elf"
like '^  overlapping_segments: 1 stretch from 0x[0-9a-f]+ described by several PT_LOADs' \
	"kernel vmcore: the kernel-text PT_LOAD inside RAM is kept, compared, and said so"
like '^mode: +x86-64 \(VMCOREINFO NUMBER\(pgtable_l5_enabled\)=0\)$' \
	"... mode from VMCOREINFO (no CPU registers)"
like '^root: +0x100000 \(VMCOREINFO SYMBOL\(init_top_pgt\)' "... root from VMCOREINFO"
like "^cpus: +0 \\(QEMU notes\\), 0 with registers, 2 NT_PRSTATUS\$" "... two CPUs by NT_PRSTATUS"
expect_tsv "... and every mapping translates as built" "$TMP/kvmcore.exp" "$TMP/kvmcore.elf"

done_testing
