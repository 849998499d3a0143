#!/bin/sh
# The arm64 dumps (arm64-4k-a: 4 KiB granule, 48-bit, 4 levels;
# arm64-16k-a: 16 KiB granule, 47-bit, 3 levels, VMCOREINFO VA_BITS=52)
# against QEMU's gva2gpa, with no root given: the kernel's root and the
# mode come from VMCOREINFO (swapper_pg_dir, kimage_voffset, PAGESIZE,
# TCR_EL1_T1SZ), from vmcore.elf and from mem.raw alike.  QEMU answers as
# its vCPU would read at its exception level (README.txt): vCPU0, in EL1
# with PAN, "Unmapped" for EL0-accessible pages; vCPU1, in EL0, for every
# page not EL0-accessible (E0PD1 hides the kernel half).  The user half
# is vCPU1's process's, by --pid (its mm->pgd through the task list:
# init_task found by scan, the layout from BTF); the system registers
# are only answers here (TTBR0: that process's root; TTBR1: the kernel's).
. "$(dirname "$0")/lib.sh"
. "$TESTDIR/assert.sh"
. "$TESTDIR/oracles.sh"
. "$TESTDIR/contract.sh"
if [ ! -d "$SHARED" ]; then
	[ -z "${PGW_STRICT:-}" ] || bail "no real dumps at $SHARED (PGW_STRICT: they must run)"
	echo "1..0 # skip no real dumps ($SHARED absent)"
	exit 0
fi
ARM="arm64-4k-a:arm64-4k-48:4 arm64-16k-a:arm64-16k-47:3"
for _a in $ARM; do
	_d=$SHARED/${_a%%:*}
	for _f in gva2gpa.txt console.log README.txt sysregs-cpu0.txt \
		  vmcoreinfo.txt; do
		[ -s "$_d/$_f" ] || bail "$_d/$_f is missing or empty"
	done
done
unpack_shared || bail "cannot unpack the real dumps into $UNPACKED"
plan 72

# tagged VAs come back untagged: match them on the input's spelling.
paste_va() { cut -f1 "$1" >"$TMP/va_in"; cut -f2 "$2" | paste "$TMP/va_in" -; }

for a in $ARM; do
	d=${a%%:*} rest=${a#*:}; mode=${rest%%:*} depth=${rest#*:}
	D=$SHARED/$d elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	ttbr0=$(sed -n 's/^vCPU1:.*TTBR0_EL1=\(0x[0-9a-f]*\).*/\1/p' "$D/README.txt")
	ttbr1=$(sed -n 's/^TTBR1_EL1=//p' "$D/sysregs-cpu0.txt")
	table=$(printf '0x%x' $((ttbr1 & 0xfffffffffffe)))

	run "$PGWALK" info "$elf"
	like "^mode: +$mode \\(arm64 VMCOREINFO" "$d: mode $mode from VMCOREINFO, checked by walking"
	like "^root: +$table \\(VMCOREINFO SYMBOL\\(swapper_pg_dir\\)" \
		"$d: the kernel root is TTBR1's table $table (sysregs), from VMCOREINFO"

	arm64_answers "$D" 0 kernel >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$elf" - | arm64_walked el1 \
		>"$TMP/got0"
	paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
	agree "$d vCPU0 (EL1) kernel half, vmcore.elf, no root given" \
		"$TMP/want" "$TMP/got"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$raw" - | arm64_walked el1 \
		>"$TMP/got0"
	paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
	agree "$d vCPU0 kernel half, mem.raw (no --base, no root)" \
		"$TMP/want" "$TMP/got"

	# vCPU0's user half: PAN hides every EL0 page from it, and the
	# kernel's space has no lower table: all Unmapped, no root given.
	arm64_answers "$D" 0 user >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$elf" - | arm64_walked el1 \
		>"$TMP/got0"
	paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
	agree "$d vCPU0 (EL1, PAN) user half, vmcore.elf, no root given" \
		"$TMP/want" "$TMP/got"

	arm64_answers "$D" 1 kernel >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$elf" - | arm64_walked el0 \
		>"$TMP/got0"
	paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
	agree "$d vCPU1 (EL0) kernel half: no kernel page EL0-accessible" \
		"$TMP/want" "$TMP/got"

	# vCPU1's process by pid (the README names it; its root is found
	# through the task list: init_task by scan, BTF), then by TTBR0.
	owner=$(sed -n 's/.*vCPU1 TTBR0.*owner by gva2gpa of all markers: (\([0-9]*\),.*/\1/p' "$D/README.txt" | head -1)
	arm64_answers "$D" 1 user >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --pid="$owner" \
		"$elf" - | arm64_walked el0 >"$TMP/got0"
	paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
	agree "$d vCPU1 user half, tagged copies too, --pid=$owner (no root given)" \
		"$TMP/want" "$TMP/got"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --pid="$owner" \
		"$raw" - | arm64_walked el0 >"$TMP/got0"
	paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
	agree "$d vCPU1 user half, mem.raw, --pid=$owner" "$TMP/want" "$TMP/got"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --ttbr0="$ttbr0" \
		"$elf" - >"$TMP/by_ttbr0"
	# (--pid adds the addresses' names: the columns after pkey.)
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --pid="$owner" \
		"$elf" - | cut -f1-11 >"$TMP/by_pid"
	if cmp -s "$TMP/by_ttbr0" "$TMP/by_pid"; then
		ok 0 "$d: pid $owner's root is vCPU1's TTBR0 $ttbr0 (--ttbr0 gives the same records)"
	else
		ok 1 "$d: pid $owner's root is vCPU1's TTBR0 $ttbr0"
	fi

	# Every workload process's markers, by pid: the frame its pagemap
	# gave (PROT_NONE pages aside: their entries are invalid).
	tr -d '\r' <"$D/console.log" | grep -a '^PGWALK-FINAL ' |
		grep -av 'kind=protnone' |
		sed -n 's/.*pid=\([0-9]*\) .*marker_va=\(0x[0-9a-f]*\) pa=\(0x[0-9a-f]*\) .*/\1 \2 \3/p' \
		>"$TMP/markers"
	: >"$TMP/mwant"; : >"$TMP/mgot"
	for p in $(cut -d' ' -f1 "$TMP/markers" | sort -u); do
		awk -v p="$p" '$1 == p { print $2 "\t" $3 }' "$TMP/markers" |
			hexnorm >>"$TMP/mwant"
		awk -v p="$p" '$1 == p { print $2 }' "$TMP/markers" |
			"$PGWALK" translate -f tsv --pid="$p" "$elf" - |
			sed 1d | cut -f1,2 >>"$TMP/mgot"
	done
	agree "$d: every process's markers by pid ($(cut -d' ' -f1 "$TMP/markers" | sort -u | tr '\n' ' '))" \
		"$TMP/mwant" "$TMP/mgot"

	# --levels: the mode's depth, hardware level names.
	va=$(awk '$1 == "cpu0" && $3 == "gpa:" && $2 ~ /^0xffff/ { print $2; exit }' \
		"$D/gva2gpa.txt")
	run "$PGWALK" translate --levels "$elf" "$va"
	is "$(printf '%s\n' "$out" | grep -cE '^  (pgd|p4d|pud|pmd|pte) +L[0-3] ')" \
		"$depth" "$d: translate --levels shows $depth levels ($va)"

	# read: init_uts_ns's release string is VMCOREINFO's OSRELEASE.
	uts=$(sed -n 's/^SYMBOL(init_uts_ns)=//p' "$D/vmcoreinfo.txt")
	rel=$(sed -n 's/^OSRELEASE=//p' "$D/vmcoreinfo.txt")
	# 0x$uts + 130 (sh arithmetic stops at 2^63): on its low 16 bits.
	hi=${uts%????} lo=${uts#"${uts%????}"}
	[ $((0x$lo + 130)) -le 65535 ] || bail "init_uts_ns + 130 carries"
	run "$PGWALK" read --raw "$elf" "$(printf '0x%s%04x' "$hi" $((0x$lo + 130)))" \
		"${#rel}"
	is "$out" "$rel" "$d: read init_uts_ns.name.release = OSRELEASE"

	# regions against the guest's /proc/kcore segments (console.log):
	# where text, vmalloc, modules, the linear map and vmemmap start, the
	# image's end, and the linear map's bytes.
	"$PGWALK" regions --format=json "$elf" >"$TMP/regions"
	tr -d '\r' <"$D/console.log" | awk '/^PGWALK-KCORE/ {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		print f["vaddr"], f["memsz"] }' >"$TMP/kcore"
	got=$(for key in kernel_text vmalloc modules direct_map vmemmap; do
		sed -n "s/.*\"va\":\"\(0x[0-9a-f]*\)\".*\"region\":\"$key\".*/\1/p" \
			"$TMP/regions" | head -1; done | sort | tr '\n' ' ')
	want=$(cut -d' ' -f1 "$TMP/kcore" | sort | tr '\n' ' ')
	is "$got" "$want" "$d: regions start where /proc/kcore's text, vmalloc, modules, linear and vmemmap segments do"
	# text's end: vaddr + memsz on 32-bit halves (sh stops at 2^63).
	set -- $(awk 'NR == 1 { print substr($1, 3, 8), substr($1, 11, 8), $2 }' "$TMP/kcore")
	lo=$((0x$2 + $3))
	end=$(printf '0x%08x%08x' $((0x$1 + lo / 4294967296)) $((lo % 4294967296)))
	got=$(sed -n 's/.*"end":"\(0x[0-9a-f]*\)".*"region":"kernel_text".*/\1/p' "$TMP/regions")
	is "$got" "$end" "$d: the kernel image ends at kcore's text end (_end, inferred by walking)"
	lin=$(sed -n 's/.*"va":"\(0x[0-9a-f]*\)".*"region":"direct_map".*"mapped":\([0-9]*\).*/\1 \2/p' "$TMP/regions")
	memsz=$(awk -v va="${lin% *}" '$1 == va { print $2 }' "$TMP/kcore")
	is "${lin#* }" "$((memsz))" \
		"$d: the linear map maps all of RAM (kcore's linear memsz $memsz)"
	# Every /proc/vmallocinfo range lies in the vmalloc or modules
	# regions (console.log's PGWALK-VMALLOC lines).
	awk -F'"' 'function pad(x) { while (length(x) < 16) x = "0" x; return x }
		$4 == "region" { print pad(substr($8, 3)), pad(substr($12, 3)), $18 }' \
		"$TMP/regions" >"$TMP/rtab"
	tr -d '\r' <"$D/console.log" | grep -a '^PGWALK-VMALLOC ' |
		sed 's/^PGWALK-VMALLOC 0x\([0-9a-f]*\)-0x\([0-9a-f]*\) .*/\1 \2/' \
		>"$TMP/vmi"
	got=$(awk 'NR == FNR { lo[NR] = $1; hi[NR] = $2; key[NR] = $3; n = NR; next }
		{ k = "none"
		  for (i = 1; i <= n; i++)
			if ($1 >= lo[i] && ($1 < hi[i] || hi[i] == "0000000000000000")) k = key[i]
		  c[k]++ }
		END { for (k in c) print k, c[k] }' "$TMP/rtab" "$TMP/vmi" | sort | tr '\n' ' ')
	total=$(grep -c '' "$TMP/vmi")
	# The kernel image's segments are vmalloc areas of paging_init's.
	kseg=$(tr -d '\r' <"$D/console.log" | grep -a '^PGWALK-VMALLOC ' |
		grep -ac ' paging_init+')
	is "$got" "kernel_text $kseg vmalloc $((total - kseg)) " \
		"$d: /proc/vmallocinfo's $total ranges: paging_init's $kseg in the kernel image, the rest in vmalloc"
	run "$PGWALK" dump --format=json "$elf"
	like '"type":"summary".*"wx":0,.*"complete":true' \
		"$d: dump walks the kernel's space whole, no W+X (the guest's check_wx)"

	# A user marker read back through vCPU1's TTBR0 (console.log).
	m=$(tr -d '\r' <"$D/console.log" | grep -a '^PGWALK-FINAL .*kind=anon4k ' |
		grep -a "pid=$owner " | head -1)
	mva=$(printf '%s\n' "$m" | sed 's/.*marker_va=\(0x[0-9a-f]*\).*/\1/')
	mstr=$(printf '%s\n' "$m" | sed 's/.*marker="\([^"]*\)".*/\1/')
	run "$PGWALK" read --raw --pid="$owner" "$elf" "$mva" "${#mstr}"
	is "$out" "$mstr" "$d: a marker of pid $owner read back at $mva"
done

# QEMU's kdump of arm64-4k-a: 64 KiB blocks (the header's block_size),
# read as the 4 KiB pages they hold.
D=$SHARED/arm64-4k-a kd=$D/vmcore.kdump-zlib
run "$PGWALK" info "$kd"
like '^pages: +ram 65536, dumped 65536' \
	"kdump, 64 KiB blocks: 256 MiB of RAM in 4 KiB pages, all dumped"
arm64_answers "$D" 0 kernel >"$TMP/want"
cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$kd" - | arm64_walked el1 >"$TMP/got0"
paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
agree "arm64-4k-a vCPU0 kernel half, vmcore.kdump-zlib, no root given" \
	"$TMP/want" "$TMP/got"
arm64_answers "$D" 1 user >"$TMP/want"
owner=$(sed -n 's/.*vCPU1 TTBR0.*owner by gva2gpa of all markers: (\([0-9]*\),.*/\1/p' "$D/README.txt" | head -1)
cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv --pid="$owner" "$kd" - |
	arm64_walked el0 >"$TMP/got0"
paste_va "$TMP/want" "$TMP/got0" >"$TMP/got"
agree "arm64-4k-a vCPU1 user half, vmcore.kdump-zlib, --pid=$owner" \
	"$TMP/want" "$TMP/got"
"$PGWALK" dump --format=tsv "$UNPACKED/arm64-4k-a/vmcore.elf" >"$TMP/d_elf"
"$PGWALK" dump --format=tsv "$kd" >"$TMP/d_kd"
if cmp -s "$TMP/d_elf" "$TMP/d_kd"; then ok 0 "dump: the kdump and the ELF core give the same records"
else ok 1 "dump: the kdump and the ELF core give the same records"
	diff "$TMP/d_elf" "$TMP/d_kd" | head -5 | sed 's/^/#   /'; fi
# Not yet on arm64, refused as documented: roots and check (and ptov over
# every root, which needs roots).
# diff of the shared-memory pair (console.log's markers): the page whose
# copy-on-write was broken is a changed frame, the shared and still-shared
# ones are alike, the memfd mapped in the child only is added.
D=$SHARED/arm64-4k-a
tr -d '\r' <"$D/console.log" | grep -a '^PGWALK-FINAL ' |
	sed -n 's/.*pid=\([0-9]*\) name=pgw-shr-\([a-z]*\) kind=\([a-z-]*\) marker_va=\(0x[0-9a-f]*\) .*/\1 \2 \3 \4/p' \
	>"$TMP/shr"
pp=$(awk '$2 == "parent" { print $1; exit }' "$TMP/shr")
pc=$(awk '$2 == "child" { print $1; exit }' "$TMP/shr")
"$PGWALK" diff --format=json --pid="$pp" --pid="$pc" \
	"$UNPACKED/arm64-4k-a/vmcore.elf" >"$TMP/diff"
# kind_at VA: the diff record type covering VA, or "alike".
kind_at() {
	awk -F'"' -v va="$1" 'function pad(x) { sub(/^0x/, "", x)
		while (length(x) < 16) x = "0" x; return x }
		{ if (pad(va) >= pad($8) && pad(va) < pad($12)) { print $4; f = 1; exit } }
		END { if (!f) print "alike" }' "$TMP/diff"
}
got=$(for k in cow-broken cow-shared shared-anon memfd-shared-inherited memfd-shared; do
	va=$(awk -v k="$k" -v p="$pc" '$1 == p && $3 == k { print $4; exit }' "$TMP/shr")
	printf '%s=%s ' "$k" "$(kind_at "$va")"; done)
is "$got" "cow-broken=changed cow-shared=alike shared-anon=alike memfd-shared-inherited=alike memfd-shared=added " \
	"diff --pid=$pp --pid=$pc: the broken COW page changed, the shared ones alike, the child's own memfd added"
cb=$(awk -v p="$pc" '$1 == p && $3 == "cow-broken" { print $4; exit }' "$TMP/shr")
grep "\"va\":\"$cb\"" "$TMP/diff" | grep -q '"changes":\["frame"' &&
	ok 0 "... the broken COW page's change is its frame" ||
	ok 1 "... the broken COW page's change is its frame"

# The output contract on arm64's records (flags pxn, uxn, cont; its
# regions; the kdump's facts).
command -v jq >/dev/null 2>&1 || bail "jq is needed to check the contract"
for d in arm64-4k-a arm64-16k-a; do
	elf=$UNPACKED/$d/vmcore.elf
	owner=$(sed -n 's/.*vCPU1 TTBR0.*owner by gva2gpa of all markers: (\([0-9]*\),.*/\1/p' "$SHARED/$d/README.txt" | head -1)
	awk '{ print $2 }' "$SHARED/$d/gva2gpa.txt" | sort -u >"$TMP/vas"
	contract info "$d vmcore.elf" "$elf"
	contract translate "$d vmcore.elf --pid=$owner --levels" --pid="$owner" \
		--levels "$elf" - <"$TMP/vas"
	contract dump "$d vmcore.elf --pid=$owner" --pid="$owner" "$elf"
	contract regions "$d vmcore.elf" "$elf"
	contract check "$d vmcore.elf --all-roots" --all-roots --severity=info "$elf"
done
contract info "arm64-4k-a vmcore.kdump-zlib" "$SHARED/arm64-4k-a/vmcore.kdump-zlib"
# roots: the kernel's (TTBR1's table) first; both vCPUs' TTBR0 tables
# (sysregs, the answer) found by the scan as processes, vCPU1's owned by
# the README's pid; every PGWALK-PROC process owns one; no task unowned.
for d in arm64-4k-a arm64-16k-a; do
	D=$SHARED/$d
	"$PGWALK" roots --format=json "$UNPACKED/$d/vmcore.elf" >"$TMP/roots"
	t1=$(printf '0x%x' $(( $(sed -n 's/^TTBR1_EL1=//p' "$D/sysregs-cpu0.txt") & 0xfffffffffffe )))
	got=$(head -1 "$TMP/roots" | sed -n 's/.*"root":"\([^"]*\)","kind":"\([^"]*\)".*/\1 \2/p')
	is "$got" "$t1 kernel" "$d roots: the kernel's root first, TTBR1's table"
	owner=$(sed -n 's/.*vCPU1 TTBR0.*owner by gva2gpa of all markers: (\([0-9]*\),.*/\1/p' "$D/README.txt" | head -1)
	pids=$(tr -d '\r' <"$D/console.log" | sed -n 's/^PGWALK-PROC pid=\([0-9]*\) .*/\1/p' | sort -n | tr '\n' ' ')
	found=$(for p in $pids; do grep -q "\"kind\":\"process\".*\"pids\":\[[0-9,]*\b$p\b" "$TMP/roots" && printf '%s ' "$p"; done)
	is "$found" "$pids" "$d roots: every PGWALK-PROC process owns a process root ($pids)"
	t0=$(printf '0x%x' $(( $(sed -n 's/^TTBR0_EL1=//p' "$D/sysregs-cpu1.txt") & 0xfffffffffffe )))
	grep "\"root\":\"$t0\"" "$TMP/roots" | grep -q "\"kind\":\"process\",.*\"pid\":$owner," &&
		ok 0 "$d roots: vCPU1's TTBR0 $t0 is pid $owner's, found by the scan" ||
		ok 1 "$d roots: vCPU1's TTBR0 $t0 is pid $owner's, found by the scan"
	t0=$(printf '0x%x' $(( $(sed -n 's/^TTBR0_EL1=//p' "$D/sysregs-cpu0.txt") & 0xfffffffffffe )))
	grep -q "\"root\":\"$t0\",\"kind\":\"process\"" "$TMP/roots" &&
		ok 0 "$d roots: vCPU0's TTBR0 $t0 found by the scan, a process" ||
		ok 1 "$d roots: vCPU0's TTBR0 $t0 found by the scan, a process"
	run "$PGWALK" roots "$UNPACKED/$d/vmcore.elf"
	like '^# .* 0 unowned tasks$' "$d roots: no task whose root the scan missed"
	contract roots "$d vmcore.elf" "$UNPACKED/$d/vmcore.elf"
done
# check: the kernel's space and every process's lower half (task list);
# the guests' own W+X check passed ("no W+X pages found", console.log).
for d in arm64-4k-a arm64-16k-a; do
	grep -aq 'Checked W+X mappings: passed, no W+X pages found' \
		"$SHARED/$d/console.log" || bail "$d: no check_wx line"
	run "$PGWALK" check --all-roots --format=json "$UNPACKED/$d/vmcore.elf"
	like '"type":"summary".*"findings":0,.*"kernel_wx_pages":0,.*"complete":true' \
		"$d: check --all-roots: no finding, no kernel W+X page (the guest's check_wx)"
done
# ptov over every root: a marker's frame, in the kernel's linear map and
# in its process.
m=$(tr -d '\r' <"$SHARED/arm64-4k-a/console.log" | grep -a '^PGWALK-FINAL .*kind=anon4k ' | head -1)
mva=$(printf '%s\n' "$m" | sed 's/.*marker_va=\(0x[0-9a-f]*\).*/\1/')
mpa=$(printf '%s\n' "$m" | sed 's/.* pa=\(0x[0-9a-f]*\).*/\1/')
mpid=$(printf '%s\n' "$m" | sed 's/.*pid=\([0-9]*\) .*/\1/')
run "$PGWALK" ptov --all-roots --format=tsv "$UNPACKED/arm64-4k-a/vmcore.elf" "$mpa"
like "^$mpa	$mva	0x[0-9a-f]*	$mpid	" "ptov --all-roots: marker frame $mpa is pid $mpid's $mva"
like "^$mpa	0xffff0000[0-9a-f]*	0x41858000	-" "... and the kernel's linear map's"
# ptov of the kernel's space: the linear map maps every frame (kcore).
run "$PGWALK" ptov --format=tsv "$UNPACKED/arm64-4k-a/vmcore.elf" 0x422a7000
like '^0x422a7000	0xffff0000022a7000	' \
	"ptov: a frame's linear-map address (PAGE_OFFSET + pa - 0x40000000)"
run "$PGWALK" translate --cr3=0x1000 "$UNPACKED/arm64-4k-a/vmcore.elf" 0
one_error "--cr3 on arm64: a usage error naming --ttbr0/--ttbr1" 64
run "$PGWALK" translate --ttbr0=0x1000 "$UNPACKED/x64-4l-a/vmcore.elf" 0
one_error "--ttbr0 on x86: refused" 64
done_testing
