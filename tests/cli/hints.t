#!/bin/sh
# Errors and hints that point the way (issue 12 §3), on synthetic images:
# an unmapped kernel address names its memory-map region, this kernel's
# direct-map base and the era whose direct map it was; a user address
# asked of the kernel's root names the CPU caught in user mode; --cr3 given
# a virtual address (crash's pgd) says so and gives the physical one;
# --cpu on an image whose notes are NT_PRSTATUS only points to the roots;
# a damaged kernel-root symbol is named, not called absent; a compressed
# file is named as such; W+X without NX is explained.  Hints go to stderr
# and change neither stdout nor the exit status.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 31
like_err() { out=$err; like "$@"; }

# A 6.1-era kernel: its root from VMCOREINFO, the direct map at the 4.20
# base, CPU 1 caught in user mode.
cat >"$TMP/k.spec" <<'EOF'
mode x86-64
ram 0 64M
root 0x100000
alloc 0x200000
map 0xffff888000000000 0 64M rw g nx page=2m
map 0xffffffff81000000 0x1000000 8M g page=2m
map 0x400000 0x3100000 0x1000 user a
cpu 0x80050033 0x100000 0x6f0 long
cpu 0x80050033 0x100000 0x6f0 long user
vmcoreinfo OSRELEASE=6.1.0-hints
vmcoreinfo SYMBOL(init_top_pgt)=ffffffff80100000
vmcoreinfo NUMBER(phys_base)=0
EOF
"$MKIMAGE" -e "$TMP/k.elf" "$TMP/k.spec" || bail "pgw-mkimage failed"
img=$TMP/k.elf

run "$PGWALK" translate --format=json "$img" 0xffff810000001000
is "$rc" 1 "an unmapped kernel address: exit 1, as without the hint"
is "$out" '{"type":"translation","va":"0xffff810000001000","pa":null,"level":"pgd","reason":"not-present"}' \
	"... stdout holds the record only"
like_err '^pgwalk: 0xffff810000001000 is in the guard region \(Guard Hole\) of layout x86-64-4\.20; this kernel.s \(Linux 6\.1\.0-hints\) direct map starts at 0xffff888000000000; it was the direct map in x86-64-2\.6\.11 ' \
	"... the hint: its region, this kernel's direct map, the 2.6.11 era it belongs to"
run "$PGWALK" translate "$img" 0xffff888008000000
like_err '^pgwalk: 0xffff888008000000 is in this kernel.s direct map \(from 0xffff888000000000\): physical 0x8000000, which it does not map$' \
	"a direct-map address past memory: the physical address it stands for"
run "$PGWALK" translate "$img" 0x500000
like_err '^pgwalk: 0x500000 is a user address and the root is the kernel.s, which maps no process; a CPU caught in user mode holds one: --cpu=1$' \
	"a user address asked of the kernel's root: --cpu=1, the CPU in user mode"
run "$PGWALK" translate --cpu=1 "$img" 0x500000
is "$err" "" "... asked of a process's root: no such hint"
run sh -c "echo 0xffff810000001000 | '$PGWALK' translate '$img' -"
is "$err" "" "addresses from stdin get records, not hints"

# --cr3 as crash's vm prints pgd: a kernel virtual address.
run "$PGWALK" translate --cr3=0xffff888000100000 "$img" 0x400000
is "$rc" 64 "--cr3 given a virtual address: a usage error (64)"
is "$err" "pgwalk: --cr3=0xffff888000100000 looks like a virtual address (bits 52-60 are set; crash's vm prints pgd as one): the kernel's direct map puts it at physical 0x100000: give --cr3=0x100000" \
	"... says it looks virtual and gives the physical address"
is "$out" "" "... and prints nothing"
run "$PGWALK" translate --hex --cr3=ffff888000100000 "$img" 400000
like_err 'give --cr3=0x100000$' "... the same with --hex and crash's spelling"

# --cpu on an image whose CPU notes are NT_PRSTATUS only.
printf 'mode x86-64\nram 0 16M\nroot 0x1000\nmap 0x400000 0x200000 4K\nprstatus 2\n' |
	"$MKIMAGE" -e "$TMP/prs.elf"
run "$PGWALK" translate --cpu=1 "$TMP/prs.elf" 0x400000
one_error "--cpu on NT_PRSTATUS-only notes" 3
like_err "NT_PRSTATUS only \\(2\\), which carry no CR3; 'pgwalk roots' lists the roots found in memory" \
	"... says the notes carry no CR3 and points to pgwalk roots"

# A kernel-root symbol that is there but damaged is named as such.
sed 's/^vmcoreinfo SYMBOL(init_top_pgt)=.*/vmcoreinfo SYMBOL(init_top_pgt)=zz/' \
	"$TMP/k.spec" | "$MKIMAGE" -e "$TMP/bad.elf"
run "$PGWALK" info "$TMP/bad.elf"
like '^root: +0x100000 \(CPU 0 CR3 0x100000 \(VMCOREINFO SYMBOL\(init_top_pgt\)=zz is not a number\)\)$' \
	"a malformed root symbol: named, CPU 0's root used"
unlike 'no kernel root in VMCOREINFO' "... never 'no kernel root in VMCOREINFO'"
{ cat "$SPECS/i386.spec"; echo 'vmcoreinfo SYMBOL(swapper_pg_dir)=c7654000'; } |
	"$MKIMAGE" -e "$TMP/i386bad.elf"
run "$PGWALK" info "$TMP/i386bad.elf"
like '^root: +0x1000 \(CPU 0 CR3 0x1000 \(VMCOREINFO SYMBOL\(swapper_pg_dir\)=0xc7654000 maps itself under no i386 PAGE_OFFSET\)\)$' \
	"i386: a swapper_pg_dir that maps itself nowhere is named as such"

# i386 has no NX: W+X is every writable mapping, said once.
"$MKIMAGE" -e "$TMP/i386.elf" "$SPECS/i386.spec"
run "$PGWALK" dump --wx "$TMP/i386.elf"
is "$err" "pgwalk: note: i386 paging has no NX bit: every mapping is executable, so every writable one is W+X" \
	"dump --wx on i386: the note, once"
like '^# W\+X: [1-9][0-9]* ranges?, .* \(this mode has no NX bit: every writable page is executable\)$' \
	"... and the text summary says why"
run "$PGWALK" dump --wx "$img"
is "$err" "" "x86-64 has NX: no note"

# Compressed files are named, never read as raw memory (each is a whole
# number of pages, so the raw probe would take it).
for c in "xz|\\375\\067\\172\\130\\132\\000" "gzip|\\037\\213" \
	 "zstd|\\050\\265\\057\\375" "bzip2|BZh9" "lz4|\\004\\042\\115\\030"; do
	name=${c%%|*} magic=${c#*|}
	{ printf "$magic"; head -c 8000 /dev/zero; } | head -c 8192 >"$TMP/z.$name"
	run "$PGWALK" info "$TMP/z.$name"
	one_error "$name magic in a file of two pages" 65
	like_err "$name-compressed file, not a memory image: decompress it first" \
		"... named $name-compressed, decompress it first"
done
if command -v gzip >/dev/null 2>&1; then
	gzip -c "$img" >"$TMP/k.elf.gz"
	run "$PGWALK" translate "$TMP/k.elf.gz" 0x400000
	like_err "k\\.elf\\.gz: gzip-compressed file, not a memory image: decompress it first \\(gunzip\\)$" \
		"a gzipped dump: says so, names the tool"
else
	skip "gzip not installed"
fi
run "$PGWALK" info --image-format=raw "$TMP/z.gzip"
like '^format: +raw$' "--image-format=raw: the user's word is taken (a raw image may begin with any bytes)"

done_testing
