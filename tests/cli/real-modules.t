#!/bin/sh
# Kernel addresses named by module, on the real dumps, against the
# guests' own word.  x86-64 (6.1, core_layout): the guest loaded seven
# modules (console.log's "PGWALK-INFO insmod NAME ok", in load order);
# the kernel's list holds them newest first, so the list read through
# BTF is that order reversed, and each module's first byte (its
# core_layout.base, where the text starts) is named [NAME]+0x0 and mapped
# executable, its last byte [NAME]+0x(size-1), the byte after it not by
# that module.  arm64-16k-a (6.12, mem[]): /proc/modules (console.log's
# PGWALK-MODULES line) says qemu_fw_cfg, 65536 bytes, at its address;
# /proc/vmallocinfo (PGWALK-VMALLOC ... load_module) lists the four areas
# load_module allocated, each one 16K page and a guard page: each start is
# named by the module at +0x0 with its kind (text first: executable; the
# others not), each guard page is not, so the named bytes are 4 x 16K =
# /proc/modules' size.  arm64-4k-a (6.1 without CONFIG_KALLSYMS_ALL: no
# `modules` symbol) is read from the head found through qemu_fw_cfg's own
# struct module: /proc/modules' address and size.  i386 (no BTF) says why
# modules are unnamed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"

plan 22

# The module a symbol names: "SYM+0xOFF [NAME]" (the module's own
# symbol), "[NAME]+0xOFF" or "[NAME:KIND]+0xOFF"; "-" for none (jq).
MODULE_OF='(.symbol // "-") | if test(" \\[.*\\]$") then capture(" \\[(?<m>.*)\\]$").m elif startswith("[") then capture("^\\[(?<m>[^]:]*)").m else "-" end'
# insmod order of DIR's guest, reversed: the kernel's list order.
insmods() {
	tr -d '\r' <"$1/console.log" |
		awk '$1 == "PGWALK-INFO" && $2 == "insmod" && $4 == "ok" { print $3 }' |
		tac | tr '\n' ' '
}

for dm in x64-4l-a:vmcore.elf x64-4l-a:mem.raw x64-5l-a:vmcore.elf; do
	d=${dm%%:*} f=${dm#*:}
	I=$UNPACKED/$d/$f
	# (pgw-tasks reads ELF cores only: the raw image is named by the
	# ranges its ELF twin's list gives)
	run "$PGW_TOOLS/pgw-tasks" --modules "$UNPACKED/$d/vmcore.elf"
	mods=$(printf '%s\n' "$out" | awk '$1 !~ /^core|^init/ && NF == 4 { print $1 }' | tr '\n' ' ')
	want=$(insmods "$SHARED/$d")
	[ -n "$want" ] || bail "$d: console.log lists no insmod"
	[ "$f" = mem.raw ] ||
		is "$rc $mods" "0 $want" "$d $f: the module list, through BTF, is the guest's insmod order reversed"
	# base, last byte, and the byte after, of each module's core range
	printf '%s\n' "$out" | awk '$1 == "core" { print $2, $3 }' >"$TMP/core"
	while read -r base size; do
		lo=$(printf '%s' "$base" | tail -c 8)
		hi=${base%"$lo"}
		printf '%s%08x\n%s%08x\n%s%08x\n' "$hi" $((0x$lo)) \
			"$hi" $((0x$lo + size - 1)) "$hi" $((0x$lo + size))
	done <"$TMP/core" >"$TMP/q"
	"$PGWALK" translate --names --format=json "$I" - <"$TMP/q" 2>/dev/null |
		jq -r "[($MODULE_OF), (.effective | index(\"nx\") | not | tostring)] | @tsv" >"$TMP/n"
	got=$(awk -F'\t' 'NR % 3 == 1 { print $1 }' "$TMP/n" | tr '\n' ' ')
	is "$got" "$want" "$d $f: each module's first byte is named by it"
	got=$(awk -F'\t' 'NR % 3 == 1 { print $2 }' "$TMP/n" | sort -u)
	is "$got" true "$d $f: each module's first page is executable (its text starts the core layout)"
	# the last byte is the same module; the byte after is not
	last=$(awk -F'\t' 'NR % 3 == 2 { print $1 }' "$TMP/n" | tr '\n' ' ')
	after=$(paste - - - <"$TMP/n" | awk -F'\t' '$5 == $1 { print $1 }')
	is "$last" "$want" "$d $f: each module's last byte is that module"
	is "$after" "" "$d $f: the byte after each module's range is not that module's"
done

d=arm64-16k-a
I=$UNPACKED/$d/vmcore.elf
line=$(tr -d '\r' <"$SHARED/$d/console.log" | awk '$1 == "PGWALK-MODULES"')
set -- $line
[ "$#" -ge 7 ] || bail "$d: no PGWALK-MODULES line"
name=$2 size=$3 addr=$7
tr -d '\r' <"$SHARED/$d/console.log" |
	awk '$1 == "PGWALK-VMALLOC" && $4 ~ /^load_module/ { split($2, r, "-"); print r[1] }' >"$TMP/areas"
[ "$(grep -c '' "$TMP/areas")" = 4 ] || bail "$d: not four load_module areas"
{ cat "$TMP/areas"; sed 's/000$/000 4000/' "$TMP/areas" | while read -r a _; do
	lo=$(printf '%s' "$a" | tail -c 8); printf '%s%08x\n' "${a%"$lo"}" $((0x$lo + 0x4000)); done; } >"$TMP/q"
run "$PGWALK" translate --names --format=json "$I" - <"$TMP/q"
syms=$(printf '%s\n' "$out" | jq -r '.symbol // "-"' | tr '\n' ' ')
is "$syms" "[$name]+0x0 [$name:data]+0x0 [$name:rodata]+0x0 [$name:ro_after_init]+0x0 - - - - " \
	"$d: each load_module area's start is $name's (text, data, rodata, ro_after_init), each guard page is no module's: 4 x 16K = /proc/modules' $size"
is "$size" 65536 "$d: /proc/modules' size is the four 16K ranges"
is "$(printf '%s\n' "$out" | head -1 | jq -r .va)" "$addr" \
	"$d: the text range starts at /proc/modules' address"
is "$(printf '%s\n' "$out" | head -4 | jq -c '.effective | index("pxn") != null' | tr '\n' ' ')" \
	"false true true true " "$d: the text range is executable, data and read-only ranges are not"

# arm64-4k-a (6.1, core_layout): kallsyms has no data symbols, so no
# `modules`; the head is found from qemu_fw_cfg's own struct module.
# /proc/modules: its address and 24576 bytes (one load_module area of
# six pages and a guard page in /proc/vmallocinfo).
d=arm64-4k-a
set -- $(tr -d '\r' <"$SHARED/$d/console.log" | awk '$1 == "PGWALK-MODULES"')
[ "$#" -ge 7 ] || bail "$d: no PGWALK-MODULES line"
name=$2 size=$3 addr=$7
lo=$(printf '%s' "$addr" | tail -c 8)
run "$PGWALK" translate --names --format=json "$UNPACKED/$d/vmcore.elf" "$addr" \
	"$(printf '%s%08x' "${addr%"$lo"}" $((0x$lo + size - 1)))" \
	"$(printf '%s%08x' "${addr%"$lo"}" $((0x$lo + size)))"
is "$rc $(printf '%s\n' "$out" | jq -r "$MODULE_OF" | tr '\n' ' ')" \
	"1 $name $name - " \
	"$d: /proc/modules' address and its $size bytes are $name's, the byte after (the guard page: exit 1) is not"
# The module's own symbols: /proc/vmallocinfo's caller
# fw_cfg_sysfs_probe+0x28c/0x8e4 [qemu_fw_cfg] says the function reaches
# 0x8e4 bytes, as the kernel's lookup measures it (to the next symbol).
vcaller=$(tr -d '\r' <"$SHARED/$d/console.log" | awk '$1 == "PGWALK-VMALLOC" && $5 == "[qemu_fw_cfg]" { print $4 }')
fn=${vcaller%%+*} fsize=${vcaller##*/}
[ -n "$fn" ] && [ -n "$fsize" ] || bail "$d: no vmallocinfo caller in qemu_fw_cfg"
i=0; while [ $i -lt 16384 ]; do
	printf '%s%08x\n' "${addr%"$lo"}" $((0x$lo + i)); i=$((i + 4))
done | "$PGWALK" translate --names --format=json "$UNPACKED/$d/vmcore.elf" - 2>/dev/null |
	jq -r '.symbol // "-"' >"$TMP/syms"
is "$(grep -c "^$fn\( \|+\)" "$TMP/syms") $(grep -c "^$fn \[$name\]\$" "$TMP/syms")" \
	"$(($fsize / 4)) 1" \
	"$d: $fn [$name] starts once and names $fsize bytes (the module's own symbols), as vmallocinfo's caller $vcaller says"
is "$(printf '%s\n' "$err" | grep -c 'module')" 0 \
	"$d (no CONFIG_KALLSYMS_ALL): the list found without the modules symbol, nothing said"
run "$PGWALK" translate --names "$UNPACKED/i386-pae-a/vmcore.elf" 0xc67f5000
case $out in *symbol=*) ok 1 "i386-pae-a: no BTF, no module name" ;;
*) out=$err like "module addresses unnamed: no BTF" "i386-pae-a: no BTF, no module name, and stderr says so" ;; esac
