#!/bin/sh
# A kdump without its VMCOREINFO note (x64-4l-a's vmcore-d31.kdump through
# tests/tools/pgw-renote --drop=VMCOREINFO, the given file untouched) and
# `roots --root` naming the kernel's table: the root given is the kernel
# root, so no kernel-root scan reads the dump first and each page is
# decompressed once at most.  `roots -v` counts the pages decompressed:
# no more than the dumped pages pgw-kdump-pages reads from the 2nd
# bitmap (the old second pass decompressed twice that), on 1 and 2
# threads; the roots (table, kind) those of the kdump with its note.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 6

K=$SHARED/x64-4l-a/vmcore-d31.kdump
"$PGW_TOOLS/pgw-renote" --drop=VMCOREINFO "$K" "$TMP/nonote.kdump" ||
	bail "pgw-renote failed"
dumped=$("$PGW_TOOLS/pgw-kdump-pages" "$K" | sed -n 's/.* dumped=\([0-9]*\)$/\1/p')
[ -n "$dumped" ] || bail "pgw-kdump-pages gave no count"
root=$("$PGWALK" info --no-cache --format=json "$K" | jq -r 'select(.type == "info") | .root')
is "$root" 0x6210000 "the kdump's kernel root, from its note"
# list FILE: "table kind" per root record of roots' TSV.
list() { awk -F'\t' '$1 == "root" { print $2, $3 }' "$1"; }
"$PGWALK" roots --no-cache --format=tsv "$K" >"$TMP/with-note" ||
	bail "roots of the kdump failed"
for t in 1 2; do
	"$PGWALK" roots --no-cache -v --threads="$t" --format=tsv --root="$root" \
		"$TMP/nonote.kdump" >"$TMP/out$t" 2>"$TMP/err$t"
	rc=$?
	n=$(sed -n 's/^pgwalk: pages decompressed: \([0-9]*\),.*/\1/p' "$TMP/err$t")
	[ "$rc" = 0 ] && [ -n "$n" ] && [ "$n" -le "$dumped" ]
	ok $? "$t thread(s): exit $rc, ${n:-no} pages decompressed, of $dumped dumped"
	list "$TMP/with-note" >"$TMP/want"
	list "$TMP/out$t" | cmp -s "$TMP/want" -
	ok $? "... the roots of the kdump with its note ($(grep -c '' "$TMP/want"))"
done
cmp -s "$TMP/out1" "$TMP/out2"
ok $? "1 and 2 threads: the same output"
done_testing
