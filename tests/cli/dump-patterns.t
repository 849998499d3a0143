#!/bin/sh
# dump's repeating patterns and a process's own half.  ESPfix (Linux's
# espfix64.c) maps one frame in every 16th pte of one table, and that
# table from all 512 entries of a pmd table: 16384 pages of one frame
# 64 KiB apart over 1 GiB, which dump listed as 16384 maps and 16384
# holes (32818 text lines).  They are one pattern record now.  With --pid
# or --comm a dump is the process's user half unless --kernel-half.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 12

{ printf 'mode x86-64\nram 0 8M\nroot 0x1000\nalloc 0x10000\n'
  printf 'map 0xffff888000000000 0 8M rw g nx page=2m\nalloc 0x100000\n'
  # The pmd table at 0x101000: all 512 entries to the pte table 0x102000,
  # which maps frame 0x500000 (ro, global, nx) in every 16th entry.
  printf 'raw 0xffffff0000000000 pmd 0x102063\nentries 0x101000 0x102063 512\n'
  i=0; while [ $i -lt 32 ]; do
	printf 'entry 0x%x 0x8000000000500121\n' $((0x102000 + i * 128)); i=$((i + 1)); done
  printf 'cpu 0x80050033 0x1000 0x20 long\n'; } >"$TMP/esp.spec"
"$MKIMAGE" -e "$TMP/esp.elf" "$TMP/esp.spec" || bail "pgw-mkimage failed"
E=$TMP/esp.elf
run "$PGWALK" dump --format=json "$E"
is "$(printf '%s\n' "$out" | grep '"region":"espfix"' | grep -c '"type":"map"')" 1 \
	"the ESPfix area is one map record"
like '^\{"type":"map","va":"0xffffff0000000000","end":"0xffffff003fff1000","size":1073680384,"pa":"0x500000","page_size":4096,"level":"pte","entries":262129,"flags":\["present","accessed","global","nx"\],"effective":\["nx"\],"bytes_not_in_image":0,"region":"espfix","same_frame":true,"stride":65536\}$' \
	"... from the first page to the end of the last, frame 0x500000 every 64 KiB (stride), every entry counted"
like '"mapped":75497472,"mapped_by_page_size":\{"2097152":8388608,"4096":67108864\}' \
	"the summary counts the 16384 pages mapped (64 MiB), not the span"
is "$(printf '%s\n' "$out" | grep -c '"type":"hole"')" 23 "no hole per page between them"
run "$PGWALK" dump "$E"
like '^0xffffff0000000000-0xffffff003fff1000 .* 4K pte +ro +GLB NX  same frame every 64K$' \
	"text: same frame every 64K"
is "$(printf '%s\n' "$out" | wc -l)" 52 "text: 52 lines (32818 before)"
run "$PGWALK" dump --format=csv "$E"
like '^map,0xffffff0000000000,0xffffff003fff1000,1073680384,0x500000,4096,pte,262129,present\|accessed\|global\|nx,nx,espfix,0,,,same_frame stride=65536$' \
	"csv: stride in detail"
run "$PGWALK" dump --leaves --format=json "$E"
is "$(printf '%s\n' "$out" | grep '"type":"map"' | grep -c '"region":"espfix"')" 16384 \
	"--leaves: still every one of the 16384 leaves"
# A page of another frame at one of the strides ends the pattern there.
sed 's/^entry 0x102800 0x8000000000500121$/entry 0x102800 0x8000000000600121/' "$TMP/esp.spec" |
	"$MKIMAGE" -e "$TMP/esp2.elf" || bail "pgw-mkimage failed"
run "$PGWALK" dump --format=json --range=0xffffff0000000000-0xffffff0000200000 "$TMP/esp2.elf"
is "$(printf '%s\n' "$out" | grep '"type":"map"' | sed 's/.*"va":"\([^"]*\)","end":"\([^"]*\)".*"pa":"\([^"]*\)".*/\1 \2 \3/' | tr '\n' ' ')" \
	"0xffffff0000000000 0xffffff00000f1000 0x500000 0xffffff0000100000 0xffffff0000101000 0x600000 0xffffff0000110000 0xffffff00001f1000 0x500000 " \
	"a different frame at entry 256 (the 17th page of the pattern) cuts it: before it, it, after it"

# --pid/--comm: the process's own half (pgw-mkkernel: pid 1's root
# 0x601000).
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf" || bail "pgw-mkkernel failed"
"$PGWALK" dump --format=json --pid=1 "$TMP/k.elf" >"$TMP/pid" 2>/dev/null
"$PGWALK" dump --format=json --root=0x601000 --range=0-0x800000000000 "$TMP/k.elf" >"$TMP/range" 2>/dev/null
cmp -s "$TMP/pid" "$TMP/range" && grep -q '"type":"map"' "$TMP/pid"
ok $? "dump --pid=1 is its user half: the root's [0, 0x800000000000)"
"$PGWALK" dump --format=json --comm=init --kernel-half "$TMP/k.elf" >"$TMP/pid" 2>/dev/null
"$PGWALK" dump --format=json --root=0x601000 "$TMP/k.elf" >"$TMP/range" 2>/dev/null
cmp -s "$TMP/pid" "$TMP/range" && grep -q '"region":"direct-map"\|"va":"0xffff' "$TMP/pid"
ok $? "--comm=init --kernel-half: the whole space, the kernel's half too"
run "$PGWALK" dump --kernel-half "$TMP/k.elf"
one_error "--kernel-half without --pid or --comm: a usage error" 64
done_testing
