#!/bin/sh
# diff compares and counts only its --range: a leaf that reaches outside
# the window (a 1 GiB page, a 2 MiB page) is cut at the window's edges,
# with --data too (it once compared a huge leaf page by page to its end,
# past the window: seconds per 1 GiB, and the summary counted the whole
# leaf).  Expected byte counts are the windows' sizes, written by hand.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 6

cat >"$TMP/w.spec" <<'SPEC'
mode x86-64
ram 0 16M
root 0x800000
map 0x400000 0x200000 2M user rw a page=2m
map 0xffff888000000000 0 1G rw nx g a page=1g
SPEC
"$MKIMAGE" -r "$TMP/w.raw" "$TMP/w.spec" || bail "pgw-mkimage failed"

# summary FIELDS...: the JSON summary's fields, space-separated.
summary() {
	grep '"type":"summary"' "$TMP/out" | python3 -c '
import json, sys
s = json.loads(sys.stdin.read())
print(" ".join(json.dumps(s[k]) for k in sys.argv[1:]))' "$@"
}

"$PGWALK" diff --format=json --data --mode=x86-64 --root=0x800000 \
	--range=0xffff888000003000-0xffff888000005000 "$TMP/w.raw" "$TMP/w.raw" \
	>"$TMP/out"
is "$?" 0 "diff --data of a space with itself inside a 1 GiB page: exit 0"
is "$(summary same data_compared ranges)" "8192 8192 0" \
	"... only the window's 8 KiB compared and counted, not the 1 GiB leaf"

# From below a 2 MiB leaf into it: the window's part of the leaf only.
"$PGWALK" diff --format=json --data --mode=x86-64 --root=0x800000 \
	--range=0x3ff000-0x401000 "$TMP/w.raw" "$TMP/w.raw" >"$TMP/out"
is "$?" 0 "a window from an unmapped page into a 2 MiB leaf: exit 0"
is "$(summary same data_compared)" "4096 4096" \
	"... the leaf's first 4 KiB compared, not its 2 MiB"

# Without --data the same cut: the byte count of what is mapped alike.
"$PGWALK" diff --format=json --mode=x86-64 --root=0x800000 \
	--range=0x401000-0x403000 "$TMP/w.raw" "$TMP/w.raw" >"$TMP/out"
is "$?" 0 "without --data, a window inside the 2 MiB leaf: exit 0"
is "$(summary same data_compared)" "8192 null" "... 8 KiB alike, no bytes compared (null)"

done_testing
