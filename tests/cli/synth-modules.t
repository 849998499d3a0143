#!/bin/sh
# Kernel addresses named by module on pgw-mkkernel's synthetic kernels
# (ksynth.h's ks_modules says where everything is): two modules on the
# `modules` list, their struct module in BTF as 6.4+ (mem[]), 4.5-6.3
# (core_layout) and earlier kernels (module_core) have it.  A module's
# address is [NAME]+0xOFF from its text (or core) start, [NAME:KIND]+0xOFF
# in another range, escaped as any string from the image, in translate,
# dump, ptov, search and check; the byte after a range is no module's.
# Lists that lie (a loop, a name without its NUL, a range larger than any
# module area, a next pointer into nothing, a state no kernel has) name
# only the modules read before the damage, say why on stderr, and leave
# the exit status alone; without --names the list is never read.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 30

MK=$PGW_TOOLS/pgw-mkkernel
for e in 64 45 44; do
	"$MK" --modules=$e "$TMP/k$e.elf" || bail "pgw-mkkernel --modules=$e failed"
done
# alpha's text + 0x10, its data's first and last bytes and the byte
# after, be\x1bta's text and data, past them.
A=0xffffffffa0000010
set -- $A 0xffffffffa0010000 0xffffffffa0011fff 0xffffffffa0012000 \
	0xffffffffa0020000 0xffffffffa0030000 0xffffffffa0031000
syms() {
	"$PGWALK" translate --names --format=json "$@" 2>"$TMP/err" |
		jq -r '.symbol // "-"' | cat -v | tr '\n' ' '
}
is "$(syms "$TMP/k64.elf" "$@")" \
	'alpha_init+0x10 [alpha] alpha_data [alpha] alpha_data+0x1fff [alpha] - [be^[ta]+0x0 [be^[ta:data]+0x0 - ' \
	"6.4+ (mem[]): text and data ranges, each from its own start"
is "$(syms "$TMP/k45.elf" "$@")" \
	'alpha_init+0x10 [alpha] alpha_data [alpha] alpha_data+0x1fff [alpha] - [be^[ta]+0x0 [be^[ta]+0x10000 - ' \
	"4.5-6.3 (core_layout): one core range from the text's start"
is "$(syms "$TMP/k44.elf" "$@")" \
	'alpha_init+0x10 [alpha] alpha_data [alpha] alpha_data+0x1fff [alpha] - [be^[ta]+0x0 [be^[ta]+0x10000 - ' \
	"before 4.5 (module_core, core_size): the same"
is "$(cat "$TMP/err")" "" "a whole list: nothing said on stderr"
# alpha's own symbols: a mapping symbol ($x at + 8), an undefined and an
# unnamed one are skipped; a function reaches to the next symbol or its
# text's end (0x3000), past which the module alone names the address
# (6.4+: past the text range, no module's).
set -- 0xffffffffa0000008 0xffffffffa0000100 0xffffffffa0000210 \
	0xffffffffa0002fff 0xffffffffa0003000
is "$(syms "$TMP/k64.elf" "$@")|$(syms "$TMP/k45.elf" "$@")|$(syms "$TMP/k44.elf" "$@")" \
	"alpha_init+0x8 [alpha] alpha_work [alpha] alpha_work+0x110 [alpha] alpha_work+0x2eff [alpha] - |alpha_init+0x8 [alpha] alpha_work [alpha] alpha_work+0x110 [alpha] alpha_work+0x2eff [alpha] [alpha]+0x3000 |alpha_init+0x8 [alpha] alpha_work [alpha] alpha_work+0x110 [alpha] alpha_work+0x2eff [alpha] [alpha]+0x3000 " \
	"a module's own symbols, as the kernel's lookup takes them, each era"

run "$PGWALK" translate --names "$TMP/k64.elf" 0xffffffffa0020000 0xffffffffa0030000
is "$out" '0xffffffffa0020000 -> 0x620000 4K pte kernel ro exec symbol=[be\x1bta]+0x0
0xffffffffa0030000 -> 0x630000 4K pte kernel ro exec symbol=[be\x1bta:data]+0x0' \
	"text: the escape byte in a module's name is escaped"
run "$PGWALK" translate --names --format=json "$TMP/k64.elf" 0xffffffffa0020000
case $out in *'"symbol":"[be\u001bta]+0x0"'*) ok 0 "JSON: spelled \\u001b" ;;
*) ok 1 "JSON: spelled \\u001b"; echo "# $out" ;; esac
run "$PGWALK" translate --names --format=csv "$TMP/k64.elf" 0xffffffffa0020000
is "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f12)" '[be\x1bta]+0x0' "CSV: the symbol cell"

run "$PGWALK" dump --names --format=json --range=0xffffffffa0000000-0xffffffffa0200000 "$TMP/k64.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "map") | "\(.va) \(.symbol // "-")"')" \
	"0xffffffffa0000000 alpha_init [alpha]" "dump --names: the module area's mapping named by its first byte"
run "$PGWALK" ptov --names --format=json "$TMP/k64.elf" 0x600010
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "mapping") | "\(.va) \(.symbol // "-")"' | sort | tr '\n' ';')" \
	"0xffff888000600010 -;0xffffffff80600010 -;0xffffffffa0000010 alpha_init+0x10 [alpha];" \
	"ptov --names: of the three mappings of the frame, the module area's is alpha's"
run "$PGWALK" search --names --format=json --string=PGW-MODULE-TEXT "$TMP/k64.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "hit") | "\(.va) \(.symbol // "-")"' | grep 0xffffffffa)" \
	"0xffffffffa0000100 alpha_work [alpha]" "search --names: the hit in alpha's text named by it"

"$MK" --modules=64 --plant=wx-module "$TMP/wx.elf" || bail "pgw-mkkernel --plant=wx-module failed"
run "$PGWALK" check --format=json "$TMP/wx.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | "\(.rule) \(.va) \(.symbol // "-")"')" \
	"1 wx 0xffffffffa0000000 alpha_init [alpha]" "check: the W+X page in module alpha"
run "$PGWALK" check "$TMP/wx.elf"
like "^high +wx +0xffffffffa0000000-0xffffffffa0001000 .*symbol=alpha_init \[alpha\]: " "check, text: the finding says symbol=alpha_init [alpha]"

# bad WHAT SYMS ERR: the lying list names SYMS (alpha's text, be\x1bta's),
# stderr matches ERR, the exit status is 0.
bad() {
	"$MK" --modules=64 --module-bad=$1 "$TMP/b-$1.elf" || bail "pgw-mkkernel --module-bad=$1 failed"
	got=$(syms "$TMP/b-$1.elf" $A 0xffffffffa0020000; echo "rc=$?")
	is "$got" "$2rc=0" "--module-bad=$1: names $2"
	out=$(cat "$TMP/err") like "$3" "--module-bad=$1: stderr says why"
}
bad loop 'alpha_init+0x10 [alpha] [be^[ta]+0x0 ' \
	'module names incomplete \(2 modules read, the rest unnamed\): .*says it follows 0xffffffff80338000, not 0xffffffffa0030008'
bad name 'alpha_init+0x10 [alpha] - ' 'module names incomplete \(1 module read.*0xffffffffa0030000 has a name without its NUL'
bad size '- - ' 'module addresses unnamed: .*claims text of 0xfffff000 bytes at 0xffffffffa0000000'
bad next 'alpha_init+0x10 [alpha] - ' 'module names incomplete \(1 module read.*struct module at 0xffffffffa0fffff8 cannot be read'
bad state '- - ' 'module addresses unnamed: .*state 7'
# A symbol table that cannot be read names by the module alone.
"$MK" --modules=64 --module-bad=symtab "$TMP/b-symtab.elf" || bail "pgw-mkkernel --module-bad=symtab failed"
is "$(syms "$TMP/b-symtab.elf" $A 0xffffffffa0020000)$(cat "$TMP/err")" '[alpha]+0x10 [be^[ta]+0x0 ' \
	"--module-bad=symtab: alpha's symbol table unreadable: [alpha]+0x10, nothing said"

run "$PGWALK" translate "$TMP/b-loop.elf" $A
is "$rc $err" "0 " "without --names the list is not read (nothing said about its loop)"

"$MK" "$TMP/plain.elf" || bail "pgw-mkkernel failed"
run "$PGWALK" translate --names "$TMP/plain.elf" 0xffffffff80600000
is "$rc $err" "0 pgwalk: --names: module addresses unnamed: BTF has no struct module" \
	"BTF without struct module: unnamed, and stderr says why"

# Without kallsyms' `modules` (no CONFIG_KALLSYMS_ALL) the head is found
# from a struct module lying in its own memory: the same names, for each
# era; a struct that is not one (alpha's state 7, be\x1bta's name
# without its NUL) leads nowhere.
for e in 64 45 44; do
	"$MK" --modules=$e --modules-unlisted "$TMP/u$e.elf" ||
		bail "pgw-mkkernel --modules-unlisted failed"
done
set -- $A 0xffffffffa0010000 0xffffffffa0020000
is "$(syms "$TMP/u64.elf" "$@")$(cat "$TMP/err")" \
	'alpha_init+0x10 [alpha] alpha_data [alpha] [be^[ta]+0x0 ' "no modules symbol, 6.4+: the head found from a struct module"
is "$(syms "$TMP/u45.elf" "$@")$(syms "$TMP/u44.elf" "$@")$(cat "$TMP/err")" \
	'alpha_init+0x10 [alpha] alpha_data [alpha] [be^[ta]+0x0 alpha_init+0x10 [alpha] alpha_data [alpha] [be^[ta]+0x0 ' \
	"no modules symbol, 4.5-6.3 and before: the same"
run "$PGW_TOOLS/pgw-tasks" --modules "$TMP/u64.elf"
is "$(printf '%s\n' "$err" | tail -1)" \
	"pgw-tasks: modules: the list head 0xffffffff80338000 found through the struct module at 0xffffffffa0010100 (in its own memory; kallsyms has no symbol modules); struct module's mem[] (6.4+)" \
	"... the head kallsyms would name, through alpha's struct module"
"$MK" --modules=64 --modules-unlisted --module-bad=state,name "$TMP/u.elf" ||
	bail "pgw-mkkernel --module-bad=state,name failed"
is "$(syms "$TMP/u.elf" $A)$(cat "$TMP/err")" \
	"- pgwalk: --names: module addresses unnamed: kallsyms has no symbol modules (a kernel without CONFIG_KALLSYMS_ALL), and no struct module whose list comes back through the kernel image lies in the 2048 KiB of small pages within 2 GiB of _stext" \
	"no struct module that reads as one: unnamed, and stderr says what was searched"
