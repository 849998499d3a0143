#!/bin/sh
# pgwalk never writes to an image: after every command (as `pgwalk --help`
# lists them, so new commands are covered without editing this file), with
# and without an address argument and in every output format, the image's
# bytes and modification time are what they were.
. "$(dirname "$0")/lib.sh"

"$PGW_TOOLS/mkseeds" "$TMP/img" >/dev/null || { echo "Bail out! mkseeds failed"; exit 1; }
ELF=$TMP/img/image_elf/x86-64-qemu.elf
RAW=$TMP/img/image_raw/x86-64.raw
# Old mtimes make any write visible even within the same second.
touch -d '2001-02-03 04:05:06' "$ELF" "$RAW"

commands=$("$PGWALK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$commands" ] && ok 0 "commands listed: $(echo $commands)" || ok 1 "commands listed"

state() { echo "$(cksum <"$1") $(stat -c '%Y %s' "$1")"; }
elf0=$(state "$ELF")
raw0=$(state "$RAW")

for cmd in $commands; do
	for fmt in text json tsv csv; do
		"$PGWALK" "$cmd" --format="$fmt" "$ELF" >/dev/null 2>&1
		"$PGWALK" "$cmd" --format="$fmt" "$ELF" 0xffff888000001000 >/dev/null 2>&1
		"$PGWALK" "$cmd" --format="$fmt" --format=raw --cr3=0x1000 "$RAW" >/dev/null 2>&1
		"$PGWALK" "$cmd" --format="$fmt" --format=raw --cr3=0x1000 --mode=x86-64 "$RAW" 0xffff888000001000 >/dev/null 2>&1
	done
	is "$(state "$ELF")" "$elf0" "$cmd: ELF image bytes and mtime unchanged"
	is "$(state "$RAW")" "$raw0" "$cmd: raw image bytes and mtime unchanged"
done
# The image really was read: translate found the page.
run "$PGWALK" translate --format=tsv "$ELF" 0xffff888000001000
is "$rc" 0 "translate read the image it left unchanged"

done_testing
