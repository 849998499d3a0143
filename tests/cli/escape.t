#!/bin/sh
# Strings from the image reach a terminal escaped: an OSRELEASE carrying an
# ANSI escape sequence, a bell, a backslash and a byte above 0x7f prints
# them as \xNN (and \\) in text (info, regions' layout record, dump -v on
# stderr), CSV and TSV, and as \u00NN in JSON, never as raw bytes: the
# output is printable ASCII (docs/output.md, Values).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 15

esc=$(printf '\033') bel=$(printf '\007') hi=$(printf '\351')
{ cat "$SPECS/x86-64.spec"
  printf 'vmcoreinfo OSRELEASE=6.1.0%s[31mred%s\\%s\n' "$esc" "$bel" "$hi"; } |
	"$MKIMAGE" -e "$TMP/esc.elf"

# ascii DESC TEXT: TEXT is printable ASCII, newlines and (TSV's
# separators) tabs only.
ascii() {
	if printf '%s' "$2" | LC_ALL=C grep -q "[^ -~$(printf '\t')]"; then ok 1 "$1"; else
		ok 0 "$1"; fi
}

run "$PGWALK" info "$TMP/esc.elf"
like '^  osrelease +6\.1\.0\\x1b\[31mred\\x07\\\\\\xe9$' "info: OSRELEASE escaped"
ascii "info: no raw control or high byte" "$out"
run "$PGWALK" info --format=json "$TMP/esc.elf"
like '"osrelease":"6\.1\.0\\u001b\[31mred\\u0007\\\\\\u00e9"' "info JSON: \\u00NN"
like '"raw":\{"OSRELEASE":"6\.1\.0\\u001b\[31mred\\u0007\\\\\\u00e9"' \
	"info JSON: the raw text, escaped the same way"
ascii "info JSON: no raw control or high byte" "$out"
if command -v jq >/dev/null 2>&1; then
	printf '%s\n' "$out" | jq -e .vmcoreinfo.osrelease >/dev/null 2>&1
	ok $? "info JSON: valid JSON (jq)"
else
	skip "jq not installed"
fi
run "$PGWALK" dump -v --format=csv --no-summary "$TMP/esc.elf"
ascii "dump -v: stderr escaped" "$err"
printf '%s\n' "$err" | grep -q 'OSRELEASE=6\.1\.0\\x1b\[31mred\\x07\\\\\\xe9)$'
ok $? "... the layout line names it escaped"
ascii "dump CSV: stdout ASCII" "$out"
for f in text csv tsv json; do
	run "$PGWALK" regions --format=$f "$TMP/esc.elf"
	ascii "regions $f: the layout's reason (OSRELEASE) escaped" "$out"
done
run "$PGWALK" regions "$TMP/esc.elf"
like '^layout .*OSRELEASE=6\.1\.0\\x1b\[31mred\\x07\\\\\\xe9\)$' \
	"regions text: the layout record, escaped"
run "$PGWALK" regions --format=csv "$TMP/esc.elf"
like '^layout,.*OSRELEASE=6\.1\.0\\x1b\[31mred\\x07\\\\\\xe9' \
	"regions CSV: the layout row, escaped as text"

done_testing
