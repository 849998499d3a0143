#!/bin/sh
# The finders of src/linux/ on the real dumps (tests/tools/pgw-roots):
# every process root crash lists (x86-64) or whose pages the guest's own
# pagemap names (i386, PAE) is found as a process, the kernel root as the
# kernel, every other table found has a doubtful kind and a reason, each
# CPU's CR3 (QEMU's info registers) is among the roots; mem.raw gives the
# ELF's roots with VMCOREINFO found in memory (the note's text byte for
# byte) and with VMCOREINFO ignored (the kernel-root scan); the kdumps
# give the same roots, so do LiME and AVML copies of mem.raw, and a
# decompression budget says it cut the scan.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 127
ROOTS=$PGW_TOOLS/pgw-roots
[ -x "$ROOTS" ] || skip_all "pgw-roots is not built (run through make check)"

# roots OUT ARGS...: pgw-roots roots ARGS > OUT; sets rc.
roots() {
	_o=$1
	shift
	"$ROOTS" roots "$@" >"$_o" 2>"$TMP/roots.err"
	rc=$?
}
# table OUT [KINDS]: "root kind user_bytes user_leaves kernel diffs" per
# root (no CPUs: a raw image has none), only KINDS (a regex) if given.
table() {
	awk -v k="${2:-.}" '/^root=/ {
		split($2, a, "="); if (a[2] !~ "^(" k ")$") next
		print $1, $2, $5, $6, $9, $10 }' "$1"
}
field() {
	awk -v r="root=$2" -v k="$3=" '$1 == r {
		for (i = 2; i <= NF; i++)
			if (index($i, k) == 1) print substr($i, length(k) + 1) }' "$1"
}

DOUBTFUL='empty|tables-only|supervisor-only|kernel-image'

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	kr=$(kernel_root "$SHARED/$d")

	roots "$TMP/elf" "$elf"
	is "$rc" 0 "$d: roots of vmcore.elf"
	is "$(sed -n 's/^root=\([^ ]*\) kind=kernel .*/\1/p' "$TMP/elf")" "$kr" \
		"$d: the kernel root $kr is found, kind kernel"
	is "$(awk '/^root=/ && !/why="[^"]/' "$TMP/elf" | wc -l)" 0 \
		"$d: every root says why"
	is "$(table "$TMP/elf" | awk -v ok="^kind=(kernel|process|$DOUBTFUL)\$" \
		'$2 !~ ok' | wc -l)" 0 \
		"$d: no root is unverified, foreign, shared or garbage"
	for c in 0 1; do
		want=$(cr3_of "$SHARED/$d" "$c")
		case $mode in
		pae) want=$(printf '0x%x' $((want & 0xffffffe0))) ;;
		*) want=$(printf '0x%x' $((want & ~0xfff))) ;;
		esac
		is "$(sed -n "s/^cpu=$c root=//p" "$TMP/elf")" "$want" \
			"$d: CPU $c's CR3 selects a root found ($want)"
		is "$(field "$TMP/elf" "$want" kind)" process \
			"$d: ... a process"
	done
	is "$(grep -c 'pti_user=0x' "$TMP/elf")" 0 \
		"$d: no PTI pairs (PTI is off in these guests)"

	if [ -f "$SHARED/$d/process-roots.txt" ]; then
		# crash's mm->pgd of every process: each found as a process,
		# and nothing else is one.
		n=0
		for pgd in $(sed -n 's/^pid=.* pgd_phys=\(0x[0-9a-f]*\).*/\1/p' \
				"$SHARED/$d/process-roots.txt" | hexnorm); do
			n=$((n + 1))
			is "$(field "$TMP/elf" "$pgd" kind)" process \
				"$d: crash's process root $pgd found, kind process"
		done
		is "$(table "$TMP/elf" process | wc -l | tr -d ' ')" "$n" \
			"$d: $n processes, as crash lists"
	else
		# i386: each pid's exclusive pages (pmflags bit 56, in its
		# pagemap's PGWALK-PM lines) are mapped where the pagemap says
		# by one process root (at least half of them: pid 1's pagemap
		# was printed before some later activity), and by no other.
		tr -d '\r' <"$SHARED/$d/console.log" | awk '
			/^PGWALK-PM / && /pmflags=0x102 / {
				split($2, p, "="); split($3, v, "=")
				split($4, f, "=")
				print p[2], v[2], f[2] "000" }' >"$TMP/pm"
		table "$TMP/elf" process | sed 's/^root=\([^ ]*\).*/\1/' \
			>"$TMP/procs"
		: >"$TMP/hits"
		for r in $(cat "$TMP/procs"); do
			cut -d' ' -f2 "$TMP/pm" |
				"$PGWALK" translate --format=tsv --mode="$mode" \
				--cr3="$r" "$raw" - 2>/dev/null | sed 1d | cut -f2 |
				paste -d' ' "$TMP/pm" - |
				awk -v r="$r" '{ n[$1]++; hit[$1] += $3 == $4 }
				    END { for (p in n)
					if (2 * hit[p] >= n[p]) print p, r }' \
				>>"$TMP/hits"
		done
		for pid in $(cut -d' ' -f1 "$TMP/pm" | sort -un); do
			owners=$(awk -v p="$pid" '$1 == p { print $2 }' "$TMP/hits")
			is "$(echo $owners)" "$(echo $owners | cut -d' ' -f1)" \
				"$d: pid $pid's own pages (pagemap) are mapped by one process root: ${owners:-none}"
			[ -n "$owners" ]
			ok $? "$d: ... there is one"
			[ "$pid" = "$(owner "$SHARED/$d")" ] &&
				is "$owners" "$(sed -n 's/^cpu=1 root=//p' "$TMP/elf")" \
					"$d: pid $pid owns CPU 1's CR3, as the README says"
		done
		is "$(wc -l <"$TMP/procs" | tr -d ' ')" \
			"$(cut -d' ' -f1 "$TMP/pm" | sort -u | wc -l | tr -d ' ')" \
			"$d: as many processes as pids with pagemaps"
	fi

	# mem.raw: no notes.  VMCOREINFO found in memory, then the same roots.
	run "$ROOTS" vmcoreinfo "$raw"
	like '^found=0x[0-9a-f]+000 place=note ' \
		"$d: mem.raw: VMCOREINFO found in memory, in the kernel's note"
	like "^found=.* mode=$mode root=$kr\$" \
		"$d: ... naming mode $mode and root $kr, which it walked"
	"$ROOTS" vmcoreinfo --text "$raw" >"$TMP/text"
	if cmp -s "$TMP/text" "$SHARED/$d/vmcoreinfo.txt"; then
		ok 0 "$d: ... its text is the ELF's note (vmcoreinfo.txt), byte for byte"
	else
		ok 1 "$d: ... its text is the ELF's note"
	fi
	roots "$TMP/raw" "$raw"
	is "$rc" 0 "$d: roots of mem.raw"
	grep -q '^# vmcoreinfo found in memory at 0x' "$TMP/raw"
	ok $? "$d: ... with VMCOREINFO found in memory"
	if [ "$(table "$TMP/raw")" = "$(table "$TMP/elf")" ]; then
		ok 0 "$d: ... the ELF's roots, kinds and counts"
	else
		ok 1 "$d: ... the ELF's roots"
		diff "$TMP/elf" "$TMP/raw" | head -5 | sed 's/^/#   /'
	fi

	# VMCOREINFO ignored: the kernel-root scan, in every mode.
	run "$ROOTS" kernel-root "$raw"
	like "^mode=$mode root=$kr " \
		"$d: kernel-root scan without VMCOREINFO: $mode, $kr"
	roots "$TMP/scan" --how=scan "$raw"
	if [ "$rc" = 0 ] && [ "$(table "$TMP/scan")" = "$(table "$TMP/elf")" ]; then
		ok 0 "$d: ... and from it the ELF's roots"
	else
		ok 1 "$d: ... and from it the ELF's roots"
		diff "$TMP/elf" "$TMP/scan" | head -5 | sed 's/^/#   /'
	fi
done

# LiME and AVML (written from mem.raw by pgw-mkdump): no notes either;
# VMCOREINFO found in memory, and the raw image's roots.
raw=$UNPACKED/x64-4l-a/mem.raw
roots "$TMP/raw" "$raw"
at=$(sed -n 's/^# vmcoreinfo found in memory at \(0x[0-9a-f]*\) .*/\1/p' "$TMP/raw")
for fmt in lime avml; do
	"$PGW_TOOLS/pgw-mkdump" "$fmt" --raw="$raw" "$TMP/x.$fmt" >/dev/null ||
		echo "# pgw-mkdump $fmt failed"
	roots "$TMP/out" "$TMP/x.$fmt"
	grep -q "^# vmcoreinfo found in memory at $at (note)\$" "$TMP/out"
	ok $? "x64-4l-a as $fmt: VMCOREINFO found in memory where mem.raw has it ($at)"
	is "$(table "$TMP/out")" "$(table "$TMP/raw")" \
		"x64-4l-a as $fmt: the raw image's roots"
	rm -f "$TMP/x.$fmt"
done

# kdumps: the pages filtered out hold no page table, so the processes and
# the kernel root are all there.
k=$SHARED/x64-4l-a/vmcore-d31.kdump
if [ -f "$k" ]; then
	roots "$TMP/elf" "$UNPACKED/x64-4l-a/vmcore.elf"
	roots "$TMP/kd" "$k"
	is "$rc" 0 "vmcore-d31.kdump: roots"
	is "$(table "$TMP/kd" 'kernel|process')" \
		"$(table "$TMP/elf" 'kernel|process')" \
		"vmcore-d31.kdump: the kernel and process roots of the ELF"
	grep -q '^scan .* absent=[1-9][0-9]* .*complete=yes' "$TMP/kd"
	ok $? "vmcore-d31.kdump: the pages it left out counted as absent"
	roots "$TMP/kd" --max-decoded=1000 "$k"
	grep -q 'complete=no .*why="scan stopped at physical 0x[0-9a-f]*, after [0-9]* of 32768 pages: the decompression budget (1000) ran out"' "$TMP/kd"
	ok $? "vmcore-d31.kdump: a decompression budget stops the scan, and says so"
fi
k=$SHARED/i386-pae-a/vmcore.kdump-zlib
if [ -f "$k" ]; then
	roots "$TMP/elf" "$UNPACKED/i386-pae-a/vmcore.elf"
	roots "$TMP/kd" "$k"
	is "$(table "$TMP/kd")" "$(table "$TMP/elf")" \
		"vmcore.kdump-zlib (QEMU, flattened): the ELF's roots"
fi
done_testing
