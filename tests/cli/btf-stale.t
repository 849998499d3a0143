#!/bin/sh
# A stale copy of the kernel's BTF in read-only data, before the live one
# (pgw-mkkernel --stale-btf: its task_struct puts mm where every task
# holds 0): the live blob, between kallsyms' __start_BTF and __stop_BTF,
# is the one read, and -v says which; the stale one, taken by a scan when
# kallsyms cannot say (--no-btf: no live blob), names no process.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 3

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
# ksynth.h's processes: pid 1 (init) and pid 10 own roots 0x601000 and
# 0x603000.
named() { awk -F'\t' '$1 == "root" && $4 != "-" { printf "%s:%s ", $2, $4 }' "$1"; }
mk --stale-btf "$TMP/stale.elf"
"$PGWALK" roots -v --format=tsv "$TMP/stale.elf" >"$TMP/out.tsv" 2>"$TMP/err"
is "$(named "$TMP/out.tsv")" "0x601000:1 0x603000:10 " \
	"a stale BTF before the live one: the processes named by the live one"
out=$(cat "$TMP/err")
like 'names: kallsyms \(VMCOREINFO\) init_task 0xffffffff80300000; the layout from BTF \(BTF: kallsyms __start_BTF 0xffffffff80280010, __stop_BTF 0xffffffff80280[0-9a-f]{3}\)' \
	"-v says the BTF read is the one between __start_BTF and __stop_BTF"
mk --stale-btf --no-btf "$TMP/only-stale.elf"
"$PGWALK" roots --format=tsv "$TMP/only-stale.elf" >"$TMP/out.tsv" 2>/dev/null
is "$(named "$TMP/out.tsv")" "" "the stale blob alone (found by a scan) names no process"
