#!/bin/sh
# pgwalk check and pgwalk diff on the real dumps (healthy Linux 6.1
# kernels), against what pgwalk did not compute for the purpose:
#  - check --all-roots finds no kernel-half-mismatch and no user-kernel;
#    the kernel's W+X pages equal the count the test makes itself from
#    dump --leaves (writable and executable leaves of the kernel root,
#    outside x86-64's guard hole, which the kernel's walk skips); its
#    orphan-root findings are the roots `roots` calls orphans; x86-64 has
#    nothing at or above low (exit 0), i386 (no NX) one no-nx finding;
#  - diff: an image against itself and the ELF against mem.raw (the same
#    memory, --data) are empty; the kernel root against CPU 1's differs
#    only in the user half; the two processes forked from one parent
#    share the pages the guest's pagemap says they share (console.log:
#    same VA and frame: alike; the memfd page the child maps elsewhere:
#    added, at the parent's frame); the ELF against the filtered kdump
#    (--data): only data the kdump left out, said uncompared (excluded).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
# 8 per dump; 2 per x86-64 dump (the forked pair); 1 for the d31 kdump.
plan $((4 * 8 + 2 * 2 + 1))

if ! command -v jq >/dev/null 2>&1; then
	bail "jq is needed"
fi

# pad16: hex addresses (0x...) on stdin as 16 digits, for comparing.
pad16() {
	awk '{ v = substr($1, 3); while (length(v) < 16) v = "0" v; print v }'
}
# cr3 DIR CPU: QEMU's CR3 for the CPU.
cr3() {
	sed -n 's/.*CR3=\([0-9a-fA-F]*\).*/0x\1/p' "$1/registers-cpu$2.txt" |
		head -1 | hexnorm
}

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	S=$SHARED/$d
	E=$UNPACKED/$d/vmcore.elf
	R=$UNPACKED/$d/mem.raw
	case $mode in
	x86-64) half=ffff800000000000 guard='^0xffff8[0-7][0-9a-f]{11}$' ;;
	la57) half=ff00000000000000 guard='^0xff0[0-9a-f]{13}$' ;;
	*) half=00000000c0000000 guard='^$' ;;
	esac

	# ---- check ----
	"$PGWALK" check --all-roots --severity=info --format=json "$E" \
		>"$TMP/c.json" 2>"$TMP/c.err"
	rc=$?
	case $rc in 0|1) ok 0 "$d: check --all-roots (exit $rc)" ;;
	*) ok 1 "$d: check --all-roots (exit $rc)"; sed 's/^/#   /' "$TMP/c.err" ;;
	esac
	is "$(jq -r 'select(.rule == "kernel-half-mismatch" or .rule == "user-kernel") | .rule' "$TMP/c.json" | grep -c .)" 0 \
		"$d: no kernel-half-mismatch, no user-kernel (any severity)"
	kwx=$(jq -r 'select(.type == "summary") | .kernel_wx_pages' "$TMP/c.json")
	want=$("$PGWALK" dump --leaves --no-holes --format=tsv "$E" |
		awk -F'\t' -v guard="$guard" '
			$1 == "map" && $10 ~ /(^|\|)rw(\||$)/ && $10 !~ /nx/ &&
			(guard == "^$" || $2 !~ guard) { n += $4 / 4096 }
			END { print n + 0 }')
	is "$kwx" "$want" "$d: kernel W+X pages ($kwx) as counted from dump --leaves"
	orphans=$("$PGWALK" roots --format=json "$E" 2>/dev/null |
		jq -r 'select(.type == "summary") | .orphans')
	got=$(jq -r 'select(.rule == "orphan-root") | .root' "$TMP/c.json" | grep -c .)
	case $orphans in
	null) unchecked=$(jq -r 'select(.type == "summary") | [.unchecked[].rule | select(. == "orphan-root" or . == "unowned-task")] | join(" ")' "$TMP/c.json")
	      is "$got $unchecked" "0 orphan-root unowned-task" \
		"$d: no task list: the cross-view said unchecked, no orphan-root finding" ;;
	*)    is "$got" "$orphans" "$d: an orphan-root finding per orphan roots lists ($orphans)" ;;
	esac
	run "$PGWALK" check --all-roots --format=json "$E"
	above=$(printf '%s\n' "$out" | jq -r 'select(.type == "finding") | "\(.rule) \(.severity)"' | sort | uniq -c | awk '{ print $2, $3, $1 }' | tr '\n' ' ')
	case $mode in
	x86-64|la57) is "$rc:$above" "0:" "$d: nothing at or above low: exit 0" ;;
	i386) is "$rc:$above" "1:no-nx medium 1 " "$d: at or above low, only no-nx (once): exit 1" ;;
	pae) is "$rc:$(printf '%s\n' "$out" | jq -r 'select(.type == "finding" and (.rule != "wx" or .severity != "low" or (.va | length) > 10)) | .rule' | grep -c .)" "1:0" \
		"$d: at or above low only user W+X pages (32-bit processes without NX): exit 1" ;;
	esac

	# ---- diff ----
	run "$PGWALK" diff --cpu=1 "$E" "$E"
	is "$rc:$(printf '%s\n' "$out" | grep -c '^[-+~?] ')" "0:0" "$d: diff of CPU 1's space in an image and itself: empty, exit 0"
	c1=$(cr3 "$S" 1)
	run "$PGWALK" diff --cr3="$c1" --data --format=json "$E" "$R"
	is "$rc:$(printf '%s\n' "$out" | jq -r 'select(.type != "summary") | "\(.type) \(.a.absence) \(.b.absence)"' | sort -u | tr '\n' ' ')$(printf '%s\n' "$out" | jq -r 'select(.type == "summary") | .data_compared > 0')" \
		"0:true" \
		"$d: the ELF against mem.raw, CPU 1's root ($c1), --data: the same mappings and bytes; the device pages neither holds alike, no partial evidence (exit 0)"
	kroot=$("$PGWALK" info --format=json "$E" | jq -r .root)
	"$PGWALK" diff --format=json --root="$kroot" --cpu=1 "$E" >"$TMP/k.json"
	rc=$?
	n=$(jq -r 'select(.type != "summary") | .va' "$TMP/k.json" | pad16 | awk -v h="$half" '$1 >= h' | grep -c .)
	is "$rc:$n" "1:0" "$d: the kernel root against CPU 1's: they differ only below the kernel half"
done

# ---- the forked pair (x86-64): shared pages alike, the child's memfd
# view added at the parent's frame ----
for d in x64-4l-a x64-5l-a; do
	E=$UNPACKED/$d/vmcore.elf
	log=$SHARED/$d/console.log
	parent=$(sed -n 's/.*PGWALK-FINAL pid=\([0-9]*\) name=pgw-shr-parent .*/\1/p' "$log" | head -1)
	child=$(sed -n 's/.*PGWALK-FINAL pid=\([0-9]*\) name=pgw-shr-child .*/\1/p' "$log" | head -1)
	"$PGWALK" diff --pid="$parent" --pid="$child" --format=json "$E" >"$TMP/p.json"
	# Same VA and frame in both (guest's pagemap): in no diff record.
	inside=0 nshared=0
	for va in $(sed -n "s/.*PGWALK-FINAL pid=$child name=pgw-shr-child kind=\(shared-anon\|cow-shared\|memfd-shared-inherited\) marker_va=\(0x[0-9a-f]*\) .*/\2/p" "$log"); do
		nshared=$((nshared + 1))
		v=$(echo "$va" | pad16)
		inside=$((inside + $(jq -r 'select(.type != "summary") | "\(.va) \(.end)"' "$TMP/p.json" |
			awk -v v="$v" '{ s = substr($1, 3); e = substr($2, 3)
				while (length(s) < 16) s = "0" s; while (length(e) < 16) e = "0" e
				if (s <= v && v < e) n++ } END { print n + 0 }')))
	done
	is "$nshared:$inside" "3:0" "$d: pids $parent/$child: the 3 pages they share at one VA (shared anon, COW, inherited memfd) are alike"
	line=$(sed -n "s/.*PGWALK-FINAL pid=$child name=pgw-shr-child kind=memfd-shared marker_va=\(0x[0-9a-f]*\) pa=\(0x[0-9a-f]*\) .*/\1 \2/p" "$log")
	va=${line% *} pa=${line#* }
	got=$(jq -r --arg va "$va" 'select(.type == "added" and .va == $va) | .b.pa' "$TMP/p.json")
	is "$got" "$pa" "$d: the child's own view of the memfd page ($va) added, at the frame the parent maps ($pa)"
done

# ---- the ELF against the filtered kdump: data left out, said so ----
E=$UNPACKED/x64-4l-a/vmcore.elf
c1=$(cr3 "$SHARED/x64-4l-a" 1)
"$PGWALK" diff --cr3="$c1" --data --format=json "$E" "$SHARED/x64-4l-a/vmcore-d31.kdump" >"$TMP/kd.json"
rc=$?
is "$rc:$(jq -r 'select(.type != "summary") | "\(.type) \(.reason) \(.b.absence)"' "$TMP/kd.json" | sort -u | tr '\n' ' ')" \
	"2:uncompared data-not-in-image excluded " \
	"x64-4l-a: ELF against the d31 kdump, --data: only data the kdump excluded uncompared (device pages neither holds are alike; exit 2)"

done_testing
