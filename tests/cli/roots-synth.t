#!/bin/sh
# The finders of src/linux/ on synthetic images (tests/specs/roots-*.spec,
# vmcoreinfo-fake.spec), where the spec that built an image is the truth:
# every kind of root with its reason (a hooked process found and its
# entry named, a PTI pair as one root, PAE slots and a freed one), the
# kernel-root scan in every mode (and not under the wrong one), real and
# fake VMCOREINFO pages (each fake rejected with its reason), a damaged
# note replaced by the text in memory, and hostile repetition (32 K
# identical candidate tables) in bounded time.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 58
ROOTS=$PGW_TOOLS/pgw-roots

# mk NAME SPEC...: $TMP/NAME.raw and $TMP/NAME.elf from the spec files.
mk() {
	_name=$1
	shift
	cat "$@" | "$MKIMAGE" -r "$TMP/$_name.raw" -e "$TMP/$_name.elf" ||
		echo "# pgw-mkimage $_name failed"
}
# brief OUT: "root kind cpus pti_user diffs" per root.
brief() {
	awk '/^root=/ { print $1, $2, $3, $4, $10 }' "$1" | sed 's/[a-z_]*=//g'
}
# expect NAME DESC: brief of $TMP/NAME.out equals stdin.
expect() {
	cat >"$TMP/want"
	if brief "$TMP/$1.out" | cmp -s - "$TMP/want"; then
		ok 0 "$2"
	else
		ok 1 "$2"
		brief "$TMP/$1.out" | diff "$TMP/want" - | sed 's/^/#   /'
	fi
}
# scan NAME IMAGE ARGS...: pgw-roots roots into $TMP/NAME.out.
scan() {
	_name=$1
	shift
	"$ROOTS" roots "$@" >"$TMP/$_name.out" 2>"$TMP/$_name.err"
	rc=$?
}
has() { grep -q -- "$2" "$TMP/$1.out"; ok $? "$3"; }

# ---- x86-64: every kind ----
mk x64 "$SPECS/roots-x86-64.spec"
scan x64 --how=scan "$TMP/x64.elf"
is "$rc" 0 "x86-64: roots"
expect x64 "x86-64: each root found, with the kind the spec built" <<'EOF'
0x1000000 kernel - - 0
0x9c000 supervisor-only - - 0
0x400000 process 0 - 0
0x402000 process - - 1
0x404000 empty - - 0
0x406000 shared-tables - - 0
0x408000 bad-user-half - - 0
0x40a000 tables-only - - 0
0x40c000 foreign-kernel-half 1 - 4
0x1200000 kernel-image - - 0
EOF
has x64 '^diff root=0x402000 level=pgd index=508 entry=0x402fe0 raw=0x3300063 ' \
	"x86-64: the hooked entry is named (PML4 508 at 0x402fe0, 0x3300063)"
has x64 '^root=0x406000 .*root 0x400000 uses too' \
	"x86-64: the copy names the root whose tables it shares"
has x64 '^root=0x408000 .*reserved bits set at va 0x0, entry 0x3400083' \
	"x86-64: the bad user half names its entry"
has x64 '^root=0x1200000 .*inside the kernel image (0x1000000-0x1400000)' \
	"x86-64: the copy inside the kernel text mapping is named"
has x64 '^root=0x40c000 .*only 0 of 4 kernel-half entries' \
	"x86-64: CPU 1's foreign table says how little it shares"
has x64 '^root=0x402000 .* user_bytes=8192 user_leaves=2 .* kernel=3/4 ' \
	"x86-64: the hooked process's user pages and kernel-half count"
# Without CPU notes: no foreign root (only a CPU names it), and nothing
# tells A, which CPU 0 runs, from its copy: both are doubtful.
scan x64raw --how=scan "$TMP/x64.raw"
expect x64raw "x86-64 raw: the same roots, but what only the CPUs tell" <<'EOF2'
0x1000000 kernel - - 0
0x9c000 supervisor-only - - 0
0x400000 shared-tables - - 0
0x402000 process - - 1
0x404000 empty - - 0
0x406000 shared-tables - - 0
0x408000 bad-user-half - - 0
0x40a000 tables-only - - 0
0x1200000 kernel-image - - 0
EOF2

# ---- PTI ----
# A decoy: the kernel half's 4 entries and 5 more where the kernel root
# has none (PML4 300-304) is no root: 4 of 9 kernel-half entries agree.
# The quick test that picks candidates must count those extras too.
{ cat "$SPECS/roots-x86-64.spec"
  echo "root 0x40e000"
  echo "clone-kernel 0x1000000"
  echo "entries 0x40e960 0x3300063 5 0x1000"; } >"$TMP/decoy.spec"
mk decoy "$TMP/decoy.spec"
scan decoy --how=scan "$TMP/decoy.elf"
brief "$TMP/x64.out" >"$TMP/want.x64"
if [ -s "$TMP/want.x64" ] && brief "$TMP/decoy.out" | cmp -s - "$TMP/want.x64" &&
   [ "$(sed -n 's/.* candidates=\([0-9]*\).*/\1/p' "$TMP/decoy.out")" = \
     "$(sed -n 's/.* candidates=\([0-9]*\).*/\1/p' "$TMP/x64.out")" ]; then
	ok 0 "x86-64: a table with the kernel half and 5 entries more is no candidate"
else
	ok 1 "x86-64: a table with the kernel half and 5 entries more is no candidate"
	brief "$TMP/decoy.out" | diff "$TMP/want.x64" - | sed 's/^/#   /'
fi

mk pti "$SPECS/roots-pti.spec"
scan pti --how=scan "$TMP/pti.elf"
expect pti "PTI: the pair is one root, its user copy named, CPU 1 on it" <<'EOF'
0x1000000 kernel 0 - 0
0x400000 process 1 0x401000 0
EOF

# ---- PAE ----
mk pae "$SPECS/roots-pae.spec"
scan pae --how=scan "$TMP/pae.elf"
expect pae "PAE: swapper_pg_dir and the PDPT slots" <<'EOF'
0x1000000 kernel - - 0
0x300020 process 0 - 0
0x300040 process - - 2
EOF
has pae '^diff root=0x300040 level=pgd index=3 entry=0x300058 raw=0x3400001 kernel=0x1100001$' \
	"PAE: the PDPTE pointing at the hooked copy of the kernel directory"
has pae '^diff root=0x300040 level=pmd index=1 entry=0x3400008 raw=0x3600083 ' \
	"PAE: ... and the directory entry that differs"
has pae 'freed_slots=1$' "PAE: the freed pgd_cache slot is counted, not listed"

# ---- i386 ----
mk i386 "$SPECS/roots-i386.spec"
scan i386 --how=scan "$TMP/i386.raw"
expect i386 "i386: swapper_pg_dir, not the freed copy below it" <<'EOF'
0x1002000 kernel - - 0
0x800000 empty - - 0
0x801000 process - - 0
0x803000 process - - 0
0x1000000 supervisor-only - - 0
EOF

# ---- la57 ----
mk la57 "$SPECS/roots-la57.spec"
scan la57 --how=scan "$TMP/la57.elf"
expect la57 "la57: the kernel root and the process" <<'EOF'
0x1000000 kernel - - 0
0x400000 process 0 - 0
EOF

# ---- the kernel-root scan in every mode ----
for t in x64:x86-64:0x1000000:1 pti:x86-64:0x1000000:0 pae:pae:0x1000000:0 \
	 i386:i386:0x1002000:1 la57:la57:0x1000000:0; do
	IFS=: read -r n mode kr tied <<EOF
$t
EOF
	for f in raw elf; do
		run "$ROOTS" kernel-root "$TMP/$n.$f"
		like "^mode=$mode root=$kr .* tied=$tied " \
			"kernel-root scan ($n.$f): $mode, $kr, $tied tied"
	done
done
run "$ROOTS" kernel-root "$TMP/i386.raw"
like 'chosen: initial_page_table lies 8 KiB below it' \
	"i386: the tie is broken by initial_page_table below swapper_pg_dir"
for t in x64:la57 la57:x86-64 pae:i386 i386:pae; do
	run "$ROOTS" kernel-root --mode="${t#*:}" "$TMP/${t%%:*}.raw"
	is "$rc" 1 "kernel-root scan of ${t%%:*} under ${t#*:}: no root"
done
like 'no kernel root found: none of [0-9]+ candidate tables' \
	"... saying what it tried"

# ---- VMCOREINFO in memory, real and fake ----
mk fake "$SPECS/vmcoreinfo-fake.spec"
run "$ROOTS" vmcoreinfo "$TMP/fake.raw"
is "$rc" 0 "vmcoreinfo: found among fakes"
like '^found=0x1a00000 place=note text=0x1a00018 len=[0-9]+ lines=9 mode=x86-64 root=0x1000000$' \
	"vmcoreinfo: the real note at 0x1a00000, its root walked"
while IFS='|' read -r pa why; do
	like "^candidate=$pa place=[a-z]+ valid=no why=\"$why" \
		"vmcoreinfo: fake at $pa rejected: $why"
done <<'EOF'
0x100000|PAGESIZE=8192, not 4096
0x101000|line 3 is not KEY=value
0x103000|SYMBOL\(init_top_pgt\)=ffffffffffffffff81000000 is not a 64-bit hex number
0x104000|SYMBOL\(init_top_pgt\)=ffffffff82000000: its table 0x2000000 \(x86-64\) does not map itself
0x106000|line 1 is 102 bytes, longer than the kernel writes \(80\)
0x107000|no kernel page-table symbol
0x108000|NUMBER\(phys_base\)=-0x1000 is not a 64-bit number \(decimal, or hex after 0x\)
EOF
like '^candidates=8 valid=1$' "vmcoreinfo: 8 candidates, 1 valid"
sed -n '/^memtext 0x1a00000/,/^end/p' "$SPECS/vmcoreinfo-fake.spec" |
	sed '1d;$d' >"$TMP/real.txt"
"$ROOTS" vmcoreinfo --kv "$TMP/fake.raw" >"$TMP/kv.txt"
cmp -s "$TMP/kv.txt" "$TMP/real.txt"
ok $? "vmcoreinfo: adopted, the image answers every key as the text says"
sed '/^memtext 0x1a00000/,/^end/d' "$SPECS/vmcoreinfo-fake.spec" >"$TMP/only-fakes.spec"
mk onlyfake "$TMP/only-fakes.spec"
run "$ROOTS" vmcoreinfo "$TMP/onlyfake.raw"
is "$rc" 1 "vmcoreinfo: only fakes: none found"
like '^found=- error="7 pages in memory begin like VMCOREINFO, none valid: 0x100000 \(data\): PAGESIZE=8192, not 4096"' \
	"... saying how many and why the first is not"

# An ELF whose note is damaged: the text in memory replaces it.
{ cat "$SPECS/vmcoreinfo-fake.spec"; printf '%s\n' \
	'vmcoreinfo OSRELEASE=6.1.0-damaged' 'vmcoreinfo PAGESIZE=8192'; } \
	>"$TMP/damaged.spec"
mk damaged "$TMP/damaged.spec"
run "$ROOTS" note "$TMP/damaged.elf"
like '^note=invalid error="VMCOREINFO: PAGESIZE=8192, not 4096"$' \
	"damaged note: found invalid, with the reason"
scan damaged "$TMP/damaged.elf"
has damaged '^# vmcoreinfo note damaged: VMCOREINFO: PAGESIZE=8192' \
	"damaged note: said"
has damaged '^# vmcoreinfo found in memory at 0x1a00000 (note)$' \
	"damaged note: VMCOREINFO found in memory instead"
has damaged '^# kernel-root 0x1000000 (VMCOREINFO SYMBOL(init_top_pgt)=0xffffffff81000000' \
	"damaged note: the kernel root comes from the adopted text"

# ---- hostile repetition ----
{ sed -n '1,/^map 0xfffffe/p' "$SPECS/roots-x86-64.spec" |
	sed 's/^ram 0 96M/ram 0 224M/'
  printf '%s\n' 'root 0x400000' 'clone-kernel 0x1000000' \
	'map 0x400000 0x3100000 16K user a' 'copy 0x400000 0x6000000 32768' \
	'copy 0x1000000 0x4000000 4096'; } >"$TMP/many.spec"
mk many "$TMP/many.spec"
scan many --how=scan "$TMP/many.raw"
is "$rc" 0 "32 K copies of a process table: roots"
is "$(grep -c '^root=.* kind=shared-tables ' "$TMP/many.out")" 32769 \
	"... every copy (and the original, none running) named shared-tables"
is "$(grep -c '^root=.* kind=empty ' "$TMP/many.out")" 4096 \
	"... the 4096 copies of the kernel root outside its image: empty"
ms=$(sed -n 's/^scan .* ms=\([0-9]*\).*/\1/p' "$TMP/many.out")
[ "${ms:-99999}" -lt 20000 ]
ok $? "... in bounded time (${ms} ms, 57 K pages)"
run "$ROOTS" kernel-root "$TMP/many.raw"
like '^mode=x86-64 root=0x1000000 .* tied=0 ' \
	"kernel-root scan among 4096 copies: the one in the kernel image"
scan many --mode=x86-64 --root=0x1000000 --max-entries=1000 "$TMP/many.raw"
has many 'complete=no .*why="the entry budget' \
	"an entry budget stops the walks, and says so"
is "$(grep -c 'kind=unverified' "$TMP/many.out")" 32769 \
	"... and the roots it left unwalked are unverified"
scan many --mode=x86-64 --root=0x1000000 --max-pages=1000 "$TMP/many.raw"
has many 'complete=no .*the page budget (1000) ran out' \
	"a page budget stops the scan, and says so"
done_testing
