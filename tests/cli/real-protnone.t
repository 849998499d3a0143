#!/bin/sh
# PROT_NONE pages of the real dumps, against the guests' own words: each
# page a process wrote and then made PROT_NONE (console.log: x86-64's
# PGWALK-FINAL kind=protnone-touched with its frame from
# /proc/self/pagemap and its marker; i386's and PAE's PGWALK-PM lines of
# perm ---p with the pfn, whose page starts PGWALK-MARKER-PID-VA).  QEMU
# answers Unmapped for them (the hardware's view), and crash prints the
# frame still inverted (L1TF); ptov --all-roots must list the page at its
# VA marked protnone, and read through that root must return the marker.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 20

# oracle DIR: "pid va pa marker" per PROT_NONE page, once each.
oracle() {
	c=$SHARED/$1/console.log
	{ sed -n 's/^PGWALK-FINAL pid=\([0-9]*\) .* kind=protnone-touched marker_va=\(0x[0-9a-f]*\) pa=\(0x[0-9a-f]*\) .* marker="\([^"]*\)".*/\1 \2 \3 \4/p' "$c"
	  sed -n 's/^PGWALK-PM pid=\([0-9]*\) va=0x\([0-9a-f]*\) pfn=0x\([0-9a-f]*\) .*perm=---p.*/\1 \2 \3/p' "$c" |
		while read -r pid va pfn; do
			echo "$pid 0x$va 0x${pfn}000 PGWALK-MARKER-$pid-$va"
		done; } | sort -u
}
for d in x64-4l-a x64-5l-a i386-pae-a i386-2l-a; do
	img=$UNPACKED/$d/vmcore.elf
	oracle "$d" >"$TMP/o"
	[ -s "$TMP/o" ] || bail "$d: no PROT_NONE page in console.log"
	while read -r pid va pa marker; do
		"$PGWALK" ptov --all-roots --format=json "$img" "$pa" 2>/dev/null >"$TMP/p"
		line=$(grep "\"va\":\"$va\"" "$TMP/p")
		root=$(printf '%s\n' "$line" | sed -n 's/.*"root":"\([^"]*\)".*/\1/p')
		case $line in
		*'"level":"pte","flags":[],"effective":[],"protnone":true}') r=0 ;;
		*) r=1 ;;
		esac
		case $d in x64*) case $line in *"\"pid\":$pid,"*) ;; *) r=1 ;; esac ;; esac
		ok $r "$d: ptov --all-roots $pa lists pid $pid's $va, protnone"
		[ $r = 0 ] || sed 's/^/#   /' "$TMP/p"
		run "$PGWALK" read --raw --root="$root" "$img" "$va" ${#marker}
		is "$rc:$out" "0:$marker" "$d: read $va through root $root: the marker, exit 0"
		# crash's vtop (x86-64): the same PTE, whose frame it prints
		# still inverted (L1TF); pgwalk names the frame pagemap gave.
		case $d in x64*)
		pte=$(grep -A8 "^crash> vtop -c $pid ${va#0x}$" "$SHARED/$d/crash-vtop.txt" |
			sed -n 's/^ *PTE: \([0-9a-f]*\) => \([0-9a-f]*\)$/0x\1 0x\2/p')
		[ -n "$pte" ] || bail "$d: crash-vtop.txt has no vtop of $va"
		run "$PGWALK" translate --levels --format=json --root="$root" "$img" "$va"
		like "\"level\":\"pte\",[^}]*\"entry_pa\":\"${pte% *}\",\"entry\":\"${pte#* }\",\"non_present\":\{\"kind\":\"protnone\",\"pa\":\"$pa\"\}" \
			"$d: $va's pte as crash read it (${pte% *} => ${pte#* }), its frame un-inverted: $pa" ;;
		esac
	done <"$TMP/o"
done
done_testing
