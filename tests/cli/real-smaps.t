#!/bin/sh
# pgwalk maps --smaps and --pages on the real dumps, against the guest's
# own smaps and pagemap (console.log):
# - PGWALK-SMAPS lines: Rss, AnonHugePages, KernelPageSize and
#   Shared_Hugetlb + Private_Hugetlb of the THP, hugetlb and 4 KiB regions
#   of the workload processes, equal to --smaps' rss, anon_huge,
#   kernel_page_size and hugetlb;
# - PGWALK-FINAL markers (pa from the guest's /proc/self/pagemap): the page
#   holding each marker is present at that frame, PROT_NONE at it
#   (protnone-touched: pagemap says present, the CPU does not), the zero
#   page a special one (left out of Rss), and never-touched pages empty;
# - the filtered kdump (user data left out, page tables kept): the same
#   states and frames, each present page's data said not to be in it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"

plan 20

# smaps_oracle DIR: "pid va rss anon kps hugetlb" (kB) per PGWALK-SMAPS VMA.
smaps_oracle() {
	tr -d '\r' <"$1/console.log" | awk '$1 == "PGWALK-SMAPS" {
		pid = substr($2, 5); va = substr($4, 4); split($5, kv, "=")
		v = kv[2]; sub(/kB$/, "", v); k = pid " " va
		if (!(k in seen)) { seen[k] = 1; order[++n] = k }
		f[k, kv[1]] = v }
	END { for (i = 1; i <= n; i++) { k = order[i]
		print k, f[k, "Rss"], f[k, "AnonHugePages"],
		      f[k, "KernelPageSize"],
		      f[k, "Shared_Hugetlb"] + f[k, "Private_Hugetlb"] } }'
}
# smaps_ours FILE.json: the same of maps --smaps's vma records.
smaps_ours() {
	jq -r 'select(.type == "vma") | "\(.pid) \(.va) \(.rss / 1024) \(.anon_huge / 1024) \(if .kernel_page_size == null then "null" else .kernel_page_size / 1024 end) \(.hugetlb / 1024)"' "$1"
}
# markers DIR: "pid va kind pa" per PGWALK-FINAL line (pa "none": none).
markers() {
	tr -d '\r' <"$1/console.log" | awk '$1 == "PGWALK-FINAL" {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["pid"], v["marker_va"], v["kind"], v["pa"] }'
}
# states FILE.json MARKERS: "pid va kind state pa special in_image" for the
# page record holding each marker (hex split in two, exact in awk).
states() {
	jq -r 'select(.type == "page") | "P \(.pid) \(.va) \(.end) \(.state) \(.pa) \(.special) \(.in_image)"' "$1" |
	cat - "$2" | awk '
	function hex(s,   i, c, n) { s = tolower(s); sub(/^0x/, "", s); n = 0
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n }
	# high digits (above the low 8) and low 32 bits: exact in a double
	function hi(s) { sub(/^0x/, "", s); return length(s) > 8 ? substr(s, 1, length(s) - 8) : "" }
	function lo(s) { sub(/^0x/, "", s); return hex(length(s) > 8 ? substr(s, length(s) - 7) : s) }
	$1 == "P" { n++; pid[n] = $2; va[n] = $3; end[n] = $4; st[n] = $5
		pa[n] = $6; sp[n] = $7; ii[n] = $8; next }
	{ m = $2; found = 0
	  for (i = 1; i <= n; i++) {
		if (pid[i] != $1 || hi(va[i]) != hi(m) || lo(m) < lo(va[i])) continue
		if (hi(end[i]) == hi(m) && lo(m) >= lo(end[i])) continue
		p = pa[i] == "null" ? "none" : sprintf("0x%x", hex(pa[i]) + lo(m) - lo(va[i]))
		print $1, m, $3, st[i], p, sp[i], ii[i]; found = 1; break }
	  if (!found) print $1, m, $3, "no-record" }'
}
# expect MARKERS: what the guest says of each marker's page, in the same
# columns but in_image.
expect() {
	awk '{ st = "present"; sp = "false"
	       if ($3 == "protnone-touched") { st = "protnone"; sp = "null" }
	       if ($4 == "none") { st = "empty"; sp = "null" }
	       if ($3 == "zeropage") sp = "true"
	       print $1, $2, $3, st, $4, sp }' "$1"
}

for d in x64-4l-a x64-5l-a; do
	S=$SHARED/$d
	elf=$UNPACKED/$d/vmcore.elf
	smaps_oracle "$S" >"$TMP/want"
	n=$(grep -c . "$TMP/want")
	run "$PGWALK" maps --smaps --format=json "$elf"
	is "$rc" 0 "$d: maps --smaps (${err:-no error})"
	printf '%s\n' "$out" >"$TMP/smaps.json"
	cp "$TMP/smaps.json" "$TMP/$d-smaps.json"
	smaps_ours "$TMP/smaps.json" >"$TMP/ours"
	got=$(while read -r pid va rest; do
		grep "^$pid $va " "$TMP/ours" || echo "$pid $va missing"
	done <"$TMP/want")
	is "$got" "$(cat "$TMP/want")" \
		"$d: the $n VMAs of PGWALK-SMAPS: Rss, AnonHugePages, KernelPageSize, hugetlb as the guest's smaps"
	is "$(jq -r 'select(.type == "vma") | select(.present + .protnone + .swap + .other_non_present + .empty + .table_not_in_image != .size) | .va' "$TMP/smaps.json")" "" \
		"$d: every VMA's bytes add up to its size"

	markers "$S" >"$TMP/markers"
	nm=$(grep -c . "$TMP/markers")
	run "$PGWALK" maps --pages --format=json "$elf"
	is "$rc" 0 "$d: maps --pages (${err:-no error})"
	printf '%s\n' "$out" >"$TMP/pages.json"
	states "$TMP/pages.json" "$TMP/markers" >"$TMP/states"
	is "$(cut -d' ' -f1-6 "$TMP/states")" "$(expect "$TMP/markers")" \
		"$d: all $nm markers' pages: state and frame as the guest's pagemap"
	is "$(awk '$4 == "present" && $7 != "true"' "$TMP/states")" "" \
		"$d: ... every present marker page's data in the ELF core"
	is "$(jq -s '[.[] | select(.type == "page" and .state == "present") | .size] | add' "$TMP/pages.json")" \
		"$(jq -s '[.[] | select(.type == "vma") | .present] | add' "$TMP/smaps.json")" \
		"$d: --pages' present pages add up to --smaps' present bytes"
done

k=$SHARED/x64-4l-a/vmcore-d31.kdump
markers "$SHARED/x64-4l-a" >"$TMP/markers"
run "$PGWALK" maps --pages --format=json "$k"
is "$rc" 0 "x64-4l-a vmcore-d31.kdump: maps --pages (${err:-no error})"
printf '%s\n' "$out" >"$TMP/kd.json"
states "$TMP/kd.json" "$TMP/markers" >"$TMP/kstates"
is "$(cut -d' ' -f1-6 "$TMP/kstates")" "$(expect "$TMP/markers")" \
	"x64-4l-a kdump: every marker page's state and frame as in the ELF"
is "$(awk '$4 == "present" && $3 != "zeropage" && $7 != "false"' "$TMP/kstates")" "" \
	"x64-4l-a kdump: ... their data not in the filtered dump (in_image false)"
run "$PGWALK" maps --smaps --format=json "$k"
is "$rc" 0 "x64-4l-a kdump: maps --smaps (${err:-no error})"
printf '%s\n' "$out" >"$TMP/kd-smaps.json"
fields='select(.type == "vma") | "\(.pid) \(.va) \(.rss) \(.present) \(.protnone) \(.empty) \(.anon_huge) \(.hugetlb) \(.kernel_page_size)"'
is "$(jq -r "$fields" "$TMP/kd-smaps.json")" "$(jq -r "$fields" "$TMP/x64-4l-a-smaps.json")" \
	"x64-4l-a kdump: every VMA measured as in the ELF (the page tables are all there)"
is "$(jq -s '[.[] | select(.type == "vma" and .naming != "named") | .bytes_not_in_image] | add > 0' "$TMP/kd-smaps.json")" true \
	"x64-4l-a kdump: user data said not to be in the image"
