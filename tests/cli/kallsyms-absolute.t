#!/bin/sh
# Absolute kallsyms_addresses (kernels before 4.6, and those built without
# KALLSYMS_BASE_RELATIVE) on the synthetic kernel of pgw-mkkernel
# --kallsyms-absolute: listed in VMCOREINFO as 6.0+ writes them, and found
# by the scan where 4.4 puts them (before num_syms, which is an unsigned
# long then, as are the markers) and where 6.4+ does (after the token
# index).  Every symbol decodes as the base-relative tables of the same
# kernel give it, the processes are named the same; addresses that are
# not sorted are no table, and sorted ones that put _stext elsewhere name
# nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
T=$PGW_TOOLS/pgw-tasks
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 14

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
syms="--sym=_stext --sym=start_kernel --sym=init_task --sym=init_top_pgt --sym=__start_BTF --sym=cpu_number"
names() { jq -r 'select(.type == "root") | "\(.root) \(.pid) \(.comm)"'; }

mk "$TMP/rel.elf"
"$T" $syms "$TMP/rel.elf" >"$TMP/want"
"$PGWALK" roots --format=json "$TMP/rel.elf" 2>/dev/null | names >"$TMP/roots.want"
[ "$(wc -l <"$TMP/roots.want")" -eq 3 ] || bail "the relative kernel names $(wc -l <"$TMP/roots.want") roots, not 3"

# Where ksynth.h puts kallsyms_addresses: the start of the tables
# (0x200000) before num_syms; after the token index (6.4+), which is
# 0x200000 + 8 (num_syms) + 8 + names, markers, token table (as
# pgw-tasks --info reports them for the relative 6.4 layout: its offsets).
mk --kallsyms-unlisted=64 "$TMP/rel64.elf"
off64=$("$T" --info "$TMP/rel64.elf" | sed -n 's/^tables .* offsets=\(0x[0-9a-f]*\) .*/\1/p')
for l in listed 61 62 64; do
	case $l in
	listed) mk --kallsyms-absolute "$TMP/a.elf"; method=vmcoreinfo+btf; at=0xffffffff80200000 ;;
	64) mk --kallsyms-absolute --kallsyms-unlisted=$l "$TMP/a.elf"; method=scanned-kallsyms+btf; at=$off64 ;;
	*) mk --kallsyms-absolute --kallsyms-unlisted=$l "$TMP/a.elf"; method=scanned-kallsyms+btf; at=0xffffffff80200000 ;;
	esac
	"$T" $syms "$TMP/a.elf" >"$TMP/got"
	"$T" --info "$TMP/a.elf" >"$TMP/info"
	cmp -s "$TMP/want" "$TMP/got" && ! grep -q "$(printf '\t-\t')" "$TMP/got" &&
		grep -q ' absolute=1$' "$TMP/info" && grep -qx "addresses=$at" "$TMP/info"
	ok $? "$l: absolute addresses at $at, every symbol as the relative tables give it"
	"$PGWALK" roots --format=json "$TMP/a.elf" >"$TMP/r.json" 2>"$TMP/err"
	names <"$TMP/r.json" | cmp -s "$TMP/roots.want" - && [ ! -s "$TMP/err" ] &&
		jq -s -e --arg m "$method" 'map(select(.type == "names"))[0] |
			.complete == true and .method == $m' "$TMP/r.json" >/dev/null
	ok $? "$l: the roots named the same, by $method"
done
out=$(cat "$TMP/r.json")
like '"method_why":"kallsyms found by scan \(names at 0x[0-9a-f]+, token_index at 0x[0-9a-f]+, absolute addresses;' \
	"the names record says the scan found absolute addresses"

# Hostile: addresses out of order are no kallsyms_addresses at all.
mk --kallsyms-absolute --kallsyms-unlisted=61 --kallsyms-wild "$TMP/wild.elf"
run "$PGWALK" roots "$TMP/wild.elf"
like 'unnamed \(no task list\)' "unsorted addresses: nothing named"
out=$err
like 'found none: a token_index at 0xffffffff80200[0-9a-f]+ without the tables before it' \
	"... stderr: a token_index without the tables before it"
# Sorted, but every address 4 KiB off: both readings are tried and
# refused by _stext, listed or scanned.
mk --kallsyms-absolute --kallsyms-unlisted=61 --kallsyms-slide=0x1000 "$TMP/slid.elf"
run "$PGWALK" roots "$TMP/slid.elf"
out=$err
like 'decode \(absolute addresses\), but not _stext to VMCOREINFO.s 0xffffffff80200000; tables at 0xffffffff80200[0-9a-f]+ decode \(base-relative offsets\), but not _stext' \
	"slid addresses (scanned): both readings refused by _stext, stderr says so"
mk --kallsyms-absolute --kallsyms-slide=0x1000 "$TMP/slid2.elf"
run "$PGWALK" roots "$TMP/slid2.elf"
out=$err
like 'kallsyms: _stext decodes to 0xffffffff80201000 but VMCOREINFO says 0xffffffff80200000' \
	"slid addresses (listed): refused by the cross-check"
out=$(cat "$TMP/out")
like 'unnamed \(no task list\)' "... and nothing named"
