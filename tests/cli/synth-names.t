#!/bin/sh
# Names of user addresses on pgw-mkvmas's synthetic process (its header
# says every VMA): translate --pid names each address by its VMA, a
# file's with pgoff + (va - vm_start), a name the kernel would print with
# bytes a terminal must not see escaped in text, JSON and CSV, a path the
# image does not give (longer than the kernel's page) never invented;
# check names its findings alike (--plant=beyond).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 7

MKVMAS=$PGW_TOOLS/pgw-mkvmas
"$MKVMAS" "$TMP/v.elf" && "$MKVMAS" --plant=beyond "$TMP/b.elf" ||
	bail "pgw-mkvmas failed"

run "$PGWALK" translate --pid=1 --format=json "$TMP/v.elf" 0x400010 \
	0x401010 0x600010 0x7f0000000010 0x7f0000002010 0x7ffc00100010
is "$rc $(printf '%s\n' "$out" | jq -r '"\(.va) \(.path // "-") \(.file_offset // "-") \(.symbol // "-")"' | tr '\n' ';')" \
	"1 0x400010 /bin/prog 0x10 -;0x401010 /bin/prog 0x1010 -;0x600010 [heap] - -;0x7f0000000010 /memfd:pgw (deleted) 0x10 -;0x7f0000002010 [anon:synthetic] - -;0x7ffc00100010 [vdso] - -;" \
	"translate --pid: each address named by its VMA, a file's with pgoff + (va - start) (exit 1: some are not mapped)"

run "$PGWALK" translate --pid=1 "$TMP/v.elf" 0x7f0000004010
is "$(printf '%s\n' "$out" | sed -n 2p)" \
	'  path=/data/sub/dir/\x1b[31mred\x0afile (deleted) file_offset=0x10' \
	"text: the escape and the newline in a file's name are escaped"
run "$PGWALK" translate --pid=1 --format=json "$TMP/v.elf" 0x7f0000004010
is "$(printf '%s\n' "$out" | jq -j .path | od -An -c | tr -s ' ' | tr -d '\n')" \
	" / d a t a / s u b / d i r / 033 [ 3 1 m r e d \n f i l e ( d e l e t e d )" \
	"JSON: the same bytes, escaped as \\u00NN"
case $out in *'\u001b[31mred\u000afile'*) ok 0 "... spelled \\u001b and \\u000a" ;;
*) ok 1 "... spelled \\u001b and \\u000a" ;; esac
run "$PGWALK" translate --pid=1 --format=csv "$TMP/v.elf" 0x7f0000004010 0x7f0000006010
is "$(printf '%s\n' "$out" | cut -d, -f12-)" \
	'symbol,path,file_offset,path_truncated
,/data/sub/dir/\x1b[31mred\x0afile (deleted),0x10,
,,0x10,' \
	"CSV: the name's cells; the path the image does not give stays empty, never guessed"

run "$PGWALK" check --pid=1 --severity=info --format=json "$TMP/b.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | "\(.rule) \(.va) \(.path // "-" | tojson) \(.file_offset // "-")"' | tr '\n' ';')" \
	'1 wx 0x600000 "[heap]" -;beyond-vma 0x600000 "[heap]" -;beyond-vma 0x7f0000004000 "/data/sub/dir/\u001b[31mred\nfile (deleted)" 0x0;' \
	"check: each finding named by its process's VMA"
run "$PGWALK" translate --names "$TMP/v.elf" 0x400010
case $out in *path=*) ok 1 "the kernel's root: a user address has no process, so no VMA" ;;
*) ok 0 "the kernel's root: a user address has no process, so no VMA" ;; esac
