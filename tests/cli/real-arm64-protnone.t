#!/bin/sh
# PROT_NONE pages of the arm64 dumps against the guests' own words: each
# page a process wrote and then made PROT_NONE (console.log's
# PGWALK-FINAL kind=protnone-touched, its frame from /proc/self/pagemap,
# its marker).  6.1 (arm64-4k-a) marks them with PTE_PROT_NONE (bit 58),
# 6.12 (arm64-16k-a) with PTE_PRESENT_INVALID (nG); QEMU answers
# Unmapped (the hardware's view).  translate names the kept frame, ptov
# --all-roots lists the page at its VA as protnone, read returns the
# marker, dump --non-present and maps --smaps count it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real-arm64.sh"
plan 20

for a in arm64-4k-a:4096 arm64-16k-a:16384; do
	d=${a%%:*} page=${a#*:} img=$UNPACKED/$d/vmcore.elf
	tr -d '\r' <"$SHARED/$d/console.log" |
		sed -n 's/^PGWALK-FINAL pid=\([0-9]*\) .* kind=protnone-touched marker_va=\(0x[0-9a-f]*\) pa=\(0x[0-9a-f]*\) .* marker="\([^"]*\)".*/\1 \2 \3 \4/p' |
		sort -u >"$TMP/o"
	[ "$(grep -c '' "$TMP/o")" = 2 ] || bail "$d: console.log has not two PROT_NONE pages"
	while read -r pid va pa marker; do
		run "$PGWALK" translate --levels --pid="$pid" "$img" "$va"
		like "^  pte .* not present \\(protnone, pa $pa\\)$" \
			"$d: pid $pid's $va: a PROT_NONE pte, frame $pa (pagemap)"
		"$PGWALK" ptov --all-roots --format=json "$img" "$pa" 2>/dev/null >"$TMP/p"
		line=$(grep "\"va\":\"$va\"" "$TMP/p")
		case $line in
		*"\"pid\":$pid,"*'"level":"pte","flags":[],"effective":[],"protnone":true}') r=0 ;;
		*) r=1 ;;
		esac
		ok $r "$d: ptov --all-roots $pa lists pid $pid's $va, protnone"
		[ $r = 0 ] || sed 's/^/#   /' "$TMP/p"
		run "$PGWALK" read --raw --pid="$pid" "$img" "$va" ${#marker}
		is "$rc:$out" "0:$marker" "$d: read pid $pid's $va: the marker, exit 0"
		run "$PGWALK" dump --non-present --no-holes -f tsv --pid="$pid" "$img"
		is "$(printf '%s\n' "$out" | awk -F'\t' -v va="$va" -v pa="$pa" '$1 == "hole" && $2 == va && $15 ~ (" non_present=protnone pa=" pa "$")' | grep -c '')" 1 \
			"$d: dump --non-present: pid $pid's $va once, protnone at $pa"
		run "$PGWALK" maps --smaps -f json --pid="$pid" "$img"
		like "\"va\":\"$va\",\"end\":\"0x[0-9a-f]*\",\"size\":$page,\"perms\":\"---p\".*\"rss\":$page,\"present\":0,\"protnone\":$page," \
			"$d: maps --smaps: pid $pid's ---p VMA at $va holds one PROT_NONE page ($page bytes)"
	done <"$TMP/o"
done
done_testing
