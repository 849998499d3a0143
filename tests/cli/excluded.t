#!/bin/sh
# Pages the image does not hold, as every command sees them: an ELF core's
# PT_LOAD past p_filesz (where makedumpfile -E puts the pages its dump
# level filtered out) is excluded, never zeros, in info, read, translate,
# dump and diff --data; --zero-excluded reads it as zeros on request.
# And a frame outside RAM (MMIO) that both images of diff --data lack is
# no partial evidence.  Answers from the spec: 16 MiB of RAM, the upper
# 8 MiB past p_filesz.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 19

cat >"$TMP/tail.spec" <<'EOS'
mode x86-64
ram 0 16M filesz=8M
root 0x1000
alloc 0x10000
map 0x400000 0xc00000 4K user
map 0x401000 0x100000 4K user
map 0x402000 0xfee00000 4K rw nx
map 0xffff888000000000 0 16M rw page=2m
text 0xc00000 SECRET-IN-THE-TAIL
text 0x100000 HEAD-DATA
cpu 0x80050033 0x1000 0x20 long
EOS
"$MKIMAGE" -e "$TMP/tail.elf" "$TMP/tail.spec" &&
	sed 's/ filesz=8M//' "$TMP/tail.spec" | "$MKIMAGE" -e "$TMP/full.elf" ||
	bail "pgw-mkimage failed"
# The bytes of the mappings past p_filesz: the direct map's upper 8 MiB
# and the user page at 0xc00000.
tail_bytes=$((8 * 1048576 + 4096))
field() { printf '%s\n' "$out" | tail -1 | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }

# ---- info ----
run "$PGWALK" info --format=json "$TMP/tail.elf"
like '"complete":false,"intact":true,.*"pages":\{"ram":4096,"dumped":2048,"outside":0,"excluded":2048,.*\},"zero_excluded":false' \
	"info: the 2048 pages past p_filesz are excluded: intact, not complete"
run "$PGWALK" info "$TMP/tail.elf"
like '^pages: +ram 4096, dumped 2048, excluded 2048$' "info (text) counts them excluded"
run "$PGWALK" info --zero-excluded "$TMP/tail.elf"
like '^pages: +ram 4096, dumped 2048, excluded 2048 \(read as zeros: --zero-excluded\)$' \
	"info --zero-excluded: still counted excluded, said to read as zeros"

# ---- read ----
run "$PGWALK" read --cpu=0 "$TMP/tail.elf" 0x400000 16
[ "$rc" = 2 ] && [ -z "$(printf '%s' "$out" | grep -v '^0000000000400000$')" ]
ok $? "read of a page past p_filesz: exit 2, no bytes (rc $rc)"
out=$err
like 'read stopped after 0 bytes at 0x400000: data-not-in-image \(excluded\) at pte' \
	"... stderr says the page is excluded"
run "$PGWALK" read --cpu=0 --raw "$TMP/full.elf" 0x400000 18
is "$rc:$out" "0:SECRET-IN-THE-TAIL" "the full core holds the tail's bytes"
"$PGWALK" read --cpu=0 --raw --zero-excluded "$TMP/tail.elf" 0x400000 18 >"$TMP/z"
rc=$?
is "$rc:$(od -An -tx1 "$TMP/z" | tr -d ' \n')" "0:$(printf '%036d' 0)" \
	"read --zero-excluded: 18 zero bytes, exit 0"
run "$PGWALK" read --cpu=0 --raw "$TMP/tail.elf" 0x401000 9
is "$rc:$out" "0:HEAD-DATA" "a page before p_filesz reads"

# ---- translate ----
run "$PGWALK" translate --cpu=0 "$TMP/tail.elf" 0x400000
like '^VA 0x400000|data-not-in-image: excluded' "translate (text) says the data is excluded"
run "$PGWALK" translate --cpu=0 --format=csv "$TMP/tail.elf" 0x400000
like '^0x400000,0xc00000,4096,pte,present\|user,user,false,,excluded,,$' \
	"translate (csv): in_image false, absence excluded"

# ---- dump ----
run "$PGWALK" dump --cpu=0 --format=json "$TMP/tail.elf"
# (The MMIO page at 0xfee00000 is not in either image: 4096 more.)
is "$rc:$(field bytes_not_in_image)" "0:$((tail_bytes + 4096))" \
	"dump: bytes_not_in_image counts the mapped bytes past p_filesz"
run "$PGWALK" dump --cpu=0 --format=json "$TMP/full.elf"
is "$(field bytes_not_in_image)" "4096" "... which the full core holds"
run "$PGWALK" dump --cpu=0 --zero-excluded --format=json "$TMP/tail.elf"
is "$(field bytes_not_in_image)" "4096" "dump --zero-excluded: the tail counts as held"

# ---- diff --data ----
run "$PGWALK" diff --cpu=0 --data --format=json "$TMP/full.elf" "$TMP/tail.elf"
is "$rc:$(field changed):$(field uncompared)" "2:0:$tail_bytes" \
	"diff --data full filtered: nothing changed, the excluded bytes uncompared (exit 2)"
run "$PGWALK" diff --cpu=0 --data --format=json "$TMP/full.elf" "$TMP/full.elf"
is "$rc:$(field uncompared):$(field same):$(field data_compared)" \
	"0:0:$((16 * 1048576 + 3 * 4096)):$((16 * 1048576 + 2 * 4096))" \
	"diff --data of a core with itself: the MMIO page outside RAM is alike, not uncompared (exit 0), and no data compared there"
out=$(printf '%s\n' "$out" | grep -c '"type":"uncompared"')
is "$out" 0 "... no uncompared record"
run "$PGWALK" diff --cpu=0 --data --zero-excluded --format=json "$TMP/full.elf" "$TMP/tail.elf"
is "$rc:$(field changed):$(field uncompared)" "1:8192:0" \
	"diff --data --zero-excluded: the tail compared as zeros; the two views of the one non-zero page changed (exit 1)"
run "$PGWALK" diff --cpu=0 --data --format=json "$TMP/tail.elf" "$TMP/tail.elf"
is "$rc:$(field uncompared)" "2:$tail_bytes" \
	"diff --data of a filtered core with itself: excluded on both sides is still uncompared"
run "$PGWALK" check --cpu=0 --zero-excluded --format=json "$TMP/tail.elf"
is "$(printf '%s\n' "$out" | tail -1 | sed -n 's/.*"complete":\([a-z]*\).*/\1/p')" true \
	"--zero-excluded is an option of every command (check)"
done_testing
