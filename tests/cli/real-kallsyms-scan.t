#!/bin/sh
# kallsyms found by scanning the kernel when VMCOREINFO does not list the
# tables (every kernel before 6.0), on the real dumps with VMCOREINFO's
# SYMBOL(kallsyms_*) lines withheld (tests/tools/pgw-renote): the scan
# finds each table at the address VMCOREINFO gives (vmcoreinfo.txt), the
# symbols decode as with the listed tables, and the processes are named
# as with them: on x86-64 by the scanned kallsyms and BTF (ELF and the
# filtered kdump), on i386 (no BTF) by the inferred layout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
T=$PGW_TOOLS/pgw-tasks
RENOTE=$PGW_TOOLS/pgw-renote
plan 13

# listed DIR: the tables line pgw-tasks --info prints, from vmcoreinfo.txt.
listed() {
	v() { sed -n "s/^SYMBOL(kallsyms_$2)=\\([0-9a-f]*\\).*/0x\\1/p" "$1/vmcoreinfo.txt" | hexnorm; }
	echo "tables scanned names=$(v "$1" names) num_syms=$(v "$1" num_syms)" \
	     "token_table=$(v "$1" token_table) token_index=$(v "$1" token_index)" \
	     "offsets=$(v "$1" offsets) relative_base=$(v "$1" relative_base)"
}
for d in x64-4l-a x64-5l-a i386-2l-a i386-pae-a; do
	S=$SHARED/$d
	E=$UNPACKED/$d/vmcore.elf
	"$RENOTE" --withhold-kallsyms "$E" "$TMP/nok.elf" || bail "pgw-renote failed"
	run "$T" --info "$TMP/nok.elf"
	is "$(printf '%s\n' "$out" | grep '^tables ')" "$(listed "$S")" \
		"$d: with VMCOREINFO's kallsyms lines withheld, the scan finds every table where VMCOREINFO says"
	syms="--sym=_stext --sym=_etext --sym=start_kernel --sym=init_task --sym=__start_BTF"
	"$T" $syms "$E" >"$TMP/want"
	"$T" $syms "$TMP/nok.elf" >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got"
	ok $? "$d: ... and the symbols decode as with the listed tables ($(cut -f1,3 "$TMP/got" | tr '\t\n' '= '))"
	"$PGWALK" roots --format=json "$E" 2>/dev/null |
		jq -r 'select(.type == "root") | "\(.root) \(.pid) \(.comm)"' >"$TMP/want"
	"$PGWALK" roots --format=json "$TMP/nok.elf" >"$TMP/got.json" 2>"$TMP/err"
	jq -r 'select(.type == "root") | "\(.root) \(.pid) \(.comm)"' "$TMP/got.json" >"$TMP/got"
	case $d in x64*) method=scanned-kallsyms+btf ;; *) method=inferred-layout ;; esac
	[ ! -s "$TMP/err" ] && cmp -s "$TMP/want" "$TMP/got" &&
		jq -s -e --arg m "$method" 'map(select(.type == "names"))[0] |
			.method == $m and .complete' "$TMP/got.json" >/dev/null
	ok $? "$d: ... and roots names every process as with them, by $method"
done
# The filtered kdump: its VMCOREINFO copy withheld too.
"$RENOTE" --withhold-kallsyms "$SHARED/x64-4l-a/vmcore-d31.kdump" "$TMP/nok.kdump" ||
	bail "pgw-renote failed"
"$PGWALK" ps --format=tsv "$SHARED/x64-4l-a/vmcore-d31.kdump" 2>/dev/null |
	grep -v '^summary' >"$TMP/want"
"$PGWALK" ps --format=tsv "$TMP/nok.kdump" >"$TMP/got" 2>/dev/null
grep -q 'method=scanned-kallsyms+btf' "$TMP/got" &&
	grep -v '^summary' "$TMP/got" | cmp -s "$TMP/want" - &&
	[ "$(grep -c . "$TMP/want")" -gt 60 ]
ok $? "x64-4l-a vmcore-d31.kdump without the kallsyms lines: ps lists the same tasks, by scanned-kallsyms+btf"
