#!/bin/sh
# `pgwalk roots` and the root options (--pid, --comm, --root) on the real
# dumps, against crash's process-roots.txt (every process's mm->pgd, pid
# and comm), QEMU's CR3s and the guests' own pagemap (console.log markers):
#  - every process root with its pid and comm, the kernel root, no other
#    process root, each CPU's CR3 on its root, no unowned task, no
#    suspicious orphan; the same roots from mem.raw (VMCOREINFO found in
#    memory); text, CSV and TSV with the same records;
#  - translate --pid=N equal to translate --cr3=<its root> for every
#    process, the markers of each process through --pid at the pa its
#    pagemap gave, --comm as --pid, --root as --cr3;
#  - the kernel-kdump-style vmcores (QEMU's CPU notes dropped, NT_PRSTATUS
#    and VMCOREINFO left: tests/tools/pgw-renote) of vmcore.elf and of the
#    filtered vmcore-d31.kdump: the same named roots, and --pid;
#  - i386 (no BTF, kallsyms without data symbols): every root listed,
#    the processes named by the inferred layout (the names record says
#    so), CPU 1's root pgw-spin's, --pid through it as --cpu=1.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
RENOTE=$PGW_TOOLS/pgw-renote
# x86-64: 19 per dump + 5 marker pids (x64-4l-a adds 3 for the d31
# kdump); i386: 8 per dump.
plan $((2 * 19 + 2 * 5 + 3 + 2 * 8))

# roots_list JSON: "root kind pid comm" per root record, in order.
roots_list() {
	sed -n 's/^{"type":"root","root":"\([^"]*\)","kind":"\([^"]*\)",.*"pid":\([^,]*\),"comm":\(null\|"[^"]*"\),.*/\1 \2 \3 \4/p' "$1" |
		tr -d '"'
}
# crash_roots DIR: "root process pid comm" per process of process-roots.txt.
crash_roots() {
	sed -n 's/^pid=\([0-9]*\) comm=\([^ ]*\) pgd_phys=\(0x[0-9a-fA-F]*\).*/\3 process \1 \2/p' \
		"$1/process-roots.txt" | hexnorm | sort
}
# field JSON TYPE KEY: KEY's raw value in the first TYPE record.
field() {
	grep -m1 "^{\"type\":\"$2\"" "$1" |
		sed -n "s/.*\"$3\":\(\"[^\"]*\"\|[^,}]*\).*/\1/p" | tr -d '"'
}
# cpu_root JSON CPU: the root whose "cpus" lists CPU.
cpu_root() {
	grep '^{"type":"root"' "$1" | grep -E "\"cpus\":\[([0-9]+,)*$2(,[0-9]+)*\]" |
		sed -n 's/^{"type":"root","root":"\([^"]*\)".*/\1/p'
}
# csv_fields FILE SEP: the field counts of FILE's rows (CSV: quotes kept
# whole), one per distinct count.
csv_fields() {
	awk -v sep="$2" '{
		n = 1; q = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\"") q = !q
			else if (c == sep && !q) n++
		}
		print n }' "$1" | sort -u | tr '\n' ' '
}

x64() {
	d=$1 dir=$SHARED/$1 elf=$UNPACKED/$1/vmcore.elf raw=$UNPACKED/$1/mem.raw
	"$PGWALK" roots --format=json "$elf" >"$TMP/elf.json" 2>"$TMP/err"
	is "$?:$(cat "$TMP/err")" "0:" "$d: roots exits 0 and says nothing on stderr"
	kr=$(kernel_root "$dir")
	is "$(roots_list "$TMP/elf.json" | head -1)" "$kr kernel null null" \
		"$d: the kernel root first, as crash's init_top_pgt"
	crash_roots "$dir" >"$TMP/want"
	roots_list "$TMP/elf.json" | awk '$2 == "process"' | sort >"$TMP/got"
	agree "$d: the process roots, each with crash's pid and comm, and no other" \
		"$TMP/want" "$TMP/got"
	for c in $(cpus_of "$dir"); do
		is "$(cpu_root "$TMP/elf.json" "$c")" "$(cr3_of "$dir" "$c")" \
			"$d: CPU $c's CR3 (QEMU's info registers) listed on its root"
	done
	is "$(field "$TMP/elf.json" summary unowned_tasks):$(field "$TMP/elf.json" summary suspicious_orphans):$(field "$TMP/elf.json" summary complete)" \
		"0:0:true" "$d: no unowned task, no suspicious orphan, complete"
	orphans=$(grep -c '^{"type":"orphan"' "$TMP/elf.json")
	is "$orphans" "$(grep '^{"type":"root"' "$TMP/elf.json" | grep -c '"orphan":true')" \
		"$d: an orphan record for each orphan root ($orphans)"
	is "$(field "$TMP/elf.json" names complete)" true \
		"$d: the whole task list read ($(field "$TMP/elf.json" names tasks) tasks)"

	roots_list "$TMP/elf.json" >"$TMP/elf.list"
	"$PGWALK" roots --format=json "$raw" >"$TMP/raw.json"
	roots_list "$TMP/raw.json" >"$TMP/raw.list"
	agree "$d: mem.raw, with no flags: the same roots, pids and comms" \
		"$TMP/elf.list" "$TMP/raw.list"

	run "$PGWALK" roots "$elf"
	pid=$(owner "$dir")
	comm=$(awk -v p="$pid" '$3 == p { print $4 }' "$TMP/want")
	like "^$(cr3_of "$dir" 1) +process +$pid $comm +1 " \
		"$d: text: CPU 1's root, pid $pid ($comm), on CPU 1"
	nrec=$(grep -c '' "$TMP/elf.json")
	"$PGWALK" roots --format=csv "$elf" >"$TMP/csv"
	"$PGWALK" roots --format=tsv "$elf" >"$TMP/tsv"
	is "$(csv_fields "$TMP/csv" ,)|$(csv_fields "$TMP/tsv" "	")|$(grep -c '' "$TMP/csv")" \
		"15 |15 |$((nrec + 1))" \
		"$d: CSV and TSV: 15 columns, a header and one row per JSON record"

	# --pid is --cr3 of that root, for every process, on CPU 1's addresses
	# (--pid and --comm add the addresses' names: the columns after
	# pkey, the eleventh).
	qemu_answers "$dir" 1 | cut -f1 >"$TMP/vas"
	bad=0
	while read -r root _ p c; do
		"$PGWALK" translate --format=tsv --pid="$p" "$elf" - <"$TMP/vas" \
			2>/dev/null | cut -f1-11 >"$TMP/a"
		"$PGWALK" translate --format=tsv --cr3="$root" "$elf" - <"$TMP/vas" \
			>"$TMP/b" 2>/dev/null
		cmp -s "$TMP/a" "$TMP/b" && [ -s "$TMP/a" ] ||
			{ bad=$((bad + 1)); echo "# pid $p ($c): --pid differs from --cr3=$root"; }
	done <"$TMP/want"
	is "$bad" 0 "$d: translate --pid=N equals --cr3=<N's root> for each of $(grep -c '' "$TMP/want") processes ($(grep -c '' "$TMP/vas") addresses)"
	"$PGWALK" translate --format=tsv --comm="$comm" "$raw" - <"$TMP/vas" |
		cut -f1-11 >"$TMP/a"
	"$PGWALK" translate --format=tsv --cpu=1 "$elf" - <"$TMP/vas" >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b"
	ok $? "$d: translate --comm=$comm mem.raw equals --cpu=1 of vmcore.elf"
	"$PGWALK" translate --format=tsv --root="$(cr3_of "$dir" 1)" "$elf" - \
		<"$TMP/vas" >"$TMP/a"
	cmp -s "$TMP/a" "$TMP/b"
	ok $? "$d: --root=<CPU 1's root> equals --cpu=1"

	# The markers of every process that printed some, through --pid.
	for p in $(tr -d '\r' <"$dir/console.log" |
		   sed -n 's/^PGWALK-FINAL pid=\([0-9]*\) .*/\1/p' | sort -un); do
		markers "$dir" "$p" >"$TMP/m"
		awk '$2 != "-" && $3 !~ /^protnone/ { print $1 }' "$TMP/m" |
			"$PGWALK" translate --format=tsv --pid="$p" "$raw" - |
			sed 1d | cut -f1,2 >"$TMP/got"
		awk '$2 != "-" && $3 !~ /^protnone/ { print $1 "\t" $2 }' "$TMP/m" >"$TMP/want.m"
		agree "$d: pid $p's markers through --pid, at its pagemap's pa" \
			"$TMP/want.m" "$TMP/got"
	done

	# As the kernel's own kdump writes it: NT_PRSTATUS, no CPU registers.
	"$RENOTE" --drop=QEMU "$elf" "$TMP/kk.elf" || bail "pgw-renote failed"
	run "$PGWALK" info "$TMP/kk.elf"
	like '^cpus: +0 \(QEMU notes\), 0 with registers, 2 NT_PRSTATUS$' \
		"$d: the kdump-style vmcore has NT_PRSTATUS notes only"
	"$PGWALK" roots --format=json "$TMP/kk.elf" >"$TMP/kk.json"
	roots_list "$TMP/kk.json" >"$TMP/kk.list"
	grep -q '"cpus":\[[0-9]' "$TMP/kk.json" && echo >>"$TMP/kk.list"
	agree "$d: ... the same named roots, no CPU on any" \
		"$TMP/elf.list" "$TMP/kk.list"
	"$PGWALK" translate --format=tsv --pid="$pid" "$TMP/kk.elf" - <"$TMP/vas" |
		cut -f1-11 >"$TMP/a"
	cmp -s "$TMP/a" "$TMP/b"
	ok $? "$d: ... translate --pid=$pid there equals --cpu=1 of vmcore.elf"
	rm -f "$TMP/kk.elf"

	run "$PGWALK" translate --pid=2 "$elf" 0x400000
	one_error "$d: --pid of a kernel thread" 3
	run "$PGWALK" translate --pid=99999 "$elf" 0x400000
	one_error "$d: --pid of no process" 3
}

x64_d31() {
	d=x64-4l-a dir=$SHARED/x64-4l-a
	"$RENOTE" --drop=QEMU "$dir/vmcore-d31.kdump" "$TMP/kk.kdump" ||
		bail "pgw-renote failed"
	"$PGWALK" roots --format=json "$TMP/kk.kdump" >"$TMP/kk.json"
	crash_roots "$dir" >"$TMP/want"
	roots_list "$TMP/kk.json" | awk '$2 == "process"' | sort >"$TMP/got"
	agree "$d: the filtered (-d 31) kdump-style kdump: every process root named" \
		"$TMP/want" "$TMP/got"
	n=$(grep -c '^{"type":"root"' "$TMP/kk.json")
	is "$(grep -c '"cpus":\[\]' "$TMP/kk.json"):$([ "$n" -ge 9 ] && echo many)" \
		"$n:many" "... no CPU on any of its $n roots"
	pid=$(owner "$dir")
	markers "$dir" "$pid" | awk '$2 != "-" && $3 !~ /^protnone/' >"$TMP/m"
	cut -d' ' -f1 "$TMP/m" |
		"$PGWALK" translate --format=json --pid="$pid" "$TMP/kk.kdump" - |
		sed -n 's/^{"type":"translation","va":"\([^"]*\)","pa":"\([^"]*\)".*/\1\t\2/p' >"$TMP/got"
	awk '{ print $1 "\t" $2 }' "$TMP/m" >"$TMP/want.m"
	agree "$d: ... pid $pid's markers through --pid (their data filtered out)" \
		"$TMP/want.m" "$TMP/got"
}

i386() {
	d=$1 dir=$SHARED/$1 elf=$UNPACKED/$1/vmcore.elf raw=$UNPACKED/$1/mem.raw
	"$PGWALK" roots --format=json "$elf" >"$TMP/elf.json" 2>"$TMP/err"
	is "$?:$(grep -c '' "$TMP/err")" "0:0" \
		"$d: roots exits 0, nothing on stderr"
	is "$(field "$TMP/elf.json" names complete):$(field "$TMP/elf.json" names method)" \
		"true:inferred-layout" \
		"$d: no BTF: the names record says the layout was inferred"
	is "$(roots_list "$TMP/elf.json" | head -1)" "$(kernel_root "$dir") kernel null null" \
		"$d: the kernel root first"
	is "$(roots_list "$TMP/elf.json" | awk '$2 == "process" && $3 != "null"' |
	      grep -c .)" 7 "$d: 7 process roots named (real-infer.t: as the guest's ps)"
	r=$(cr3_of "$dir" 1)
	spin=$(sed -n 's/^PGWALK-PROCS .*spin=\([0-9]*\).*/\1/p' "$dir/console.log")
	is "$(roots_list "$TMP/elf.json" | awk -v r="$r" '$1 == r { print $2, $3, $4 }')" \
		"process $spin pgw-spin" "$d: CPU 1's CR3 $r is pgw-spin's root (pid $spin)"
	"$PGWALK" roots --format=json "$raw" >"$TMP/raw.json" 2>/dev/null
	roots_list "$TMP/elf.json" >"$TMP/elf.list"
	roots_list "$TMP/raw.json" >"$TMP/raw.list"
	agree "$d: mem.raw, with no flags: the same roots, the same names" \
		"$TMP/elf.list" "$TMP/raw.list"
	run "$PGWALK" translate --pid="$spin" "$elf" 0x8048000
	a=$out
	run "$PGWALK" translate --cpu=1 "$elf" 0x8048000
	[ -n "$a" ] && [ "$a" = "$out" ]
	ok $? "$d: translate --pid=$spin (the inferred task list) = --cpu=1"
	run "$PGWALK" translate --pid=2 "$elf" 0x8048000
	one_error "$d: --pid of a kernel thread says why" 3
}

for dm in $DUMPS; do
	case $dm in
	x64*) x64 "${dm%%:*}" ;;
	*) i386 "${dm%%:*}" ;;
	esac
done
x64_d31

done_testing
