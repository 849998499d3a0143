#!/bin/sh
# info on the real dumps with no options: the right mode, and why; the
# kernel root from VMCOREINFO equal to crash's (x86-64) or to
# swapper_pg_dir - PAGE_OFFSET (i386); each CPU's CR3 as QEMU showed it;
# and the kernel root answering every kernel-half gva2gpa address as QEMU;
# on mem.raw, the same mode and root from VMCOREINFO found in memory.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 81   # 20 per dump, 1 more

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf
	run "$PGWALK" info "$elf"
	is "$rc" 0 "$d: info exits 0"
	like "^mode: +$mode \\(CPU 0 registers: CR0.PG=1 " \
		"$d: info picks $mode with no options and says why"
	kr=$(kernel_root "$SHARED/$d")
	like "^root: +$kr \\(VMCOREINFO SYMBOL\\((init_top_pgt|swapper_pg_dir)\\)=" \
		"$d: kernel root $kr from VMCOREINFO, as the oracles say"
	for c in $(cpus_of "$SHARED/$d"); do
		like "^  cpu$c: CR0=0x[0-9a-f]+ CR3=$(cr3_of "$SHARED/$d" "$c") " \
			"$d: cpu$c CR3 as QEMU's info registers"
	done
	unlike 'PTI user root' "$d: no PTI user root (PTI is off in these guests)"
	rel=$(sed -n 's/^OSRELEASE=//p' "$SHARED/$d/vmcoreinfo.txt" | tr -d '\r')
	like "^  osrelease +$rel\$" "$d: VMCOREINFO OSRELEASE $rel"
	case $d in
	x64*) like '^format: +elf, ELF64, machine x86-64$' "$d: ELF64 x86-64" ;;
	*) like '^format: +elf, ELF64, machine i386$' \
		"$d: ELF64 with machine i386 (as QEMU writes i386 dumps)" ;;
	esac
	run "$PGWALK" info --format=json "$elf"
	like "\"mode\":\"$mode\",\"mode_reason\":\"CPU 0 registers" \
		"$d: info JSON mode"
	like '^\{"type":"info",.*"complete":true,"intact":true,' \
		"$d: info JSON: a QEMU dump holds all the memory it describes"
	# VMCOREINFO parsed, against the note's text the guest exported.
	vi() { sed -n "s/^$1=//p" "$SHARED/$d/vmcoreinfo.txt" | tr -d '\r'; }
	like "\"vmcoreinfo\":\\{\"source\":\"note\",\"lines\":$(grep -c '=' "$SHARED/$d/vmcoreinfo.txt"),.*\"stext\":\"0x$(vi 'SYMBOL(_stext)')\"" \
		"$d: info JSON: VMCOREINFO lines counted, a symbol an address"
	case $d in
	x64*)
		pb=$(printf '0x%x' "$(vi 'NUMBER(phys_base)')")
		like "\"phys_base\":\"$pb\"" \
			"$d: info JSON: phys_base an address ($pb)"
		ko=$(vi KERNELOFFSET)
		like "\"kerneloffset\":\"0x$ko\"" \
			"$d: info JSON: KERNELOFFSET parsed as hex (0x$ko)" ;;
	*)
		unlike '"phys_base"' "$d: info JSON: no phys_base (i386 exports none)"
		like "\"swapper_pg_dir\":\"0x$(vi 'SYMBOL(swapper_pg_dir)')\"" \
			"$d: info JSON: swapper_pg_dir an address" ;;
	esac
	like "\"raw\":\\{\"OSRELEASE\":\"$rel\"" \
		"$d: info JSON: the raw text under raw"

	# The kernel root walks the kernel half exactly as each CPU does.
	case $d in
	x64*) kern='length($2) == 18 && substr($2, 3, 1) ~ /[89a-f]/' ;;
	*) kern='length($2) == 10 && substr($2, 3, 1) ~ /[c-f]/' ;;
	esac
	for c in $(cpus_of "$SHARED/$d"); do
		qemu_answers "$SHARED/$d" "$c" | awk -F '\t' '{ print "x " $1 "\t" $2 }' |
			awk "$kern" | cut -c3- >"$TMP/want"
		cut -f1 "$TMP/want" | "$PGWALK" translate --format=tsv "$elf" - |
			sed 1d | cut -f1,2 >"$TMP/got"
		agree "$d: kernel root vs cpu$c on the kernel half" \
			"$TMP/want" "$TMP/got"
	done

	# The raw image: no notes, but VMCOREINFO is in memory.
	run "$PGWALK" info --image-format=raw "$UNPACKED/$d/mem.raw"
	is "$rc" 0 "$d: info on mem.raw with no options exits 0"
	like "^mode: +$mode \(VMCOREINFO " "... $mode from VMCOREINFO"
	like "^root: +$kr \(VMCOREINFO SYMBOL\((init_top_pgt|swapper_pg_dir)\)=" \
		"... the same kernel root $kr"
	like '^vmcoreinfo: +[0-9]+ lines \(found in memory at 0x[0-9a-f]+\)$' \
		"... and says where VMCOREINFO was found"
done

# The issue's own example: 0xffff810000001000 is the 2.6.11-era direct map;
# on this 6.1 dump the hint says so, with the direct-map base the guest
# itself read (page_offset_base, KASLR).
pob=$(tr -d '\r' <"$SHARED/x64-4l-a/console.log" |
	sed -n 's/^PGWALK-KVAR name=page_offset_base .* value=\(0x[0-9a-f]*\).*/\1/p' | head -1)
run "$PGWALK" translate "$UNPACKED/x64-4l-a/vmcore.elf" 0xffff810000001000
case $err in
"pgwalk: 0xffff810000001000 is in the guard region (Guard Hole) of layout x86-64-4.20; this kernel's (Linux 6.1.0-57-cloud-amd64) direct map starts at $pob; it was the direct map in x86-64-2.6.11 "*)
	ok 0 "x64-4l-a: 0xffff810000001000 named the 2.6.11 direct map; this 6.1 kernel's is at $pob" ;;
*)	ok 1 "x64-4l-a: 0xffff810000001000 named the 2.6.11 direct map"
	echo "#   got: $err (page_offset_base $pob)" ;;
esac

done_testing
