#!/bin/sh
# Mode detection, rule by rule (CPU registers, VMCOREINFO, ELF machine,
# validation walk), and the root each rule leads to.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 38

# dm_spec MODE PAGE ROOT: a kernel direct map of 40 MiB with PAGE-sized
# leaves and a little user space, nothing else.
dm_spec() {
	case $1 in
	i386|pae) base=0xc0000000 ;;
	x86-64) base=0xffff888000000000 ;;
	la57) base=0xff11000000000000 ;;
	esac
	size=40M
	[ "$2" = 1g ] && size=2G
	printf 'mode %s\nram 0 64M\nroot %s\nalloc 0x100000\n' "$1" "$3"
	printf 'map %s 0 %s rw g page=%s\n' "$base" "$size" "$2"
	printf 'map 0x08048000 0x3000000 0x3000 rw user\n'
}

# Validation walk on raw images: every mode, every direct-map page size,
# and PAE with its 32-byte PDPT at the start, middle and end of its page
# (in the upper half a deeper mode reads it as kernel entries).
for c in i386:4k:0x1000 i386:4m:0x1000 \
	 pae:4k:0x1000 pae:2m:0x1000 pae:2m:0x1a00 pae:4k:0x1a00 \
	 pae:2m:0x1fe0 \
	 x86-64:4k:0x1000 x86-64:2m:0x1000 x86-64:1g:0x1000 \
	 la57:4k:0x1000 la57:2m:0x1000 la57:1g:0x1000; do
	m=${c%%:*} rest=${c#*:}
	page=${rest%%:*} root=${rest#*:}
	dm_spec "$m" "$page" "$root" | "$MKIMAGE" -r "$TMP/dm.raw"
	run "$PGWALK" info --image-format=raw --cr3="$root" "$TMP/dm.raw"
	like "^mode: +$m \\(validation walk" \
		"raw $m, $page direct map, root $root: detected as $m"
done

# Raw image, no root: nothing to go on.
run "$PGWALK" translate --image-format=raw "$TMP/dm.raw" 0x1000
one_error "raw image without --cr3 or --mode: cannot tell the mode" 3
# Raw image whose root maps no direct map.
printf 'mode x86-64\nram 0 16M\nroot 0x1000\nmap 0x400000 0x200000 4K user\n' |
	"$MKIMAGE" -r "$TMP/nodm.raw"
run "$PGWALK" translate --image-format=raw --cr3=0x1000 "$TMP/nodm.raw" 0x400000
one_error "raw image, root without a direct map: cannot tell the mode" 3
run "$PGWALK" translate --image-format=raw --cr3=0x1000 --mode=x86-64 \
	--format=tsv "$TMP/nodm.raw" 0x400000
is "$(printf '%s\n' "$out" | sed 1d)" \
	"$(printf '0x400000\t0x200000\t4096\tpte\tpresent|user\tuser\ttrue\t-\t-\t-\t-')" \
	"... and --mode settles it"

# Rule 1: CPU registers.  The first CPU with paging on decides; long mode
# from CS.L, else from the ELF machine.
spec_x64="mode x86-64
ram 0 16M
root 0x1000
map 0xffff888000000000 0 8M rw page=2m"
printf '%s\ncpu 0x11 0 0\ncpu 0x80050033 0x1000 0x1020 long\n' \
	"$spec_x64" | "$MKIMAGE" -e "$TMP/r1.elf"
run "$PGWALK" info "$TMP/r1.elf"
like '^mode: +la57 \(CPU 1 registers: CR0.PG=1 CR4.PAE=1 CR4.PSE=0 CR4.LA57=1, long mode \(a 64-bit code segment, CS.L=1\)\)' \
	"CPU 0 has paging off: CPU 1's CR4.LA57 picks la57"
printf '%s\ncpu 0x80050033 0x1000 0x20\n' "$spec_x64" |
	"$MKIMAGE" -e "$TMP/r1.elf"
run "$PGWALK" info "$TMP/r1.elf"
like '^mode: +x86-64 \(CPU 0 registers: .*long mode \(ELF machine x86-64\)\)' \
	"no 64-bit code segment but ELF machine x86-64: long mode"
printf '%s\nmachine 3\ncpu 0x80050033 0x1000 0x20\n' "$spec_x64" |
	"$MKIMAGE" -e "$TMP/r1.elf"
run "$PGWALK" info "$TMP/r1.elf"
like '^mode: +pae \(CPU 0 registers: CR0.PG=1 CR4.PAE=1 .*not long mode' \
	"EM_386, CR4.PAE=1, no long mode: pae"
printf '%s\nmachine 3\ncpu 0x80050033 0x1000 0x10\n' "$spec_x64" |
	"$MKIMAGE" -e "$TMP/r1.elf"
run "$PGWALK" info "$TMP/r1.elf"
like '^mode: +i386 \(CPU 0 registers: CR0.PG=1 CR4.PAE=0 CR4.PSE=1' \
	"EM_386, CR4.PAE=0: i386"

# Rule 2: VMCOREINFO (no CPU notes).
for v in "NUMBER(pgtable_l5_enabled)=1:la57" \
	 "NUMBER(pgtable_l5_enabled)=0:x86-64" "CONFIG_X86_PAE=y:pae"; do
	printf '%s\nvmcoreinfo %s\n' "$spec_x64" "${v%:*}" |
		"$MKIMAGE" -e "$TMP/r2.elf"
	run "$PGWALK" info --cr3=0x1000 "$TMP/r2.elf"
	like "^mode: +${v#*:} \\(VMCOREINFO " "VMCOREINFO ${v%:*}: ${v#*:}"
done
printf '%s\nmachine 3\nvmcoreinfo SYMBOL(swapper_pg_dir)=c0001000\n' \
	"$spec_x64" | "$MKIMAGE" -e "$TMP/r2.elf"
run "$PGWALK" info --cr3=0x1000 "$TMP/r2.elf"
like '^mode: +i386 \(VMCOREINFO kernel symbols are 32-bit and CONFIG_X86_PAE is absent\)' \
	"VMCOREINFO with 32-bit symbols and no CONFIG_X86_PAE: i386"

# Rule 3: the ELF machine alone.
printf '%s\n' "$spec_x64" | "$MKIMAGE" -e "$TMP/r3.elf"
run "$PGWALK" info "$TMP/r3.elf"
like '^mode: +x86-64 \(ELF machine x86-64 \(4-level assumed' \
	"EM_X86_64, nothing else: x86-64 assumed, and said so"
like '^root: +none$' "... no root to walk from: info says none"
is "$rc" 3 "... and exits 3"
run "$PGWALK" info --format=json --image-format=raw "$TMP/r3.elf"
like '"mode":null,"root":null,"names":null}$' "raw, no hints: JSON mode and root are null"
dm_spec pae 2m 0x1000 | sed 's/^cpu.*//' | "$MKIMAGE" -e "$TMP/r3.elf"
run "$PGWALK" info --cr3=0x1000 "$TMP/r3.elf"
like '^mode: +pae \(validation walk' "EM_386 with --cr3: the validation walk finds pae"
run "$PGWALK" info "$TMP/r3.elf"
like '^mode: +i386 \(ELF machine i386 \(2-level assumed' \
	"EM_386 without a root: i386 assumed, and said so"
dm_spec la57 2m 0x1000 | "$MKIMAGE" -e "$TMP/r3.elf"
run "$PGWALK" info --cr3=0x1000 "$TMP/r3.elf"
like '^mode: +la57 \(validation walk' \
	"EM_X86_64 with --cr3: the validation walk finds la57 among its modes"
run "$PGWALK" info "$TMP/r3.elf"
like '^mode: +x86-64 \(ELF machine x86-64 \(4-level assumed: .* LA57\)\)' \
	"EM_X86_64 without a root: x86-64 assumed, LA57 named as unconfirmed"

# Roots: VMCOREINFO's kernel root via phys_base (a negative one, as KASLR
# writes it), i386's swapper_pg_dir via the PAGE_OFFSET that maps it, CPU
# 0 otherwise.
mkimg x64 "$SPECS/x86-64.spec"
{ cat "$SPECS/x86-64.spec"
  echo "vmcoreinfo SYMBOL(init_top_pgt)=ffffffffa0b00000"
  echo "vmcoreinfo NUMBER(phys_base)=-547356672"; } |
	"$MKIMAGE" -e "$TMP/root.elf"
run "$PGWALK" info "$TMP/root.elf"
like '^root: +0x100000 \(VMCOREINFO SYMBOL\(init_top_pgt\)=0xffffffffa0b00000, phys_base 0xffffffffdf600000\)' \
	"x86-64 root from init_top_pgt and a negative phys_base"
expect_tsv "... and translate walks from it" "$TMP/x64.exp" "$TMP/root.elf"
for po in 0xc0000000 0x80000000; do
	sym=$(printf '%x' $((po + 0x1000)))
	{ echo "mode i386"; echo "ram 0 16M"; echo "root 0x1000"
	  echo "alloc 0x10000"
	  echo "map $po 0 8M rw page=4m"
	  echo "vmcoreinfo SYMBOL(swapper_pg_dir)=$sym"; } |
		"$MKIMAGE" -e "$TMP/root.elf"
	run "$PGWALK" info "$TMP/root.elf"
	like "^root: +0x1000 \\(VMCOREINFO SYMBOL\\(swapper_pg_dir\\)=0x$sym, PAGE_OFFSET $po" \
		"i386 root from swapper_pg_dir under PAGE_OFFSET $po"
done
run "$PGWALK" info "$TMP/x64.elf"
like '^root: +0x100000 \(CPU 0 CR3 0x100000 \(no kernel root in VMCOREINFO\)\)' \
	"no VMCOREINFO: CPU 0's CR3"
run "$PGWALK" translate --format=tsv --cr3=0x8000000000100fff "$TMP/x64.elf" \
	0x400000
is "$(printf '%s\n' "$out" | sed 1d | cut -f1-5)" \
	"$(printf '0x400000\t0x3100000\t4096\tpte\tpresent|user|accessed')" \
	"--cr3 with PCID bits and bit 63 set walks the same table"

done_testing
