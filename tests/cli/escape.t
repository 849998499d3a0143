#!/bin/sh
# Strings from the image reach a terminal escaped: an OSRELEASE carrying an
# ANSI escape sequence and a bell prints them as \xNN in text (info, dump's
# header, dump -v on stderr) and as \u00NN in JSON, never as raw bytes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"

esc=$(printf '\033') bel=$(printf '\007')
{ cat "$SPECS/x86-64.spec"
  printf 'vmcoreinfo OSRELEASE=6.1.0%s[31mred%s\n' "$esc" "$bel"; } |
	"$MKIMAGE" -e "$TMP/esc.elf"

# raw_free DESC TEXT: no ESC or BEL byte in TEXT.
raw_free() {
	case $2 in
	*"$esc"* | *"$bel"*) ok 1 "$1" ;;
	*) ok 0 "$1" ;;
	esac
}

run "$PGWALK" info "$TMP/esc.elf"
like '^  OSRELEASE=6\.1\.0\\x1b\[31mred\\x07$' "info: OSRELEASE escaped"
raw_free "info: no raw control byte" "$out"
run "$PGWALK" info --format=json "$TMP/esc.elf"
like '"OSRELEASE":"6\.1\.0\\u001b\[31mred\\u0007"' "info JSON: \\u00NN"
raw_free "info JSON: no raw control byte" "$out"
run "$PGWALK" dump -v --format=csv --no-summary "$TMP/esc.elf"
raw_free "dump -v: stderr escaped" "$err"
printf '%s\n' "$err" | grep -q 'OSRELEASE=6\.1\.0\\x1b\[31mred\\x07)$'
ok $? "... the layout line names it escaped"
run "$PGWALK" dump --no-summary "$TMP/esc.elf"
like '^# layout .*OSRELEASE=6\.1\.0\\x1b\[31mred\\x07\)$' \
	"dump text header: escaped"
raw_free "dump text: no raw control byte" "$out"

done_testing
