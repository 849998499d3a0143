#!/bin/sh
# Memory encryption on the real dumps, none of which has any (SME is off in
# their guests): the x86-64 kernels' VMCOREINFO says NUMBER(sme_mask)=0 and
# is believed; the 32-bit kernels write none; and on mem.raw, which has no
# VMCOREINFO, inference runs from each CPU's CR3 (also inside the
# validation walk that finds the mode) and finds no bit.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 21   # 5 per dump (the ELF, mode and bits from each CPU's CR3), 1 kdump

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	run "$PGWALK" info "$UNPACKED/$d/vmcore.elf"
	case $mode in
	x86-64 | la57)
		like '^encryption: +none \(VMCOREINFO NUMBER\(sme_mask\)=0: no SME\)$' \
			"$d: NUMBER(sme_mask)=0 in VMCOREINFO, no C-bit" ;;
	*)
		like "^encryption: +none \\(no VMCOREINFO NUMBER\\(sme_mask\\); $mode entries are not inferred" \
			"$d: a 32-bit kernel writes no sme_mask, and $mode is not inferred" ;;
	esac
	for c in $(cpus_of "$SHARED/$d"); do
		cr3=$(cr3_of "$SHARED/$d" "$c")
		run "$PGWALK" info --image-format=raw --cr3="$cr3" "$UNPACKED/$d/mem.raw"
		like "^mode: +$mode \\(validation walk: $mode maps a linear direct map" \
			"$d mem.raw cpu$c: the validation walk, inferring per mode, still finds $mode"
		case $mode in
		x86-64 | la57)
			like "^encryption: +none \\(no VMCOREINFO NUMBER\\(sme_mask\\); no entry of root $cr3 has a bit above the image's memory" \
				"$d mem.raw cpu$c: inferred from the tables: no C-bit" ;;
		*)
			like "^encryption: +none \\(no VMCOREINFO NUMBER\\(sme_mask\\); $mode entries are not inferred" \
				"$d mem.raw cpu$c: $mode not inferred" ;;
		esac
	done
done
run "$PGWALK" info "$SHARED/x64-4l-a/vmcore-d31.kdump"
like '^encryption: +none \(VMCOREINFO NUMBER\(sme_mask\)=0: no SME\)$' \
	"x64-4l-a kdump: NUMBER(sme_mask)=0 from its sub-header's VMCOREINFO"

done_testing
