#!/bin/sh
# Second witnesses (issue 40): behaviours that one synthetic or unit test
# alone caught, checked again here on a hand-written address space whose
# answers are written out by hand below (not computed by pgw-mkimage):
#  - NX set in a table entry only (a PMD entry) makes the PTE leaves below
#    it NX: translate, dump and dump --leaves say nx; a sibling PMD entry
#    without NX does not;
#  - a batch inside a 1 GiB page, every address asked twice (the second
#    answer comes from the table cache): the page's own offset each time;
#  - stdin lines of 17 hex digits: a leading 0 is still an address, any
#    other 17th digit is not (and the lines around them are answered);
#  - diff of two roots mapping the same frames, b read-only: each range
#    `changed`, its permissions named (one differs in RW alone).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 11

cat >"$TMP/w.spec" <<'SPEC'
mode x86-64
ram 0 16M
root 0x800000
upper at=pmd rw user nx a
map 0x400000 0x100000 8K user rw a
upper rw user a
map 0x600000 0x200000 4K user rw a
map 0xffff888000000000 0 1G rw nx g a page=1g
root 0x900000
map 0x400000 0x100000 8K user a
map 0x600000 0x200000 4K user a
SPEC
"$MKIMAGE" -r "$TMP/w.raw" "$TMP/w.spec" || bail "pgw-mkimage failed"
A="--mode=x86-64 --cr3=0x800000 $TMP/w.raw"

# same NAME: $TMP/got equals $TMP/want.
same() {
	if cmp -s "$TMP/want" "$TMP/got"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		diff "$TMP/want" "$TMP/got" | head -8 | sed 's/^/#   /'
	fi
}

# ---- NX in a table entry ----
# shellcheck disable=SC2086  # $A: options and the image
"$PGWALK" translate --format=tsv $A 0x400000 0x401fff 0x600000 |
	cut -f1,2,6 >"$TMP/got"
cat >"$TMP/want" <<'EOF2'
va	pa	effective
0x400000	0x100000	rw|user|nx
0x401fff	0x101fff	rw|user|nx
0x600000	0x200000	rw|user
EOF2
same "translate: NX of the PMD entry alone makes its PTEs nx, not its sibling's"
# As a batch, each asked twice (the second answer from the table cache).
printf '%s\n' 0x400000 0x401fff 0x600000 0x400000 0x401fff 0x600000 >"$TMP/in"
# shellcheck disable=SC2086
"$PGWALK" translate --format=tsv $A - <"$TMP/in" | cut -f1,2,6 | sed 1d >"$TMP/got"
sed 1d "$TMP/want" >"$TMP/once"
cat "$TMP/once" "$TMP/once" >"$TMP/want"
same "... and in a batch, asked twice"
for leaves in "" --leaves; do
	# shellcheck disable=SC2086
	"$PGWALK" dump $leaves --user --format=tsv $A | awk -F'\t' '$1 == "map" { print $2, $3, $10 }' >"$TMP/got"
	if [ -n "$leaves" ]; then
		printf '%s\n' "0x400000 0x401000 rw|user|nx" "0x401000 0x402000 rw|user|nx" \
			"0x600000 0x601000 rw|user" >"$TMP/want"
	else
		printf '%s\n' "0x400000 0x402000 rw|user|nx" "0x600000 0x601000 rw|user" >"$TMP/want"
	fi
	same "dump${leaves:+ $leaves}: the ranges under the NX PMD entry are nx"
done

# ---- a 1 GiB page, each address twice ----
printf '%s\n' 0xffff888000000000 0xffff888000001234 0xffff888012345678 \
	0xffff88803fffffff 0xffff888000001234 0xffff888012345678 \
	0xffff88803fffffff >"$TMP/in"
# shellcheck disable=SC2086
"$PGWALK" translate --format=tsv $A - <"$TMP/in" | cut -f1-4 >"$TMP/got"
cat >"$TMP/want" <<'EOF2'
va	pa	page_size	level
0xffff888000000000	0x0	1073741824	pud
0xffff888000001234	0x1234	1073741824	pud
0xffff888012345678	0x12345678	1073741824	pud
0xffff88803fffffff	0x3fffffff	1073741824	pud
0xffff888000001234	0x1234	1073741824	pud
0xffff888012345678	0x12345678	1073741824	pud
0xffff88803fffffff	0x3fffffff	1073741824	pud
EOF2
same "a batch in a 1 GiB page: every answer at the page's own offset, asked again too"
# shellcheck disable=SC2086,SC2046
"$PGWALK" translate --format=tsv $A $(cat "$TMP/in") | cut -f1-4 >"$TMP/got"
same "... and the same as arguments"

# ---- the 17th hex digit ----
printf '%s\n' 0x0000000000400000 0x00000000000400000 0x10000000000400000 \
	0x0000000000600000 0xf0000000000400000 0x000000000000600000 >"$TMP/in"
# shellcheck disable=SC2086
"$PGWALK" translate --format=tsv $A - <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
rc=$?
cut -f1,2,8,10 "$TMP/out" >"$TMP/got"
cat >"$TMP/want" <<'EOF2'
va	pa	reason	input
0x400000	0x100000	-	-
0x400000	0x100000	-	-
-	-	not-an-address	0x10000000000400000
0x600000	0x200000	-	-
-	-	not-an-address	0xf0000000000400000
0x600000	0x200000	-	-
EOF2
same "stdin: 17 hex digits with a leading 0 are an address, with another first digit not"
is "$rc" 1 "... exit 1 (some lines are no address)"
cat >"$TMP/want" <<'EOF2'
pgwalk: stdin line 3: '0x10000000000400000' is not an address
pgwalk: stdin line 5: '0xf0000000000400000' is not an address
EOF2
cp "$TMP/err" "$TMP/got"
same "... each named on stderr with its line"

# ---- diff's permission changes ----
"$PGWALK" diff --format=tsv --mode=x86-64 --root=0x800000 --root=0x900000 "$TMP/w.raw" \
	>"$TMP/out"
rc=$?
awk -F'\t' '$1 == "changed" { print $2, $3, $5, $7, $8, $10, $11 }' "$TMP/out" >"$TMP/got"
printf '%s\n' "0x400000 0x402000 0x100000 rw|user|nx 0x100000 user permissions" \
	"0x600000 0x601000 0x200000 rw|user 0x200000 user permissions" >"$TMP/want"
same "diff: writable (and NX) in root a, read-only in b: two ranges, permissions changed"
is "$rc" 1 "... exit 1 (the spaces differ)"

done_testing
