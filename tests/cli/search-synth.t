#!/bin/sh
# search on synthetic images whose every byte the specs say
# (tests/specs/search.spec, search-repeat.spec, search-roots.spec):
# matches across pages
# that follow one another virtually but not physically, across two 2 MiB
# pages, at the very end of RAM and never past it; pages a filtered kdump
# leaves out counted as not searched, exactly as pgw-mkdump's filter
# drops them; memory described three times, and 1 GiB mapping one frame,
# searched once; --all-roots and --phys --map naming each hit by every
# root that maps its frame (PROT_NONE pages too), or none; the bound on
# hits; every output format; usage errors; YARA conditions per 256 KiB
# chunk, and a libyara that cannot be loaded (exit 69).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 38

"$MKIMAGE" -r "$TMP/s.raw" -e "$TMP/s.elf" "$SPECS/search.spec" &&
	"$PGW_TOOLS/pgw-mkdump" kdump --raw="$TMP/s.raw" --filter "$TMP/s.kdump" >/dev/null &&
	"$MKIMAGE" -e "$TMP/r.elf" "$SPECS/search-repeat.spec" &&
	"$MKIMAGE" -e "$TMP/q.elf" "$SPECS/search-roots.spec" ||
	bail "cannot build the images"
V="--mode=x86-64 --cr3=0x1000"
PATS="--string=PGWSPLIT-ACROSS --string=HUGEPAGE-BOUNDARY --string=EXCLUDED-MARK --string=END-OF-RAM-MARK"
# hits FILE: "va pa pattern" per hit; summary FILE: its counts.
hits() { jq -r 'select(.type == "hit") | "\(.va) \(.pa) \(.pattern)"' "$1" | tr '\n' ';'; }
summary() {
	jq -r 'select(.type == "summary") | "hits=\(.hits) searched=\(.bytes_searched) excluded=\(.not_in_image.excluded) not_in_image=\(.bytes_not_in_image) complete=\(.complete) \(.reason // "")"' "$1"
}
# like_err PATTERN DESC: stderr of the last run matches.
like_err() {
	if printf '%s\n' "$err" | grep -Eq -- "$1"; then ok 0 "$2"; else
		ok 1 "$2"; printf '%s\n' "$err" | head -3 | sed 's/^/#   /'; fi
}
# frames_excluded PFN...: how many of the frames pgw-mkdump --filter
# leaves out (pfn 0, and from 256 every third).
frames_excluded() {
	for p in "$@"; do echo "$p"; done |
		awk '$1 == 0 || ($1 >= 256 && $1 % 3 == 0) { n++ } END { print n + 0 }'
}
# The frames the spec maps: 0x301, 0x202, 0x400-0x5ff, 0xa00-0xbff,
# 0x300, 0xfff.
MAPPED="769 514 $(seq 1024 1535) $(seq 2560 3071) 768 4095"
NMAPPED=$(echo $MAPPED | wc -w)

WANT="0x400ff8 0x301ff8 string:PGWSPLIT-ACROSS;0x500000 0x300000 string:EXCLUDED-MARK;0x600ff0 0xfffff0 string:END-OF-RAM-MARK;0x401ffff8 0x5ffff8 string:HUGEPAGE-BOUNDARY;"
for img in s.elf s.raw; do
	# shellcheck disable=SC2086
	run "$PGWALK" search $V $PATS --format=json "$TMP/$img"
	printf '%s\n' "$out" >"$TMP/o.json"
	is "$rc $(hits "$TMP/o.json")" "0 $WANT" \
		"$img: every string where the spec put it, in address order, split ones too (exit 0)"
	is "$(summary "$TMP/o.json")" \
		"hits=4 searched=$((NMAPPED * 4096)) excluded=0 not_in_image=0 complete=true " \
		"$img: every mapped page searched once ($NMAPPED pages)"
done

# shellcheck disable=SC2086
run "$PGWALK" search --phys $PATS --format=json "$TMP/s.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$rc $(hits "$TMP/o.json") $(summary "$TMP/o.json")" \
	"0 null 0x300000 string:EXCLUDED-MARK;null 0xfffff0 string:END-OF-RAM-MARK; hits=2 searched=16777216 excluded=0 not_in_image=0 complete=true " \
	"--phys: the physically contiguous ones only, all 16 MiB searched"

run "$PGWALK" search --phys --format=json --hex="50 47 57 ?? 50 4c" "$TMP/s.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$(hits "$TMP/o.json")" "null 0x301ff8 hex:50 47 57 ?? 50 4c;" \
	"--hex with a ?? wildcard and spaces"
end=$(printf '%s' END-OF-RAM-MARK | od -An -tx1 | tr -d ' \n')
run "$PGWALK" search --phys --format=json --hex="${end}00" "$TMP/s.raw"
r1="$rc $(jq -r 'select(.type == "hit") | .pa' <<EOT
$out
EOT
)"
run "$PGWALK" search --phys --format=json --hex="${end}0000" "$TMP/s.raw"
printf '%s\n' "$out" >"$TMP/o.json"
is "$r1 / $rc $(summary "$TMP/o.json")" \
	"0 0xfffff0 / 1 hits=0 searched=16777216 excluded=0 not_in_image=0 complete=true " \
	"the end of RAM: the last byte matches, one past it is never read as zero (exit 1: no match)"

# Regular expressions: across pages that follow one another
# virtually, from the end of one chunk into the next (a match starting
# in the bytes carried over is the next chunk's: once, whole), empty
# matches no hits; an expression that backtracks everywhere in other
# engines still ends.
# shellcheck disable=SC2086
run "$PGWALK" search $V --format=json --regex='PGWSPLIT-AC[A-Z]+' --regex='HUGE[A-Z]+-BOUND[A-Z]+' "$TMP/s.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$(hits "$TMP/o.json")" "0x400ff8 0x301ff8 regex:PGWSPLIT-AC[A-Z]+;0x401ffff8 0x5ffff8 regex:HUGE[A-Z]+-BOUND[A-Z]+;" \
	"--regex: matches across a 4 KiB and a 2 MiB page boundary"
run "$PGWALK" search --phys --format=json --context=0 --regex='REGEX-AT-A-CHUNK-END-[0-9]+' \
	--regex='z*' --string=REGEX-AT-A-CHUNK-END-0123456789 --string=0123 "$TMP/s.raw"
printf '%s\n' "$out" >"$TMP/o.json"
is "$rc $(jq -r 'select(.type == "hit") | "\(.pa) \(.size) \(.pattern)"' "$TMP/o.json" | tr '\n' ';')" \
	"0 0x3fff00 31 regex:REGEX-AT-A-CHUNK-END-[0-9]+;0x3fff00 31 string:REGEX-AT-A-CHUNK-END-0123456789;0x3fff15 4 string:0123;" \
	"where a chunk ends: each match once, whole, in address order; an expression matching only empty strings: no hit"
run "$PGWALK" search --phys --format=json --regex='(.*)*q' "$TMP/s.raw"
printf '%s\n' "$out" >"$TMP/o.json"
is "$rc $(summary "$TMP/o.json")" \
	"1 hits=0 searched=16777216 excluded=0 not_in_image=0 complete=true " \
	"--regex='(.*)*q' over 16 MiB without a q: ends, no hit (exit 1)"
run "$PGWALK" search --regex='(a)\1' "$TMP/s.elf"
is "$rc $err" "64 pgwalk: search: --regex='(a)\\\\1' has a back-reference (\\1 ... \\9): not an extended regular expression" \
	"--regex with a back-reference: usage (64)"

# YARA rules (libyara, loaded when asked for): a rule whose strings run
# across a 4 KiB and a 2 MiB page boundary matches in the space; a rule
# that does not compile says libyara's message; pgwalk itself does not
# need the library.
RULES=$REPO/tests/rules
if "$PGWALK" search --phys --yara="$RULES/synth.yar" "$TMP/s.raw" >/dev/null 2>"$TMP/y.err" ||
   [ $? != 69 ]; then
	# shellcheck disable=SC2086
	run "$PGWALK" search $V --format=json --yara="$RULES/synth.yar" "$TMP/s.elf"
	printf '%s\n' "$out" >"$TMP/o.json"
	is "$rc $(hits "$TMP/o.json")" "0 0x400ff8 0x301ff8 yara:split:\$across;0x401ffff8 0x5ffff8 yara:split:\$huge;" \
		"--yara: a rule's strings matched across a 4 KiB and a 2 MiB page boundary"
	run "$PGWALK" search --yara="$RULES/broken.yar" "$TMP/s.elf"
	is "$rc $err" "64 pgwalk: search: --yara='$RULES/broken.yar' does not compile: line 9: undefined string \"\$b\" (1 error)" \
		"--yara with a rule that does not compile: libyara's message, usage (64)"
	# Conditions hold per 256 KiB chunk: the yara command over the
	# whole file matches both rules; two_chunks' strings never share a
	# chunk of memory.
	run "$PGWALK" search --phys --format=json --yara="$RULES/chunks.yar" "$TMP/s.raw"
	printf '%s\n' "$out" >"$TMP/o.json"
	is "$rc $(hits "$TMP/o.json")" "0 null 0x300000 yara:one_chunk:\$a;null 0x301ff8 yara:one_chunk:\$b;" \
		"--yara: a condition holds over one 256 KiB chunk (one_chunk), not across chunks (two_chunks)"
else
	skip "libyara is not installed: $(cat "$TMP/y.err")"
	skip "libyara is not installed"
	skip "libyara is not installed"
fi
# A libyara that cannot be loaded (a file by its soname first on the
# library path that is no library): said, with the package, exit 69.
YSO=$(strings "$PGW_BIN" | grep -m1 '^libyara\.so')
mkdir "$TMP/noyara" && printf 'not a library\n' >"$TMP/noyara/${YSO:-libyara.so}"
run env LD_LIBRARY_PATH="$TMP/noyara${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$PGWALK" search --phys --yara="$RULES/synth.yar" "$TMP/s.raw"
if [ -n "$YSO" ]; then
	is "$rc $out / $(printf '%s' "$err" | sed 's/loaded: .* (install/loaded: ... (install/')" \
		"69  / pgwalk: search: YARA (--yara) is needed and cannot be loaded: ... (install libyara9)" \
		"--yara where libyara cannot be loaded: says so and what to install, no output, exit 69"
else
	is "$rc $out / $err" "69  / pgwalk: search: --yara: this build lacks YARA (built without libyara-dev)" \
		"--yara in a build without libyara: says so, exit 69"
fi
# (the binary itself, not the watchdog's wrapper: it has NEEDED lines)
needed=$(readelf -d "$PGW_BIN" | grep NEEDED)
[ -n "$needed" ] && ! printf '%s\n' "$needed" | grep -q yara
is $? 0 "pgwalk is not linked with libyara (loaded with dlopen when --yara asks)"

run "$PGWALK" search --phys --format=json --string=GWID --wide "$TMP/s.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$(hits "$TMP/o.json")" "null 0x700000 wide:GWID;" "--wide: UTF-16LE found, named wide:"

# The filtered kdump: what it lacks is counted, never searched.
# shellcheck disable=SC2086
run "$PGWALK" search $V $PATS --format=json "$TMP/s.kdump"
printf '%s\n' "$out" >"$TMP/o.json"
x=$(frames_excluded $MAPPED)
is "$rc $(hits "$TMP/o.json") $(summary "$TMP/o.json")" \
	"2 0x400ff8 0x301ff8 string:PGWSPLIT-ACROSS;0x401ffff8 0x5ffff8 string:HUGEPAGE-BOUNDARY; hits=2 searched=$(((NMAPPED - x) * 4096)) excluded=$((x * 4096)) not_in_image=$((x * 4096)) complete=false data-not-in-image" \
	"kdump -d: $x mapped pages left out, counted as not in the image, never searched (exit 2)"
like_err "pgwalk: .*s.kdump: $((x * 4096)) bytes not searched: not in the image \\(excluded\\)" \
	"... and said on stderr"
# shellcheck disable=SC2086
run "$PGWALK" search --phys $PATS --format=json "$TMP/s.kdump"
printf '%s\n' "$out" >"$TMP/o.json"
x=$(frames_excluded $(seq 0 4095))
is "$rc $(summary "$TMP/o.json")" \
	"2 hits=0 searched=$(((4096 - x) * 4096)) excluded=$((x * 4096)) not_in_image=$((x * 4096)) complete=false data-not-in-image" \
	"kdump -d --phys: its $x excluded pages counted, the rest searched, no hit in them"

# Memory described again and again: each frame once.
run "$PGWALK" search --phys --format=json --string=REPEATED-MARK --string=ONE-FRAME-MARK "$TMP/r.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$(hits "$TMP/o.json") $(summary "$TMP/o.json")" \
	"null 0x100100 string:ONE-FRAME-MARK;null 0x1ffff0 string:REPEATED-MARK; hits=2 searched=2097152 excluded=0 not_in_image=0 complete=true " \
	"three PT_LOADs over the same 2 MiB: each frame searched once"
run "$PGWALK" search $V --format=json --context=0 --max-hits=100000 --string=ONE-FRAME-MARK "$TMP/r.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$(jq -s -r '[.[] | select(.type == "hit")] | "\([.[] | .same_frame_pages // 1] | add) \([.[] | .pa] | unique | join(","))"' "$TMP/o.json")" \
	"262144 0x100100" \
	"1 GiB onto one frame: every one of its 262144 pages named, all at pa 0x100100"
is "$(jq -r 'select(.type == "summary") | .bytes_searched / 4096 == .hits' "$TMP/o.json")" "true" \
	"... each page the walk reports searched once (a shared table's span at once)"

# Every root: each hit once per mapping of its frame, by root (the
# kernel's first) then va; a frame no root maps once, unmapped.
Q="--string=SHARED-BY-TWO --string=B-ALONE --string=PROTNONE-MARK --string=IN-KERNEL-TEXT --string=NOBODY-MAPS-ME"
# shellcheck disable=SC2086
run "$PGWALK" search --all-roots --cr3=0x100000 --format=json $Q "$TMP/q.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$rc $(hits "$TMP/o.json" | tr ';' '\n' | sed 's/ string:.*//' | tr '\n' ';')" \
	"0 0xffff888000080010 0x80010;0xffffffff81080010 0x80010;0xffff888000c00100 0xc00100;0x400100 0xc00100;0x7f0000000100 0xc00100;0xffff888000c01000 0xc01000;0x500000 0xc01000;0xffff888000c02000 0xc02000;0x600000 0xc02000;null 0x1100000;" \
	"--all-roots: the direct map, the text alias, both processes' views of their shared frame, a PROT_NONE page, and a frame nobody maps"
is "$(jq -r 'select(.type == "hit") | .root' "$TMP/o.json" | tr '\n' ' ')" \
	"0x100000 0x100000 0x100000 0x400000 0x402000 0x100000 0x402000 0x100000 0x402000 null " \
	"... each under the root that maps it"
# shellcheck disable=SC2086
run "$PGWALK" search --phys --map --cr3=0x100000 --format=json $Q "$TMP/q.elf"
is "$out" "$(cat "$TMP/o.json")" "--phys --map: the same records"
run "$PGWALK" search --cr3=0x402000 --mode=x86-64 --format=json --string=PROTNONE-MARK "$TMP/q.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$(hits "$TMP/o.json")" "0x600000 0xc02000 string:PROTNONE-MARK;0xffff888000c02000 0xc02000 string:PROTNONE-MARK;" \
	"one space (its whole, the kernel half too): a PROT_NONE page's frame is searched at its va"
run "$PGWALK" search --all-roots --pid=1 --string=x "$TMP/q.elf"
r1=$rc
run "$PGWALK" search --map --string=x "$TMP/q.elf"
r2=$rc
run "$PGWALK" search --kernel-half --string=x "$TMP/q.elf"
is "$r1 $r2 $rc" "64 64 64" "--all-roots with --pid, --map without --phys, --kernel-half without a process: usage (64)"

# A process is its user half (pgw-mkkernel: pid 1 maps one page, at
# 0x400000, from its root 0x601000); --kernel-half is its root whole.
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf" || bail "pgw-mkkernel failed"
searched() {
	"$PGWALK" search --format=json --hex=00 --max-hits=1 "$@" "$TMP/k.elf" 2>/dev/null |
		jq -r 'select(.type == "summary") | .bytes_searched'
}
is "$(searched --pid=1) $(searched --comm=init)" "4096 4096" \
	"--pid=1, --comm=init: the user half, its one page"
is "$(searched --pid=1 --kernel-half)" "$(searched --root=0x601000)" \
	"--pid=1 --kernel-half: what its root holds whole"

# The bound: counted past it, listed up to it.
run "$PGWALK" search --phys --format=json --hex=?? --max-hits=5 "$TMP/r.elf"
printf '%s\n' "$out" >"$TMP/o.json"
is "$rc $(grep -c '"type":"hit"' "$TMP/o.json") $(jq -r 'select(.type == "summary") | "\(.hits) \(.listed) \(.reason)"' "$TMP/o.json")" \
	"4 5 2097152 5 hit-limit" \
	"a pattern that matches everywhere: 2097152 hits counted, 5 listed, exit 4"
like_err "2097152 hits, 5 listed \\(--max-hits\\)" "... and said on stderr"

# Text, TSV and CSV.
run "$PGWALK" search $V --context=4 --string=PGWSPLIT-ACROSS "$TMP/s.elf"
is "$out" "PA           VA                 ROOT         PID   COMM             PATTERN CONTEXT
0x301ff8     0x400ff8           0x1000       -     -                string:PGWSPLIT-ACROSS \\x00\\x00\\x00\\x00[[PGWSPLIT-ACROSS]]\\x00\\x00\\x00\\x00
# 1 hit of 1 pattern; 4210688 bytes searched, 0 not in the image" \
	"text: a row per hit, the context escaped around [[the match]], a summary"
for f in tsv csv; do
	# shellcheck disable=SC2086
	run "$PGWALK" search $V $PATS --format=$f "$TMP/s.elf"
	s=$(printf '\t'); [ $f = csv ] && s=,
	is "$(printf '%s\n' "$out" | sed -n 1p) $(printf '%s\n' "$out" | cut -d"$s" -f1 | sort | uniq -c | tr -s ' ' | tr '\n' ';')" \
		"$(echo type,pa,va,root,pid,comm,pattern,size,hex,context_start,context,same_frame_pages,complete,reason,detail,symbol,path,file_offset,path_truncated | tr , "$s")  4 hit; 1 summary; 1 type;" \
		"$f: the header, a row per hit, the summary"
done

# Usage.
run "$PGWALK" search "$TMP/s.elf"
is "$rc $err" "64 pgwalk search: give a pattern: --string=TEXT, --hex=BYTES, --regex=ERE or --yara=RULES (see 'pgwalk search --help')" \
	"no pattern: usage (64)"
run "$PGWALK" search --hex=4g "$TMP/s.elf"
is "$rc $err" "64 pgwalk: search: --hex='4g' is not pairs of hex digits or ?? (e.g. 4d5a??00)" \
	"--hex that is not hex: usage (64)"
run "$PGWALK" search --phys --pid=1 --string=x "$TMP/s.elf"
is "$rc" 64 "--phys with a root: usage (64)"
