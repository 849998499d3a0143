#!/bin/sh
# The output contract (docs/output.md), checked line by line: every JSON
# line info, translate, dump, regions, roots, read, ptov, check, diff and
# search
# print — on synthetic images of
# every mode, hostile page tables, the corrupt-dump corpus, filtered and
# cut kdumps, bad input — has "type" first, only the contract's fields
# with their types, reason and absence words from the vocabulary, and
# fields that agree with each other (contract.sh holds the schemas).  The
# real dumps get the same in real-contract.t.  The checker is first shown
# to reject what breaks each rule, so that it cannot pass by accident.
# synth-sme.t holds its memory-encryption images to the same checker.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
. "$(dirname "$0")/contract.sh"
plan 212

if ! command -v jq >/dev/null 2>&1; then
	skip_all "jq not installed: the contract cannot be checked"
fi

# ---- the checker rejects each kind of breach ----
good='{"type":"translation","va":"0x403390","pa":"0x7177390","page_size":4096,"level":"pte","flags":["present","user"],"effective":["user"],"in_image":true}'
printf '%s\n' "$good" >"$TMP/good.json"
contract_check translate "$TMP/good.json"
ok $? "checker: a record as the contract says passes"
while IFS='|' read -r why line; do
	printf '%s\n' "$line" >"$TMP/bad.json"
	if contract_check translate "$TMP/bad.json"; then
		ok 1 "checker rejects $why"
	else
		ok 0 "checker rejects $why (${cerr%%
*})"
	fi
done <<'EOF'
type not first|{"va":"0x1","type":"translation","pa":null,"level":"pgd","reason":"not-present"}
a field not in the contract|{"type":"translation","va":"0x1","pa":null,"level":"pgd","reason":"not-present","error":"not present"}
a reason outside the vocabulary|{"type":"translation","va":"0x1","pa":null,"level":"pgd","reason":"not present"}
an absence outside the vocabulary|{"type":"translation","va":"0x1","pa":null,"level":"pud","reason":"table-not-in-image","absence":"filtered"}
a table not in the image without its absence|{"type":"translation","va":"0x1","pa":null,"level":"pud","reason":"table-not-in-image"}
an address with leading zeros|{"type":"translation","va":"0x0001","pa":null,"level":"pgd","reason":"not-present"}
an address as a number|{"type":"translation","va":4096,"pa":null,"level":"pgd","reason":"not-present"}
a page size as a string|{"type":"translation","va":"0x1","pa":"0x1","page_size":"4096","level":"pte","flags":["present"],"effective":[],"in_image":true}
size where page_size belongs|{"type":"translation","va":"0x1","pa":"0x1","size":4096,"level":"pte","flags":["present"],"effective":[],"in_image":true}
a flag outside the vocabulary|{"type":"translation","va":"0x1","pa":"0x1","page_size":4096,"level":"pte","flags":["present","writable"],"effective":[],"in_image":true}
a level outside the vocabulary|{"type":"translation","va":"0x1","pa":"0x1","page_size":4096,"level":"pml4","flags":["present"],"effective":[],"in_image":true}
a pfn where pa belongs|{"type":"translation","va":"0x1","pa":null,"level":"pte","reason":"not-present","non_present":{"kind":"protnone","pfn":"0x35"}}
pa null without a reason|{"type":"translation","va":"0x1","pa":null,"level":"pgd"}
a protection key of 0 (left out instead)|{"type":"translation","va":"0x1","pa":"0x1","page_size":4096,"level":"pte","flags":["present"],"effective":[],"pkey":0,"in_image":true}
a protection key without a translation|{"type":"translation","va":"0x1","pa":null,"level":"pte","reason":"not-present","pkey":3}
a record of another command|{"type":"map","va":"0x0","end":"0x1000","size":4096}
a comment line|# mode x86-64
EOF
printf '{"type":"translation","va":null,"pa":null,"input":"a\033[31mb","reason":"not-an-address"}\n' >"$TMP/bad.json"
contract_check translate "$TMP/bad.json"
is $? 1 "checker rejects a raw control byte (\033)"
printf '%s\n' '{"type":"summary","maps":0,"mapped":0,"mapped_by_page_size":{},"holes":0,"non_present":0,"wx":0,"wx_bytes":0,"unknown_permissions_bytes":0,"bytes_not_in_image":0,"tables_not_in_image":0,"entries":1,"tables":1,"leaves":0,"complete":false}' >"$TMP/bad.json"
contract_check dump "$TMP/bad.json"
is $? 1 "checker rejects a summary that is not complete without saying why"
printf '%s\n' '{"type":"names","complete":false,"tasks":0,"processes":0,"roots_named":0}' >"$TMP/bad.json"
contract_check roots "$TMP/bad.json"
is $? 1 "checker rejects a roots names record not complete without why"
printf '%s\n' '{"type":"summary","roots":1,"kinds":{"kernel":1},"orphans":null,"suspicious_orphans":null,"unowned_tasks":null,"pages":1,"pages_scanned":1,"pages_absent":0,"freed_slots":0,"complete":false,"reason":"task list loops","why":"x"}' >"$TMP/bad.json"
contract_check roots "$TMP/bad.json"
is $? 1 "checker rejects a roots summary whose reason is words, not the vocabulary's"
printf '%s\n' '{"type":"root","root":"0x1000","kind":"freed","why":"","pid":null,"comm":null,"pids":null,"cpus":[],"pti_user":null,"user_bytes":0,"user_leaves":0,"user_access_leaves":0,"user_tables":0,"kernel_entries":1,"kernel_same":1,"kernel_mismatches":0,"kernel_diffs":[],"orphan":null}' >"$TMP/bad.json"
contract_check roots "$TMP/bad.json"
is $? 1 "checker rejects a root of a kind roots does not name"

# ---- synthetic images of every mode ----
for spec in x86-64 i386 pae la57 formats x86-64-pti pae-pti; do
	mkimg "$spec" <"$SPECS/$spec.spec"
	img=$TMP/$spec.elf
	# Every 13th of the sample addresses: each kind of entry is there.
	{ awk 'NR % 13 == 1 { print $1 }' "$TMP/$spec.exp"
	  printf '%s\n' 0x800000000000 0x100000000 0xffffffffffffffff zzz \
		'a,"b' ffff; printf 'x\001y\n0x1\0z\n'; } >"$TMP/vas"
	contract info "$spec" "$img"
	contract translate "$spec ($(grep -c '' "$TMP/vas") lines)" "$img" - <"$TMP/vas"
	contract translate "$spec --levels" --levels "$img" - <"$TMP/vas"
	contract dump "$spec" "$img"
	contract dump "$spec --non-present --leaves" --non-present --leaves "$img"
	contract dump "$spec --wx" --wx "$img"
	contract regions "$spec" "$img"
done
# info's encryption object: each breach of its schema and rules rejected
"$PGWALK" info --format=json "$TMP/x86-64.elf" >"$TMP/info.json"
contract_check info "$TMP/info.json"
ok $? "checker: x86-64's info record passes"
while IFS='|' read -r why edit; do
	jq -c "$edit" "$TMP/info.json" >"$TMP/bad.json"
	if contract_check info "$TMP/bad.json"; then
		ok 1 "checker rejects $why"
	else
		ok 0 "checker rejects $why (${cerr%%
*})"
	fi
done <<'EOF'
info without encryption|del(.encryption)
a mask as a number|.encryption.sme_mask = 140737488355328
a source outside the vocabulary|.encryption.sme_source = "cpuid"
an inferred C-bit that is null|.encryption.sme_source = "inferred"
a C-bit with no source|.encryption.sme_mask = "0x800000000000"
a shared bit from VMCOREINFO|.encryption.shared_mask = "0x8000000000000" | .encryption.shared_source = "vmcoreinfo"
the C-bit and the shared bit the same|.encryption += {sme_mask: "0x800000000000", sme_source: "option", shared_mask: "0x800000000000", shared_source: "option"}
entries without agreed|.encryption.entries = 5
more entries agreed than examined|.encryption += {entries: 5, agreed: 6}
a free-text reason where why belongs|.encryption.reason = .encryption.why | del(.encryption.why)
EOF

mkimg raw <"$SPECS/x86-64.spec"
contract info "raw image" --image-format=raw --cr3=0x100000 "$TMP/raw.raw"
contract dump "raw image" --image-format=raw --cr3=0x100000 "$TMP/raw.raw"

# Conflicting mode evidence: info records the conflict.
"$MKIMAGE" -e "$TMP/mc.elf" "$SPECS/mode-conflict.spec"
contract info "mode conflict" "$TMP/mc.elf"
out=$(cat "$TMP/contract.json")
like '"mode":"x86-64","mode_reason":"conflicting evidence, x86-64 chosen by the majority \(2 of 3 sources: CPU 1, VMCOREINFO\)","mode_conflict":"CPU 0 says la57; CPU 1, VMCOREINFO say x86-64"' \
	"mode conflict: info's record names the mode, the rule and the sources"
run "$PGWALK" dump --format=json "$TMP/mc.elf"
is "$err" "pgwalk: warning: conflicting paging-mode evidence: CPU 0 says la57; CPU 1, VMCOREINFO say x86-64" \
	"mode conflict: dump warns on stderr"
is "$(printf '%s\n' "$out" | grep -c '"type":"map"')" 2 \
	"... and walks the tables as the 4-level ones they are (2 ranges, not la57's garbage)"

# ---- read and ptov ----
bad_rp() {
	printf '%s\n' "$3" >"$TMP/bad.json"
	contract_check "$1" "$TMP/bad.json"
	is $? 1 "checker rejects $2"
}
bad_rp read "hex that is not the size's" '{"type":"data","va":"0x1000","pa":"0x1000","size":2,"hex":"00"}'
bad_rp read "a data piece past a page" '{"type":"data","va":"0x1000","pa":"0x1000","size":4097,"hex":"00"}'
bad_rp read "a gap of a page not in the image without absence" '{"type":"gap","va":"0x1000","end":"0x2000","size":4096,"pa":"0x1000","reason":"data-not-in-image"}'
bad_rp ptov "a mapping without its page size" '{"type":"mapping","pa":"0x1000","va":"0x1000","root":"0x1000","pid":null,"comm":null,"level":"pte","flags":[],"effective":[]}'
bad_rp ptov "nobody maps it, yet a root" '{"type":"mapping","pa":"0x1000","va":null,"root":"0x1000","pid":null,"comm":null}'
bad_rp ptov "size where page_size belongs" '{"type":"mapping","pa":"0x1000","va":"0x1000","root":"0x1000","pid":null,"comm":null,"size":4096,"level":"pte","flags":[],"effective":[]}'
for s in read-x86-64 read-pae read-i386 read-la57; do
	"$MKIMAGE" -r "$TMP/$s.raw" -e "$TMP/$s.elf" "$SPECS/$s.spec" ||
		bail "pgw-mkimage $s failed"
done
R=$TMP/read-x86-64.elf
contract read "x86-64, across the 2M/4K edge" "$R" 0x401fff00 0x200
contract read "x86-64 --skip-unreadable, past RAM" --skip-unreadable "$R" 0xffff888003fff000 0x2000
contract read "x86-64 --skip-unreadable, holes" --skip-unreadable "$R" 0x3ff000 0x5000
contract read "x86-64 --skip-unreadable, the canonical gap" --skip-unreadable "$R" 0x7ffffffff000 0x2000
contract read "x86-64 --phys --skip-unreadable, past RAM" --phys --skip-unreadable "$R" 0x3fff000 0x3000
contract read "PAE --skip-unreadable, beyond 4 GiB" --skip-unreadable "$TMP/read-pae.elf" 0xfffff000 0x2000
contract read "i386" "$TMP/read-i386.elf" 0xb77ff000 0x2000
contract read "la57" "$TMP/read-la57.elf" 0xfffffffff000 0x2000
printf '0x401fff00 0x200\n0x3ff000 0x5000\n' >"$TMP/read-req"
contract read "x86-64, requests on stdin" --skip-unreadable "$R" - <"$TMP/read-req"
printf '%s\n' 0x3000010 0x50000000 zzz 0x7ffff8 'a,"b' >"$TMP/pas"
for s in read-x86-64 read-pae read-i386 read-la57; do
	contract ptov "$s" "$TMP/$s.elf" - <"$TMP/pas"
done
bad_rp search "hex that is not the match's" '{"type":"hit","pa":"0x1000","va":"0x1000","root":"0x1000","pid":null,"comm":null,"pattern":"string:ab","size":2,"hex":"61","context_start":"0x1000","context":"ab"}'
bad_rp search "a va without a root" '{"type":"hit","pa":"0x1000","va":"0x1000","root":null,"pid":null,"comm":null,"pattern":"string:ab","size":2,"hex":"6162","context_start":"0x1000","context":"ab"}'
bad_rp search "a pattern without its kind" '{"type":"hit","pa":"0x1000","va":null,"root":null,"pid":null,"comm":null,"pattern":"ab","size":2,"hex":"6162","context_start":"0x1000","context":"ab"}'
bad_rp search "bytes not in the image that do not add up" '{"type":"summary","patterns":1,"hits":0,"listed":0,"bytes_searched":0,"bytes_not_in_image":4096,"not_in_image":{"outside":0,"excluded":0,"truncated":0,"missing":0,"other_file":0,"corrupt":0},"tables_not_in_image":0,"complete":false,"reason":"data-not-in-image"}'
bad_rp search "a hit limit with every hit listed" '{"type":"summary","patterns":1,"hits":2,"listed":2,"bytes_searched":0,"bytes_not_in_image":0,"not_in_image":{"outside":0,"excluded":0,"truncated":0,"missing":0,"other_file":0,"corrupt":0},"tables_not_in_image":0,"complete":false,"reason":"hit-limit"}'
contract search "x86-64, the whole space, strings and bytes" --string=PGW --wide \
	--hex=0000??00 --max-hits=50 "$R"
contract search "x86-64 --phys, a bound on hits" --phys --hex=?? --max-hits=3 "$R"
contract search "x86-64, a regular expression" --regex='[A-Z]{3,}' --max-hits=20 "$R"
if command -v yara >/dev/null 2>&1; then
	contract search "x86-64, YARA rules" --yara="$REPO/tests/rules/markers.yar" \
		--yara="$REPO/tests/rules/synth.yar" "$R"
else
	skip "libyara and the yara command are not installed"
fi
contract search "i386, no match" --string=no-such-bytes-here "$TMP/read-i386.elf"

# ---- roots: every kind of root, named and not, cross-view, hostile ----
for spec in roots-x86-64 roots-pti roots-pae roots-i386 roots-la57; do
	"$MKIMAGE" -e "$TMP/$spec.elf" "$SPECS/$spec.spec" || bail "pgw-mkimage $spec failed"
	contract roots "$spec (unnamed: no task list)" "$TMP/$spec.elf"
done
contract roots "roots-x86-64 with a budget (cut short)" --max-entries=64 \
	"$TMP/roots-x86-64.elf"
out=$(cat "$TMP/contract.json")
like '^\{"type":"summary",.*"complete":false,"reason":"budget"' \
	"... whose summary says budget"
KMK=$PGW_TOOLS/pgw-mkkernel
"$KMK" "$TMP/k.elf" && "$KMK" --raw --fake-vmcoreinfo --hidden "$TMP/kh.raw" &&
	"$KMK" --raw --no-vmcoreinfo --fake-vmcoreinfo "$TMP/kscan.raw" ||
	bail "pgw-mkkernel failed"
contract roots "synthetic kernel (named, unowned tasks, a comm to escape)" "$TMP/k.elf"
contract roots "raw synthetic kernel (VMCOREINFO in memory, a suspicious orphan)" \
	"$TMP/kh.raw"
contract roots "raw synthetic kernel (the kernel root by scan)" "$TMP/kscan.raw"
contract info "raw synthetic kernel (VMCOREINFO in memory)" "$TMP/kh.raw"
contract info "raw synthetic kernel (none: a fake only)" "$TMP/kscan.raw"
"$KMK" --no-note --second-vmcoreinfo --hex-vmcoreinfo --cpu-cr3=0x1000 \
	"$TMP/k2.elf" || bail "pgw-mkkernel --second-vmcoreinfo failed"
contract info "two VMCOREINFO candidates in memory (a conflict)" "$TMP/k2.elf"
contract ps "synthetic kernel (BTF)" "$TMP/k.elf"
"$KMK" --no-btf "$TMP/knb.elf" || bail "pgw-mkkernel --no-btf failed"
contract ps "synthetic kernel without BTF (the layout inferred)" "$TMP/knb.elf"
contract roots "synthetic kernel without BTF (the layout inferred)" "$TMP/knb.elf"
contract info "synthetic kernel without BTF (the layout inferred)" "$TMP/knb.elf"
contract translate "synthetic kernel --pid=1" --pid=1 "$TMP/k.elf" 0x400000 0x500000
contract ptov "synthetic kernel --all-roots (named, an orphan)" --all-roots "$TMP/k.elf" 0x1000 0x200000 0x300000
contract read "synthetic kernel --pid=1 --skip-unreadable" --pid=1 --skip-unreadable "$TMP/k.elf" 0x400000 0x3000
contract dump "synthetic kernel --comm=init" --comm=init "$TMP/k.elf"
contract search "synthetic kernel --pid=1 (named)" --pid=1 --hex=00 \
	--max-hits=10 "$TMP/k.elf"
contract search "synthetic kernel --all-roots (named)" --all-roots \
	--hex=0000000000000000 --max-hits=30 "$TMP/k.elf"
# Damaged kernel data: exit 65, and every line still per the contract.
for h in loop btf-lies kallsyms-wild; do
	"$KMK" --$h "$TMP/h.elf" || bail "pgw-mkkernel --$h failed"
	"$PGWALK" roots --format=json "$TMP/h.elf" >"$TMP/h.json" 2>/dev/null
	rc=$?
	contract_check roots "$TMP/h.json"
	ok $? "roots --$h: exit $rc, $nrec records per the contract${cerr:+: $cerr}"
done

# ---- check and diff: every planted anomaly, every kind of root ----
"$KMK" --text-bounds "$TMP/kt.elf" || bail "pgw-mkkernel failed"
contract check "synthetic kernel --all-roots" --all-roots --severity=info "$TMP/kt.elf"
for a in wx text-alias hook user-pt user-kernel reserved beyond-ram \
	 self-map kernel-self-map table-beyond-ram; do
	"$KMK" --text-bounds --plant=$a "$TMP/kp.elf" ||
		bail "pgw-mkkernel --plant=$a failed"
	contract check "--plant=$a" --all-roots --severity=info "$TMP/kp.elf"
done
contract check "kernel --hidden (a suspicious orphan)" --all-roots \
	--severity=info "$TMP/kh.raw"
# Kernel data the image damaged, two VMCOREINFO notes: exit 65, and
# every line still per the contract.
for h in task-next=0xffffc90000123456 btf-retype decoy-note; do
	"$KMK" --$h "$TMP/h.elf" || bail "pgw-mkkernel --$h failed"
	for c in "check --all-roots" roots; do
		"$PGWALK" $c --format=json "$TMP/h.elf" >"$TMP/h.json" 2>/dev/null
		rc=$?
		contract_check ${c%% *} "$TMP/h.json"
		ok $? "$c --$h: exit $rc, $nrec records per the contract${cerr:+: $cerr}"
	done
done
"$KMK" --modules=64 --plant=wx-module "$TMP/km.elf" ||
	bail "pgw-mkkernel --modules=64 failed"
contract translate "synthetic kernel's modules --names (a name to escape)" \
	--names "$TMP/km.elf" 0xffffffffa0000010 0xffffffffa0020000 0xffffffffa0030000
contract check "a W+X page in a module (named by it)" --severity=info "$TMP/km.elf"
contract check "roots-x86-64 (every kind, unnamed)" --all-roots \
	--severity=info "$TMP/roots-x86-64.elf"
contract check "with a budget (cut short)" --all-roots --max-entries=8 "$TMP/kt.elf"
out=$(cat "$TMP/contract.json")
like '^\{"type":"summary",.*"complete":false,"reason":"budget"\}$' \
	"... whose summary says budget"
contract check "i386 (no NX), one root" --severity=info "$TMP/i386.elf"
contract check "pae, one root" --severity=info "$TMP/pae.elf"
contract diff "two processes" --pid=1 --pid=10 --data "$TMP/kt.elf"
contract diff "a PTI pair" --pti --cpu=1 "$TMP/x86-64-pti.elf"
contract diff "two images, --data (pages outside RAM alike)" \
	--cr3=0x100000 --mode=x86-64 --data "$TMP/x86-64.elf" "$TMP/formats.elf"

# ---- filtered and cut kdumps (pgw-mkdump) ----
MK=$PGW_TOOLS/pgw-mkdump
run "$MK" kdump --holes --filter --exclude-zero --codec=zlib --vas="$TMP/kvas" "$TMP/kd"
eval "$out"   # cr3= filtered_table_va= npages=
K="--cr3=$cr3 --mode=x86-64"
# shellcheck disable=SC2086
{
contract info "filtered kdump" $K "$TMP/kd"
contract translate "filtered kdump" $K "$TMP/kd" - <"$TMP/kvas"
contract translate "filtered kdump, the filtered table" $K "$TMP/kd" "$filtered_table_va"
contract dump "filtered kdump" $K "$TMP/kd"
contract regions "filtered kdump" $K "$TMP/kd"
contract roots "filtered kdump" $K "$TMP/kd"
contract read "filtered kdump --skip-unreadable" --skip-unreadable $K "$TMP/kd" "$filtered_table_va" 0x4000
contract ptov "filtered kdump" $K "$TMP/kd" 0x1000 0x5000 0x9000
contract check "filtered kdump (a table not in the image)" $K --severity=info "$TMP/kd"
contract diff "filtered kdump against itself, --data" $K --data "$TMP/kd" "$TMP/kd"
contract search "filtered kdump (excluded pages and a table)" $K --hex=0100 \
	--max-hits=20 "$TMP/kd"
contract search "filtered kdump --phys" --phys --hex=0100 --max-hits=20 "$TMP/kd"
}
"$MK" kdump --codec=none "$TMP/kn" >/dev/null
head -c $(( $(wc -c <"$TMP/kn") / 3 )) "$TMP/kn" >"$TMP/kcut"
# shellcheck disable=SC2086
{
contract info "cut kdump" $K "$TMP/kcut"
contract translate "cut kdump" $K "$TMP/kcut" - <"$TMP/kvas"
contract dump "cut kdump" $K "$TMP/kcut"
}

# ---- hostile page tables ----
H=$TMP/hostile
"$PGW_TOOLS/mkhostile" "$H" || bail "mkhostile failed"
tab=$(printf '\t')
while IFS=$tab read -r name mode what; do
	f=--image-format=raw
	case $name in *.raw) ;; *) f= ;; esac
	# shellcheck disable=SC2086
	{
	contract dump "hostile $name ($what)" $f --mode="$mode" --cr3=0x1000 "$H/$name"
	contract regions "hostile $name" $f --mode="$mode" --cr3=0x1000 "$H/$name"
	contract translate "hostile $name" $f --mode="$mode" --cr3=0x1000 "$H/$name" \
		0x0 0x1000 0x7fffffffffff 0xffff800000000000 0xfffffffffffff000
	}
done <"$H/MANIFEST"

# ---- the corrupt-dump corpus: every image that opens ----
C=$TMP/corrupt
"$PGW_TOOLS/mkcorrupt" "$C" || bail "mkcorrupt failed"
n=0 bad=0
while IFS=$tab read -r name code text tcode targs; do
	[ "$code" -lt 64 ] || continue
	n=$((n + 1))
	for cmd in info translate; do
		set -- "$C/$name"
		# shellcheck disable=SC2086
		[ $cmd = translate ] && set -- $targs "$C/$name" 0xffff888000200000 0x400000
		"$PGWALK" $cmd --format=json "$@" >"$TMP/c.json" 2>/dev/null
		rc=$?
		[ "$rc" -ge 64 ] && { bad=$((bad + 1)); echo "# $cmd $name: exit $rc"; continue; }
		[ -s "$TMP/c.json" ] || continue   # no root (3): nothing to hold
		contract_check $cmd "$TMP/c.json" ||
			{ bad=$((bad + 1)); echo "# $cmd $name: $cerr"; }
	done
done <"$C/MANIFEST"
[ "$n" -gt 20 ] && [ "$bad" = 0 ]
ok $? "corrupt corpus: info and translate on the $n images that open print records per the contract"

done_testing
