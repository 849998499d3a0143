#!/bin/sh
# Markers of the process that owns CPU 1's CR3 (the guest's own pagemap
# view): each translates through CPU 1 to its pa, the marker string really
# is at that pa in mem.raw, PROT_NONE pages are unmapped but name their
# real frame, and pages with no frame are unmapped.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"

# owner DUMP: pid of the process whose top table is CPU 1's CR3.
owner() {
	if [ -f "$SHARED/$1/process-roots.txt" ]; then
		# x86-64: crash's table of process roots.
		awk -v r="$(cr3_of "$1" 1)" '$1 ~ /^pid=/ {
			split($3, a, "="); v = tolower(a[2])
			sub(/^0x0*/, "0x", v)
			if (v == r) { sub(/pid=/, "", $1); print $1 } }' \
			"$SHARED/$1/process-roots.txt"
	else
		# i386: the README says whose CR3 each CPU holds.
		awk '/^cpu1:/ { f = 1 }
		     f && /CR3 belongs to pid/ {
			sub(/.*CR3 belongs to pid /, ""); print $1; exit }' \
			"$SHARED/$1/README.txt"
	fi
}

# markers DUMP PID: "va pa kind marker" per marker of PID, pa "-" when the
# page has no frame.  x86-64 guests print PGWALK-FINAL lines; i386 guests
# PGWALK lines with present= and marker=- for no marker.
markers() {
	tr -d '\r' <"$SHARED/$1/console.log" | awk -v pid="$2" '
	function hex(v) {   # pgwalk spelling: lower case, no leading zeros
		v = tolower(v)
		if (v ~ /^0x/) { sub(/^0x0*/, "0x", v); if (v == "0x") v = "0x0" }
		return v
	}
	function field(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	($1 == "PGWALK-FINAL" || $1 == "PGWALK") && $2 == "pid=" pid {
		final = $1 == "PGWALK-FINAL"
		if (!final && seen_final) next
		seen_final = seen_final || final
		va = hex(field("marker_va")); pa = hex(field("pa"))
		m = field("marker")
		gsub(/"/, "", m)
		if (m == "") m = "-"
		if (pa == "none" || field("present") == "0") pa = "-"
		print va, pa, field("kind"), m
	}'
}

for dm in $DUMPS; do
	d=${dm%%:*}
	pid=$(owner "$d")
	if [ -z "$pid" ]; then
		ok 1 "$d: the owner of CPU 1's CR3 is named in the oracles"
		continue
	fi
	markers "$d" "$pid" | sort -u >"$TMP/m"
	n=$(grep -c '' "$TMP/m")
	[ "$n" -gt 10 ]
	ok $? "$d: $n markers of pid $pid, the owner of CPU 1's CR3 $(cr3_of "$d" 1)"

	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	cut -d' ' -f1 "$TMP/m" | "$PGWALK" translate --format=json --cpu=1 \
		"$elf" - >"$TMP/json"
	mapped=0 unmapped=0 protnone=0 strings=0 bad=0
	while read -r va pa kind marker; do
		line=$(grep -m1 "^{\"va\":\"$va\"" "$TMP/json")
		case $kind:$pa in
		protnone*:-) # never touched: no frame at all
			want='"pa":null' ;;
		protnone*)
			pfn=$(printf '0x%x' $((pa >> 12)))
			want="\"pa\":null.*\"kind\":\"protnone\",\"pfn\":\"$pfn\"" ;;
		*:-)	want='"pa":null' ;;
		*)	want="\"pa\":\"$pa\"" ;;
		esac
		if ! printf '%s\n' "$line" | grep -Eq "$want"; then
			bad=$((bad + 1))
			echo "# $d $kind $va: want /$want/, got: $(printf '%s' "$line" | cut -c1-150)"
			continue
		fi
		case $kind:$pa in
		protnone*:-|*:-) unmapped=$((unmapped + 1)); continue ;;
		protnone*) protnone=$((protnone + 1)); continue ;;
		esac
		mapped=$((mapped + 1))
		[ "$marker" = - ] && continue
		# The marker string starts at pa in the raw physical image.
		got=$(dd if="$raw" bs=4096 iflag=skip_bytes,count_bytes \
			skip=$((pa)) count=${#marker} 2>/dev/null)
		if [ "$got" = "$marker" ]; then
			strings=$((strings + 1))
		else
			bad=$((bad + 1))
			echo "# $d $va: at $pa mem.raw has '$got', not '$marker'"
		fi
	done <"$TMP/m"
	is "$bad" 0 "$d: markers agree: $mapped map to their pa ($strings marker strings read there), $protnone PROT_NONE name their frame, $unmapped have no frame"
	[ "$protnone" -ge 1 ] && [ "$strings" -ge 10 ]
	ok $? "$d: the sample covers PROT_NONE and marker strings"
done

done_testing
