#!/bin/sh
# pgwalk check and pgwalk diff on synthetic images, where the generator
# planted what must be found:
#  - check: the synthetic kernel of pgw-mkkernel (kallsyms with the text
#    bounds, BTF, a task list) with one anomaly planted at a time (a
#    kernel W+X page (and one in the guard hole, found but not counted as
#    the kernel counts), a writable alias of the text and of rodata, a hooked
#    kernel-half entry in one process, a user-visible page table, a
#    user-accessible kernel page, reserved bits, a frame beyond RAM, a
#    hidden process): against the unplanted kernel, exactly the planted
#    findings, each with its rule, severity, range, root, owner and the
#    entry the generator wrote; i386 (no NX): one no-nx finding, no wx,
#    and the kernel's W+X count equal to the W+X pages dump --leaves
#    lists; --rule, --severity and the exit statuses; a budget stop;
#    every format with the same records;
#  - diff: an image against itself (empty, exit 0), against a copy with
#    one entry changed (exactly that change), a PTI pair (exactly the
#    kernel ranges the user copy lacks, its NX-free user half, the entry
#    text's page size), two processes; a page table an image lacks
#    (uncompared, never removed); --data on pages an image lacks.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 53
KMK=$PGW_TOOLS/pgw-mkkernel

# findings JSON: "rule severity va end root pid" per finding, sorted.
findings() {
	jq -r 'select(.type == "finding") |
	       "\(.rule) \(.severity) \(.va) \(.end) \(.root) \(.pid)"' "$1" |
		sort
}
# planted NAME: the findings of --plant=NAME the unplanted kernel lacks.
planted() {
	"$KMK" --text-bounds --plant="$1" "$TMP/$1.elf" ||
		bail "pgw-mkkernel --plant=$1 failed"
	"$PGWALK" check --all-roots --severity=info --format=json \
		"$TMP/$1.elf" >"$TMP/$1.json" 2>"$TMP/$1.err"
	rc=$?
	findings "$TMP/$1.json" | comm -13 "$TMP/base.f" - >"$TMP/$1.f"
}
# expect_planted NAME DESC: planted NAME's findings equal stdin, exit 1.
expect_planted() {
	cat >"$TMP/want"
	if [ "$rc" = 1 ] && cmp -s "$TMP/want" "$TMP/$1.f"; then
		ok 0 "$2"
	else
		ok 1 "$2 (exit $rc)"
		diff "$TMP/want" "$TMP/$1.f" | sed 's/^/#   /'
	fi
}
# leaf_entry NAME VA: the raw entry of the last evidence entry (the leaf,
# or where the walk stopped) of the finding at VA.
leaf_entry() {
	jq -r --arg va "$2" 'select(.type == "finding" and .va == $va) |
	       .evidence[-1].entry' "$TMP/$1.json" | head -1
}

if ! command -v jq >/dev/null 2>&1; then
	skip_all "jq not installed"
fi

# ---- check: the unplanted kernel ----
"$KMK" --text-bounds "$TMP/base.elf" || bail "pgw-mkkernel failed"
run "$PGWALK" check --all-roots --severity=info --format=json "$TMP/base.elf"
printf '%s\n' "$out" >"$TMP/base.json"
findings "$TMP/base.json" >"$TMP/base.f"
# Its user pages lack NX (user W+X) and two tasks have no root the scan
# finds (pgw-mkkernel.c says why): nothing else.
is "$(cat "$TMP/base.f")" "unowned-task medium null null 0x605000 30
unowned-task medium null null null 20
wx low 0x400000 0x401000 0x601000 1
wx low 0x400000 0x401000 0x603000 10" \
	"unplanted kernel: only the user W+X pages and the two unowned tasks"
v='{"rule":"RULE","why":"no VMAs: BTF: struct mm_struct has no member start_brk"}'
like "\"kernel_wx_pages\":0,\"unchecked\":\\[$(for r in outside-vma beyond-vma anon-exec deleted-exe; do printf '%s,' "$v" | sed "s/RULE/$r/"; done | sed 's/,$//')\\],\"tables_not_in_image\":0,\"complete\":true" \
	"... kernel W+X 0, every rule checked (text bounds from kallsyms) but the VMA rules (its BTF has no VMA structs), complete"

# ---- check: each anomaly alone ----
planted wx
expect_planted wx "wx: the kernel's 2 MiB page without NX, and nothing else" <<'EOF'
wx high 0xffffffff80600000 0xffffffff80800000 0x1000 null
EOF
is "$(leaf_entry wx 0xffffffff80600000)" 0x6001e3 "... its evidence ends at the planted PMD entry"
out=$(cat "$TMP/wx.json")
like '"kernel_wx_pages":512,' "... 512 W+X pages, as the kernel's check counts them"

planted guard-wx
expect_planted guard-wx "wx: a W+X page in x86-64's guard hole is found" <<'EOF'
wx high 0xffff800000000000 0xffff800000001000 0x1000 null
EOF
out=$(cat "$TMP/guard-wx.json")
like '"kernel_wx_pages":0,' "... but not counted: the kernel's own W+X walk skips the guard hole"

planted text-alias
expect_planted text-alias "text-writable-alias: the direct map's text and rodata, exactly their bounds" <<'EOF'
text-writable-alias high 0xffff888000200000 0xffff8880002ff800 0x1000 null
text-writable-alias high 0xffff888000380000 0xffff8880003c0000 0x1000 null
EOF
is "$(leaf_entry text-alias 0xffff888000200000)" 0x80000000002001e3 \
	"... its evidence ends at the writable direct-map entry"

planted wx-text
expect_planted wx-text "wx: the kernel text's own page made writable" <<'EOF'
wx high 0xffffffff80200000 0xffffffff80400000 0x1000 null
EOF
run jq -r 'select(.type == "finding" and .va == "0xffffffff80200000") | .symbol' "$TMP/wx-text.json"
is "$out" "_stext" "... named by kallsyms: _stext (the first of its aliases, _stext and _text)"

planted hook
expect_planted hook "kernel-half-mismatch: the hooked entry of pid 1's root, named" <<'EOF'
kernel-half-mismatch high 0xffffc80000000000 0xffffc88000000000 0x601000 1
EOF
run jq -r 'select(.rule == "kernel-half-mismatch") |
	   [.evidence[] | "\(.table)[\(.index)]=\(.entry)"] | join(" ")' "$TMP/hook.json"
is "$out" "0x601000[400]=0x7c0023 0x1000[400]=0x7d0023" \
	"... with the root's entry and the kernel root's, both at index 400"

planted user-pt
expect_planted user-pt "pt-writable: pid 10's page table mapped writable at user level" <<'EOF'
pt-writable high 0x401000 0x402000 0x603000 10
EOF
is "$(leaf_entry user-pt 0x401000)" 0x8000000000733067 \
	"... the PTE that maps its own table (0x733000)"

planted user-kernel
expect_planted user-kernel "user-kernel: the user-accessible direct-map page" <<'EOF'
user-kernel high 0xffff888000400000 0xffff888000600000 0x1000 null
EOF
is "$(leaf_entry user-kernel 0xffff888000400000)" 0x80000000004000e7 \
	"... its evidence ends at the planted PMD entry"

planted reserved
expect_planted reserved "reserved-bits: the 2 MiB entry with bit 13 set" <<'EOF'
reserved-bits medium 0xffffc80000000000 0xffffc80000200000 0x1000 null
EOF
is "$(leaf_entry reserved 0xffffc80000000000)" 0x80000000002021e3 \
	"... its evidence ends at that entry"

planted beyond-ram
expect_planted beyond-ram "beyond-ram: the vmalloc page at 8 GiB" <<'EOF'
beyond-ram medium 0xffffc80000000000 0xffffc80000001000 0x1000 null
EOF
is "$(leaf_entry beyond-ram 0xffffc80000000000)" 0x8000000200000163 \
	"... its evidence ends at the PTE naming frame 0x200000000"

"$KMK" --text-bounds --hidden "$TMP/hidden.elf" || bail "pgw-mkkernel --hidden failed"
"$PGWALK" check --all-roots --severity=info --format=json "$TMP/hidden.elf" >"$TMP/hidden.json"
rc=$?
findings "$TMP/hidden.json" | comm -13 "$TMP/base.f" - >"$TMP/hidden.f"
expect_planted hidden "orphan-root: the hidden process's root, high (and its user W+X page)" <<'EOF'
orphan-root high null null 0x606000 null
wx low 0x400000 0x401000 0x606000 null
EOF

# ---- check: filters and exit statuses ----
run "$PGWALK" check --all-roots --format=json --rule=wx,beyond-ram "$TMP/wx.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | .rule' | sort -u | tr '\n' ' ')" \
	"1 wx " "--rule=wx,beyond-ram: only wx findings (none beyond RAM), exit 1"
run "$PGWALK" check --all-roots --severity=high "$TMP/base.elf"
is "$rc" 0 "--severity=high on the unplanted kernel: nothing at or above it, exit 0"
like '^# 0 findings at or above high in 3 roots' "... and the text summary says so"
run "$PGWALK" check --all-roots --severity=high "$TMP/wx.elf"
is "$rc" 1 "--severity=high with a kernel W+X page: exit 1"
run "$PGWALK" check --severity=urgent "$TMP/base.elf"
one_error "--severity=urgent: a usage error naming the levels" 64
run "$PGWALK" check --rule=nx "$TMP/base.elf"
one_error "--rule=nx: a usage error naming the rules" 64
run "$PGWALK" check --all-roots --pid=1 "$TMP/base.elf"
one_error "--all-roots with --pid: a usage error" 64
run "$PGWALK" check --all-roots --max-entries=8 --format=json "$TMP/base.elf"
is "$rc" 4 "--max-entries=8: the budget stops the walks, exit 4"
like '^\{"type":"summary",.*"complete":false,"reason":"budget"\}$' \
	"... the summary says complete false, reason budget"

# One root: --pid names its owner; its kernel half compared with the
# kernel root's.
run "$PGWALK" check --pid=1 --severity=info --format=json "$TMP/hook.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | "\(.rule) \(.pid) \(.comm)"' | sort | tr '\n' ' ')" \
	"kernel-half-mismatch 1 init wx 1 init " \
	"check --pid=1 of the hooked kernel: the mismatch and the user W+X page, owned by pid 1 (init)"

# One root that is a PTI user copy (CPU 1 of x86-64-pti.spec, with
# VMCOREINFO naming the kernel root): its kernel half is small by design,
# so its kernel copy's is the one compared, and matches.
{ cat "$SPECS/x86-64-pti.spec"
  echo 'vmcoreinfo SYMBOL(init_top_pgt)=ffffffff80100000'
  echo 'vmcoreinfo NUMBER(phys_base)=0'; } |
	"$MKIMAGE" -e "$TMP/ptik.elf" || bail "pgw-mkimage failed"
run "$PGWALK" check --cpu=1 --severity=info --format=json "$TMP/ptik.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | .rule' | grep -c .)" "0 0" \
	"check of a PTI user copy: no kernel-half-mismatch for what PTI leaves out (exit 0)"

# Every format: the same records.
n=$("$PGWALK" check --all-roots --severity=info --format=json "$TMP/text-alias.elf" | grep -c '')
for f in csv tsv; do
	run "$PGWALK" check --all-roots --severity=info --format=$f "$TMP/text-alias.elf"
	is "$(printf '%s\n' "$out" | sed 1d | grep -c '')" "$n" "$f: a row per JSON record ($n)"
done
run "$PGWALK" check --all-roots --severity=info --format=csv "$TMP/text-alias.elf"
like '^finding,text-writable-alias,high,0xffff888000200000,0xffff8880002ff800,1046528,0x1000,,,pgd@0x1888=0x2023\|pud@0x2000=0x3023\|pmd@0x3008=0x80000000002001e3,' \
	"csv: the finding with its evidence as LEVEL@ENTRY_PA=ENTRY"
run "$PGWALK" check --all-roots --severity=info "$TMP/base.elf"
like 'pid 10 \\x1b\[31mred\\\\x: user mapping' "text: a comm from the image escaped"

# ---- check: i386, no NX ----
mkimg i386 <"$REPO/tests/golden/i386.spec"
run "$PGWALK" check --cr3=0x600000 --mode=i386 --severity=info --format=json "$TMP/i386.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | .rule' | sort | tr '\n' ' ')" \
	"beyond-ram no-nx pt-writable " \
	"i386: one no-nx finding and no wx; the PSE-36 page above 4 GiB; the 4 MiB user page holding the page directory"
kwx=$(printf '%s\n' "$out" | jq -r 'select(.type == "summary") | .kernel_wx_pages')
want=$("$PGWALK" dump --leaves --format=tsv --cr3=0x600000 --mode=i386 "$TMP/i386.elf" |
	awk -F'\t' '$1 == "map" && $10 ~ /rw/ && $10 !~ /nx/ { n += $4 / 4096 } END { print n + 0 }')
is "$kwx" "$want" "i386: kernel W+X pages ($kwx) as dump --leaves counts them (writable, no NX)"

# ---- diff ----
"$MKIMAGE" -e "$TMP/a.elf" "$REPO/tests/golden/x64.spec" || bail "pgw-mkimage failed"
X="--cr3=0x400000 --mode=x86-64"
# shellcheck disable=SC2086
run "$PGWALK" diff $X "$TMP/a.elf" "$TMP/a.elf"
is "$rc" 0 "diff of an image with itself: exit 0"
like '^# 0 ranges: added 0, removed 0, changed 0, uncompared 0; alike ' "... no range"
# One PTE changed: the data page at 0x403000 moves to frame 0x1a0000
# (its PTE, where translate says it is, rewritten).
# shellcheck disable=SC2086
pte=$("$PGWALK" translate $X --levels --format=json "$TMP/a.elf" 0x403000 |
	jq -r '.levels[-1].entry_pa')
{ cat "$REPO/tests/golden/x64.spec"; echo "entry $pte 0x80000000001a0067"; } |
	"$MKIMAGE" -e "$TMP/b.elf" || bail "pgw-mkimage failed"
# shellcheck disable=SC2086
run "$PGWALK" diff $X --format=json "$TMP/a.elf" "$TMP/b.elf"
is "$rc $(printf '%s\n' "$out" | grep -v '"type":"summary"')" \
	'1 {"type":"changed","va":"0x403000","end":"0x404000","size":4096,"a":{"pa":"0x181000","page_size":4096,"level":"pte","flags":["present","rw","user","accessed","dirty","nx"],"effective":["rw","user","nx"]},"b":{"pa":"0x1a0000","page_size":4096,"level":"pte","flags":["present","rw","user","accessed","dirty","nx"],"effective":["rw","user","nx"]},"changes":["frame"]}' \
	"one PTE changed in a copy: exactly that change (frame), exit 1"
# --data: the same mapping, other bytes.
{ cat "$REPO/tests/golden/x64.spec"; echo 'fill 0x181000 0x5a'; } |
	"$MKIMAGE" -e "$TMP/c.elf" || bail "pgw-mkimage failed"
# shellcheck disable=SC2086
run "$PGWALK" diff $X --data --format=json "$TMP/a.elf" "$TMP/c.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type != "summary") | "\(.type) \(.va) \(.end) \(.changes | join(",")) \(.a.absence)"')" \
	"1 changed 0x403000 0x404000 data null
changed 0xffff888000181000 0xffff888000182000 data null" \
	"--data: the page whose bytes differ and its direct-map alias; the pages beyond the 8 MiB of RAM, outside both images, alike (no partial evidence), exit 1"
# shellcheck disable=SC2086
run "$PGWALK" diff $X "$TMP/a.elf" "$TMP/c.elf"
is "$rc" 0 "... without --data the mappings alone are alike: exit 0"

# A page table the image lacks (its page left out of the ELF's ranges):
# what it maps is uncompared, never removed.
sed 's/^ram 0 8M .*/ram 0 0x401000\nram 0x402000 0x7fe000/' \
	"$REPO/tests/golden/x64.spec" | "$MKIMAGE" -e "$TMP/cut.elf" ||
	bail "pgw-mkimage failed"
# shellcheck disable=SC2086
run "$PGWALK" diff $X --format=json "$TMP/a.elf" "$TMP/cut.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type != "summary") | "\(.type) \(.reason) \(.b.absence)"' | sort -u | tr '\n' ' ')" \
	"2 uncompared table-not-in-image outside " \
	"a page table the second image lacks: its span uncompared (table-not-in-image, outside), nothing removed, exit 2"
like '"complete":false,"reason":"table-not-in-image"' "... and the summary says incomplete"

# PTI: the kernel copy (a) against the user copy (b).
"$MKIMAGE" -e "$TMP/pti.elf" "$SPECS/x86-64-pti.spec" || bail "pgw-mkimage failed"
run "$PGWALK" diff --pti --cpu=1 --format=json "$TMP/pti.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.type != "summary") | "\(.type) \(.va) \(.end) \(.changes | join(","))"')" \
"changed 0x400000 0x402000 permissions
removed 0xffff888000000000 0xffff888004000000 
changed 0xffffffff81000000 0xffffffff81001000 page_size
removed 0xffffffff81001000 0xffffffff81400000 " \
	"PTI pair: the user half NX only in the kernel copy; the kernel ranges the user copy lacks; entry text by 4K pages there; the cpu entry area alike"
like '"root_a":"0x100000","root_b":"0x101000",' "... a is the kernel copy, b the user copy"
run "$PGWALK" diff --pti "$TMP/pti.elf"
is "$rc" 1 "--pti from the kernel root finds its user copy (exit 1: they differ)"
mkimg nopti <"$REPO/tests/golden/x64.spec"
# shellcheck disable=SC2086
run "$PGWALK" diff --pti $X "$TMP/nopti.elf"
one_error "--pti without PTI: no pair, exit 3" 3
run "$PGWALK" diff --pid=1 --pid=10 --max-entries=8 --format=json "$TMP/base.elf"
is "$rc:$out" "4:" "diff with a budget too small: exit 4, nothing listed (the rest would read as removed)"
run "$PGWALK" diff --pid=1 "$TMP/base.elf"
one_error "one root and one image: a usage error" 64
run "$PGWALK" diff --pid=1 --pid=10 --format=json "$TMP/base.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type != "summary") | "\(.type) \(.va) \(.a.pa) \(.b.pa)"')" \
	"1 changed 0x400000 0x701000 0x703000" \
	"two processes: only their user page differs (frame), the kernel halves alike"

done_testing
