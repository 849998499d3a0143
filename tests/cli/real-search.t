#!/bin/sh
# search on the real dumps against the guests' own word: every marker
# string console.log names (PGWALK-FINAL ... marker_va= pa= marker=) is
# found at its virtual address in its process (--pid), PROT_NONE and
# shared pages included, by --string and by --hex with a wildcard, on the
# ELF core and the raw image; --phys finds each at its pa from the
# guest's pagemap; a YARA rule finds each at its va in its pid, and
# over physical memory exactly the matches the yara command finds in
# the raw image.  The filtered kdump (-d 31: user data left out) finds
# none of them where they lie and says what it could not search: exactly
# the bytes the ELF searched that it lacks, and the pages info counts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 23   # 11 per x86-64 dump, 1 for the kdump

# markers_all DIR: "pid va marker" for every marker string console.log
# names (pages with no string, never touched or never read, are left out).
markers_all() {
	tr -d '\r' <"$1/console.log" | awk '
	function field(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	$1 == "PGWALK-FINAL" {
		m = field(k = "marker"); gsub(/"/, "", m)
		if (m == "") next
		va = tolower(field("marker_va")); sub(/^0x0*/, "0x", va)
		pa = tolower(field("pa")); sub(/^0x0*/, "0x", pa)
		print substr($2, 5), va, m, pa
	}' | sort -u
}
# hexpat TEXT: TEXT's bytes in hex, the seventh byte a ?? wildcard.
hexpat() {
	printf '%s' "$1" | od -An -tx1 | tr -d ' \n' |
		sed -E 's/^(.{12})../\1??/'
}

# found IMAGE KIND: "pid va marker" per hit of every marker of every pid
# (one search per pid, all its markers at once), for markers.
found() {
	_img=$1 _kind=$2
	: >"$TMP/pats"
	for pid in $(cut -d' ' -f1 "$TMP/m" | sort -u); do
		set --
		while read -r p _va m _pa; do
			[ "$p" = "$pid" ] || continue
			if [ "$_kind" = hex ]; then _p=$(hexpat "$m")
			else _p=$m; fi
			set -- "$@" "--$_kind=$_p"
			echo "$_kind:$_p $m" >>"$TMP/pats"
		done <"$TMP/m"
		"$PGWALK" search --pid="$pid" --format=json --context=0 \
			--max-hits=100000 "$@" "$_img" 2>/dev/null |
			jq -r 'select(.type == "hit") | "\(.pid) \(.va) \(.pattern)"'
	done >"$TMP/hits"
	awk 'NR == FNR { m[$1] = $2; next } { print $1, $2, m[$3] }' \
		"$TMP/pats" "$TMP/hits" | sort -u
}

for d in x64-4l-a x64-5l-a; do
	markers_all "$SHARED/$d" >"$TMP/m"
	cut -d' ' -f1-3 "$TMP/m" >"$TMP/want"
	n=$(grep -c '' "$TMP/want")
	for img in vmcore.elf mem.raw; do
		for kind in string hex; do
			found "$UNPACKED/$d/$img" $kind >"$TMP/got"
			miss=$(comm -23 "$TMP/want" "$TMP/got")
			is "$miss" "" "$d $img --$kind: all $n markers found at their va in their pid"
		done
	done
	# One regular expression for all of them, per process: each marker is
	# a whole match at its va.
	for pid in $(cut -d' ' -f1 "$TMP/m" | sort -u); do
		"$PGWALK" search --pid="$pid" --format=json --context=0 \
			--max-hits=100000 --regex='PGWALK-(MARKER|SHARED|FILE-PAGE)-[0-9a-f-]+' \
			"$UNPACKED/$d/mem.raw" 2>/dev/null |
			jq -r 'select(.type == "hit") | "\(.pid) \(.va) \(.context)"'
	done | sort -u >"$TMP/got"
	miss=$(comm -23 "$TMP/want" "$TMP/got")
	is "$miss" "" "$d mem.raw --regex: all $n markers whole matches at their va in their pid"
	# A YARA rule (tests/rules/markers.yar): each marker a whole match of
	# its regular expression at its va; over mem.raw, exactly the string
	# matches (offset and name) of the yara command on the same file.
	if command -v yara >/dev/null 2>&1; then
		for pid in $(cut -d' ' -f1 "$TMP/m" | sort -u); do
			"$PGWALK" search --pid="$pid" --format=json --context=0 \
				--max-hits=100000 --yara="$REPO/tests/rules/markers.yar" \
				"$UNPACKED/$d/mem.raw" 2>/dev/null |
				jq -r 'select(.type == "hit" and .pattern == "yara:markers:$re") | "\(.pid) \(.va) \(.context)"'
		done | sort -u >"$TMP/got"
		miss=$(comm -23 "$TMP/want" "$TMP/got")
		is "$miss" "" "$d mem.raw --yara: all $n markers matched at their va in their pid"
		yara -s "$REPO/tests/rules/markers.yar" "$UNPACKED/$d/mem.raw" |
			awk -F: 'NR > 1 { print $1, $2 }' | sort >"$TMP/ywant"
		"$PGWALK" search --phys --format=json --context=0 --max-hits=1000000 \
			--yara="$REPO/tests/rules/markers.yar" "$UNPACKED/$d/mem.raw" |
			jq -r 'select(.type == "hit") | "\(.pa) \(.pattern | sub("^yara:markers:"; ""))"' |
			sort >"$TMP/ygot"
		is "$(diff "$TMP/ywant" "$TMP/ygot" | head -5)" "" \
			"$d mem.raw --phys --yara: the $(grep -c '' "$TMP/ywant") string matches the yara command finds, no more"
	else
		skip "the yara command is not installed"
		skip "the yara command is not installed"
	fi
	# Every root at once: physical memory searched once, each hit named
	# by every root that maps its frame.
	set --
	for m in $(cut -d' ' -f3 "$TMP/m" | sort -u); do set -- "$@" "--string=$m"; done
	for how in "--all-roots vmcore.elf" "--phys --map mem.raw"; do
		# shellcheck disable=SC2086
		"$PGWALK" search ${how% *} --format=json --context=0 --max-hits=100000 "$@" \
			"$UNPACKED/$d/${how##* }" 2>/dev/null |
			jq -r 'select(.type == "hit" and .pid != null) | "\(.pid) \(.va) \(.pattern | sub("^string:"; ""))"' |
			sort -u >"$TMP/got"
		miss=$(comm -23 "$TMP/want" "$TMP/got")
		is "$miss" "" "$d search $how: all $n markers named by their pid and va"
	done
	# --phys: each marker at its pa, the guest's pagemap's word.
	awk '$4 != "none" { print $4, $3 }' "$TMP/m" | sort -u >"$TMP/pwant"
	set --
	for m in $(cut -d' ' -f3 "$TMP/m" | sort -u); do set -- "$@" "--string=$m"; done
	"$PGWALK" search --phys --format=json --context=0 --max-hits=100000 "$@" \
		"$UNPACKED/$d/mem.raw" |
		jq -r 'select(.type == "hit") | "\(.pa) \(.pattern | sub("^string:"; ""))"' |
		sort -u >"$TMP/pgot"
	miss=$(comm -23 "$TMP/pwant" "$TMP/pgot")
	is "$miss" "" "$d mem.raw --phys: all $(grep -c '' "$TMP/pwant") marker pages found at their pa"
	# A match that runs from one page into the next: the 12 bytes
	# before pid 129's second anonymous marker page (the end of the
	# first, another frame) and the first 20 of its marker.
	set -- $(tr -d '\r' <"$SHARED/$d/console.log" |
		sed -n 's/^PGWALK-FINAL pid=129 .*marker_va=\(0x[0-9a-f]*\) pa=\(0x[0-9a-f]*\) .*marker="\([^"]*\)" note=anon16384K+0x1000$/\1 \2 \3/p')
	pid=129 va=$1 m=$3
	pre=$("$PGWALK" read --raw --pid="$pid" "$UNPACKED/$d/mem.raw" \
		"$(printf '0x%x' $((va - 12)))" 12 | od -An -tx1 | tr -d ' \n')
	"$PGWALK" search --pid="$pid" --format=json --hex="$pre$(printf '%.20s' "$m" |
		od -An -tx1 | tr -d ' \n')" "$UNPACKED/$d/mem.raw" |
		jq -r 'select(.type == "hit") | .va' >"$TMP/x"
	is "$(cat "$TMP/x")" "$(printf '0x%x' $((va - 12)))" \
		"$d: a match across a page boundary (12 bytes before pid $pid's $va, 20 after)"
done

# The filtered kdump of x64-4l-a: no marker where it lies; every byte
# the ELF searched in pid 129 is searched here or counted as not in the
# image; --phys searches exactly the pages info says it holds.
d=x64-4l-a
kd=$SHARED/$d/vmcore-d31.kdump
markers_all "$SHARED/$d" | awk '$1 == 129' >"$TMP/m"
set --
while read -r p va m pa; do set -- "$@" "--string=$m"; done <"$TMP/m"
"$PGWALK" search --pid=129 --format=json --max-hits=100000 "$@" "$kd" >"$TMP/k.json" 2>/dev/null
krc=$?
"$PGWALK" search --pid=129 --format=json --max-hits=100000 "$@" \
	"$UNPACKED/$d/vmcore.elf" >"$TMP/e.json" 2>/dev/null
at_va=$(jq -r 'select(.type == "hit") | .va' "$TMP/k.json" |
	grep -cxF -f "$(cut -d' ' -f2 "$TMP/m" >"$TMP/vas"; echo "$TMP/vas")")
ks=$(jq -r 'select(.type == "summary") | "\(.bytes_searched + .bytes_not_in_image - .not_in_image.outside) \(.complete) \(.reason)"' "$TMP/k.json")
es=$(jq -r 'select(.type == "summary") | "\(.bytes_searched + .bytes_not_in_image - .not_in_image.outside)"' "$TMP/e.json")
"$PGWALK" info --format=json "$kd" >"$TMP/info.json"
"$PGWALK" search --phys --format=json --string=PGWALK-MARKER "$kd" >"$TMP/p.json" 2>/dev/null
pw=$(jq -r '"\(.pages.dumped * 4096) \(.pages.excluded * 4096)"' "$TMP/info.json")
pg=$(jq -r 'select(.type == "summary") | "\(.bytes_searched) \(.not_in_image.excluded)"' "$TMP/p.json")
is "$krc at_va=$at_va $ks $pg" \
	"2 at_va=0 ${es%% *} false data-not-in-image $pw" \
	"$d vmcore-d31.kdump: no marker at its va (exit 2, data-not-in-image); pid 129 searched or counted as the ELF; --phys searched and excluded bytes as info counts them"
