#!/bin/sh
# The failures an outside attack found (issue 32, part 2), each on an
# image built to provoke it; every assertion here failed before its fix:
#  - ptov of a space that maps nothing (qsort of no array: UBSan under
#    make SAN=1 check);
#  - diff --data of a frame the image lacks: the same answer (uncompared,
#    exit 2, "complete":false) whether the image is given twice or one
#    root twice.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # skip jq not installed"
	exit 0
fi
plan 6

# ---- ptov of a space that maps nothing ----
printf 'mode x86-64\nroot 0x1000\nram 0 0x10000\n' >"$TMP/empty.spec"
"$MKIMAGE" -e "$TMP/empty.elf" "$TMP/empty.spec" || bail "pgw-mkimage failed"
run "$PGWALK" ptov --cr3=0x1000 --mode=x86-64 --format=json \
	"$TMP/empty.elf" 0x1000
is "$rc:$out:$err" \
	'1:{"type":"mapping","pa":"0x1000","va":null,"root":null,"pid":null,"comm":null}:' \
	"ptov, a root mapping nothing: no root maps it, exit 1, nothing on stderr"

# ---- diff --data over a frame the image lacks ----
# 0x500000 maps the last page of RAM, which the file lost (truncated).
cat >"$TMP/d.spec" <<'EOF'
mode x86-64
root 0x1000
ram 0 0x20000
map 0x400000 0x10000 0x2000 rw user
map 0x500000 0x1f000 0x1000 rw
EOF
"$MKIMAGE" -e "$TMP/d.elf" "$TMP/d.spec" || bail "pgw-mkimage failed"
truncate -s -4096 "$TMP/d.elf"
sum='"uncompared":4096,"same":8192,"data_compared":8192,"table_not_in_image":0,"complete":false,"reason":"data-not-in-image"}'
for how in "--cr3=0x1000 $TMP/d.elf $TMP/d.elf" \
	   "--cr3=0x1000 --cr3=0x1000 $TMP/d.elf"; do
	run "$PGWALK" diff --data --format=json $how
	is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type ==
		"uncompared") | "\(.va) \(.reason) \(.a.absence)"')" \
		"2 0x500000 data-not-in-image truncated" \
		"diff --data ${how%% /*}...: the lost frame uncompared, exit 2"
	like "$sum\$" "... and the summary says it is not complete"
done
run "$PGWALK" diff --data --format=csv --cr3=0x1000 "$TMP/d.elf" "$TMP/d.elf"
like '^summary,([^,]*,){11}data-not-in-image,.* complete=false$' \
	"... CSV: the same reason and complete=false"

done_testing
