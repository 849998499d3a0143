#!/bin/sh
# arm64 swap and migration entries, read with the layout of the kernel
# VMCOREINFO's OSRELEASE names: 5.14's (type at bit 2, offset at 8),
# 5.19's (type at 3, offset at 8) and 6.10's (type at 6, offset at 12),
# each entry written as that era's __swp_entry_to_pte would.  The same
# types and offsets must come back from every era; without a version,
# or before 5.14, the entries are said to be swap entries and no more.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 22

# swp TYPE OFFSET TYPE_SHIFT OFFSET_SHIFT
swp() { printf '0x%x' $(( ($2 << $4) | ($1 << $3) )); }

# mkarm NAME TYPE_SHIFT OFFSET_SHIFT [OSRELEASE [MIG HWP DEV OTHER]]: a
# 4K 48-bit user space at TTBR0 0x1000: a page at 0x400000, then swap
# type 1 at 0x401000..3 (offsets 0x1234..6), then types MIG, HWP, DEV and
# OTHER (by default 5.19's numbering: migration 24, hwpoison 23, device
# 27, a PTE marker 31), and type MIG + 1 for the 2 MiB block at 0x600000.
mkarm() {
	_m=${5:-24} _h=${6:-23} _d=${7:-27} _o=${8:-31}
	{
		echo "mode x86-64"
		echo "machine 183"
		echo "ram 0 1M"
		[ -n "$4" ] && echo "vmcoreinfo OSRELEASE=$4"
		echo "entry 0x1000 0x2003"
		echo "entry 0x2000 0x3003"
		echo "entry 0x3010 0x4003"
		echo "entry 0x4000 0x5443"
		echo "entry 0x4008 $(swp 1 0x1234 $2 $3)"
		echo "entry 0x4010 $(swp 1 0x1235 $2 $3)"
		echo "entry 0x4018 $(swp 1 0x1236 $2 $3)"
		echo "entry 0x4020 $(swp $_m 0x777 $2 $3)"
		echo "entry 0x4028 $(swp $_h 0x42 $2 $3)"
		echo "entry 0x4030 $(swp $_d 0x43 $2 $3)"
		echo "entry 0x4038 $(swp $_o 0 $2 $3)"
		echo "entry 0x3018 $(swp $((_m + 1)) 0x200 $2 $3)"
	} >"$TMP/$1.spec"
	"$MKIMAGE" -e "$TMP/$1.elf" "$TMP/$1.spec" ||
		echo "# pgw-mkimage $1 failed"
}
ARM="--mode=arm64-4k-48 --ttbr0=0x1000"
VAS="0x401000 0x402000 0x404000 0x405000 0x406000 0x407000 0x600000"

# expect MIG HWP DEV: what translate --format=json must say of $VAS.
expect() {
	printf '%s\n' "0x401000 swap 1 0x1234" "0x402000 swap 1 0x1235" \
		"0x404000 migration $1 0x777" "0x405000 hwpoison $2 0x42" \
		"0x406000 device $3 0x43" "0x407000 other" \
		"0x600000 migration $(($1 + 1)) 0x200"
}
# The kind, type and offset translate --format=json gives each address.
kinds() {
	"$PGWALK" translate --format=json $ARM "$1" $VAS |
		sed -n 's/.*"va":"\([^"]*\)".*"non_present":{"kind":"\([^"]*\)"\(,"swap_type":\([0-9]*\),"swap_offset":"\([^"]*\)"\)\{0,1\}}.*/\1 \2 \4 \5/p' |
		sed 's/ *$//'
}

# 5.14..5.18 number 25 swap files, then hwpoison, 2 migration and 4
# device types (no PTE marker: type 32 has no meaning); 5.19 on, 23.
for era in "5.14 2 8 5.15.0-91-arm64 26 25 28 32" \
	   "5.19 3 8 6.1.0-13-arm64 24 23 27 31" \
	   "6.10 6 12 6.12.9-arm64 24 23 27 31"; do
	set -- $era
	mkarm "e$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8"
	is "$(kinds "$TMP/e$1.elf")" "$(expect "$5" "$6" "$7")" \
		"OSRELEASE=$4 ($1 layout): swap, migration, hwpoison, device, other; a block's migration entry"
done

# The eras' encodings differ: 6.1's entries read as 6.12's are other
# types and offsets, so the version is what decides.
mkarm mixed 3 8 6.12.9-arm64
run "$PGWALK" translate --format=json $ARM "$TMP/mixed.elf" 0x401000
unlike '"swap_type":1,"swap_offset":"0x1234"' \
	"6.1's entry under a 6.12 OSRELEASE: not read as 6.1's"

run "$PGWALK" translate --levels $ARM "$TMP/e6.10.elf" 0x401000 0x404000 0x407000
like 'entry 0x4008: 0000000001234040  not present \(swap, type 1 offset 0x1234\)$' \
	"text --levels: the swap entry's type and offset"
like 'not present \(migration, type 24 offset 0x777\)' \
	"text --levels: a migration entry"
like 'not present \(other\)' "text --levels: a PTE marker is other"

run "$PGWALK" dump --non-present $ARM "$TMP/e5.19.elf"
like '^0x0000000000401000-0x0000000000404000 +12K hole pte not-present: swap type 1 offset 0x1234$' \
	"dump --non-present: consecutive offsets of one type merge"
like '^0x0000000000404000-0x0000000000405000 +4K hole pte not-present: migration type 24 offset 0x777$' \
	"dump --non-present: the migration entry on its own"
like '^0x0000000000600000-0x0000000000800000 +2M hole pmd not-present: migration type 25 offset 0x200$' \
	"dump --non-present: the 2 MiB block's migration entry"
run "$PGWALK" dump --non-present --format=json $ARM "$TMP/e5.19.elf"
like '"va":"0x401000","end":"0x404000",.*"non_present":\{"kind":"swap","swap_type":1,"swap_offset":"0x1234"\}' \
	"dump JSON: the merged swap run, its first offset"

# No version, or one older than every known layout: no type or offset.
for rel in "" "5.10.0-26-arm64"; do
	mkarm "u$rel" 3 8 "$rel"
	run "$PGWALK" translate --format=json $ARM "$TMP/u$rel.elf" 0x401000 0x404000 0x600000
	is "$(printf '%s\n' "$out" | grep -c '"non_present":{"kind":"swap-layout-unknown"}')" 3 \
		"OSRELEASE '${rel:-none}': swap-layout-unknown, 3 of 3 entries"
	unlike 'swap_type' "OSRELEASE '${rel:-none}': no type or offset given"
	run "$PGWALK" translate --levels $ARM "$TMP/u$rel.elf" 0x401000
	like 'not present \(swap-layout-unknown\)$' \
		"OSRELEASE '${rel:-none}': text says the layout is unknown"
	run "$PGWALK" dump --non-present $ARM "$TMP/u$rel.elf"
	like '^0x0000000000401000-0x0000000000402000 +4K hole pte not-present: swap-layout-unknown entry 0x123408$' \
		"OSRELEASE '${rel:-none}': dump shows the raw entry, runs unmerged"
	run "$PGWALK" dump --non-present --format=tsv $ARM "$TMP/u$rel.elf"
	like 'non_present=swap-layout-unknown' \
		"OSRELEASE '${rel:-none}': TSV names the kind, no type"
done

# x86 keeps its own fixed layout: a version changes nothing there.
cat >"$TMP/x.spec" <<EOS
mode x86-64
ram 0 16M
root 0x1000
alloc 0x10000
vmcoreinfo OSRELEASE=6.12.9-amd64
map 0x400000 0x200000 4K rw user
raw 0x401000 pte $(printf '0x%x' $(( ((~0x1234 << 14 >> 5) & ((1 << 59) - 1)) | (3 << 59) )))
EOS
"$MKIMAGE" -e "$TMP/x.elf" "$TMP/x.spec"
run "$PGWALK" translate --format=json --cr3=0x1000 "$TMP/x.elf" 0x401000
like '"non_present":\{"kind":"swap","swap_type":3,"swap_offset":"0x1234"\}' \
	"x86-64 with an OSRELEASE: its swap entry as before"
