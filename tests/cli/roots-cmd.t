#!/bin/sh
# `pgwalk roots`, --pid, --comm and translate's hint on the synthetic
# kernel of tests/tools/pgw-mkkernel (ksynth.h: kallsyms, BTF, a task list
# of 6 tasks, process roots at 0x601000 for pid 1 and 0x603000 for pid 10,
# whose comm is an escape sequence), where every answer is known; then
# what hostile kernel data does to the command: a fake VMCOREINFO page, a
# BTF header lying about its sizes, kallsyms offsets pointing anywhere, a
# task list that loops.  Each ends with one clear line on stderr, its exit
# status, in well under a second, with every root still listed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
plan 39

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
# roots_of JSON: "root kind pid" per root record.
roots_of() {
	sed -n 's/^{"type":"root","root":"\([^"]*\)","kind":"\([^"]*\)",.*"pid":\([^,]*\),.*/\1 \2 \3/p' "$1"
}
# guarded CMD...: run under a 60 s watchdog, so a hang fails (exit 124)
# instead of stalling the suite.  Cost is checked as work (pages read,
# holes skipped), never as wall time: a busy machine must not fail a test.
guarded() {
	run timeout 60 "$@"
}

mk "$TMP/k.elf"
run "$PGWALK" roots --format=json "$TMP/k.elf"
is "$rc:$err" "0:" "roots exits 0, nothing on stderr"
printf '%s\n' "$out" >"$TMP/k.json"
is "$(roots_of "$TMP/k.json" | tr '\n' ' ')" \
	"0x1000 kernel null 0x601000 process 1 0x603000 process 10 " \
	"the kernel root and both process roots, named"
like '"root":"0x603000",.*"comm":"\\u001b\[31mred\\\\x"' \
	"JSON: an escape sequence in comm as \\u001b, a backslash as \\\\"
like '^\{"type":"unowned-task","pid":20,"comm":"lost-pgd",.*"root":null,"why":"no root to find: .*does not translate' \
	"pid 20, whose mm->pgd does not translate: an unowned task, and why"
like '^\{"type":"unowned-task","pid":30,.*"root":"0x605000","why":"its top table 0x605000 shares 0 of 3 kernel-half entries' \
	"pid 30, whose table has no kernel half: an unowned task, and why"
like '^\{"type":"summary",.*"orphans":0,"suspicious_orphans":0,"unowned_tasks":2,.*"complete":true' \
	"the summary counts them"
run "$PGWALK" roots "$TMP/k.elf"
like '^0x603000 +process +10 \\x1b\[31mred\\\\x ' \
	"text: the comm escaped (\\x1b, \\\\): nothing reaches the terminal raw"
unlike "$(printf '\033')" "... no escape byte in the text output"
run "$PGWALK" roots --format=csv "$TMP/k.elf"
like '^root,0x603000,process,10,\\x1b\[31mred\\\\x,' "CSV: the same escaping"

# --pid, --comm and --root choose the roots the scan found (TSV: a header
# row, then the record).
pa_of() { printf '%s\n' "$out" | sed 1d | cut -f2; }
run "$PGWALK" translate --format=tsv --pid=1 "$TMP/k.elf" 0x400000
is "$rc:$(pa_of)" "0:0x701000" \
	"translate --pid=1: through 0x601000, to 0x701000"
run "$PGWALK" translate --format=tsv --comm="$(printf '\033[31mred\\x')" \
	"$TMP/k.elf" 0x400000
is "$rc:$(pa_of)" "0:0x703000" \
	"translate --comm=<the escape sequence>: pid 10's root"
run "$PGWALK" translate --format=tsv --root=0x603000 "$TMP/k.elf" 0x400000
is "$rc:$(pa_of)" "0:0x703000" "--root=0x603000 alike"
run "$PGWALK" translate --pid=20 "$TMP/k.elf" 0x400000
one_error "--pid of a task whose pgd does not translate" 3
run "$PGWALK" translate --root=0x603008 "$TMP/k.elf" 0x400000
one_error "--root that is no table's address" 64
run "$PGWALK" translate --pid=1 --cpu=0 "$TMP/k.elf" 0x400000
one_error "--pid and --cpu together" 64

# The kernel root maps no user memory: the hint names who does.
run "$PGWALK" translate "$TMP/k.elf" 0x400000
is "$rc" 1 "a user address of the kernel root does not translate"
printf '%s\n' "$err" | grep -q '^pgwalk: 0x400000 is a user address and the root is the kernel.s, which maps no process; 2 processes map it: pid 1 (init), pid 10 (\\x1b\[31mred\\\\x); give one, e.g. --pid=1$'
ok $? "... and a hint names the processes that map it: $err"

mk --same-comm "$TMP/same.elf"
run "$PGWALK" translate --comm=init "$TMP/same.elf" 0x400000
one_error "--comm of two processes" 3
out=$err
like '2 processes have that name: pids 1, 30; give --pid' "... listing their pids"

# A raw image: VMCOREINFO's text in memory, next to a fake page.
mk --raw --fake-vmcoreinfo --hidden "$TMP/k.raw"
run "$PGWALK" info "$TMP/k.raw"
like '^vmcoreinfo: +12 lines \(found in memory at 0x7f0000\)$' \
	"raw: the kernel's VMCOREINFO found in memory, the fake passed by"
run "$PGWALK" roots --format=json "$TMP/k.raw"
like '^\{"type":"orphan","root":"0x606000","kind":"process","suspicious":true,' \
	"a process root no task owns: a suspicious orphan"
run "$PGWALK" roots "$TMP/k.raw"
like '^orphan 0x606000 process: it maps user pages, yet no task' \
	"... and text says why"

# The image in an 8 TiB file (2^31 pages, budget raised past them): each hole is one
# step, so the scans answer under the watchdog (page by page, ~70 ns a
# page, they took 150 s) with every page counted, all but the image's
# 2048 as holes, and the same finds as the 8 MiB file.
if truncate -s 8T "$TMP/k8.raw" 2>/dev/null &&
   cat "$TMP/k.raw" 1<>"$TMP/k8.raw" &&
   [ "$(du -k "$TMP/k8.raw" | cut -f1)" -lt 65536 ]; then
	guarded "$PGW_TOOLS/pgw-roots" vmcoreinfo --max-pages=0x10000000000 \
		"$TMP/k8.raw"
	is "$rc:$(printf '%s\n' "$out" | sed -n 's/^found=\([^ ]*\) .*/\1/p;s/^scan pages=\([0-9]*\) scanned=\([0-9]*\) .* complete=\([a-z]*\) .* holes=\([0-9]*\)\( .*\)\{0,1\}$/\1 \2 \3 \4/p' | tr '\n' ' ')" \
		"0:0x7f0000 2147483648 2147483648 yes 2147481600 " \
		"an 8 TiB sparse raw image: VMCOREINFO found, every hole stepped over whole"
	guarded "$PGW_TOOLS/pgw-roots" roots --max-pages=0x10000000000 \
		"$TMP/k8.raw"
	is "$rc:$(printf '%s\n' "$out" | grep -c '^root=') $(printf '%s\n' "$out" | sed -n 's/^scan .* complete=\([a-z]*\) .* holes=\([0-9]*\)\( .*\)\{0,1\}$/\1 \2/p')" \
		"0:4 yes 2147481600" \
		"... and the root scan: the same 4 roots, every hole stepped over whole"
	rm -f "$TMP/k8.raw"
else
	skip "no sparse files here"
	skip "no sparse files here"
fi

# The same image grown to 64 GiB by a hole: the scans skip what a sparse
# file does not hold, rather than map 16 M pages of zeros.
if truncate -s 64G "$TMP/k.raw" 2>/dev/null &&
   [ "$(du -k "$TMP/k.raw" | cut -f1)" -lt 65536 ]; then
	guarded "$PGWALK" roots -v --format=json "$TMP/k.raw"
	# Of the 16 M pages, all but the few the file holds are skipped as holes.
	holes=$(printf '%s\n' "$err" |
		sed -n 's/.*, \([0-9]*\) in holes of the sparse file or zero-filled).*/\1/p')
	[ "${holes:-0}" -ge 16770000 ] &&
		[ "$(printf '%s\n' "$out" | grep -c '^{"type":"root"')" = 4 ] &&
		[ "$rc" = 0 ]
	ok $? "a 64 GiB sparse raw image: the same 4 roots, exit $rc, ${holes:-no} pages skipped as holes: $(printf '%s\n' "$err" | grep 'scan:')"
	rm -f "$TMP/k.raw"
else
	skip "no sparse files here"
fi

# An ELF whose PT_LOAD claims 2^63 bytes past a 2 KiB file (the fuzzer's
# timeout): its excluded tail (p_memsz > p_filesz) is stepped over in one
# step, not page by page (work counted: every page up to the scan's
# budget, as not in the image).
run "$PGW_TOOLS/pgw-roots" vmcoreinfo \
	"$(dirname "$0")/../../fuzz/corpus/image_elf/timeout-zero-fill-scan.elf"
absent=$(printf '%s\n' "$out" | sed -n 's/^scan .* absent=\([0-9]*\).*/\1/p')
[ "$rc" = 1 ] && [ "${absent:-0}" -ge 67108000 ]
ok $? "a claimed 2^63-byte excluded tail: ${absent:-no} pages stepped over as not in the image, exit $rc (none found)"
# A LiME range of 2^63 bytes cut short after 16 KiB: the same for the part
# the file lacks (counted as absent, none read).
run "$PGW_TOOLS/pgw-roots" vmcoreinfo \
	"$(dirname "$0")/../../fuzz/corpus/image_lime/timeout-cut-range-scan.lime"
absent=$(printf '%s\n' "$out" | sed -n 's/^scan .* absent=\([0-9]*\).*/\1/p')
[ "$rc" = 1 ] && [ "${absent:-0}" -ge 67108000 ]
ok $? "a 2^63-byte LiME range cut short: ${absent:-no} pages stepped over as not in the image, exit $rc (none found)"
# An AVML range of 2^59 bytes whose stream is missing (the next timeout:
# AVML keeps its own ranges; fmt_lime_avml.t checks the runs themselves).
run "$PGW_TOOLS/pgw-roots" vmcoreinfo \
	"$(dirname "$0")/../../fuzz/corpus/image_avml/timeout-cut-range-scan.avml"
absent=$(printf '%s\n' "$out" | sed -n 's/^scan .* absent=\([0-9]*\).*/\1/p')
[ "$rc" = 1 ] && [ "${absent:-0}" -ge 67108000 ]
ok $? "a 2^59-byte AVML range cut short: ${absent:-no} pages stepped over as not in the image, exit $rc (none found)"

mk --raw --no-vmcoreinfo --fake-vmcoreinfo "$TMP/fake.raw"
guarded "$PGWALK" info "$TMP/fake.raw"
like '^vmcoreinfo: +none \(the image has no VMCOREINFO note; 1 page in memory begins like VMCOREINFO, none valid: 0x7e0000 \(data\): PAGESIZE=8192, not 4096; the kernel root found by scan\)$' \
	"only a fake VMCOREINFO page: rejected, with the reason; the kernel-root scan instead"
like '^root: +0x1000 \(kernel root found by scan: ' "... which finds the kernel root"

# Hostile kernel data: every root listed, one line, exit 65, at once.
for h in loop:'task list loops: entry 4' \
	 btf-lies:'libbpf refuses the 548-byte blob' \
	 kallsyms-wild:'kallsyms: _stext decodes to'; do
	mk --"${h%%:*}" "$TMP/h.elf"
	guarded "$PGWALK" roots --format=json "$TMP/h.elf"
	is "$rc:$(printf '%s\n' "$out" | grep -c '^{"type":"root"'):$(printf '%s\n' "$err" | grep -c '')" \
		"65:3:1" "--${h%%:*}: exit 65, the 3 roots listed, one stderr line"
	printf '%s\n' "$err" | grep -q "${h#*:}" &&
		printf '%s\n' "$out" | grep -q '^{"type":"names","complete":false,.*"why":'
	ok $? "... saying '${h#*:}', the names record incomplete"
done
# The loop comes after pid 10: it is still found; pid 30 is not.
mk --loop "$TMP/h.elf"
run "$PGWALK" translate --format=tsv --pid=10 "$TMP/h.elf" 0x400000
is "$rc:$(pa_of)" "0:0x703000" \
	"a task list that loops: --pid of a process read before the loop works"
run "$PGWALK" translate --pid=30 "$TMP/h.elf" 0x400000
one_error "... one after it is not found" 3
out=$err
like 'no process with that pid among the 4 tasks .*; the list is cut short: task list loops' \
	"... and the message says the list was cut short by a loop"

done_testing
