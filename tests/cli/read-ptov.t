#!/bin/sh
# pgwalk read and ptov on synthetic images (tests/specs/read-*.spec):
# strings the spec writes at known physical addresses come back through
# 4 KiB, 2 MiB, 1 GiB and 4 MiB pages, PAE frames above 4 GiB and a PML5
# boundary; a page the image lacks (past RAM, past a cut file, filtered
# out of a kdump) stops the read with its reason and is never zeros;
# --skip-unreadable skips it as a gap; ptov lists a frame mapped twice
# in one root, and says when nobody maps one.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 53

for s in read-x86-64 read-pae read-i386 read-la57; do
	"$MKIMAGE" -r "$TMP/$s.raw" -e "$TMP/$s.elf" "$SPECS/$s.spec" ||
		bail "pgw-mkimage $s failed"
done
X=$TMP/read-x86-64.elf

# raw_is DESC WANT-PRINTF PGWALK-ARGS...: read --raw gives exactly these
# bytes (compared as od output, NULs included).
raw_is() {
	_desc=$1 _want=$2
	shift 2
	"$PGWALK" read --raw "$@" >"$TMP/raw.out" 2>"$TMP/raw.err"
	_rc=$?
	# shellcheck disable=SC2059
	printf "$_want" >"$TMP/raw.want"
	if [ "$_rc" = 0 ] && cmp -s "$TMP/raw.out" "$TMP/raw.want"; then
		ok 0 "$_desc"
	else
		ok 1 "$_desc"
		echo "#   rc=$_rc; got: $(od -c "$TMP/raw.out" | head -2 | tr '\n' ' ')"
		head -2 "$TMP/raw.err" | sed 's/^/#   /'
	fi
}

# ---- bytes across pages of every size and mode ----
for f in elf raw; do
	img=$TMP/read-x86-64.$f
	raw_is "x86-64 $f: across two 4 KiB pages" 'CROSS-4K-PAGES' \
		--cr3=0x100000 --mode=x86-64 "$img" 0x400ff8 14
done
raw_is "x86-64: the same bytes through a 1 GiB page" 'CROSS-4K-PAGES' \
	"$X" 0xffff888003000ff8 14
raw_is "x86-64: the end of a 2 MiB page, then the 4 KiB page after it" \
	'2M-ENDS\0004K-NEXT\000' "$X" 0x401ffff8 16
raw_is "PAE: the end of a 2 MiB page above 4 GiB, then a 4 KiB page" \
	'PAE-2MB\000PAE-4KB\000' "$TMP/read-pae.elf" 0xb75ffff8 16
raw_is "i386: the end of a 4 MiB page, then a 4 KiB page" \
	'I386-4M\000I386-4K\000' "$TMP/read-i386.elf" 0xb77ffff8 16
raw_is "LA57: across a PML5 entry's boundary" \
	'LA57-XX\000CROSSED\000' "$TMP/read-la57.elf" 0xfffffffffff8 16
raw_is "--phys: the bytes at a physical address" 'CROSS-4K-PAGES' \
	--phys "$X" 0x3000ff8 14
raw_is "--phys: a raw image above 4 GiB (PAE)" 'PAE-2MB' \
	--phys "$TMP/read-pae.elf" 0x1003ffff8 7
raw_is "LEN in hex" 'CROSS' "$X" 0x400ff8 0x5

# ---- hex, as hexdump -C shows the same bytes ----
run "$PGWALK" read "$X" 0x400ff0 64
"$PGWALK" read --raw "$X" 0x400ff0 64 | hexdump -C >"$TMP/hd"
printf '%s\n' "$out" | cut -c17- >"$TMP/ours"
cut -c9- "$TMP/hd" >"$TMP/theirs"
if [ "$rc" = 0 ] && cmp -s "$TMP/ours" "$TMP/theirs"; then
	ok 0 "hex: hexdump -C's layout, bytes and ASCII (4 lines)"
else
	ok 1 "hex: hexdump -C's layout"; diff "$TMP/theirs" "$TMP/ours" | head -6 | sed 's/^/#   /'
fi
like '^0000000000400ff0  00 00 00 00 00 00 00 00  43 52 4f 53 53 2d 34 4b  \|\.\.\.\.\.\.\.\.CROSS-4K\|$' \
	"... with the virtual address in the offset column"
like '^0000000000401030$' "... and the end address last"
run "$PGWALK" read --phys "$X" 0x3002000 96
"$PGWALK" read --phys --raw "$X" 0x3002000 96 | hexdump -C | cut -c9- >"$TMP/theirs"
printf '%s\n' "$out" | cut -c9- >"$TMP/ours"
cmp -s "$TMP/ours" "$TMP/theirs"
ok $? "hex: repeated lines squeezed into * as hexdump -C does"
like '^03002000  00' "... physical addresses in 8 digits below 4 GiB"

# ---- JSON: data records hold the bytes --raw writes ----
run "$PGWALK" read --format=json "$X" 0x401ffff8 16
is "$(printf '%s\n' "$out" | grep -c '"type":"data"')" 2 \
	"json: a data record per piece within a page (2 across the 2M/4K edge)"
like '^\{"type":"data","va":"0x401ffff8","pa":"0x21ffff8","size":8,"hex":"324d2d454e445300"\}$' \
	"... va, pa, size and the bytes in hex"
like '^\{"type":"data","va":"0x40200000","pa":"0x3100000","size":8,"hex":"344b2d4e45585400"\}$' \
	"... the next piece from the next page's frame"
run "$PGWALK" read --format=csv "$X" 0x400ff8 14
like '^type,va,end,size,pa,level,reason,absence,hex,protnone$' "csv: the header row"
like '^data,0x400ff8,,8,0x3000ff8,,,,43524f53532d344b,$' "csv: a data row"

# ---- what cannot be read: stop, say why, never zeros ----
run "$PGWALK" read --raw "$X" 0xffff888003fffff8 16
is "$(wc -c <"$TMP/out" | tr -d ' ')" 8 \
	"past RAM through the 1 GiB page: the 8 bytes before it, no more"
is "$rc" 2 "... exit 2 (a page the image lacks)"
err1=$(printf '%s' "$err" | grep -c '')
case $err in
*"read stopped after 8 bytes at 0xffff888004000000: data-not-in-image (outside) at pud: "*) ok 0 "... one line naming the address and the reason ($err1 line)" ;;
*) ok 1 "... one line naming the address and the reason"; echo "#   $err" ;;
esac
run "$PGWALK" read "$X" 0x402000 16
is "$rc" 1 "an address that does not translate: exit 1"
like '^0000000000402000$' "... hex: nothing but where it stopped"
case $err in *"at 0x402000: not-present at pte: "*) ok 0 "... not-present at pte, on stderr" ;;
*) ok 1 "... not-present at pte"; echo "#   $err" ;; esac
run "$PGWALK" read --format=json --skip-unreadable "$X" 0x401ff8 0x1010
is "$rc" 1 "--skip-unreadable over a hole: exit 1"
like '^\{"type":"data","va":"0x401ff8","pa":"0x3001ff8","size":8,' "... the bytes before it"
like '^\{"type":"gap","va":"0x402000","end":"0x403008","size":4104,"level":"pte","reason":"not-present"\}$' \
	"... one gap record for the two pages that are not there"
is "$(printf '%s\n' "$out" | grep -c '"type":"data"')" 1 "... and no data made up for them"
run "$PGWALK" read --raw --skip-unreadable "$X" 0xffff888003fffff8 0x2010
is "$(wc -c <"$TMP/out" | tr -d ' ')" 8 "--skip-unreadable --raw: nothing for the pages past RAM"
is "$err" "pgwalk: skipped 8200 bytes at 0xffff888004000000: data-not-in-image (outside) at pud" \
	"... one stderr line for the one gap (adjacent pages of one reason)"

# A cut file: pages past the cut are truncated, never zeros.
head -c $((24 << 20)) "$X" >"$TMP/cut.elf"
run "$PGWALK" read --raw --cr3=0x100000 --mode=x86-64 "$TMP/cut.elf" 0x400ff8 14
is "$out$rc" 2 "a cut ELF: a page past the cut stops the read (exit 2, no byte)"
case $err in *"data-not-in-image (truncated)"*) ok 0 "... reason truncated" ;;
*) ok 1 "... reason truncated"; echo "#   $err" ;; esac

# A filtered kdump of the same memory: excluded pages are gaps, the rest
# are the raw image's bytes.
"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/read-x86-64.raw" --filter \
	"$TMP/f.kdump" >/dev/null || bail "pgw-mkdump failed"
"$PGWALK" read --format=json --skip-unreadable --cr3=0x100000 --mode=x86-64 \
	"$TMP/f.kdump" 0xffff888003000000 0x40000 >"$TMP/f.json" 2>"$TMP/f.err"
rc=$?
ngap=$(grep -c '"type":"gap".*"reason":"data-not-in-image","absence":"excluded"' "$TMP/f.json")
ndata=$(grep -c '"type":"data"' "$TMP/f.json")
[ "$rc" = 2 ] && [ "$ngap" -gt 0 ] && [ "$ndata" -gt 0 ]
ok $? "filtered kdump: $ngap excluded gaps, $ndata data pieces (exit $rc)"
bad=0 total=0
while read -r va pa size hex; do
	total=$((total + size))
	[ "$hex" = - ] && continue
	want=$(dd if="$TMP/read-x86-64.raw" bs=4096 iflag=skip_bytes,count_bytes \
		skip=$((pa)) count="$size" 2>/dev/null | od -An -v -tx1 | tr -d ' \n')
	[ "$want" = "$hex" ] || bad=$((bad + 1))
done <<EOF2
$(jq -r '"\(.va) \(.pa // "-") \(.size) \(.hex // "-")"' "$TMP/f.json")
EOF2
is "$bad:$total" "0:$((0x40000))" "... every data piece is the raw image's bytes, gaps and data tile the read"

# ---- ptov ----
run "$PGWALK" ptov --format=json "$X" 0x3000010
is "$(printf '%s\n' "$out" | jq -r '.va' | tr '\n' ' ')" \
	"0x400010 0x600010 0xffff888003000010 " \
	"ptov: a frame mapped twice in one root, and by the direct map"
like '"va":"0xffff888003000010","root":"0x100000","pid":null,"comm":null,"page_size":1073741824,"level":"pud"' \
	"... the 1 GiB page's mapping with its page size and level"
is "$rc" 0 "... exit 0"
run "$PGWALK" ptov --format=json "$X" 0x50000000
is "$out" '{"type":"mapping","pa":"0x50000000","va":null,"root":null,"pid":null,"comm":null}' \
	"ptov: an address no root maps is one record, va null"
is "$rc" 1 "... exit 1"
for m in pae:0x1003ffff8:0xb75ffff8 i386:0x7ffff8:0xb77ffff8 la57:0x3100000:0x1000000000000; do
	IFS=: read -r mode pa va <<EOF2
$m
EOF2
	run "$PGWALK" ptov --format=tsv "$TMP/read-$mode.elf" "$pa"
	printf '%s\n' "$out" | grep -q "^$pa	$va	"
	ok $? "ptov $mode: $pa is mapped at $va"
done
printf '0x3000010\n\n# a comment\nnot-an-address\n0x3100000\n' |
	"$PGWALK" ptov --format=json "$X" - >"$TMP/p.json" 2>"$TMP/p.err"
rc=$?
is "$(jq -r '.va' "$TMP/p.json" | tr '\n' ' ')" \
	"0x400010 0x600010 0xffff888003000010 null 0x40200000 0xffff888003100000 " \
	"ptov -: addresses from stdin, a record for the line that is not one"
is "$rc" 1 "... exit 1"

# PTI: the user half once, through the user copy (executable there; the
# kernel copy's user half is NX), named by the kernel copy as roots does.
"$MKIMAGE" -e "$TMP/pti.elf" "$SPECS/roots-pti.spec" || bail "pgw-mkimage roots-pti failed"
run "$PGWALK" ptov --all-roots --format=json "$TMP/pti.elf" 0x3100000
is "$(printf '%s\n' "$out" | jq -r '"\(.va) \(.root) \(.kind) \(.effective | join(","))"' | tr '\n' ';')" \
	"0xffff888003100000 0x1000000 kernel rw,nx;0x400000 0x400000 process user;" \
	"ptov --all-roots under PTI: the user page once, as user mode maps it (not NX)"

# ---- usage ----
run "$PGWALK" read "$X" 0x400000
one_error "read without LEN" 64
run "$PGWALK" read "$X" 0x400000 0
one_error "read of 0 bytes" 64
run "$PGWALK" read "$X" 0xfffffffffffffff0 0x20
one_error "read past 2^64" 64
run "$PGWALK" read --raw --format=json "$X" 0x400000 16
one_error "--raw with --format" 64
run "$PGWALK" read --phys --cpu=0 "$X" 0x400000 16
one_error "--phys with a root option" 64
run "$PGWALK" ptov --all-roots --pid=1 "$X" 0x1000
one_error "ptov --all-roots with --pid" 64

done_testing
