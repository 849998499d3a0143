#!/bin/sh
# PROT_NONE entries hold their frame (the kernel's pte_present(), rmap and
# RSS count it): ptov lists such a mapping marked protnone, and read
# returns its bytes, saying the page is PROT_NONE, in every 32- and 64-bit
# mode; on x86-64 also an entry whose frame is stored inverted (L1TF).
# The spec is the oracle: a PROT_NONE pte at 0x401000 on frame 0x300000,
# which holds "PROTNONE-FRAME".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 16

for m in x86-64 pae i386; do
	{ printf 'mode %s\nram 0 4M\nroot 0x1000\nalloc 0x10000\n' "$m"
	  printf 'map 0x400000 0x200000 4K user rw\nraw 0x401000 pte 0x300124\n'
	  # x86-64: the same frame inverted over a 46-bit mask (L1TF).
	  [ "$m" = x86-64 ] && printf 'raw 0x402000 pte 0x3fffffcff124\n'
	  printf 'text 0x300000 PROTNONE-FRAME\n'; } >"$TMP/$m.spec"
	"$MKIMAGE" -e "$TMP/$m.elf" "$TMP/$m.spec" || bail "pgw-mkimage $m failed"
	S="--cr3=0x1000 --mode=$m"
	# shellcheck disable=SC2086
	run "$PGWALK" ptov $S --format=json "$TMP/$m.elf" 0x300004
	want='{"type":"mapping","pa":"0x300004","va":"0x401004","root":"0x1000","pid":null,"comm":null,"page_size":4096,"level":"pte","flags":[],"effective":[],"protnone":true}'
	[ "$m" = x86-64 ] && want="$want
${want%%,\"va\"*},\"va\":\"0x402004\"${want#*\"0x401004\"}"
	is "$rc:$out" "0:$want" "$m: ptov lists the PROT_NONE mapping of the frame, marked protnone"
	# shellcheck disable=SC2086
	run "$PGWALK" ptov $S "$TMP/$m.elf" 0x300004
	like '^0x300004 +0x401004 +4K pte +protnone +0x1000' "$m: text says protnone in ACCESS"
	# shellcheck disable=SC2086
	run "$PGWALK" read $S --raw "$TMP/$m.elf" 0x401000 14
	is "$rc:$out" "0:PROTNONE-FRAME" "$m: read returns the frame's bytes, exit 0"
	out=$err
	like '^pgwalk: 0x401000: PROT_NONE pte entry \(not present to the CPU; its frame 0x300000 kept\): 14 bytes read' \
		"$m: ... and says the page is PROT_NONE"
done
run "$PGWALK" read --cr3=0x1000 --mode=x86-64 --raw "$TMP/x86-64.elf" 0x402000 14
is "$rc:$out" "0:PROTNONE-FRAME" "x86-64: an inverted (L1TF) frame reads as the frame it names"
run "$PGWALK" read --cr3=0x1000 --mode=x86-64 --format=csv "$TMP/x86-64.elf" 0x400ffe 4
is "$out" "type,va,end,size,pa,level,reason,absence,hex,protnone
data,0x400ffe,,2,0x200ffe,,,,0000,
data,0x401000,,2,0x300000,,,,5052,true" \
	"read --format=csv: the PROT_NONE piece's row says protnone, with the frame's pa"
run "$PGWALK" translate --cr3=0x1000 --mode=x86-64 --format=json "$TMP/x86-64.elf" 0x401000
like '"pa":null,"level":"pte","reason":"not-present","non_present":\{"kind":"protnone","pa":"0x300000"\}' \
	"translate still says not present (the CPU faults), with the frame"
run "$PGWALK" read --cr3=0x1000 --mode=x86-64 --raw "$TMP/x86-64.elf" 0x403000 4
is "$rc" 1 "an empty pte after them is still not readable (exit 1)"
done_testing
