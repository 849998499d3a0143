#!/bin/sh
# The x86-64 dumps against crash 8.0.6 with the kernel's debug info
# (crash-vtop.txt, crash-machine.txt):
#  - every level crash's `vtop` walked (table entry address and raw value;
#    for kernel addresses crash gives the top-level value only) is the
#    same entry in pgwalk translate's `levels`, through the process's own
#    root (process-roots.txt) for `vtop -c PID` and the kernel root else;
#  - the effective permissions of every present page equal the ones
#    computed here from crash's raw entries (rw and user ANDed down the
#    levels, nx ORed), its leaf flags are crash's FLAGS, and its physical
#    address is crash's PAGE plus the offset;
#  - for user pages, what their VMA allows (crash's VMA flags: VM_READ 1,
#    VM_WRITE 2, VM_EXEC 4) holds: user, rw only where VM_WRITE, nx exactly
#    where there is no VM_EXEC;
#  - crash's `help -m`/`mach`/`help -k` bases and ends equal `regions`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 24   # 12 per x86-64 dump

# sortlist(s, sep): the items of s (separated by sep), sorted, joined by ",".
SORTLIST='
function sortlist(s, sep,   a, n, i, j, t, out) {
	n = split(s, a, sep)
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	out = ""
	for (i = 1; i <= n; i++) out = out (i > 1 ? "," : "") a[i]
	return out
}
'

# crash_walks FILE: per vtop block with a walk, "va root level entry_pa
# entry" lines (root "kernel" or a pid; entry_pa "-" where crash does not
# print it), then "va root final pa eff flags vmaflags" for a present page
# (eff: U/-, W/-, X/- for user, rw, nx; flags: the leaf's, lower case,
# sorted, comma-separated; vmaflags "-" for kernel pages).
crash_walks() {
	tr -d '\r' <"$1" | awk "$AWK_HEX$SORTLIST"'
	function flush() {
		if (va == "" || nlv == 0) return
		for (i = 1; i <= nlv; i++) print va, root, lv[i]
		if (page != "" && present)
			print va, root, "final", page, (us ? "U" : "-") (rw ? "W" : "-") (nx ? "X" : "-"), flags, vma
	}
	function entry(v,   d) {        # fold one raw entry into the chain
		v = tolower(v); sub(/^0x/, "", v)
		d = index("0123456789abcdef", substr(v, length(v), 1)) - 1
		rw = rw && int(d / 2) % 2; us = us && int(d / 4) % 2
		nx = nx || (length(v) == 16 && index("89abcdef", substr(v, 1, 1)))
		return "0x" v
	}
	/^crash> vtop/ {
		flush()
		va = ""; root = "kernel"; nlv = 0; page = ""; present = 0; vma = "-"
		rw = 1; us = 1; nx = 0; want_vma = 0
		if ($3 == "-c") { root = $4; va = $5 } else va = $3
		va = "0x" tolower(va); next
	}
	/^PAGE DIRECTORY: / { lv[++nlv] = "pgd - " entry($3); next }
	/^ *(PGD|P4D|PUD|PMD|PTE): / {
		l = tolower($1); sub(/:$/, "", l)
		lv[++nlv] = l " 0x" tolower($2) " " entry($4); next
	}
	/^ *PAGE: / {
		size = $0 ~ /\(1GB\)/ ? 2^30 : $0 ~ /\(2MB\)/ ? 2^21 : 4096
		# (the offset from the low digits: va itself is not exact)
		off = hexnum(substr(va, length(va) - 7)) % size
		page = "0x" hex16(hexnum($2) + off); next
	}
	/\((PRESENT|[A-Z]+\|)/ {
		present = $0 ~ /\(PRESENT/
		f = $0; sub(/.*\(/, "", f); sub(/\).*/, "", f)
		f = tolower(f); gsub(/pse/, "ps", f)
		flags = sortlist(f, "|")
		next
	}
	/^ *VMA +START +END +FLAGS/ { want_vma = 1; next }
	want_vma && NF >= 4 { vma = $4; want_vma = 0; next }
	END { flush() }' | sed 's/0x0*\([0-9a-f]\)/0x\1/g'
}

# pgwalk_walks FILE ROOT < translate JSON: the same lines from pgwalk.
pgwalk_walks() {
	awk -v root="$1" "$SORTLIST"'
	function field(s, k,   m) {
		if (!match(s, "\"" k "\":\"[^\"]*\"")) return ""
		m = substr(s, RSTART, RLENGTH); sub(/^"[a-z_]+":"/, "", m); sub(/"$/, "", m)
		return m
	}
	{
		va = field($0, "va")
		n = split($0, part, /\{"level":/)
		for (i = 2; i <= n; i++) {
			p = "{\"level\":" part[i]
			l = field(p, "level")
			ea = root == "kernel" && i == 2 ? "-" : field(p, "entry_pa")
			print va, root, l, ea, field(p, "entry")
		}
		if (match($0, /"effective":\[[^]]*\]/)) {
			e = substr($0, RSTART, RLENGTH)
			match($0, /"flags":\[[^]]*\]/)
			f = substr($0, RSTART + 9, RLENGTH - 10); gsub(/"/, "", f)
			print va, root, "final", field($0, "pa"), \
				(e ~ /"user"/ ? "U" : "-") (e ~ /"rw"/ ? "W" : "-") (e ~ /"nx"/ ? "X" : "-"), sortlist(f, ",")
		}
	}' | sed 's/0x0*\([0-9a-f]\)/0x\1/g'
}

for d in x64-4l-a x64-5l-a; do
	dir=$SHARED/$d elf=$UNPACKED/$d/vmcore.elf
	crash_walks "$dir/crash-vtop.txt" >"$TMP/crash.all"
	# pgwalk's side: the kernel root, or the process's root.
	: >"$TMP/ours"
	for root in $(cut -d' ' -f2 "$TMP/crash.all" | sort -u); do
		awk -v r="$root" '$2 == r { print $1 }' "$TMP/crash.all" | sort -u >"$TMP/vas"
		if [ "$root" = kernel ]; then
			set --
		else
			cr3=$(sed -n "s/^pid=$root .*pgd_phys=\(0x[0-9a-f]*\).*/\1/p" \
				"$dir/process-roots.txt")
			set -- --cr3="$cr3"
		fi
		"$PGWALK" translate --format=json --levels "$@" "$elf" - <"$TMP/vas" |
			pgwalk_walks "$root" >>"$TMP/ours"
	done

	# The levels crash printed, as pgwalk read them.
	grep -v ' final ' "$TMP/crash.all" | sort >"$TMP/want"
	awk 'NR == FNR { k[$1 " " $2 " " $3] = 1; next } ($1 " " $2 " " $3) in k' \
		"$TMP/want" "$TMP/ours" | sort >"$TMP/got"
	n=$(grep -c '' "$TMP/want")
	nb=$(cut -d' ' -f1,2 "$TMP/want" | sort -u | grep -c '')
	if [ "$n" -gt 400 ] && cmp -s "$TMP/want" "$TMP/got"; then
		ok 0 "$d: crash's $n table entries in $nb vtop walks = pgwalk translate's levels"
	else
		ok 1 "$d: crash's $n table entries in $nb vtop walks = pgwalk translate's levels"
		diff "$TMP/want" "$TMP/got" | head -6 | sed 's/^/#   /'
	fi

	# Present pages: physical address and effective permissions.
	grep ' final ' "$TMP/crash.all" | cut -d' ' -f1-6 | sort >"$TMP/want"
	grep ' final ' "$TMP/ours" | sort >"$TMP/got"
	n=$(grep -c '' "$TMP/want")
	kinds=$(cut -d' ' -f5 "$TMP/want" | sort -u | tr '\n' ' ')
	if [ "$n" -gt 100 ] && cmp -s "$TMP/want" "$TMP/got"; then
		ok 0 "$d: $n present pages: pa, leaf flags and effective permissions from crash's entries ($kinds)"
	else
		ok 1 "$d: $n present pages: pa, leaf flags and effective permissions from crash's entries"
		diff "$TMP/want" "$TMP/got" | head -6 | sed 's/^/#   /'
	fi
	case $kinds in
	*U*) ok 0 "$d: ... user and kernel pages among them" ;;
	*) ok 1 "$d: ... user and kernel pages among them" ;;
	esac

	# User pages against their VMA's permissions.
	awk "$AWK_HEX"'$3 == "final" && $2 != "kernel" && $7 != "-" {
		f = hexnum($7) % 8; n++
		want_w = int(f / 2) % 2; want_x = int(f / 4) % 2
		if (substr($5, 1, 1) != "U") { bad++; print "# " $1 " pid " $2 ": not user" }
		if (substr($5, 2, 1) == "W" && !want_w) { bad++; print "# " $1 " pid " $2 ": rw in a VMA without VM_WRITE" }
		if ((substr($5, 3, 1) == "X") == want_x) { bad++; print "# " $1 " pid " $2 ": nx " substr($5, 3, 1) " with VM_EXEC " want_x }
	}
	END { print n + 0, bad + 0 }' "$TMP/crash.all" >"$TMP/vma"
	grep '^#' "$TMP/vma" | head -5
	set -- $(tail -1 "$TMP/vma")
	[ "$1" -gt 50 ] && [ "$2" = 0 ]
	ok $? "$d: $1 user pages: user, rw only with VM_WRITE, nx exactly without VM_EXEC ($2 wrong)"

	# crash's memory map against regions.
	m=$dir/crash-machine.txt
	cm() { sed -n "s/^ *$1: *\([0-9a-f]*\).*/0x\1/p" "$m" | head -1 | hexnorm; }
	run "$PGWALK" regions --format=json "$elf"
	is "$rc" 0 "$d: regions exits 0"
	base() {
		printf '%s\n' "$out" | sed -n "s/.*\"type\":\"base\",\"name\":\"$1\",\"value\":\"\(0x[0-9a-f]*\)\".*/\1/p"
	}
	region() {   # region KEY: "va end" of the first region record with KEY
		printf '%s\n' "$out" | sed -n "s/.*\"type\":\"region\",\"va\":\"\(0x[0-9a-f]*\)\",\"end\":\"\(0x[0-9a-f]*\)\".*\"region\":\"$1\".*/\1 \2/p" | head -1
	}
	# plus1 HEX: HEX + 1, digit by digit (shell arithmetic stops at 2^63).
	plus1() {
		echo "$1" | awk '{
			h = tolower($1); sub(/^0x/, "", h); out = ""; c = 1
			for (i = length(h); i >= 1; i--) {
				d = index("0123456789abcdef", substr(h, i, 1)) - 1 + c
				c = d == 16; if (c) d = 0
				out = substr("0123456789abcdef", d + 1, 1) out
			}
			print "0x" (c ? "1" : "") out }' | hexnorm
	}
	is "$(base page_offset_base)" "$(cm page_offset)" "$d: page_offset_base = crash's page_offset"
	# crash 8.0.6 puts the ends of these two at base + 1280 TB and + 256 TB
	# with 5-level paging, its own constants (x86_64.c); the kernel's are
	# VMALLOC_SIZE_TB_L5 = 12800 TB and 0.5 PB (x86_64/mm.rst): there only
	# the bases are crash's.
	for r in "vmalloc vmalloc_start_addr vmalloc_end" "vmemmap vmemmap_vaddr vmemmap_end"; do
		set -- $r
		got=$(region $1)
		case $d in
		x64-5l*) is "${got% *}" "$(cm $2)" "$d: $1 starts at crash's $2" ;;
		*) is "$got" "$(cm $2) $(plus1 "$(cm $3)")" "$d: $1 = crash's $2..$3" ;;
		esac
	done
	is "$(region modules)" "$(cm modules_vaddr) $(cm modules_end)" \
		"$d: modules = crash's modules_vaddr..modules_end"
	is "$(base MODULES_VADDR)" "$(cm modules_vaddr)" "$d: MODULES_VADDR = crash's modules_vaddr"
	is "$(region kernel_text | cut -d' ' -f1)" "$(cm 'KERNEL START MAP')" \
		"$d: the kernel text mapping starts at crash's KERNEL START MAP"
	is "$(base _stext)" "$(cm stext)" "$d: _stext = crash's stext"
done

done_testing
