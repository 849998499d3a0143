#!/bin/sh
# Effective permissions on the real dumps against what the guests said
# about their own memory:
#  - /proc/PID/maps of the process on CPU 1 (printed on the console): every
#    user range `dump --cpu=1` lists lies inside the process's mappings;
#    it is user, writable only where the mapping has w, and NX exactly
#    where the mapping has no x on x86-64 (i386 2-level has no NX; the PAE
#    guest sets NX on none of its user pages, as QEMU's info tlb shows:
#    there only executable mappings are checked, never NX);
#  - the markers' prot= (x86-64 guests; each marker page of every process,
#    through the process's root from crash's process-roots.txt): a present
#    page translates to the pa the guest's pagemap gave, prot=r and prot=rx
#    pages are read-only, prot=r and prot=rw pages NX, prot=rx pages not.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 14   # 4 per x86-64 dump, 3 per i386 dump

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	dir=$SHARED/$d elf=$UNPACKED/$d/vmcore.elf
	pid=$(owner "$dir")
	vmas "$dir" "$pid" >"$TMP/vmas"
	nv=$(grep -c '' "$TMP/vmas")
	[ "$nv" -gt 10 ]
	ok $? "$d: $nv mappings of pid $pid (CPU 1) on the console"
	# nx: 2 NX exactly without x; 1 never NX where x; 0 never NX at all.
	case $mode in
	i386) nx=0 ;;
	pae) nx=1 ;;
	*) nx=2 ;;
	esac

	"$PGWALK" dump --cpu=1 --no-holes --no-summary --format=tsv "$elf" \
		>"$TMP/dump.tsv"
	is "$?" 0 "$d: dump --cpu=1 exits 0"
	awk -F'\t' -v nx="$nx" "$AWK_HEX"'
	NR == FNR { split($0, f, " "); n++; vs[n] = hexnum(f[1]); ve[n] = hexnum(f[2]); vp[n] = f[3]; next }
	$1 == "map" && $11 == "user" {
		s = hexnum($2); e = hexnum($3); eff = "|" $10 "|"; pages += (e - s) / 4096; runs++
		if (eff !~ /\|user\|/) { bad++; print "# " $2 ": not user" }
		pos = s
		for (i = 1; i <= n && pos < e; i++) {
			if (ve[i] <= pos) continue
			if (vs[i] > pos) break
			x = substr(vp[i], 3, 1) == "x"
			if (eff ~ /\|rw\|/ && substr(vp[i], 2, 1) != "w") { bad++; print "# " $2 ": rw in " vp[i] }
			if (nx == 2 && (eff ~ /\|nx\|/) == x) { bad++; print "# " $2 ": effective " $10 " in " vp[i] }
			if (nx == 1 && x && eff ~ /\|nx\|/) { bad++; print "# " $2 ": nx in " vp[i] }
			if (!nx && eff ~ /\|nx\|/) { bad++; print "# " $2 ": nx without NX" }
			pos = ve[i]
		}
		if (pos < e) { bad++; print "# " $2 "-" $3 ": not inside a mapping" }
	}
	END { print runs + 0, pages + 0, bad + 0 }' "$TMP/vmas" "$TMP/dump.tsv" >"$TMP/check"
	grep '^#' "$TMP/check" | head -5
	set -- $(tail -1 "$TMP/check")
	[ "$1" -gt 10 ] && [ "$3" = 0 ]
	good=$?   # taken now: the case below sets $? to 0
	case $nx in
	2) what="nx exactly where no x" ;;
	1) what="no nx where x" ;;
	0) what="no nx" ;;
	esac
	ok $good "$d: $1 user ranges ($2 pages) inside pid $pid's mappings, rw only where w, $what ($3 wrong)"

	[ -f "$dir/process-roots.txt" ] || continue
	# Marker pages of every process with a root: "va pa prot pid".
	tr -d '\r' <"$dir/console.log" | awk '
	function field(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1) return substr($i, length(k) + 2)
		return ""
	}
	$1 == "PGWALK-FINAL" && field("pa") != "none" && field("prot") != "none" {
		print field("marker_va"), field("pa"), field("prot"), field("pid")
	}' | sort -u >"$TMP/marks"
	: >"$TMP/got"
	for p in $(cut -d' ' -f4 "$TMP/marks" | sort -u); do
		cr3=$(sed -n "s/^pid=$p .*pgd_phys=\(0x[0-9a-f]*\).*/\1/p" "$dir/process-roots.txt")
		[ -n "$cr3" ] || { echo "# $d: no root for pid $p"; continue; }
		awk -v p="$p" '$4 == p { print $1 }' "$TMP/marks" |
			"$PGWALK" translate --format=json --cr3="$cr3" "$elf" - |
			sed -n 's/^{"type":"translation","va":"\([^"]*\)","pa":"\([^"]*\)".*"effective":\[\([^]]*\)\].*/\1 \2 \3/p' |
			sed "s/\"//g; s/\$/ $p/" >>"$TMP/got"
	done
	awk 'NR == FNR { pa[$1 " " $4] = $2; eff[$1 " " $4] = "," $3 ","; next }
	{
		k = $1 " " $4; n++
		if (!(k in pa)) { bad++; print "# pid " $4 " " $1 " (" $3 "): not mapped"; next }
		if (pa[k] != $2) { bad++; print "# pid " $4 " " $1 ": pa " pa[k] ", the guest says " $2 }
		e = eff[k]; w = e ~ /,rw,/; x = e !~ /,nx,/
		if ($3 != "rw" && w) { bad++; print "# pid " $4 " " $1 ": prot=" $3 " but writable" }
		if (($3 == "rx") != x) { bad++; print "# pid " $4 " " $1 ": prot=" $3 " but effective " e }
		kinds[$3]++
	}
	END { print n + 0, bad + 0, kinds["r"] + 0, kinds["rx"] + 0, kinds["rw"] + 0 }' \
		"$TMP/got" "$TMP/marks" | sed 's/0x0*\([0-9a-f]\)/0x\1/g' >"$TMP/check"
	grep '^#' "$TMP/check" | head -5
	set -- $(tail -1 "$TMP/check")
	[ "$1" -gt 50 ] && [ "$2" = 0 ] && [ "$3" -gt 0 ] && [ "$4" -gt 0 ] && [ "$5" -gt 0 ]
	ok $? "$d: $1 marker pages of $(cut -d' ' -f4 "$TMP/marks" | sort -u | grep -c '') processes at the guest's pa with prot= permissions ($3 r, $4 rx, $5 rw; $2 wrong)"
done

done_testing
