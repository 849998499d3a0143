#!/bin/sh
# info on the real dumps with no options: the right mode, and why; the
# kernel root from VMCOREINFO equal to crash's (x86-64) or to
# swapper_pg_dir - PAGE_OFFSET (i386); each CPU's CR3 as QEMU showed it;
# and the kernel root answering every kernel-half gva2gpa address as QEMU.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 52   # 13 per dump

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
	like "^  OSRELEASE=$rel\$" "$d: VMCOREINFO OSRELEASE $rel"
	case $d in
	x64*) like '^format: +elf, ELF64, machine x86-64$' "$d: ELF64 x86-64" ;;
	*) like '^format: +elf, ELF64, machine i386$' \
		"$d: ELF64 with machine i386 (as QEMU writes i386 dumps)" ;;
	esac
	run "$PGWALK" info --format=json "$elf"
	like "\"mode\":\"$mode\",\"mode_reason\":\"CPU 0 registers" \
		"$d: info JSON mode"

	# The kernel root walks the kernel half exactly as each CPU does.
	case $d in
	x64*) kern='length($2) == 18 && substr($2, 3, 1) ~ /[89a-f]/' ;;
	*) kern='length($2) == 10 && substr($2, 3, 1) ~ /[c-f]/' ;;
	esac
	for c in $(cpus_of "$SHARED/$d"); do
		qemu_answers "$SHARED/$d" "$c" | awk -F '\t' '{ print "x " $1 "\t" $2 }' |
			awk "$kern" | cut -c3- >"$TMP/want"
		cut -f1 "$TMP/want" | "$PGWALK" translate --format=tsv "$elf" - |
			cut -f1,2 >"$TMP/got"
		agree "$d: kernel root vs cpu$c on the kernel half" \
			"$TMP/want" "$TMP/got"
	done

	run "$PGWALK" info --image-format=raw "$UNPACKED/$d/mem.raw"
	is "$rc" 3 "$d: info on mem.raw without --cr3 exits 3"
	like '^mode: +unknown$' "... mode unknown"
done

done_testing
