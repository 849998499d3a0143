#!/bin/sh
# Images without the kernel's facts in their notes, with no options: raw
# (mem.raw), LiME and AVML copies of it, an ELF whose VMCOREINFO note is
# damaged, and a raw image with no VMCOREINFO anywhere.
#  - mem.raw: dump (JSON, and text but for its provenance lines), regions
#    (but for where each base came from) and translate of every gva2gpa
#    address equal to vmcore.elf's, on every dump;
#  - LiME and AVML copies of mem.raw (pgw-mkdump): dump as vmcore.elf's;
#  - a damaged note (tests/tools/pgw-renote): info says so and that
#    VMCOREINFO was found in memory; dump as vmcore.elf's;
#  - no VMCOREINFO at all (mem.raw with both of the kernel's copies
#    zeroed): the mode and crash's kernel root from the kernel-root scan,
#    said so; QEMU's answers for the kernel half; the same roots, unnamed,
#    with the reason.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
ROOTS=$PGW_TOOLS/pgw-roots
plan $((4 * 4 + 2 + 2 + 2 * 4))

# Provenance: where each base came from (the mode and root are said on
# stderr, with -v, only).
unprovenance() {
	sed 's/^\(base [A-Za-z_]* 0x[0-9a-f]*\) .*/\1/;
	     s/,"source":"[^"]*","why":"[^"]*"//'
}

for dm in $DUMPS; do
	d=${dm%%:*} elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	"$PGWALK" dump --format=json "$elf" >"$TMP/a"
	"$PGWALK" dump --format=json "$raw" >"$TMP/b"
	agree "$d: dump --format=json of mem.raw with no options: vmcore.elf's" \
		"$TMP/a" "$TMP/b"
	"$PGWALK" dump "$elf" | unprovenance >"$TMP/a"
	"$PGWALK" dump "$raw" | unprovenance >"$TMP/b"
	agree "$d: dump (text) of mem.raw: vmcore.elf's, provenance aside" \
		"$TMP/a" "$TMP/b"
	for f in json text; do
		"$PGWALK" regions --format=$f "$elf" | unprovenance
	done >"$TMP/a"
	for f in json text; do
		"$PGWALK" regions --format=$f "$raw" | unprovenance
	done >"$TMP/b"
	agree "$d: regions (JSON and text) of mem.raw: vmcore.elf's, where each base came from aside" \
		"$TMP/a" "$TMP/b"
	awk '{ print $2 }' "$SHARED/$d/gva2gpa.txt" | sort -u >"$TMP/vas"
	"$PGWALK" translate --format=json "$elf" - <"$TMP/vas" >"$TMP/a" 2>/dev/null
	"$PGWALK" translate --format=json "$raw" - <"$TMP/vas" >"$TMP/b" 2>/dev/null
	agree "$d: translate of every gva2gpa address, mem.raw as vmcore.elf" \
		"$TMP/a" "$TMP/b"
done

d=x64-4l-a elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
"$PGWALK" dump --format=json "$elf" >"$TMP/want"
for fmt in lime avml; do
	"$PGW_TOOLS/pgw-mkdump" "$fmt" --raw="$raw" "$TMP/x.$fmt" >/dev/null ||
		bail "pgw-mkdump $fmt failed"
	"$PGWALK" dump --format=json "$TMP/x.$fmt" >"$TMP/got"
	agree "$d: dump of a $fmt copy of mem.raw with no options: vmcore.elf's" \
		"$TMP/want" "$TMP/got"
	rm -f "$TMP/x.$fmt"
done

"$PGW_TOOLS/pgw-renote" --damage-vmcoreinfo "$elf" "$TMP/damaged.elf" ||
	bail "pgw-renote failed"
run "$PGWALK" info "$TMP/damaged.elf"
like "^  reason +VMCOREINFO found in memory at 0x[0-9a-f]+ \\(the kernel's note; the image's VMCOREINFO note is damaged: VMCOREINFO: PAGESIZE=8192, not 4096\\)\$" \
	"$d: a damaged note: info says so, and that VMCOREINFO was found in memory"
"$PGWALK" dump --format=json "$TMP/damaged.elf" >"$TMP/got"
agree "$d: ... dump as vmcore.elf's" "$TMP/want" "$TMP/got"
rm -f "$TMP/damaged.elf"

# No VMCOREINFO anywhere: both of the kernel's copies zeroed.
for dm in x64-4l-a:x86-64 i386-pae-a:pae; do
	d=${dm%%:*} mode=${dm#*:} raw=$UNPACKED/$d/mem.raw
	cp "$raw" "$TMP/bare.raw"
	for pa in $("$ROOTS" vmcoreinfo "$raw" |
		    sed -n 's/^candidate=\(0x[0-9a-f]*\) .*/\1/p'); do
		dd if=/dev/zero of="$TMP/bare.raw" bs=4096 seek=$((pa / 4096)) \
			count=1 conv=notrunc 2>/dev/null
	done
	run "$PGWALK" info "$TMP/bare.raw"
	kr=$(kernel_root "$SHARED/$d")
	printf '%s\n' "$out" | grep -Eq "^mode: +$mode \\(kernel-root scan: " &&
	printf '%s\n' "$out" | grep -Eq "^root: +$kr \\(kernel root found by scan: " &&
	printf '%s\n' "$out" | grep -Eq '^vmcoreinfo: +none \(the image has no VMCOREINFO note; no VMCOREINFO in memory'
	ok $? "$d: no VMCOREINFO anywhere: mode $mode and the kernel root $kr found by scan, and info says so"
	qemu_answers "$SHARED/$d" 0 | awk -F '\t' '
		length($1) == 18 && substr($1, 3, 1) ~ /[89a-f]/ ||
		length($1) == 10 && substr($1, 3, 1) ~ /[c-f]/' >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate --format=tsv "$TMP/bare.raw" - |
		sed 1d | cut -f1,2 >"$TMP/got"
	agree "$d: ... its kernel half answers as QEMU's CPU 0" "$TMP/want" "$TMP/got"
	"$PGWALK" roots --format=json "$raw" 2>/dev/null |
		sed -n 's/^{"type":"root","root":"\([^"]*\)","kind":"\([^"]*\)".*/\1 \2/p' >"$TMP/want"
	"$PGWALK" roots --format=json "$TMP/bare.raw" >"$TMP/json" 2>"$TMP/err"
	sed -n 's/^{"type":"root","root":"\([^"]*\)","kind":"\([^"]*\)".*/\1 \2/p' \
		"$TMP/json" >"$TMP/got"
	agree "$d: ... roots finds the same roots" "$TMP/want" "$TMP/got"
	grep -q 'roots are unnamed: no kallsyms: ' "$TMP/err"
	ok $? "$d: ... unnamed, and says why: $(cut -c1-100 "$TMP/err")"
	rm -f "$TMP/bare.raw"
done

done_testing
