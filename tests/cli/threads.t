#!/bin/sh
# --threads: the scans of physical memory (VMCOREINFO, the kernel root,
# roots) on 1, 2 and 4 threads give one answer, byte for byte: stdout,
# stderr and the exit status, in every format, budgets and errors
# included.  The images are large enough for several chunks of the scan
# (4096 pages each), so the workers really share the pages: the 96 MiB
# x86-64 spec of roots-synth.t (6 chunks) sparse, dense, as an ELF core
# and as a zlib kdump; the 64 MiB PAE spec raw and as a kdump (its slots'
# page directories read through each worker's image); the synthetic
# kernel grown by a hole; hostile and corrupt images.  Each image's
# answer is also checked against what its spec built.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MKIMAGE=$PGW_TOOLS/pgw-mkimage
ROOTS=$PGW_TOOLS/pgw-roots
SPECS=$(dirname "$0")/../specs
CORPUS=$(dirname "$0")/../../fuzz/corpus
plan 81

# same WHAT BIN SUB ARGS...: lib.sh's threads_agree.
same() {
	threads_agree "$@"
}
# roots_in FILE: the root= addresses of pgw-roots' output, one line.
roots_in() { sed -n 's/^root=\([^ ]*\) .*/\1/p' "$1" | tr '\n' ' '; }

"$MKIMAGE" -r "$TMP/x64.raw" -e "$TMP/x64.elf" "$SPECS/roots-x86-64.spec" ||
	bail "pgw-mkimage roots-x86-64.spec failed"
cp --sparse=never "$TMP/x64.raw" "$TMP/dense.raw" || bail "cp failed"
"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/x64.raw" --codec=zlib \
	"$TMP/x64.kdump" >/dev/null || bail "pgw-mkdump kdump failed"
# Raw and kdump images carry no CPU state, so no CR3 selects 0x40c000.
X64_ROOTS="0x1000000 0x9c000 0x400000 0x402000 0x404000 0x406000 0x408000 0x40a000 0x1200000 "

# ---- the roots scan: every root the spec built, on any thread count ----
same "x86-64 raw (sparse): roots alike on 1, 2, 4 threads" \
	"$ROOTS" roots --how=scan "$TMP/x64.raw"
is "$(roots_in "$TMP/o4")" "$X64_ROOTS" "... the 9 roots the spec built (0x40c000 is CPU 1's), in order"
same "x86-64 raw (dense, every page read): alike" \
	"$ROOTS" roots --how=scan "$TMP/dense.raw"
is "$(roots_in "$TMP/o2")" "$X64_ROOTS" "... the same 9 roots"
same "x86-64 ELF core: alike" "$ROOTS" roots --how=scan "$TMP/x64.elf"
is "$(roots_in "$TMP/o2")" "0x1000000 0x9c000 0x400000 0x402000 0x404000 0x406000 0x408000 0x40a000 0x40c000 0x1200000 " \
	"... the 10 roots, CPU 1's 0x40c000 among them"
same "x86-64 zlib kdump (pages inflated by the workers): alike" \
	"$ROOTS" roots --how=scan "$TMP/x64.kdump"
is "$(roots_in "$TMP/o4")" "$X64_ROOTS" "... the same 9 roots"
same "the kernel-root scan: alike" "$ROOTS" kernel-root "$TMP/dense.raw"
out=$(cat "$TMP/o4")
like '^mode=x86-64 root=0x1000000 ' "... the spec's kernel root"
same "the VMCOREINFO scan, none in memory: alike (exit 1)" \
	"$ROOTS" vmcoreinfo "$TMP/dense.raw"
is "$(tail -1 "$TMP/e4")" "exit 1" "... exit 1 on 4 threads as on one"

# ---- budgets stop at the same page whatever the threads ----
same "the page budget in the second chunk: alike" \
	"$ROOTS" roots --how=scan --max-pages=5000 "$TMP/dense.raw"
grep -q 'complete=no .*scan stopped at physical 0x1388000, after 5000 of 24576 pages: the page budget (5000) ran out' "$TMP/o2"
ok $? "... stopped at page 5000 (0x1388000), said so"
same "the decompression budget in the third chunk: alike" \
	"$ROOTS" roots --how=scan --max-decoded=9000 "$TMP/x64.kdump"
grep -q 'complete=no .*scan stopped at physical 0x2328000, after 9000 of 24576 pages: the decompression budget (9000) ran out' "$TMP/o4"
ok $? "... stopped after 9000 pages inflated (0x2328000), said so"
same "a decompression budget spent exactly at a chunk's end: alike" \
	"$ROOTS" roots --how=scan --max-decoded=8192 "$TMP/x64.kdump"
grep -q 'scan stopped at physical 0x2000000, after 8192 of 24576 pages' "$TMP/o2"
ok $? "... stopped at the next chunk's first page"

# ---- PAE: the slots' page directories read through each worker ----
"$MKIMAGE" -r "$TMP/pae.raw" "$SPECS/roots-pae.spec" ||
	bail "pgw-mkimage roots-pae.spec failed"
"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/pae.raw" --codec=zlib \
	"$TMP/pae.kdump" >/dev/null || bail "pgw-mkdump kdump (PAE) failed"
same "PAE raw: alike" "$ROOTS" roots --how=scan "$TMP/pae.raw"
grep -q 'freed_slots=1$' "$TMP/o4" && grep -q '^diff root=0x300040 level=pmd index=1 ' "$TMP/o4"
ok $? "... the freed slot counted, the hooked directory compared"
same "PAE zlib kdump: alike" "$ROOTS" roots --how=scan "$TMP/pae.kdump"

# ---- the commands ----
R="--mode=x86-64 --root=0x1000000"
# shellcheck disable=SC2086  # the options
same "roots --format=json: alike" "$PGWALK" roots --format=json $R "$TMP/x64.elf"
# shellcheck disable=SC2086
same "roots (text): alike" "$PGWALK" roots $R "$TMP/dense.raw"
# shellcheck disable=SC2086
same "roots --format=csv on the kdump: alike" \
	"$PGWALK" roots --format=csv $R "$TMP/x64.kdump"
# shellcheck disable=SC2086
same "check --all-roots --format=json: alike" \
	"$PGWALK" check --all-roots --format=json --mode=x86-64 "$TMP/x64.elf"
# shellcheck disable=SC2086
same "ptov --all-roots: alike" "$PGWALK" ptov --all-roots $R \
	"$TMP/x64.elf" 0x3100000
out=$(cat "$TMP/o2")
like '^0x3100000 ' "... process A's page found"
same "search --all-roots: alike" "$PGWALK" search --all-roots --mode=x86-64 \
	--hex=2700000200000000 "$TMP/x64.elf"

# ---- the per-root walks of --all-roots: 100 processes, one budget ----
# roots-x86-64.spec's kernel and 100 processes over 256 MiB, each mapping
# 16 KiB at 0x400000 from its root + 0x2000.  ptov's walks share the
# command's budget (364288 entries with the roots scan's) in order: cut
# where 91, 35 and 7 of the 101 walks are left undone (pgwalk -v), the
# same walks and the same exit status on any threads.
{
	echo "mode x86-64"
	echo "ram 0 256M"
	sed -n '/^root 0x1000000/,/^map 0xfffffe/p' "$SPECS/roots-x86-64.spec"
	i=0
	while [ $i -lt 100 ]; do
		r=$(( (0x8000000 + i * 0x80000) & ~0x1fff ))
		printf 'root 0x%x\nclone-kernel 0x1000000\nmap 0x400000 0x%x 16K user a\n' \
			$r $((r + 0x2000))
		i=$((i + 1))
	done
} >"$TMP/many.spec"
"$MKIMAGE" -r "$TMP/many.raw" "$TMP/many.spec" || bail "pgw-mkimage (many) failed"
P50=$(printf '0x%x' $(( ((0x8000000 + 50 * 0x80000) & ~0x1fff) + 0x2000 )))
R50=$(printf '0x%x' $(( (0x8000000 + 50 * 0x80000) & ~0x1fff )))
same "ptov --all-roots, 100 processes: alike" "$PGWALK" ptov --all-roots \
	--mode=x86-64 --format=json "$TMP/many.raw" "$P50" 0x8002000
is "$(grep -c "\"va\":\"0x400000\",.*\"root\":\"$R50\"" "$TMP/o4")" 1 \
	"... process 50's page: its root maps it at 0x400000, on 4 threads"
for b in 200000 300000 350000; do
	same "... --max-entries=$b (the budget spent among the roots): alike" \
		"$PGWALK" ptov --all-roots --mode=x86-64 --max-entries=$b \
		"$TMP/many.raw" "$P50" 0x8002000
done
is "$(tail -1 "$TMP/e2")" "exit 4" "... exit 4 on 2 threads as on one"
same "search --all-roots, 100 processes, --max-entries=3000: alike" \
	"$PGWALK" search --all-roots --mode=x86-64 --max-entries=3000 \
	--format=json --hex=2700000200000000 "$TMP/many.raw"

# ---- roots: each root's comparison, PTI pairing and walk on the threads ----
# The same 100 processes: walked ahead on the workers, merged in root
# order.  Each process's walk examines 1792 entries (its top table's
# lower half, 256, and one full table on each of the three levels below),
# the kernel root's 256: a budget of B entries walks the kernel root and
# (B - 256) / 1792 processes, the next stops at the budget and the rest
# find it spent, all unverified; walks run ahead with the first cap are
# walked again where the budget left is smaller.
same "roots, 100 processes (compared, paired, walked on the workers): alike" \
	"$PGWALK" roots --mode=x86-64 --root=0x1000000 --format=json \
	"$TMP/many.raw"
is "$(grep -c '"kind":"process","why":"its user half maps user pages",.*"user_bytes":16384,"user_leaves":4,"user_access_leaves":4,"user_tables":3,"kernel_entries":4,"kernel_same":4,' "$TMP/o4")" 100 \
	"... 100 processes, 16 KiB each, on 4 threads"
for b in 5000 50000 100000; do
	same "... --max-entries=$b (the walks' budget spent in root order): alike" \
		"$PGWALK" roots --mode=x86-64 --root=0x1000000 --format=json \
		--max-entries=$b "$TMP/many.raw"
	is "$(grep -c '"kind":"unverified"' "$TMP/o2")" \
		$((100 - (b - 256) / 1792)) \
		"... $((100 - (b - 256) / 1792)) processes unverified on 2 threads"
done
# 2048 copies of a process's top table: the workers walk one ahead, the
# merge takes the rest from its memo.
{ sed -n '1,/^map 0xfffffe/p' "$SPECS/roots-x86-64.spec"
  printf '%s\n' 'root 0x400000' 'clone-kernel 0x1000000' \
	'map 0x400000 0x3100000 16K user a' 'copy 0x400000 0x4000000 2048'; } \
	>"$TMP/copies.spec"
"$MKIMAGE" -r "$TMP/copies.raw" "$TMP/copies.spec" ||
	bail "pgw-mkimage (copies) failed"
same "roots, 2048 copies of a process table: alike" "$PGWALK" roots \
	--mode=x86-64 --root=0x1000000 --format=json "$TMP/copies.raw"
is "$(grep -c '"kind":"shared-tables"' "$TMP/o4")" 2049 \
	"... every copy and the original named shared-tables on 4 threads"

# check --all-roots: each root's rules a job on the threads, said in
# turn.  The same 100 processes, hostile in part: every 7th from the 4th
# maps 8 KiB user W+X at 0x600000 (wx), every 13th from the 6th its own
# top table user-writable at 0x800000 (wx and pt-writable), every 17th
# from the 10th points its top table's slot 1 back at itself (a cycle:
# pt-writable over 512 GiB).  The findings, root by root in order, are
# the ones the spec built; a budget cut mid-way gives the first of them,
# the same on any threads.
{
	echo "mode x86-64"
	echo "ram 0 256M"
	sed -n '/^root 0x1000000/,/^map 0xfffffe/p' "$SPECS/roots-x86-64.spec"
} >"$TMP/bad.spec"
want="" want55=0 i=0
while [ $i -lt 100 ]; do
	r=$(( (0x8000000 + i * 0x80000) & ~0x1fff ))
	printf 'root 0x%x\nclone-kernel 0x1000000\nmap 0x400000 0x%x 16K user a\n' \
		$r $((r + 0x2000)) >>"$TMP/bad.spec"
	n=0
	if [ $((i % 7)) -eq 3 ]; then
		printf 'map 0x600000 0x%x 8K rw user a\n' $((r + 0x8000)) >>"$TMP/bad.spec"
		want="$want wx:$(printf 0x%x $r)" n=$((n + 1))
	fi
	if [ $((i % 13)) -eq 5 ]; then
		printf 'map 0x800000 0x%x 4K rw user a\n' $r >>"$TMP/bad.spec"
		want="$want wx:$(printf 0x%x $r) pt-writable:$(printf 0x%x $r)"
		n=$((n + 2))
	fi
	if [ $((i % 17)) -eq 9 ]; then
		printf 'entry 0x%x 0x%x\n' $((r + 8)) $((r | 0x67)) >>"$TMP/bad.spec"
		want="$want pt-writable:$(printf 0x%x $r)" n=$((n + 1))
	fi
	[ $i -lt 55 ] && want55=$((want55 + n))
	i=$((i + 1))
done
"$MKIMAGE" -r "$TMP/bad.raw" "$TMP/bad.spec" || bail "pgw-mkimage (bad) failed"
# found FILE: "rule:root" of each finding of check's text output.
found() {
	sed -n 's/^[a-z]*  *\([a-z-]*\)  *0x[0-9a-f]*-0x[0-9a-f]* ([^)]*) root \(0x[0-9a-f]*\):.*/ \1:\2/p' "$1" |
		tr -d '\n'
}
same "check --all-roots, 100 processes, some hostile: alike" \
	"$PGWALK" check --all-roots --mode=x86-64 "$TMP/bad.raw"
is "$(found "$TMP/o4")" "$want" \
	"... on 4 threads the 36 findings the spec built, root by root in order"
is "$(tail -1 "$TMP/e2")" "exit 1" "... exit 1 (findings) on 2 threads"
found "$TMP/o1" >"$TMP/all"
for b in 200000 250000 380000 300000; do
	same "... --max-entries=$b (the budget spent among the roots): alike" \
		"$PGWALK" check --all-roots --mode=x86-64 --max-entries=$b -v \
		"$TMP/bad.raw"
	# The first findings of the whole run, and the summary says why.
	f=$(found "$TMP/o2")
	case " $(cat "$TMP/all")" in
	" $f"*) grep -q '^# INCOMPLETE: budget' "$TMP/o2" &&
		[ "$(tail -1 "$TMP/e2")" = "exit 4" ]; ok $? \
		"... on 2 threads the first $(echo "$f" | wc -w) findings, exit 4, the budget said" ;;
	*) ok 1 "... the first findings of the whole run (got:$f)" ;;
	esac
done
# 300000 entries: the scan's 190720, the kernel's walk, then 1923 for
# each process: the kernel and processes 0-54 walked, 54 cut.
grep -q '^pgwalk: check: 56 roots walked, ' "$TMP/e4" &&
	[ "$(found "$TMP/o4" | wc -w)" -eq "$want55" ]
ok $? "... 56 roots walked and the $want55 findings of processes 0-54 (4 threads)"
same "ptov --all-roots, the hostile processes, --max-entries=300000: alike" \
	"$PGWALK" ptov --all-roots --mode=x86-64 --max-entries=300000 \
	"$TMP/bad.raw" 0x8280000 0x8002000
is "$(grep -c '^0x8280000  *0x800000 .* user rw exec  *0x8280000 ' "$TMP/o2") $(grep -c '^0x8002000 ' "$TMP/o2") $(tail -1 "$TMP/e2")" \
	"1 1 exit 4" \
	"... process 5's top table at its 0x800000, process 0's page, exit 4 on 2 threads"

# The synthetic kernel in 64 MiB (a hole after its 8 MiB): VMCOREINFO
# found in memory past a fake page, and the roots, alike.
"$PGW_TOOLS/pgw-mkkernel" --raw --fake-vmcoreinfo --hidden "$TMP/k.raw" ||
	bail "pgw-mkkernel failed"
truncate -s 64M "$TMP/k.raw" || bail "truncate failed"
same "info (VMCOREINFO found in memory): alike" "$PGWALK" info "$TMP/k.raw"
out=$(cat "$TMP/o4")
like '^vmcoreinfo: +12 lines \(found in memory at 0x7f0000\)$' \
	"... found at 0x7f0000"
same "roots --format=json, a suspicious orphan: alike" \
	"$PGWALK" roots --format=json "$TMP/k.raw"

# ---- search --phys: pieces of 4096 frames, a match across their edge ----
# Two 8-byte entries either side of frame 4096 (0x1000000), one more
# before frame 12288: hex patterns that lie across the edge and before it.
printf 'mode x86-64\nram 0 64M\nroot 0x1000\nentry 0xfffff8 0x1122334455667788\nentry 0x1000000 0x99aabbccddeeff00\nentry 0x2fffff8 0x1122334455667788\n' |
	"$MKIMAGE" -r "$TMP/cross.raw" || bail "pgw-mkimage (cross) failed"
"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/cross.raw" --codec=zlib \
	"$TMP/cross.kdump" >/dev/null || bail "pgw-mkdump kdump (cross) failed"
same "search --phys, strings and hex on threads: alike" "$PGWALK" search \
	--phys --format=json --hex=4433221100ffeedd --hex=8877665544332211 \
	"$TMP/cross.raw"
is "$(sed -n 's/^{"type":"hit","pa":"\([^"]*\)".*"pattern":"\([^"]*\)".*/\1 \2/p' "$TMP/o4" | tr '\n' ' ')" \
	"0xfffff8 hex:8877665544332211 0xfffffc hex:4433221100ffeedd 0x2fffff8 hex:8877665544332211 " \
	"... the three the spec wrote, the one across frame 4096's edge too"
same "search --phys on the kdump, --max-hits=2: alike (exit 4)" "$PGWALK" \
	search --phys --max-hits=2 --hex=4433221100ffeedd \
	--hex=8877665544332211 "$TMP/cross.kdump"
is "$(tail -1 "$TMP/e2")" "exit 4" "... exit 4 on 2 threads as on one"

# ---- regular expressions and YARA rules: pieces cut where chunks begin ----
# The cross image and two entries across 0xfff801, where the 256 KiB
# chunk before frame 4096 leaves off and carries the rest (2047 bytes,
# a regular expression's reach) into the next: ABCDEFGHIJKLMNOP runs over
# it, so the piece from frame 4096 is searched again from where that match
# left the search; D3"\021 (0x11223344's bytes) lies in the carry.
printf 'mode x86-64\nram 0 64M\nroot 0x1000\nentry 0xfff7f8 0x4847464544434241\nentry 0xfff800 0x504f4e4d4c4b4a49\nentry 0xfffff8 0x1122334455667788\nentry 0x1000000 0x99aabbccddeeff00\nentry 0x2fffff8 0x1122334455667788\n' |
	"$MKIMAGE" -r "$TMP/edge.raw" || bail "pgw-mkimage (edge) failed"
"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/edge.raw" --codec=zlib \
	"$TMP/edge.kdump" >/dev/null || bail "pgw-mkdump kdump (edge) failed"
RE=$(printf 'D3"\021([^a]\377)?')
same "search --phys --regex on threads: alike" "$PGWALK" search --phys \
	--format=json --regex="$RE" --regex=ABCDEFGHIJKLMNOP "$TMP/edge.raw"
is "$(sed -n 's/^{"type":"hit","pa":"\([^"]*\)".*"size":\([0-9]*\).*/\1:\2/p' "$TMP/o2" | tr '\n' ' ')" \
	"0xfff7f8:16 0xfffffc:6 0x2fffffc:4 " \
	"... the three the spec wrote, each whole: across the carry, in it"
# Three corrupt pages in the zlib kdump: one scanner's chunks begin
# elsewhere after each, and every piece after is searched again.
cp "$TMP/edge.kdump" "$TMP/bad.kdump"
sz=$(stat -c %s "$TMP/bad.kdump")
for off in $((sz / 2)) $((sz * 3 / 5)) $((sz * 4 / 5)); do
	printf '\377\377\377\377\377\377\377\377' |
		dd of="$TMP/bad.kdump" bs=1 seek=$off conv=notrunc 2>/dev/null
done
same "... on a kdump with corrupt pages: alike" "$PGWALK" search --phys \
	--format=json --regex="$RE" --regex=ABCDEFGHIJKLMNOP "$TMP/bad.kdump"
is "$(grep -c '"type":"hit"' "$TMP/o4") $(tail -1 "$TMP/e4")" "3 exit 2" \
	"... the three hits and exit 2 (pages not searched) on 4 threads"
same "... --max-hits=1 on the kdump: alike (exit 4)" "$PGWALK" search \
	--phys --max-hits=1 --regex="$RE" "$TMP/edge.kdump"
if "$PGWALK" search --phys --yara="$SPECS/../rules/markers.yar" \
	"$TMP/edge.raw" >/dev/null 2>"$TMP/y.err" || [ $? -eq 1 ]; then
	cat >"$TMP/edge.yar" <<'YAR'
rule edge
{
    strings:
        $a = { 44 33 22 11 00 FF }
        $b = { 88 77 66 55 }
    condition:
        $a and $b
}
YAR
	same "search --phys --yara on threads: alike" "$PGWALK" search \
		--phys --format=json --yara="$TMP/edge.yar" "$TMP/edge.raw"
	is "$(sed -n 's/^{"type":"hit","pa":"\([^"]*\)".*"pattern":"\([^"]*\)".*/\1 \2/p' "$TMP/o4" | tr '\n' ' ')" \
		"0xfffff8 yara:edge:\$b 0xfffffc yara:edge:\$a " \
		"... the rule's strings in the chunk that carries them (not at 0x2fffff8: no \$a there)"
else
	skip "libyara is not installed: $(cat "$TMP/y.err")"
	skip "libyara is not installed"
fi

# ---- hostile and corrupt images: the same errors, the same status ----
"$PGW_TOOLS/pgw-mkkernel" --loop "$TMP/loop.elf" || bail "pgw-mkkernel --loop failed"
same "a looping task list: alike" "$PGWALK" roots --format=json "$TMP/loop.elf"
is "$(tail -1 "$TMP/e2")" "exit 65" "... exit 65 on 2 threads as on one"
same "an ELF claiming 2^63 bytes past its file: alike" \
	"$ROOTS" vmcoreinfo "$CORPUS/image_elf/timeout-zero-fill-scan.elf"
same "a LiME range of 2^63 bytes cut short: alike" \
	"$ROOTS" vmcoreinfo "$CORPUS/image_lime/timeout-cut-range-scan.lime"
"$PGW_TOOLS/mkcorrupt" "$TMP/c" >/dev/null || bail "mkcorrupt failed"
n=0 differ=""
for img in "$TMP"/c/*; do
	case $img in *MANIFEST*) continue ;; esac
	for t in 1 4; do
		"$PGWALK" roots --threads=$t --format=json "$img" >"$TMP/c$t" 2>&1
		echo "exit $?" >>"$TMP/c$t"
	done
	cmp -s "$TMP/c1" "$TMP/c4" || differ="$differ ${img##*/}"
	n=$((n + 1))
done
[ "$n" -ge 60 ] && [ -z "$differ" ]
ok $? "mkcorrupt's $n images: roots alike on 1 and 4 threads${differ:+ (not:$differ)}"

# Threads are a speed-up only: with no descriptor left to open the image
# again for the workers (5: the image takes the last), the calling thread
# scans alone, to the same answer.  (The binary itself: the wrapper's
# shell cannot run under that limit.)
# shellcheck disable=SC2086  # the options
"$PGW_BIN" roots --threads=1 --format=json $R "$TMP/x64.elf" >"$TMP/f1" 2>&1
echo "exit $?" >>"$TMP/f1"
# shellcheck disable=SC2086
prlimit --nofile=5:5 "$PGW_BIN" roots --threads=4 --format=json $R \
	"$TMP/x64.elf" >"$TMP/f4" 2>&1
echo "exit $?" >>"$TMP/f4"
cmp -s "$TMP/f1" "$TMP/f4" && grep -q '^{"type":"root"' "$TMP/f1"
ok $? "5 descriptors, none for the workers: the same answer, from the calling thread"

# ---- the option ----
run "$PGWALK" roots --threads=0 "$TMP/x64.elf"
is "$rc" 64 "--threads=0: a usage error"
run "$PGWALK" roots --threads=1025 "$TMP/x64.elf"
is "$rc:$err" "64:pgwalk roots: --threads: at most 1024 (see 'pgwalk roots --help')" \
	"--threads=1025: at most 1024"
