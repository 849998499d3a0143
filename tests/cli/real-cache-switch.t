#!/bin/sh
# The paging-structure cache retargeted between roots, on real kernels'
# tables: every address QEMU answered (gva2gpa.txt, both CPUs) is asked in
# address order, each address of CPU 0's root and then of CPU 1's, through
# one cache (pgw-xlatswitch: pgw_translate through a cache, and pgw_translate_many
# one address at a time through another), so that slots one root's walk
# filled are in the cache when the other root asks.  The two roots share
# the kernel's tables, and QEMU's answers differ between them at the
# addresses of their own processes (112, 114, 115 and 67 of the dumps'
# addresses asked of both): every answer must be QEMU's for that CPU.  The
# unit test (tests/unit/xlat_cache.c) does this on built tables; this is
# the second witness, the kernels' own tables and QEMU as the oracle.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 20   # per dump: the oracle's differing answers, ELF and raw x 2 ways

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	# QEMU's answers of both CPUs in address order, CPU 0 first.
	sort -k2,2 -k1,1 -u "$SHARED/$d/gva2gpa.txt" >"$TMP/qemu"
	cut -d' ' -f1,2 "$TMP/qemu" >"$TMP/lines"
	awk '{ pa = $3 == "gpa:" ? $4 : "-"
	       if (pa != "-" && pa !~ /^0x/) pa = "0x" pa
	       print $2 "\t" pa }' "$TMP/qemu" | hexnorm >"$TMP/want"
	# The witness holds only where the roots' answers differ.
	differ=$(awk '$1 == "cpu0" { a[$2] = $3 " " $4 }
		      $1 == "cpu1" { b[$2] = $3 " " $4 }
		      END { for (k in a) if (k in b && a[k] != b[k]) n++
			    print n + 0 }' "$SHARED/$d/gva2gpa.txt")
	[ "$differ" -gt 0 ]
	ok $? "$d: QEMU's answers of CPU 0 and CPU 1 differ at $differ addresses"
	r0=$(cr3_of "$SHARED/$d" 0) r1=$(cr3_of "$SHARED/$d" 1)
	for img in vmcore.elf mem.raw; do
		case $img in
		vmcore.elf) set -- "$elf" ;;
		mem.raw) set -- -f raw -m "$mode" -r 0="$r0" -r 1="$r1" "$raw" ;;
		esac
		run "$PGW_TOOLS/pgw-xlatswitch" "$@" <"$TMP/lines"
		[ "$rc" = 0 ] || bail "pgw-xlatswitch $d $img: $err"
		echo "$out" | cut -f1,2 >"$TMP/got"
		agree "$d $img, roots in turn through one cache" \
			"$TMP/want" "$TMP/got"
		echo "$out" | cut -f1,3 >"$TMP/got"
		agree "$d $img, roots in turn through pgw_translate_many" \
			"$TMP/want" "$TMP/got"
	done
done

done_testing
