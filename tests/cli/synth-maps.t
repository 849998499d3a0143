#!/bin/sh
# pgwalk maps on the synthetic kernel of tests/tools/pgw-mkvmas, whose
# source is the truth: pid 1's VMAs from a maple tree with a node of every
# type (an arange_64 root, a dense leaf, leaf_64 leaves, a range_64 inner
# node) and from the pre-6.1 mmap list alike; paths through a mount and
# its mountpoint, an unlinked file, a memfd's pseudo name, a name with an
# escape sequence and a newline (escaped in every format), a path longer
# than the kernel's page (unknown, not cut), [heap], [stack], [vdso],
# [anon:NAME], a vm_ops->name pgwalk does not know (unknown).  Hostile
# images: a tree that loops, pivots that go down, a VMA not where the
# tree files it, a list that loops back, a dentry loop and a mount loop:
# each bounded, the VMAs before the damage kept, a clear reason, the
# contract's exit status.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
. "$(dirname "$0")/contract.sh"
MKV=$PGW_TOOLS/pgw-mkvmas

plan 62

cat >"$TMP/golden" <<'G'
# pid 1 init mm 0xffff888000500100: 11 VMAs
00000010-00000011 rw-p 00000000 00:00 0 
00400000-00401000 r-xp 00000000 00:02 290                                /bin/prog
00401000-00402000 rw-p 00001000 00:02 290                                /bin/prog
00600000-00621000 rw-p 00000000 00:00 0                                  [heap]
7f0000000000-7f0000001000 rw-s 00000000 00:01 7                          /memfd:pgw (deleted)
7f0000002000-7f0000003000 rw-p 00000000 00:00 0                          [anon:synthetic]
7f0000004000-7f0000005000 r--p 00000000 01:03 77                         /data/sub/dir/\x1b[31mred\x0afile (deleted)
7f0000006000-7f0000007000 r--p 00000000 00:02 300                        <unknown: its path: the path is longer than the 4095 bytes the kernel names a file in (it would print no name)>
7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]
7ffc00100000-7ffc00102000 r-xp 00000000 00:00 0                          [vdso]
7ffc00200000-7ffc00201000 r--p 00000000 00:00 0                          <unknown: named by vm_ops->name 0xffffffff80201500, which pgwalk does not know>
# 1 process, 11 VMAs
G

# maps_of IMAGE [OPTIONS]: pid 1's maps as text, in $out, $rc.
maps_of() {
	_img=$1
	shift
	run "$PGWALK" maps --pid=1 "$@" "$_img"
}
# first N: the golden's first N VMA lines after its # line.
first() { sed -n "2,$(($1 + 1))p" "$TMP/golden"; }
vmas_only() { printf '%s\n' "$out" | grep -v '^#'; }

for form in "" --raw --list "--list --raw"; do
	# shellcheck disable=SC2086
	"$MKV" $form "$TMP/v.img" || bail "pgw-mkvmas $form failed"
	maps_of "$TMP/v.img"
	is "$rc" 0 "${form:-maple tree}: exit 0 (${err:-no error})"
	is "$out" "$(cat "$TMP/golden")" \
		"${form:-maple tree}: pid 1's 11 VMAs as the kernel would print them"
done

"$MKV" "$TMP/v.elf" || bail "pgw-mkvmas failed"
run "$PGWALK" maps --format=json --pid=1 "$TMP/v.elf"
like '"va":"0x7f0000004000",.*"dev":"01:03","inode":77,"naming":"path","path":"/data/sub/dir/\\u001b\[31mred\\u000afile \(deleted\)"' \
	"json: the name's escape and newline as \\u00NN"
like '"va":"0x7f0000006000",.*"naming":"unknown","path":null,"why":"its path: the path is longer than the 4095 bytes' \
	"json: a path too long is unknown, with why"
like '"va":"0x7ffc00100000",.*"naming":"named","path":"\[vdso\]"' \
	"json: the special mapping's name"
like '"va":"0x10","end":"0x11","size":1,"perms":"rw-p",.*"naming":"none","path":null' \
	"json: the dense leaf's VMA, unnamed"
printf '%s\n' "$out" >"$TMP/v.json"
contract_check maps "$TMP/v.json"
ok $? "json: $nrec records per the contract${cerr:+: $cerr}"
run "$PGWALK" maps --format=csv --pid=1 "$TMP/v.elf"
like '^vma,1,init,0x7f0000004000,0x7f0000005000,4096,r--p,0,01:03,77,path,/data/sub/dir/\\x1b\[31mred\\x0afile \(deleted\),rd\|mr\|mw\|me\|sd,,,,' \
	"csv: the path escaped as text, the flags joined by |"
run "$PGWALK" maps --format=tsv --pid=1 "$TMP/v.elf"
is "$(printf '%s\n' "$out" | awk -F '\t' 'NR > 1 { print NF }' | sort -u)" 17 \
	"tsv: every row has the 17 columns (no tab from the image)"

# Every process: kernel threads have no mm and no record; the comm
# escaped.
run "$PGWALK" maps "$TMP/v.elf"
is "$(printf '%s\n' "$out" | grep '^#')" '# pid 1 init mm 0xffff888000500100: 11 VMAs
# pid 10 \x1b[31mred\\x mm 0xffff888000500300: 0 VMAs
# pid 20 lost-pgd mm 0xffff888000500400: 0 VMAs
# pid 30 sixteen-letters! mm 0xffff888000500500: 0 VMAs
# 4 processes, 11 VMAs' "every process with an mm, comms escaped"
run "$PGWALK" maps --comm=sixteen-letters! "$TMP/v.elf"
is "$(printf '%s\n' "$out" | head -1)" \
	"# pid 30 sixteen-letters! mm 0xffff888000500500: 0 VMAs" "--comm"
run "$PGWALK" maps --pid=2 "$TMP/v.elf"
one_error "--pid of a kernel thread: one line, exit 3" 3
run "$PGWALK" maps --pid=99 "$TMP/v.elf"
one_error "--pid of no process: one line, exit 3" 3
run "$PGWALK" maps --all --pid=1 "$TMP/v.elf"
is "$rc" 64 "--all with --pid: usage"
run "$PGWALK" maps --cpu=0 "$TMP/v.elf"
is "$rc" 64 "--cpu: usage (the task list is read through the kernel's root)"

# A kernel whose BTF lacks the VMA reader's structs.
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf" || bail "pgw-mkkernel failed"
run "$PGWALK" maps "$TMP/k.elf"
one_error "no VMA structs in BTF: one line, exit 3" 3
is "$out" "" "... and no records"
like_err() { printf '%s' "$err" | grep -q -- "$1"; ok $? "$2"; }
like_err 'no VMAs: BTF: struct mm_struct has no member start_brk' \
	"... saying which member is missing"

# Hostile trees and lists: bounded, what came before kept, exit 65.
hostile() { # OPTIONS N REASON DESC
	# shellcheck disable=SC2086
	"$MKV" $1 "$TMP/h.elf" || bail "pgw-mkvmas $1 failed"
	maps_of "$TMP/h.elf"
	is "$rc" 65 "$4: exit 65"
	is "$(vmas_only)" "$(first "$2")" "$4: the $2 VMAs before it kept"
	like "^# pid 1 init mm 0xffff888000500100: $2 VMAs, cut short: .*$3" \
		"$4: the process's line says why"
}
hostile --tree-loop 8 'maple tree loops: node 0x[0-9a-f]+ is its own ancestor' \
	"a maple tree looping to its root"
hostile --bad-pivot 2 'leaf_64 node 0x[0-9a-f]+: pivot 2 is 0x3fffff, outside \[0x401000, 0x7effffffffff\]' \
	"pivots going down"
hostile --misfiled 5 'VMA 0x[0-9a-f]+ \[0x7f0000001000, 0x7f0000003000\) of mm 0xffff888000500100 is not where the maple tree files it' \
	"a VMA the tree files elsewhere"
hostile "--list --list-loop" 11 'VMA 0x[0-9a-f]+ \[0x10, 0x11\) of mm 0xffff888000500100 overlaps the one before \(a loop\?\)' \
	"a VMA list looping back"
run "$PGWALK" maps --format=json --pid=1 "$TMP/h.elf"
like '^\{"type":"process","pid":1,"comm":"init","mm":"0xffff888000500100","vmas":11,"complete":false,"reason":"corrupt","why":"VMA ' \
	"json: the process record says corrupt, and why"

# Loops in the path: bounded, the name unknown with why, the rest as
# before.
for l in dentry-loop mount-loop; do
	"$MKV" --$l "$TMP/l.elf" || bail "pgw-mkvmas --$l failed"
	maps_of "$TMP/l.elf"
	is "$rc" 0 "--$l: exit 0"
	printf '%s\n' "$out" | grep -v '^7f0000004000-' >"$TMP/rest"
	is "$(cat "$TMP/rest")" "$(grep -v '^7f0000004000-' "$TMP/golden")" \
		"--$l: every other VMA as before"
done
like '^7f0000004000-7f0000005000 r--p 00000000 01:03 77 +<unknown: its path: more than 1024 mounts above dentry 0x[0-9a-f]+ \(a loop\?\)>$' \
	"--mount-loop: the file's name unknown: the mounts loop"
"$MKV" --dentry-loop "$TMP/l.elf"
maps_of "$TMP/l.elf"
like '^7f0000004000-7f0000005000 r--p 00000000 01:03 77 +<unknown: its path: the path is longer than the 4095 bytes' \
	"--dentry-loop: the file's name unknown: the chain never ends"

# 6.2+ names shared memory given a name (prctl): [anon_shmem:NAME], the
# file's device and inode kept.
"$MKV" --plant=shmem-name "$TMP/s.elf" || bail "pgw-mkvmas failed"
maps_of "$TMP/s.elf" --addr=0x7f0000000000
like '^7f0000000000-7f0000001000 rw-s 00000000 00:01 7 +\[anon_shmem:synthetic\]$' \
	"a named shared-memory VMA: [anon_shmem:NAME]"

# A hugetlb VMA without a page: KernelPageSize from its hstate, as
# smaps says it.
"$MKV" --plant=hugetlb "$TMP/h.elf" || bail "pgw-mkvmas failed"
run "$PGWALK" maps --smaps --format=json --pid=1 --addr=0x7f0000002000 "$TMP/h.elf"
like '"path":"/anon_hugepage \(deleted\)",.*"vm_flag_names":\["rd","wr","mr","mw","me","ht","sd"\],.*"kernel_page_size":2097152,"rss":0,"present":0,.*"empty":4096,.*"hugetlb":0' \
	"a hugetlb VMA with no page: kernel_page_size 2 MiB from the hstate"

# --addr: the VMA of an address, or none (exit 1).
maps_of "$TMP/v.elf" --addr=0x7f0000004123
is "$(vmas_only)" "$(sed -n 8p "$TMP/golden")" "--addr: the VMA holding it"
like '^# 1 process, 1 VMA$' "... counted as the one VMA printed"
maps_of "$TMP/v.elf" --addr=0x500000
is "$rc:$(vmas_only)" "1:" "--addr in no VMA: none, exit 1"
like_err 'no VMA holds 0x500000' "... saying so"

# check's VMA rules: pid 1's page tables map only what its VMAs allow,
# but for what each --plant adds (pgw-mkvmas.c).
rules() { # OPTIONS: "rule severity va end" per finding of check --pid=1
	# shellcheck disable=SC2086
	"$MKV" $1 "$TMP/c.elf" || bail "pgw-mkvmas $1 failed"
	run "$PGWALK" check --severity=info --format=json --pid=1 "$TMP/c.elf"
	printf '%s\n' "$out" >"$TMP/c.json"
	jq -r 'select(.type == "finding") | "\(.rule) \(.severity) \(.va) \(.end) \(.evidence | length)"' "$TMP/c.json"
}
is "$(rules "")" "" "check --pid=1: no finding where the page tables keep to the VMAs"
run "$PGWALK" check --severity=info --pid=1 "$TMP/c.elf"
is "$rc" 0 "... exit 0"
is "$(jq -r 'select(.type == "summary") | [.unchecked[].rule] | join(" ")' "$TMP/c.json")" \
	"text-writable-alias" "... every VMA rule checked"
is "$(rules --plant=outside)" "outside-vma high 0x500000 0x501000 4" \
	"a user page in no VMA: outside-vma, with its walk as evidence"
# A budget spent on the root's walk leaves the VMA rules (a second walk
# of the user half) unchecked: never run on the library's default budget.
run "$PGWALK" check --severity=info --format=json --pid=1 --max-entries=5 "$TMP/c.elf"
is "$rc:$(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | .rule' | tr '\n' ' ')" "4:" \
	"--max-entries=5: no outside-vma from a walk past the budget, exit 4"
like '"complete":false,"reason":"budget"' "... the summary incomplete for the budget"
is "$(rules --plant=beyond)" "wx low 0x600000 0x601000 4
beyond-vma high 0x600000 0x601000 4
beyond-vma high 0x7f0000004000 0x7f0000005000 4" \
	"an executable heap page and a writable page of a read-only file VMA: beyond-vma"
out=$(cat "$TMP/c.json")
like '"why":"mapped writable in a r--p VMA \[0x7f0000004000, 0x7f0000005000\)' \
	"... saying what the VMA allows"
is "$(rules --plant=anon-exec)" "anon-exec info 0x7f0000002000 0x7f0000003000 0" \
	"an executable VMA without a file: anon-exec (info; [vdso] is not one)"
is "$(rules --plant=deleted)" "deleted-exe medium 0x7f0000004000 0x7f0000005000 0" \
	"mm->exe_file unlinked: deleted-exe"
out=$(cat "$TMP/c.json")
like '"why":"the running executable.s file is gone: mm->exe_file is /data/sub/dir/\\u001b\[31mred\\u000afile \(deleted\)"' \
	"... naming it, escaped"
contract_check check "$TMP/c.json"
ok $? "check's records per the contract${cerr:+: $cerr}"
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf"
run "$PGWALK" check --format=json --pid=1 "$TMP/k.elf"
like '"unchecked":\[.*\{"rule":"outside-vma","why":"no VMAs: BTF: struct mm_struct has no member start_brk"\}' \
	"no VMA structs: the VMA rules said unchecked, and why"
