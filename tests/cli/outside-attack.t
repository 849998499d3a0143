#!/bin/sh
# The failures an outside attack found (issue 32, part 2), each on an
# image built to provoke it; every assertion here failed before its fix:
#  - ptov of a space that maps nothing (qsort of no array: UBSan under
#    make SAN=1 check);
#  - diff --data of a frame the image lacks: the same answer (uncompared,
#    exit 2, "complete":false) whether the image is given twice or one
#    root twice;
#  - kernel data the image damaged (pgw-mkkernel: eight bytes of
#    kallsyms_relative_base, a garbage tasks.next, a retyped BTF member):
#    roots exits 65 (was 2 for the list, 69 for the BTF), and check
#    --all-roots, whose cross-view (orphan-root: the hidden process) could
#    not run, is incomplete with exit 65 (was "complete":true, exit 0);
#  - check: a self-referencing entry (a process's user-writable one, the
#    kernel's writable and executable one) maps page tables as data: a
#    pt-writable or wx finding (the cycle hole was skipped silently); a
#    kernel-half table pointer beyond RAM: a beyond-ram finding (was 0
#    findings, exit 0);
#  - check: a user page at the vsyscall address on a frame that is not
#    kallsyms' __vsyscall_page is high (was info, "legacy vsyscall page");
#  - SME (C-bit 47 in every entry): check --all-roots and ptov walk with
#    the C-bit as roots does (they found frames "beyond RAM", missed the
#    kernel W+X page, and ptov said no root maps a mapped frame);
#  - a PTI user copy mapping kernel text user-writable and executable:
#    check --all-roots and check of the kernel copy walk the user copy's
#    kernel half too (they reported nothing; only --cr3=<user copy> did);
#  - a hidden process root sharing a top-level entry with init's: a
#    process root no task owns (suspicious), and init's a process (both
#    were "shared-tables", the hidden one an unsuspicious stale copy);
#  - 300 top tables sharing one user half of 64 x 512 pages: check and
#    ptov --all-roots draw every walk, and the roots scan's, from one
#    entry budget (each root had a fresh one: 3000 such roots took 0.6 s
#    and 3.4 s, ~98 M entries, against 0.07 and 0.11 s now).  The bound
#    is on the entries counted (-v), not on time;
#  - a PAE kdump whose first pages are forged 32-byte PDPT slots, each
#    naming another page directory: the scan's decompression budget
#    counts the directories it decompresses to judge a slot (they were
#    outside it: a budget of 1000 pages decompressed 1000 + ~32000);
#  - two VMCOREINFO notes, the first naming a decoy kernel root: every
#    command warns, check and roots say they are incomplete
#    ("vmcoreinfo-conflict", exit 65; the first note won silently).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq not installed"
plan 37

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
like '^summary,([^,]*,){10}data-not-in-image,.* complete=false$' \
	"... CSV: the same reason and complete=false"

# ---- kernel data the image damaged ----
KMK=$PGW_TOOLS/pgw-mkkernel
"$KMK" --hidden "$TMP/hidden.elf" || bail "pgw-mkkernel failed"
run "$PGWALK" check --all-roots --format=json "$TMP/hidden.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.rule == "orphan-root") |
	.root')" "1 0x606000" \
	"the undamaged kernel: check finds the hidden root (the oracle)"
for damage in "--kallsyms-base=0xffffffff12345678 relative base" \
	      "--task-next=0xffffc90000123456 tasks.next" \
	      "--btf-retype BTF member"; do
	"$KMK" --hidden ${damage%% *} "$TMP/dmg.elf" ||
		bail "pgw-mkkernel ${damage%% *} failed"
	run "$PGWALK" roots --format=json "$TMP/dmg.elf"
	is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "names") |
		.complete')" "65 false" \
		"${damage#* } damaged: roots exits 65, names incomplete"
	run "$PGWALK" check --all-roots --format=json "$TMP/dmg.elf"
	is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "summary") |
		"\(.complete) \(.reason) \([.unchecked[].rule] | join(","))"')" \
		"65 false task-list-unread text-writable-alias,orphan-root,unowned-task,outside-vma,beyond-vma,anon-exec,deleted-exe" \
		"${damage#* } damaged: check --all-roots incomplete, exit 65"
done

# ---- check: cycles and a table beyond RAM ----
# findings FILE: "rule severity va end root" of each finding the
# unplanted kernel lacks.
"$KMK" --text-bounds "$TMP/base.elf" || bail "pgw-mkkernel failed"
"$PGWALK" check --all-roots --severity=info --format=json "$TMP/base.elf" |
	jq -r 'select(.type == "finding") |
	       "\(.rule) \(.severity) \(.va) \(.end) \(.root)"' |
	sort >"$TMP/base.f"
for p in "self-map=pt-writable high 0x8000000000 0x10000000000 0x603000" \
	 "kernel-self-map=wx high 0xffff960000000000 0xffff968000000000 0x1000" \
	 "table-beyond-ram=beyond-ram medium 0xffff960000000000 0xffff968000000000 0x1000"; do
	"$KMK" --text-bounds --plant="${p%%=*}" "$TMP/p.elf" ||
		bail "pgw-mkkernel --plant=${p%%=*} failed"
	"$PGWALK" check --all-roots --severity=info --format=json \
		"$TMP/p.elf" >"$TMP/p.json"
	rc=$?
	got=$(jq -r 'select(.type == "finding") |
		"\(.rule) \(.severity) \(.va) \(.end) \(.root)"' "$TMP/p.json" |
		sort | comm -13 "$TMP/base.f" -)
	is "$rc $got" "1 ${p#*=}" "check --plant=${p%%=*}: exactly ${p#*=}"
done

# ---- check: the vsyscall page, the kernel's frame or another ----
for v in "real info" "fake high"; do
	"$KMK" --text-bounds --vsyscall="${v% *}" "$TMP/vs.elf" ||
		bail "pgw-mkkernel --vsyscall=${v% *} failed"
	run "$PGWALK" check --all-roots --severity=info --format=json \
		"$TMP/vs.elf"
	is "$(printf '%s\n' "$out" | jq -r 'select(.rule == "user-kernel") |
		"\(.severity) \(.va) \(.root) \(.evidence[-1].entry)"')" \
		"${v#* } 0xffffffffff600000 0x1000 $( [ "${v% *}" = real ] &&
			echo 0x3c1125 || echo 0x700125)" \
		"vsyscall page on the ${v% *} frame: user-kernel ${v#* }"
done

# ---- SME: every walk with the C-bit ----
"$KMK" --text-bounds --cbit=47 --plant=wx "$TMP/sme.elf" ||
	bail "pgw-mkkernel --cbit=47 failed"
run "$PGWALK" check --all-roots --format=json "$TMP/sme.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "finding") |
	"\(.rule) \(.severity) \(.va) \(.root)"' | sort | tr '\n' ,)" \
	"1 unowned-task medium null 0x605000,unowned-task medium null null,wx high 0xffffffff80600000 0x1000,wx low 0x400000 0x601000,wx low 0x400000 0x603000," \
	"SME: check --all-roots finds the kernel W+X page, no frame beyond RAM"
run "$PGWALK" ptov --format=tsv "$TMP/sme.elf" 0x600000
is "$rc $(printf '%s\n' "$out" | sed 1d | cut -f2,3 | tr '\t\n' ' ,')" \
	"0 0xffff888000600000 0x1000,0xffffffff80600000 0x1000," \
	"SME: ptov finds the kernel's two mappings of a frame"
run "$PGWALK" ptov --all-roots --format=tsv "$TMP/sme.elf" 0x701000
is "$rc $(printf '%s\n' "$out" | sed 1d | cut -f2,3,4 | tr '\t\n' ' ,')" \
	"0 0xffff888000701000 0x1000 -,0xffffffff80701000 0x1000 -,0x400000 0x601000 1," \
	"SME: ptov --all-roots finds init's user page"

# ---- PTI: both roots of a pair ----
{ cat "$SPECS/roots-pti.spec"
  echo "map 0xffffffff81001000 0x1001000 4K rw user"; } >"$TMP/pti.spec"
"$MKIMAGE" -e "$TMP/pti.elf" "$TMP/pti.spec" || bail "pgw-mkimage failed"
"$MKIMAGE" -e "$TMP/pti0.elf" "$SPECS/roots-pti.spec" ||
	bail "pgw-mkimage failed"
want="wx high 0xffffffff81001000 0xffffffff81002000 0x401000,user-kernel high 0xffffffff81001000 0xffffffff81002000 0x401000,"
for how in "--all-roots" "--cr3=0x400000" "--cpu=1"; do
	run "$PGWALK" check $how --severity=info --format=json "$TMP/pti.elf"
	is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "finding") |
		"\(.rule) \(.severity) \(.va) \(.end) \(.root)"' | tr '\n' ,)" \
		"1 $want" "PTI user copy's kernel text W+X, user: check $how"
done
run "$PGWALK" check --all-roots --severity=info --format=json "$TMP/pti0.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "summary") |
	"\(.findings) \(.roots)"')" "0 0 3" \
	"... the pair as Linux makes it: no finding, three roots walked"

# ---- a hidden root sharing init's tables ----
"$KMK" --hidden-shares "$TMP/hs.elf" || bail "pgw-mkkernel failed"
run "$PGWALK" roots --format=json "$TMP/hs.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "root") |
	"\(.root) \(.kind) \(.pid) \(.orphan)"' | tr '\n' ,)" \
	"0x1000 kernel null false,0x601000 process 1 false,0x603000 process 10 false,0x606000 process null true," \
	"hidden root sharing init's tables: both processes, the hidden one an orphan"
is "$(printf '%s\n' "$out" | jq -r 'select(.type == "orphan") |
	"\(.root) \(.suspicious)"')" "0x606000 true" "... a suspicious one"
run "$PGWALK" check --all-roots --format=json "$TMP/hs.elf"
is "$(printf '%s\n' "$out" | jq -r 'select(.rule == "orphan-root") |
	"\(.severity) \(.root)"')" "high 0x606000" \
	"... check: orphan-root high"

# ---- one entry budget for the whole command ----
{ cat <<'EOF'
mode x86-64
ram 0 32M
root 0x1000000
alloc 0x1400000
map 0xffff888000000000 0 32M rw g nx page=2m
map 0xffffffff81000000 0x1000000 4M g page=2m
map 0xffffc90000000000 0x1e00000 8K rw g nx
map 0xfffffe0000000000 0x1e10000 4K rw g nx
entries 0x1800000 0x1801067
entries 0x1801000 0x1802067 64
entries 0x1802000 0x8000000001c00067 512 0x1000
EOF
  i=0
  while [ $i -lt 300 ]; do
	printf 'root 0x%x\nclone-kernel 0x1000000\nentry 0x%x 0x1800067\n' \
		$((0x200000 + i * 4096)) $((0x200000 + i * 4096))
	i=$((i + 1))
  done; } >"$TMP/many.spec"
"$MKIMAGE" -e "$TMP/many.elf" "$TMP/many.spec" || bail "pgw-mkimage failed"
run "$PGWALK" check -v --all-roots --max-entries=200000 --format=json \
	"$TMP/many.elf"
# "N roots walked, E entries, and S by the roots scan (one budget of B"
set -- $(printf '%s\n' "$err" | sed -n 's/.*check: \([0-9]*\) roots walked, \([0-9]*\) entries, and \([0-9]*\) by the roots scan (one budget of \([0-9]*\).*/\1 \2 \3 \4/p')
# A walk stops on the entry past its share: one more each at most.
if [ $# = 4 ] && [ $(($2 + $3)) -le $(($4 + $1 + 1)) ] && [ "$4" = 200000 ] &&
   [ "$rc" = 4 ]; then
	ok 0 "check --all-roots: $1 roots walked, $2 + $3 entries: one budget of $4, exit 4"
else
	ok 1 "check --all-roots: one budget (rc $rc; $*)"
	printf '%s\n' "$err" | sed 's/^/#   /'
fi
case $err in
*"the entry budget (200000, --max-entries) ran out: $((301 - ${1:-0})) roots not walked"*)
	ok 0 "... and says how many roots it left unwalked" ;;
*) ok 1 "... and says how many roots it left unwalked" ;;
esac
run "$PGWALK" ptov -v --all-roots --max-entries=200000 "$TMP/many.elf" 0x1c00000
n=$(printf '%s\n' "$err" | sed -n 's/.*reverse map: 301 roots, [0-9]* walks left undone (\([0-9]*\) entries.*/\1/p')
if [ -n "$n" ] && [ "$n" -le 200301 ] && [ "$rc" = 4 ]; then
	ok 0 "ptov --all-roots: $n entries with the scan's, one budget, exit 4"
else
	ok 1 "ptov --all-roots: one budget (rc $rc, entries '$n')"
	printf '%s\n' "$err" | sed 's/^/#   /'
fi

# ---- PAE: the directories a slot names count against the budget ----
{ cat <<'EOF'
mode pae
ram 0 64M
root 0x1000000
alloc 0x1100000
map 0xc0000000 0 64M rw g page=2m
map 0xff800000 0x3000000 4K rw g
EOF
  awk 'BEGIN { for (p = 0; p < 256; p++) for (s = 0; s < 128; s++) {
	k = p * 128 + s
	printf "entry %d %d\n", 65536 + p * 4096 + s * 32 + 24,
		((k * 7919) % 16384) * 4096 + 1 } }'; } >"$TMP/pae.spec"
"$MKIMAGE" -r "$TMP/pae.raw" "$TMP/pae.spec" || bail "pgw-mkimage failed"
"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/pae.raw" "$TMP/pae.kdump" \
	>/dev/null || bail "pgw-mkdump failed"
line=$("$PGW_TOOLS/pgw-roots" roots --mode=pae --root=0x1000000 \
	--max-decoded=1000 "$TMP/pae.kdump" | sed -n 's/^scan //p')
d=$(printf '%s\n' "$line" | sed -n 's/.* decoded=\([0-9]*\).*/\1/p')
s=$(printf '%s\n' "$line" | sed -n 's/.* scanned=\([0-9]*\).*/\1/p')
# One page's 128 slots may overshoot the budget.
case $line in
*"complete=no"*"the decompression budget (1000) ran out"*)
	if [ "${d:-0}" -ge 1000 ] && [ "$d" -le 1128 ] && [ "$s" -lt 100 ]; then
		ok 0 "PAE kdump, forged slots: $d pages decompressed in $s scanned, within the budget of 1000"
	else
		ok 1 "PAE kdump, forged slots: decoded $d, scanned $s"
	fi ;;
*) ok 1 "PAE kdump, forged slots: the budget stops the scan ($line)" ;;
esac

# ---- two VMCOREINFO notes naming two kernel roots ----
"$KMK" --text-bounds --decoy-note --plant=wx "$TMP/decoy.elf" ||
	bail "pgw-mkkernel --decoy-note failed"
conflict="SYMBOL(init_top_pgt) is ffffffff807b0000 in the first VMCOREINFO and ffffffff80001000 in another"
for how in "check" "check --all-roots"; do
	run "$PGWALK" $how --format=json "$TMP/decoy.elf"
	is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "summary") |
		"\(.complete) \(.reason)"')" "65 false vmcoreinfo-conflict" \
		"decoy note: $how incomplete, exit 65"
done
case $err in
*"pgwalk: warning: two VMCOREINFO notes disagree ($conflict): the first was read"*)
	ok 0 "... and warns, naming the key and both values" ;;
*) ok 1 "... and warns, naming the key and both values"
   printf '%s\n' "$err" | sed 's/^/#   /' ;;
esac
run "$PGWALK" roots --format=json "$TMP/decoy.elf"
is "$rc $(printf '%s\n' "$out" | jq -r 'select(.type == "summary") |
	"\(.complete) \(.reason) \(.why)"')" \
	"65 false vmcoreinfo-conflict $conflict" "decoy note: roots incomplete, exit 65"
run "$PGWALK" info --format=json "$TMP/decoy.elf"
is "$(printf '%s\n' "$out" | jq -r '.facts.vmcoreinfo_conflict')" "$conflict" \
	"decoy note: info's facts say so"

done_testing
