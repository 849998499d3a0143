#!/bin/sh
# What translate says when there is no frame: non-present entries decoded
# (none, PROT_NONE with the real frame, swap/migration/hwpoison/device),
# reserved bits that stop the walk, non-canonical addresses, tables and
# frames the image lacks.  JSON carries the detail; TSV says "-".
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 49

# Linux's encodings, computed here from the kernel headers' definitions.
# pgtable_64.h / pgtable-3level.h swap: offset inverted in bits 9..58,
# type in 59..63.  (Shell >> is arithmetic, so mask to make it logical.)
swp64() { printf '0x%x' $(( ((~$2 << 14 >> 5) & ((1 << 59) - 1)) | ($1 << 59) )); }
# pgtable-2level.h swap: type in bits 1..5, offset from bit 9.
swp32() { printf '0x%x' $(( ($1 << 1) | ($2 << 9) )); }
# L1TF: PROT_NONE (bit 8, present clear) with the frame inverted over
# WIDTH address bits, plus the extra bits given.
protnone_inv() { printf '0x%x' $(( ((~($1 << 12)) & ((1 << $2) - 1) & ~0xfff) | 0x100 | $3 )); }

json_line() { # VA: the JSON line for VA in $TMP/all.json
	grep "^{\"type\":\"translation\",\"va\":\"$1\"" "$TMP/all.json"
}
jlike() { # VA PATTERN DESC
	out=$(json_line "$1")
	like "$2" "$3"
}
nlevels() { # VA: how many levels the JSON line for VA shows
	json_line "$1" | grep -o '{"level":"' | wc -l | tr -d ' '
}

# ---- x86-64 ----
cat >"$TMP/x.spec" <<EOS
mode x86-64
ram 0 16M
root 0x1000
alloc 0x10000
map 0x400000 0x200000 4K rw user
raw 0x401000 pte $(protnone_inv 0x3500 52 $(( (1 << 63) | 0x60 )))
raw 0x402000 pte 0x3501120
raw 0x403000 pte $(swp64 3 0x1234)
raw 0x404000 pte $(swp64 24 0x777)
raw 0x405000 pte $(swp64 23 0x42)
raw 0x406000 pte $(swp64 27 0x43)
raw 0x407000 pte $(swp64 31 0)
raw 0x408000 pte $(protnone_inv 0x3502 46 0)
raw 0xc00000 pmd $(protnone_inv 0x3600 52 0x80)
raw 0x0000008000000000 pgd 0x20083
raw 0x40000000 pud $(printf '0x%x' $(( 0x40000000 | 0x2000 | 0x81 )))
raw 0x800000 pmd 0x802083
map 0x500000 0x9000000 4K rw user
map 0xffff888000000000 0 8M rw page=2m
alloc 0x8000000
map 0x7f0000000000 0x300000 4K rw user
EOS
"$MKIMAGE" -e "$TMP/x.elf" "$TMP/x.spec"
x="$TMP/x.elf"
VAS="0x400000 0x401000 0x402000 0x403000 0x404000 0x405000 0x406000
0x407000 0x408000 0x409000 0xc00000 0x8000000000 0x40000000 0x800000
0x500000 0x7f0000000000 0x800000000000 0xffff7fffffffffff 0x0"
run "$PGWALK" translate --format=json --levels --cr3=0x1000 "$x" $VAS
printf '%s\n' "$out" >"$TMP/all.json"
is "$rc" 1 "translate exits 1 when some addresses do not translate"
is "$(grep -c '' "$TMP/all.json")" 19 "one JSON line per address"

jlike 0x401000 '"pa":null,"level":"pte","reason":"not-present","non_present"' \
	"PROT_NONE pte: not mapped, stops at pte"
jlike 0x401000 '"non_present":\{"kind":"protnone","pa":"0x3500000"\}' \
	"PROT_NONE pte: the real frame 0x3500 (L1TF inversion over 52 bits undone)"
jlike 0x408000 '"non_present":\{"kind":"protnone","pa":"0x3502000"\}' \
	"PROT_NONE pte inverted over 46 bits (older kernels): frame 0x3502"
jlike 0x402000 '"non_present":\{"kind":"protnone","pa":"0x3501000"\}' \
	"PROT_NONE pte from a kernel without the inversion: frame 0x3501"
jlike 0xc00000 '"level":"pmd","reason":"not-present","non_present":\{"kind":"protnone","pa":"0x3600000"\},"levels":' \
	"PROT_NONE 2 MiB pmd: stops at pmd with the real frame"
jlike 0x403000 '"non_present":\{"kind":"swap","swap_type":3,"swap_offset":"0x1234"\}' \
	"swap entry: type 3, offset 0x1234"
jlike 0x404000 '"non_present":\{"kind":"migration","swap_type":24,"swap_offset":"0x777"\}' \
	"migration entry (type 24)"
jlike 0x405000 '"non_present":\{"kind":"hwpoison","swap_type":23,"swap_offset":"0x42"\}' \
	"hwpoison entry (type 23)"
jlike 0x406000 '"non_present":\{"kind":"device","swap_type":27,"swap_offset":"0x43"\}' \
	"device-private entry (type 27)"
jlike 0x407000 '"non_present":\{"kind":"other"\}' "pte marker (type 31): other"
jlike 0x409000 '"level":"pte","reason":"not-present","levels":\[.*"entry":"0x0"\}\]\}$' \
	"empty pte: not present, and nothing to decode (no non_present)"

jlike 0x8000000000 '"pa":null,"level":"pgd","reason":"reserved-bits"' \
	"PS in a PML4E: reserved, the walk stops at pgd"
jlike 0x8000000000 '"reserved":"0x80"' "... and names the bit"
is "$(nlevels 0x8000000000)" 1 "... and walks no further"
jlike 0x40000000 '"level":"pud","reason":"reserved-bits".*"reserved":"0x2000"' \
	"1 GiB page with bit 13 set: reserved at pud"
is "$(nlevels 0x40000000)" 2 "... two levels walked"
jlike 0x800000 '"level":"pmd","reason":"reserved-bits".*"reserved":"0x2000"' \
	"2 MiB page with bit 13 set: reserved at pmd"

jlike 0x500000 '"pa":"0x9000000","page_size":4096,"level":"pte".*"in_image":false,"absence":"outside"' \
	"a frame outside the image still translates, in_image false"
jlike 0x400000 '"pa":"0x200000".*"in_image":true' "a frame in the image: in_image true"
jlike 0x7f0000000000 '"level":"pud","reason":"table-beyond-memory","absence":"outside"' \
	"a table past the end of memory stops the walk there, beyond memory"
jlike 0x7f0000000000 '\{"level":"pud","table":"0x8000000","index":0,"entry_pa":"0x8000000","entry":null,"absence":"outside"\}\]\}$' \
	"... its entry is null in JSON"
jlike 0x800000000000 '^\{"type":"translation","va":"0x800000000000","pa":null,"level":"pgd","reason":"non-canonical","levels":\[\]\}$' \
	"non-canonical 0x800000000000: the reason, no level walked"
jlike 0xffff7fffffffffff '"reason":"non-canonical"' \
	"non-canonical 0xffff7fffffffffff"
jlike 0x0 '"level":"pmd","reason":"not-present","levels"' "address 0: not present at pmd (its pgd and pud are shared)"

run "$PGWALK" translate --format=tsv --cr3=0x1000 "$x" 0x401000 0x403000 \
	0x800000000000
is "$(printf '%s\n' "$out" | sed 1d)" "$(printf '0x401000\t-\t-\tpte\t-\t-\t-\tnot-present\t-\t-\t-\n0x403000\t-\t-\tpte\t-\t-\t-\tnot-present\t-\t-\t-\n0x800000000000\t-\t-\tpgd\t-\t-\t-\tnon-canonical\t-\t-\t-')" \
	"TSV: '-' for every column an unmapped address lacks, the reason"
run "$PGWALK" translate --cr3=0x1000 "$x" 0x401000 0x403000 0x8000000000 \
	0x800000000000 0x7f0000000000
like '^0x401000 -> not mapped: not-present at pte$' "text, batch: one line, where it stopped"
like '^0x7f0000000000 -> not mapped: table-beyond-memory \(outside\) at pud$' \
	"text, batch: a table past memory, and why"
run "$PGWALK" translate --levels --cr3=0x1000 "$x" 0x401000 0x403000 \
	0x8000000000 0x800000000000 0x7f0000000000
like '^VIRTUAL 0x401000 -> not mapped: not-present at pte$' "text --levels: where it stopped"
like 'not present \(protnone, pa 0x3500000\)' "text: PROT_NONE with its real frame"
like 'not present \(swap, type 3 offset 0x1234\)' "text: swap type and offset"
like 'RESERVED BITS 0x80' "text: reserved bits named"
like '^VIRTUAL 0x800000000000 -> not mapped: non-canonical$' \
	"text: non-canonical"
like 'pud PDPT +table 0x8000000 \[0\] entry 0x8000000: <table not in image: outside>' \
	"text: the missing table page, and why"
run "$PGWALK" translate --cr3=0x1000 "$x" 0x400000
is "$rc" 0 "translate exits 0 when every address translated"

# ---- la57, pae, i386 ----
cat >"$TMP/l.spec" <<EOS
mode la57
ram 0 16M
root 0x1000
alloc 0x10000
map 0x00f0000000000000 0x200000 4K rw user
raw 0x00f0000000001000 pte $(swp64 2 0x99)
raw 0x0100000000000000 pgd 0x20081
EOS
run sh -c "'$MKIMAGE' -e '$TMP/l.elf' '$TMP/l.spec' 2>&1"
is "$out" "" "la57 spec builds"
run "$PGWALK" translate --format=json --levels --cr3=0x1000 --mode=la57 "$TMP/l.elf" \
	0x00f0000000001000 0x0100000000000000 0xff00000000000000
printf '%s\n' "$out" >"$TMP/all.json"
jlike 0xf0000000001000 '"kind":"swap","swap_type":2,"swap_offset":"0x99"' \
	"la57: swap entry above 2^47"
jlike 0x100000000000000 '"reason":"non-canonical"' \
	"la57: 2^56 is non-canonical"
jlike 0xff00000000000000 '"level":"pgd","reason":"reserved-bits".*"reserved":"0x80"' \
	"la57: PS in a PML5E is reserved"

cat >"$TMP/p.spec" <<EOS
mode pae
ram 0 16M
root 0x1000
alloc 0x10000
map 0x08048000 0x200000 4K rw user
raw 0x08049000 pte $(protnone_inv 0x3419 44 0x20)
raw 0x0804a000 pte $(swp64 5 0x777)
raw 0x40000000 pgd 0x20003
EOS
"$MKIMAGE" -e "$TMP/p.elf" "$TMP/p.spec"
run "$PGWALK" translate --format=json --levels --cr3=0x1000 --mode=pae "$TMP/p.elf" \
	0x08049000 0x0804a000 0x40000000 0x100000000
printf '%s\n' "$out" >"$TMP/all.json"
jlike 0x8049000 '"kind":"protnone","pa":"0x3419000"' \
	"pae: PROT_NONE frame inverted over 44 bits, real frame reported"
jlike 0x804a000 '"kind":"swap","swap_type":5,"swap_offset":"0x777"' \
	"pae: swap entry (3-level encoding)"
jlike 0x40000000 '"level":"pgd","reason":"reserved-bits".*"reserved":"0x2"' \
	"pae: RW in a PDPTE is reserved"
jlike 0x100000000 '"level":"pgd","reason":"beyond-address-space","levels":\[\]' \
	"pae: addresses above 4 GiB are beyond the address space (not non-canonical)"

cat >"$TMP/i.spec" <<EOS
mode i386
ram 0 16M
root 0x1000
alloc 0x10000
map 0x08048000 0x200000 4K rw user
raw 0x08049000 pte 0x3419120
raw 0x0804a000 pte $(swp32 5 0x1234)
raw 0x0804b000 pte $(swp32 24 0x10)
raw 0x00400000 pgd $(printf '0x%x' $(( 0x400081 | (1 << 21) )))
raw 0x00800000 pgd $(printf '0x%x' $(( 0xffc00081 | (0xff << 13) )))
EOS
"$MKIMAGE" -e "$TMP/i.elf" "$TMP/i.spec"
run "$PGWALK" translate --format=json --levels --cr3=0x1000 --mode=i386 "$TMP/i.elf" \
	0x08049000 0x0804a000 0x0804b000 0x00400000 0x00812345
printf '%s\n' "$out" >"$TMP/all.json"
jlike 0x8049000 '"kind":"protnone","pa":"0x3419000"' \
	"i386: PROT_NONE frame stored as is (no inversion in 2-level)"
jlike 0x804a000 '"kind":"swap","swap_type":5,"swap_offset":"0x1234"' \
	"i386: swap entry (2-level encoding)"
jlike 0x804b000 '"kind":"migration","swap_type":24,"swap_offset":"0x10"' \
	"i386: migration entry"
jlike 0x400000 '"level":"pgd","reason":"reserved-bits".*"reserved":"0x200000"' \
	"i386: bit 21 of a 4 MiB page (PA bit 40) is reserved"
jlike 0x812345 '"pa":"0xffffc12345","page_size":4194304,"level":"pgd"' \
	"i386: PSE-36 frame at PA bit 39"

done_testing
