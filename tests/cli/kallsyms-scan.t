#!/bin/sh
# kallsyms found by scanning, on the synthetic kernel of pgw-mkkernel
# --kallsyms-unlisted (VMCOREINFO without the tables, as before Linux 6.0;
# the tables written as 6.1 lays them out, markers after the names, as
# 6.2 does, seqs_of_names after the markers, and in 6.4+'s order, num_syms
# first and the offsets after the token index): every symbol as the
# listed tables give it, the processes named, the method said; tables
# whose offsets lie are refused by _stext and name nothing by them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
T=$PGW_TOOLS/pgw-tasks
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 11

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
syms="--sym=_stext --sym=start_kernel --sym=init_task --sym=init_top_pgt --sym=__start_BTF --sym=cpu_number"

mk "$TMP/listed.elf"
"$T" $syms "$TMP/listed.elf" >"$TMP/want"
"$PGWALK" roots --format=json "$TMP/listed.elf" 2>/dev/null |
	grep '"type":"root"' >"$TMP/roots.want"
for l in 61 62 64; do
	mk --kallsyms-unlisted=$l "$TMP/k$l.elf"
	"$T" $syms "$TMP/k$l.elf" >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" && ! grep -q "$(printf '\t-\t')" "$TMP/got"
	ok $? "$l layout: every symbol found by the scan as the listed tables give it"
	"$PGWALK" roots --format=json "$TMP/k$l.elf" >"$TMP/r.json" 2>"$TMP/err"
	grep '"type":"root"' "$TMP/r.json" | cmp -s "$TMP/roots.want" -
	ok $? "$l layout: roots the same, named the same"
	out=$(cat "$TMP/r.json")
	like '"type":"names","complete":true,.*"method":"scanned-kallsyms\+btf","method_why":"kallsyms found by scan \(names at 0x' \
		"$l layout: the names record says kallsyms were found by scan"
done
# Offsets that lie: the tables are found, _stext does not decode to
# VMCOREINFO's, nothing is named by them (and ksynth's layout cannot be
# inferred either).
mk --kallsyms-unlisted=61 --kallsyms-wild "$TMP/wild.elf"
run "$PGWALK" roots "$TMP/wild.elf"
like 'unnamed \(no task list\)' "wild offsets: nothing named"
out=$err
like 'the scan of 0xffffffff80200000-0xffffffff80340000 found none: tables at 0xffffffff80200038 decode \(base-relative offsets\), but not _stext to VMCOREINFO.s 0xffffffff80200000' \
	"... and stderr says the scan's tables failed the _stext check"
