#!/bin/sh
# Memory encryption (AMD SME/SEV's C-bit, TDX's shared bit): an image whose
# every entry and CPU CR3 carry the C-bit translates, dumps and lays out
# exactly as the same image without it (the flag "enc" aside), whether the
# bit comes from VMCOREINFO NUMBER(sme_mask), --sme-mask, or the tables
# themselves; i386 and PAE are left alone; tables with high bits set for
# other reasons are not taken for SME; and the real entries of an SME
# Linux 4.12 kernel (tests/specs/sme-4.12.spec, from libkdumpfile's test
# data) give the direct map libkdumpfile finds, with no option.  Masks
# take the address syntax; every JSON line of these images is held to the
# output contract (contract.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
. "$(dirname "$0")/contract.sh"
ROOTS=$PGW_TOOLS/pgw-roots
plan 102

C47=0x800000000000
C47_DEC=140737488355328    # NUMBER() values are decimal (VMCOREINFO_NUMBER)

# spec_with SPEC LINE...: SPEC with LINEs after its mode line.
spec_with() {
	_spec=$1
	shift
	awk -v extra="$(printf '%s\n' "$@")" \
		'{ print } /^mode / && !done { print extra; done = 1 }' "$_spec"
}
# tsv4: translate --format=tsv's $out without its header, columns va, pa,
# page_size and flags (the generator's expectations).
tsv4() { printf '%s\n' "$out" | sed 1d | cut -f1,2,3,5; }
# same_files DESC A B: the files are equal.
same_files() {
	if cmp -s "$2" "$3"; then ok 0 "$1"; else
		ok 1 "$1"; diff "$2" "$3" | head -6 | sed 's/^/#   /'; fi
}

# ---- a synthetic SME x86-64 image: every entry and CR3 with C-bit 47 ----
mkimg plain <"$SPECS/x86-64.spec"
spec_with "$SPECS/x86-64.spec" "cbit 47" | mkimg sme
spec_with "$SPECS/x86-64.spec" "cbit 47" \
	"vmcoreinfo NUMBER(sme_mask)=$C47_DEC" | mkimg smevi
root=$(awk '$1 == "root" { print $2; exit }' "$SPECS/x86-64.spec")
sed 's/|enc$//' "$TMP/sme.exp" >"$TMP/sme-noenc.exp"
same_files "generator: the SME expectations are the plain ones plus enc" \
	"$TMP/plain.exp" "$TMP/sme-noenc.exp"
grep -q '|enc$' "$TMP/sme.exp"
ok $? "generator: leaves expect the enc flag"

expect_tsv "x86-64 SME, VMCOREINFO NUMBER(sme_mask)" "$TMP/sme.exp" \
	"$TMP/smevi.elf"
expect_tsv "x86-64 SME, C-bit inferred (no VMCOREINFO), CR3 with it" \
	"$TMP/sme.exp" "$TMP/sme.elf"
expect_tsv "x86-64 SME, --cpu=1" "$TMP/sme.exp" --cpu=1 "$TMP/sme.elf"
expect_tsv "x86-64 SME raw, --cr3 with the C-bit, mode and bit found" \
	"$TMP/sme.exp" --image-format=raw --cr3="$(printf '0x%x' $((root | C47)))" \
	"$TMP/sme.raw"
expect_tsv "x86-64 SME raw, --sme-mask --mode --cr3" "$TMP/sme.exp" \
	--image-format=raw --mode=x86-64 --sme-mask=$C47 --cr3="$root" \
	"$TMP/sme.raw"
tab=$(printf '\t')
cut -f1 "$TMP/plain.exp" | "$PGWALK" translate --format=tsv "$TMP/sme.elf" - |
	sed "s/|enc$tab/$tab/" >"$TMP/sme.tsv"
cut -f1 "$TMP/plain.exp" | "$PGWALK" translate --format=tsv \
	"$TMP/plain.elf" - >"$TMP/plain.tsv"
same_files "translate: the SME image answers as the plain one, enc aside" \
	"$TMP/plain.tsv" "$TMP/sme.tsv"

run "$PGWALK" info "$TMP/sme.elf"
like '^encryption: +C-bit 47 0x800000000000 inferred \(no VMCOREINFO NUMBER\(sme_mask\); C-bit 47 \(0x800000000000\) inferred: set in ([0-9]+) of \1 present entries' \
	"info: C-bit inferred, every present entry agreeing, counted"
like '^root: +0x100000 \(CPU 0 CR3 0x800000100000' \
	"info: the CR3 carries the bit, the root is read without it"
run "$PGWALK" info "$TMP/smevi.elf"
like '^encryption: +C-bit 47 0x800000000000 vmcoreinfo \(VMCOREINFO NUMBER\(sme_mask\)=140737488355328' \
	"info: C-bit from VMCOREINFO NUMBER(sme_mask), said so"
run "$PGWALK" info --format=json "$TMP/sme.elf"
like '"encryption":\{"sme_mask":"0x800000000000","sme_source":"inferred","shared_mask":null,"shared_source":"none","entries":([0-9]+),"agreed":\1,"why":"no VMCOREINFO' \
	"info --format=json: the encryption object"
run "$PGWALK" info --format=json "$TMP/plain.elf"
like '"encryption":\{"sme_mask":null,"sme_source":"none","shared_mask":null,"shared_source":"none","why":"no VMCOREINFO NUMBER\(sme_mask\); no entry of root 0x100000 has a bit above' \
	"info --format=json: none on the plain image"
run "$PGWALK" translate -v --levels --format=json "$TMP/sme.elf" 0xffffffff81000000
printf '%s\n' "$err" | grep -q '^pgwalk: encryption C-bit 47 (no VMCOREINFO'
ok $? "translate -v says the C-bit and where it came from, on stderr"
like '^\{"type":"translation","va":"0xffffffff81000000","pa":"0x1000000","page_size":2097152,"level":"pmd","flags":\["present","ps","global","enc"\],"effective":\[\],"in_image":true,"levels":.*"entry":"0x800001000181","flags":\["present","ps","global","enc"\]\}\]\}$' \
	"translate --levels JSON: the frame without the bit, flag enc, the raw entry with it"
run "$PGWALK" translate "$TMP/sme.elf" 0xffffffff81000000 0xffff888000001000
is "$out" "$(printf '0xffffffff81000000 -> 0x1000000 2M pmd kernel ro exec enc\n0xffff888000001000 -> 0x1000 1G pud kernel rw nx enc')" \
	"translate text: enc after the permissions"

# Masks take the address syntax, read once every option is known.
run "$PGWALK" translate --sme-mask=800000000000 "$TMP/plain.elf" 0x400000
one_error "--sme-mask bare hex without --hex: usage error" 64
is "$err" "pgwalk translate: --sme-mask: '800000000000' is not a number (0x... hex, 0d... decimal, or bare hex with --hex) (see 'pgwalk translate --help')" \
	"... that names the syntax"
run "$PGWALK" translate --sme-mask=800000000000 --hex "$TMP/sme.raw" \
	--image-format=raw --mode=x86-64 --cr3=100000 ffffffff81000000 \
	ffff888000001000
is "$out" "$(printf '0xffffffff81000000 -> 0x1000000 2M pmd kernel ro exec enc\n0xffff888000001000 -> 0x1000 1G pud kernel rw nx enc')" \
	"--sme-mask bare hex with --hex after it (also --cr3 and the addresses)"
run "$PGWALK" translate --sme-mask=$C47_DEC "$TMP/plain.elf" 0x400000
one_error "--sme-mask in decimal as VMCOREINFO writes it: usage error" 64
is "$err" "pgwalk translate: --sme-mask: '$C47_DEC' is not a number (0x... hex, 0d... decimal, or bare hex with --hex); VMCOREINFO's NUMBER(sme_mask) is decimal: give 0d$C47_DEC (see 'pgwalk translate --help')" \
	"... that points at 0d"
run "$PGWALK" translate --hex --shared-mask=2251799813685248 "$TMP/plain.elf" 0x400000
is "$err" "pgwalk translate: --shared-mask: 0x2251799813685248 is not one bit of the address field (bits 12-51), nor 0; decimal needs 0d: give 0d2251799813685248 (see 'pgwalk translate --help')" \
	"--hex reads a decimal as hex: no single bit, and the same pointer"
expect_tsv "--sme-mask=0d$C47_DEC --cr3 with the bit: decimal with 0d" \
	"$TMP/sme.exp" --image-format=raw --mode=x86-64 \
	--sme-mask=0d$C47_DEC --cr3="$(printf '0x%x' $((root | C47)))" \
	"$TMP/sme.raw"
run "$PGWALK" translate --sme-mask=$C47 --shared-mask=0d$C47_DEC \
	"$TMP/plain.elf" 0x400000
one_error "--sme-mask and --shared-mask the same bit: usage error" 64

# dump and regions: equal but for enc
for f in plain sme; do
	"$PGWALK" dump --format=json "$TMP/$f.elf" |
		sed 's/,"enc"//' >"$TMP/$f.dump.json"
	"$PGWALK" dump "$TMP/$f.elf" | sed 's/ ENC//; s/ *$//' \
		>"$TMP/$f.dump.txt"
	"$PGWALK" regions --format=json "$TMP/$f.elf" >"$TMP/$f.regions"
done
same_files "dump JSON: equal to the plain image's, enc aside (runs coalesce over physical contiguity)" \
	"$TMP/plain.dump.json" "$TMP/sme.dump.json"
same_files "dump text: equal but for ENC" \
	"$TMP/plain.dump.txt" "$TMP/sme.dump.txt"
same_files "regions: equal (direct map and KASLR bases inferred alike)" \
	"$TMP/plain.regions" "$TMP/sme.regions"
run "$PGWALK" dump "$TMP/sme.elf"
like '^0xffff888000000000-0xffff888100000000 .* 1G pud +RW +GLB NX ENC( |$)' \
	"dump text: ENC after the attributes"

# --sme-mask=0 reads bit 47 as an address bit again: nothing translates.
run "$PGWALK" translate --format=tsv --sme-mask=0 "$TMP/sme.elf" \
	0xffffffff81000000
is "$rc" 3 "--sme-mask=0 on the SME image: the root (CR3 0x800000100000) is not in the image"
expect_tsv "--sme-mask on the plain image: nothing changes" \
	"$TMP/plain.exp" --sme-mask=$C47 "$TMP/plain.elf"

# la57 with the C-bit at 51 (Genoa's position), inferred
spec_with "$SPECS/la57.spec" "cbit 51" | mkimg la57sme
expect_tsv "la57 SME, C-bit 51 inferred" "$TMP/la57sme.exp" \
	"$TMP/la57sme.elf"
run "$PGWALK" info "$TMP/la57sme.elf"
like '^encryption: +C-bit 51 0x8000000000000 inferred \(' \
	"la57: info names C-bit 51"

# the roots and kernel-root scans, given the bits (pgw_scan_opts.enc)
for f in plain sme; do
	mask=0 bit=
	[ $f = sme ] && mask=$C47 bit="cbit 47"
	spec_with "$SPECS/roots-x86-64.spec" "$bit" |
		"$MKIMAGE" -r "$TMP/r$f.raw" -e "$TMP/r$f.elf"
	"$ROOTS" roots --mode=x86-64 --root=0x1000000 --sme-mask=$mask \
		"$TMP/r$f.elf" | awk '/^root=|^cpu=/ { print $1, $2, $3, $4, $10 }' \
		>"$TMP/r$f.roots"
done
same_files "roots scan: the SME image's roots, kinds, CPUs and kernel-half diffs are the plain image's" \
	"$TMP/rplain.roots" "$TMP/rsme.roots"
"$ROOTS" roots --mode=x86-64 --root=0x1000000 "$TMP/rsme.elf" |
	grep -c 'kind=bad-user-half' >"$TMP/bad"
[ "$(cat "$TMP/bad")" -gt 1 ]
ok $? "roots scan without the bits: the SME tables look bad (the test can fail)"
run "$ROOTS" kernel-root "$TMP/rsme.raw"
like '^mode=x86-64 root=0x1000000 direct_map=0xffff888000000000 .*read without C-bit 47' \
	"kernel-root scan: an SME kernel root found, its C-bit inferred"
run "$ROOTS" kernel-root --sme-mask=$C47 "$TMP/rsme.raw"
like '^mode=x86-64 root=0x1000000 ' "kernel-root scan with the bit given"

# VMCOREINFO found in memory: an SME kernel's validates with its own
# NUMBER(sme_mask), and only with it
for v in with without; do
	{
		printf '%s\n' "mode x86-64" "cbit 47" "ram 0 64M" "root 0x1000000" \
			"alloc 0x2000000" \
			"map 0xffff888000000000 0 64M rw g nx page=2m" \
			"map 0xffffffff81000000 0x1000000 4M g page=2m" \
			"memtext 0x1a00000 note" "OSRELEASE=6.1.0" "PAGESIZE=4096" \
			"SYMBOL(init_top_pgt)=ffffffff81000000" \
			"NUMBER(phys_base)=0"
		[ $v = with ] && echo "NUMBER(sme_mask)=$C47_DEC"
		echo end
	} | "$MKIMAGE" -r "$TMP/vi-$v.raw"
done
run "$ROOTS" vmcoreinfo "$TMP/vi-with.raw"
like '^found=0x1a00000 place=note .* root=0x1000000' \
	"VMCOREINFO in memory with NUMBER(sme_mask): valid, its root walked without the C-bit"
run "$ROOTS" vmcoreinfo "$TMP/vi-without.raw"
like '^candidate=0x1a00000 .*valid=no why=".*does not map itself' \
	"... without NUMBER(sme_mask) its SME tables do not walk: rejected"

# ---- protection keys (bits 59-62 of a leaf): a range keeps one ----
{
	printf '%s\n' "mode x86-64" "ram 0 16M" "root 0x100000" \
		"map 0x400000 0x800000 0x2000 rw user nx a d pkey=5" \
		"map 0x402000 0x802000 0x1000 rw user nx a d pkey=6" \
		"map 0x403000 0x803000 0x1000 rw user nx a d" \
		"cpu 0x80050033 0x100000 0x6f0 long"
} | "$MKIMAGE" -e "$TMP/pkey.elf"
run "$PGWALK" dump --no-holes --no-summary --format=json "$TMP/pkey.elf"
is "$(printf '%s\n' "$out" | grep '"type":"map"' | sed 's/.*"va":"\([^"]*\)".*"entries":\([0-9]*\).*"effective":\[[^]]*\]\(,"pkey":[0-9]*\)\{0,1\}.*/\1 \2\3/')" \
	"$(printf '0x400000 2,"pkey":5\n0x402000 1,"pkey":6\n0x403000 1')" \
	"dump: physically contiguous pages with other protection keys are other ranges, each with its key"
run "$PGWALK" dump --no-holes --no-summary "$TMP/pkey.elf"
like '^0x0000000000400000-0x0000000000402000 .* NX pkey=5$' "dump text: pkey=5"
run "$PGWALK" dump --no-holes --no-summary --format=tsv "$TMP/pkey.elf"
like '	pkey=6$' "dump TSV: pkey=6 in the detail column"
run "$PGWALK" translate --format=json "$TMP/pkey.elf" 0x401010 0x403010
is "$out" '{"type":"translation","va":"0x401010","pa":"0x801010","page_size":4096,"level":"pte","flags":["present","rw","user","accessed","dirty","nx"],"effective":["rw","user","nx"],"pkey":5,"in_image":true}
{"type":"translation","va":"0x403010","pa":"0x803010","page_size":4096,"level":"pte","flags":["present","rw","user","accessed","dirty","nx"],"effective":["rw","user","nx"],"in_image":true}' \
	"translate JSON: the compact record carries the leaf's pkey, only when not 0"
run "$PGWALK" translate --format=tsv "$TMP/pkey.elf" 0x402010 0x403010 0x404000
is "$(printf '%s\n' "$out" | cut -f1,11)" "$(printf 'va\tpkey\n0x402010\t6\n0x403010\t-\n0x404000\t-')" \
	"translate TSV: a pkey column, last"
run "$PGWALK" translate "$TMP/pkey.elf" 0x402010 0x403010
is "$out" "$(printf '0x402010 -> 0x802010 4K pte user rw nx pkey=6\n0x403010 -> 0x803010 4K pte user rw nx')" \
	"translate text: pkey=6 after the permissions"

# ---- TDX: the shared bit, given; set on some leaves only ----
{
	printf '%s\n' "mode x86-64" "ram 0 16M" "root 0x100000" \
		"map 0xffff888000000000 0 8M rw g nx page=2m" \
		"map 0xffffc90000000000 0x800000 0x2000 rw g nx" \
		"raw 0xffffc90000002000 pte 0x0008000000900063" \
		"cpu 0x80050033 0x100000 0x6f0 long"
} | "$MKIMAGE" -e "$TMP/tdx.elf"
run "$PGWALK" translate --format=tsv --shared-mask=0x8000000000000 \
	"$TMP/tdx.elf" 0xffffc90000002010 0xffffc90000001010
is "$(tsv4)" "$(printf '0xffffc90000002010\t0x900010\t4096\tpresent|rw|accessed|dirty|shared\n0xffffc90000001010\t0x801010\t4096\tpresent|rw|global|nx')" \
	"TDX --shared-mask: the shared page's frame without the bit, flag shared"
run "$PGWALK" translate --format=tsv "$TMP/tdx.elf" 0xffffc90000002010
is "$(tsv4)" "$(printf '0xffffc90000002010\t0x8000000900010\t4096\tpresent|rw|accessed|dirty')" \
	"... without it bit 51 is an address bit, as the hardware of a non-TDX guest reads it"
run "$PGWALK" info "$TMP/tdx.elf"
like '^encryption: +none \(no VMCOREINFO NUMBER\(sme_mask\); no entry of root 0x100000 has a bit above' \
	"TDX guest: one shared page is not taken for a C-bit"

# ---- a mode tie between CPUs, broken through the encrypted tables ----
# CPU 0 says la57, CPU 1 x86-64: the validation walk from CPU 0's CR3 (with
# the C-bit) breaks the tie with the declared bit; 4 entries are too few
# to infer it, and without it no mode walks (the first CPU's wins).
printf '%s\n' "mode x86-64" "cbit 47" "ram 0 16M" "root 0x1000" \
	"alloc 0x10000" "map 0xffff888000000000 0 4M rw g nx page=2m" \
	"cpu 0x80050033 0x1000 0x16f0 long" \
	"cpu 0x80050033 0x1000 0x6f0 long user" | "$MKIMAGE" -e "$TMP/tie.elf"
run "$PGWALK" info --sme-mask=$C47 "$TMP/tie.elf"
like '^mode: +x86-64 \(conflicting evidence, x86-64 chosen by a validation walk from the first CPU.s CR3, of the tied modes' \
	"mode tie on SME tables, --sme-mask: the validation walk reads them and picks x86-64"
run "$PGWALK" info "$TMP/tie.elf"
like '^mode: +la57 \(conflicting evidence, la57 chosen by the first CPU, the tie unresolved' \
	"... without the bit (too few entries to infer) no mode walks: the tie stays"
run "$PGWALK" translate --sme-mask=$C47 "$TMP/tie.elf" 0xffff888000001000 \
	0xffff888000201000
is "$out" "$(printf '0xffff888000001000 -> 0x1000 2M pmd kernel rw nx enc\n0xffff888000201000 -> 0x201000 2M pmd kernel rw nx enc')" \
	"... and with it the direct map translates"

# ---- i386 and PAE are left alone ----
mkimg pae <"$SPECS/pae.spec"
run "$PGWALK" info "$TMP/pae.elf"
like '^encryption: +none \(no VMCOREINFO NUMBER\(sme_mask\); pae entries are not inferred' \
	"PAE: no inference"
expect_tsv "PAE: translates as built" "$TMP/pae.exp" "$TMP/pae.elf"
mkimg i386 <"$SPECS/i386.spec"
run "$PGWALK" translate --sme-mask=$C47 "$TMP/i386.elf" 0xc0000000
one_error "i386 with --sme-mask: 32-bit entries have no encryption bit" 64
run "$PGWALK" info --sme-mask=0x3 "$TMP/pae.elf"
one_error "--sme-mask that is no single bit of the address field: usage error" 64

# ---- tables with high bits for other reasons are not SME ----
# bits 48 and 51 in every entry: reserved garbage, not one bit (the CR3
# given without them)
spec_with "$SPECS/x86-64.spec" "cbit 48" "cbit 51" | mkimg two
run "$PGWALK" info --image-format=raw --mode=x86-64 --cr3="$root" "$TMP/two.raw"
like '^encryption: +none \(no VMCOREINFO NUMBER\(sme_mask\); bits 48 and 51 are both set in most present entries' \
	"two high bits in every entry: no encryption bit, and why"
run "$PGWALK" translate --format=tsv --image-format=raw --mode=x86-64 \
	--cr3="$root" "$TMP/two.raw" 0xffffffff81000000
is "$(tsv4)" "$(printf '0xffffffff81000000\t-\t-\t-')" \
	"... and its entries read as written: nothing translates"
run "$PGWALK" info "$TMP/two.elf"
like '^encryption: +none \(no VMCOREINFO NUMBER\(sme_mask\); its root table 0x9000000100000 is not in the image' \
	"... a CR3 with both bits: its root is not in the image, and no one bit brings it back"
# bit 47 in every entry, and bit 50 as well in the leaves (4 of 5 entries):
# the tables would walk without bit 47, but a second bit in most entries
# is no encryption
{
	printf '%s\n' "mode x86-64" "ram 0 1M" \
		"entries 0x10000 0x800000011067 16 0x1000" \
		"cpu 0x80050033 0x10000 0x6f0 long"
	for t in $(seq 17 32); do
		printf 'entries 0x%x 0x48000000000e3 4 0x40000000\n' $((t * 4096))
	done
} | "$MKIMAGE" -e "$TMP/leaf50.elf"
run "$PGWALK" info "$TMP/leaf50.elf"
like '^encryption: +none \(.*bits 47 and 50 are both set in most present entries \(80 examined\)' \
	"bit 47 everywhere and bit 50 in the leaves: not one encryption bit"
# bit 50 in every entry, but without it the tables are not in the image
# (they point into the hole between the image's two ranges)
{
	printf '%s\n' "mode x86-64" "ram 0 1M" "ram 15M 1M" \
		"entries 0x10000 0x4000000200067 24 0x1000" \
		"entries 0x10800 0x4000000300067 24 0x1000" \
		"cpu 0x80050033 0x10000 0x6f0 long"
} | "$MKIMAGE" -e "$TMP/junk.elf"
run "$PGWALK" info "$TMP/junk.elf"
like '^encryption: +none \(.*bit 50 is set in 48 of 48 present entries, but without it only 0 of the 48 tables they point to are in the image' \
	"bit 50 everywhere, tables not in the image without it: not SME"
# the C-bit in only part of the entries (cbit from half-way through)
awk '{ print } /^map 0xffffc90000000000/ { print "cbit 47" }' \
	"$SPECS/x86-64.spec" | mkimg half
run "$PGWALK" info "$TMP/half.elf"
like '^encryption: +none \(.*no bit above memory in nearly every present entry \(bit 47 in [0-9]+ of [0-9]+ examined\)' \
	"bit 47 in part of the entries only: not SME"
# below 16 present entries nothing is said: libkdumpfile's own SME test
# tables (tests/addrxlat-x86_64-sme), with its translations as oracle
{
	echo "mode x86-64"
	echo "ram 0 0x9000"
	for e in 0x0000:0x800000001067 0x0008:0x800000005067 \
		0x0880:0x800000008067 0x1000:0x800000002067 \
		0x1010:0x8003c00000e7 0x2000:0x800000003067 \
		0x2008:0x800000004067 0x2010:0x800000e000e7 \
		0x3000:0x80000000a067 0x3008:0x80000000b067 \
		0x4800:0x80000000c067 0x5010:0x800000006067 \
		0x6018:0x800000007067 0x7020:0x80000000d067 \
		0x8240:0x8012000000e7; do
		echo "entry ${e%%:*} ${e#*:}"
	done
} | "$MKIMAGE" -r "$TMP/kdf.raw"
printf '%s\n' 0x123:0xa123 0x1234:0xb234 0x300567:0xc567 \
	0x808060489a:0xd89a 0x523456:0xf23456 0xa1234567:0x3e1234567 \
	0xffff88123456789a:0x123456789a | tr ':' '\t' >"$TMP/kdf.want"
cut -f1 "$TMP/kdf.want" | "$PGWALK" translate --format=tsv --image-format=raw \
	--mode=x86-64 --cr3=0 --sme-mask=$C47 "$TMP/kdf.raw" - | sed 1d | cut -f1,2 \
	>"$TMP/kdf.got"
same_files "libkdumpfile's SME translations (pte_mask 0x800000000000), with --sme-mask" \
	"$TMP/kdf.want" "$TMP/kdf.got"
run "$PGWALK" info --image-format=raw --mode=x86-64 --cr3=0 "$TMP/kdf.raw"
like '^encryption: +none \(.*bit 47 in 15 of 15 examined' \
	"... 15 present entries are too few to infer from"

# ---- the real entries of an SME Linux 4.12 kernel ----
vmci() {
	printf 'vmcoreinfo %s\n' OSRELEASE=4.12.0 PAGESIZE=4096 \
		"SYMBOL(init_top_pgt)=ffffffff9300a000" \
		"SYMBOL(_stext)=ffffffff93000000" \
		"NUMBER(phys_base)=96921976832" KERNELOFFSET=12000000 "$@"
}
{ cat "$SPECS/sme-4.12.spec"; vmci; } | "$MKIMAGE" -e "$TMP/k412.elf"
{ cat "$SPECS/sme-4.12.spec"; vmci "NUMBER(sme_mask)=$C47_DEC"; } |
	"$MKIMAGE" -e "$TMP/k412vi.elf"
run "$PGWALK" regions "$TMP/k412.elf"
like '^base page_offset_base 0xffff96bbc0000000 inferred: the page tables map physical 0 there, linearly \(7/10 samples\)' \
	"4.12 SME, no option, no NUMBER(sme_mask): the direct map at 0xffff96bbc0000000, as libkdumpfile finds it"
like '^layout x86-64-2.6.27 ' "... in the 2.6.27-4.19 layout"
run "$PGWALK" info "$TMP/k412.elf"
like '^encryption: +C-bit 47 0x800000000000 inferred .*set in 3424 of 3425 present entries of 16 tables' \
	"... its C-bit inferred: every present entry but the HPET's"
run "$PGWALK" regions "$TMP/k412vi.elf"
like '^base page_offset_base 0xffff96bbc0000000 inferred' \
	"4.12 SME with NUMBER(sme_mask): the same direct map"
run "$PGWALK" regions --sme-mask=0 "$TMP/k412.elf"
like '^base page_offset_base 0xffff880000000000 default: no linear map' \
	"... read with bit 47 as an address bit, the era's default (what pgwalk said before)"
# libkdumpfile's linear maps as oracle: direct (pa = va - 0xffff96bbc0000000),
# ktext (pa = va + 0x1711000000); the HPET entry has no C-bit
printf '%s\n' \
	"0xffff96bbc0001234	0x1234	4096	present|rw|accessed|dirty|global|nx|enc" \
	"0xffff96bc00000010	0x40000010	2097152	present|rw|accessed|dirty|ps|global|nx|enc" \
	"0xffff96bcc0abcdef	0x100abcdef	1073741824	present|rw|accessed|dirty|ps|global|nx|enc" \
	"0xffff96fb80000000	0x3fc0000000	1073741824	present|rw|accessed|dirty|ps|global|nx|enc" \
	"0xffff96fc3ff7ffff	0x407ff7ffff	4096	present|rw|accessed|dirty|global|nx|enc" \
	"0xffff96bbc0200000	-	-	-" \
	"0xffffffff92345678	0x16a3345678	2097152	present|accessed|dirty|ps|global|enc" \
	"0xffffffff9300a000	0x16a400a000	2097152	present|rw|accessed|dirty|ps|global|nx|enc" \
	"0xffffffff943ff123	0x16a53ff123	4096	present|rw|accessed|dirty|global|nx|enc" \
	"0xffffb00b40000000	0xfed00000	4096	present|rw|pcd|accessed|dirty|global|nx" \
	>"$TMP/k412.want"
cut -f1 "$TMP/k412.want" | "$PGWALK" translate --format=tsv "$TMP/k412.elf" - |
	sed 1d | cut -f1,2,3,5 >"$TMP/k412.got"
same_files "4.12 SME: direct map, kernel text and the HPET translate as libkdumpfile's maps say" \
	"$TMP/k412.want" "$TMP/k412.got"
run "$PGWALK" dump --format=json --range=0xffff96bbc0000000-0xffff96fc3ff80000 \
	"$TMP/k412.elf"
is "$(printf '%s\n' "$out" | grep -c '"type":"map"')" 9 \
	"4.12 SME dump of the direct map: 9 runs (the simplified first GiB's holes split it)"
last=$(printf '%s\n' "$out" | grep '"type":"map"' | tail -1)
case $last in
*'"va":"0xffff96fc3fe00000","end":"0xffff96fc3ff80000","size":1572864,"pa":"0x407fe00000","page_size":4096,'*'"enc"'*)
	ok 0 "... the last run maps up to 0x407ff80000, where libkdumpfile's direct map ends" ;;
*) ok 1 "... the last run maps up to 0x407ff80000"; echo "#   $last" ;;
esac

# ---- pgwalk roots, --pid, --comm on an SME kernel (pgw-mkkernel) ----
# The synthetic kernel of roots-cmd.t with C-bit 47 in every present entry
# of every table and NUMBER(sme_mask) in its VMCOREINFO: the scan, the
# kernel-half comparisons and the task list read through the kernel's
# tables must all use the bit, and answer as on the plain kernel.
MK=$PGW_TOOLS/pgw-mkkernel
"$MK" "$TMP/kplain.elf" && "$MK" --cbit=47 "$TMP/ksme.elf" &&
	"$MK" --raw --hidden "$TMP/kplain.raw" &&
	"$MK" --raw --hidden --cbit=47 "$TMP/ksme.raw" &&
	"$MK" --raw --no-vmcoreinfo --cbit=47 "$TMP/ksmenv.raw" ||
	bail "pgw-mkkernel failed"
for f in kplain.elf ksme.elf kplain.raw ksme.raw; do
	"$PGWALK" roots --format=json "$TMP/$f" >"$TMP/$f.roots" 2>"$TMP/$f.err"
	echo "$?" >>"$TMP/$f.roots"
done
grep -q '"root":"0x603000","kind":"process",.*"pid":10,' "$TMP/kplain.elf.roots"
ok $? "roots on the plain kernel: pid 10's root a process (the oracle below)"
same_files "roots on the SME kernel (ELF, NUMBER(sme_mask) in its note): every record and the exit status the plain kernel's" \
	"$TMP/kplain.elf.roots" "$TMP/ksme.elf.roots"
grep -q '"root":"0x606000","kind":"process",' "$TMP/kplain.raw.roots"
ok $? "roots on the plain raw kernel: the hidden root a process"
same_files "roots on the SME raw kernel (VMCOREINFO with NUMBER(sme_mask) found in memory): the plain raw kernel's, hidden orphan too" \
	"$TMP/kplain.raw.roots" "$TMP/ksme.raw.roots"
run "$PGWALK" roots --sme-mask=0 "$TMP/ksme.elf"
like '^0x601000 +bad-user-half ' \
	"... with --sme-mask=0 bit 47 is an address bit: the process roots look bad (the test can fail)"
run "$PGWALK" translate --format=tsv --pid=1 "$TMP/ksme.raw" 0x400000
is "$(tsv4)" "$(printf '0x400000\t0x701000\t4096\tpresent|rw|user|accessed|dirty|enc')" \
	"translate --pid=1 on the SME kernel: the task list read through encrypted tables, its root's frame without the bit"
run "$PGWALK" translate --format=tsv --comm="$(printf '\033[31mred\\x')" \
	"$TMP/ksme.elf" 0x400000
is "$(tsv4)" "$(printf '0x400000\t0x703000\t4096\tpresent|rw|user|accessed|dirty|enc')" \
	"translate --comm: pid 10's root alike"
run "$PGWALK" translate "$TMP/ksme.elf" 0x400000
printf '%s\n' "$err" | grep -q '2 processes map it: pid 1 (init), pid 10 '
ok $? "translate's hint on the SME kernel names the processes that map a user address"
# Neither VMCOREINFO nor a CR3: no root to infer the bit from, so the
# kernel-root scan needs it given.
run "$PGWALK" roots "$TMP/ksmenv.raw"
one_error "no VMCOREINFO, no CPU state, C-bit not given: no kernel root found" 3
run "$PGWALK" roots --format=json --sme-mask=$C47 "$TMP/ksmenv.raw"
is "$rc:$(printf '%s\n' "$out" | sed -n 's/^{"type":"root","root":"\([^"]*\)","kind":"\([^"]*\)".*/\1 \2/p' | tr '\n' ' ')" \
	"0:0x1000 kernel 0x601000 process 0x603000 process " \
	"... --sme-mask: the kernel-root scan and the roots scan find every root"

# ---- every JSON line of these images per the contract (contract.sh) ----
if command -v jq >/dev/null 2>&1; then
	contract info "SME, C-bit inferred" "$TMP/sme.elf"
	contract info "SME, NUMBER(sme_mask)" "$TMP/smevi.elf"
	contract info "SME raw, --sme-mask" --image-format=raw --mode=x86-64 \
		--sme-mask=$C47 --cr3="$root" "$TMP/sme.raw"
	contract info "--sme-mask=0" --sme-mask=0 "$TMP/plain.elf"
	contract info "TDX, --shared-mask" --shared-mask=0x8000000000000 \
		"$TMP/tdx.elf"
	contract info "la57, C-bit 51" "$TMP/la57sme.elf"
	contract info "two high bits" "$TMP/two.elf"
	contract info "bit 47 in part" "$TMP/half.elf"
	contract info "4.12 SME" "$TMP/k412.elf"
	contract info "i386" "$TMP/i386.elf"
	contract info "mode tie, --sme-mask" --sme-mask=$C47 "$TMP/tie.elf"
	cut -f1 "$TMP/sme.exp" >"$TMP/sme.vas"
	contract translate "SME --levels" --levels "$TMP/sme.elf" - <"$TMP/sme.vas"
	contract translate "pkeys" "$TMP/pkey.elf" 0x400000 0x402000 0x403000 0x404000
	contract translate "TDX" --levels --shared-mask=0x8000000000000 \
		"$TMP/tdx.elf" 0xffffc90000002010 0xffffc90000001010
	contract dump "SME --leaves --non-present" --leaves --non-present "$TMP/sme.elf"
	contract dump "pkeys" "$TMP/pkey.elf"
	contract dump "TDX" --shared-mask=0x8000000000000 "$TMP/tdx.elf"
	contract dump "4.12 SME" "$TMP/k412.elf"
	contract regions "4.12 SME" "$TMP/k412.elf"
	contract roots "SME kernel" "$TMP/ksme.elf"
	contract roots "SME raw kernel" "$TMP/ksme.raw"
	contract roots "SME raw kernel, --sme-mask" --sme-mask=$C47 		"$TMP/ksmenv.raw"
else
	for i in $(seq 22); do skip "jq not installed: the contract cannot be checked"; done
fi

done_testing
