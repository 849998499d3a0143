#!/bin/sh
# --threads on the real dumps (32 768 pages each: 8 chunks of the scan):
# roots, check --all-roots and info give the same stdout, stderr and exit
# status on 1, 2 and 4 threads, in every image form (ELF core, raw memory
# with VMCOREINFO found in memory, the filtered zlib kdump, flattened,
# the i386 PAE kdump whose slots' directories the workers read, arm64's
# raw memory), and ptov --all-roots too, with the command's budget cut
# among the roots' walks; the process roots on 2 threads are crash's
# (process-roots.txt: each pid with its pgd_phys); search --phys alike,
# its string hits as many as a regular expression's on one thread.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
X4=$SHARED/x64-4l-a
plan 46

# same WHAT SUB ARGS...: lib.sh's threads_agree on pgwalk.
same() {
	_what=$1
	shift
	threads_agree "$_what" "$PGWALK" "$@"
}
# pids_roots JSON: "pid root" of each named process root, sorted.
pids_roots() {
	sed -n 's/^{"type":"root","root":"\([^"]*\)","kind":"process",.*"pid":\([0-9]*\),.*/\2 \1/p' "$1" |
		sort -n | tr '\n' ' '
}
crash_roots() {
	sed -n 's/^pid=\([0-9]*\) .*pgd_phys=\([^ ]*\) .*/\1 \2/p' "$1/process-roots.txt" |
		sort -n | tr '\n' ' '
}

for dm in $DUMPS; do
	d=${dm%%:*}
	same "$d vmcore.elf: roots --format=json alike on 1, 2, 4 threads" \
		roots --format=json "$UNPACKED/$d/vmcore.elf"
	case $d in
	x64*) is "$(pids_roots "$TMP/o2")" "$(crash_roots "$SHARED/$d")" \
		"... on 2 threads every process root crash lists, with its pid" ;;
	*) is "$(grep -c '^{"type":"root"' "$TMP/o2")" \
		"$(grep -c '^{"type":"root"' "$TMP/o1")" "... as many roots on 2 threads" ;;
	esac
	same "$d mem.raw (VMCOREINFO found in memory): roots alike" \
		roots --format=json "$UNPACKED/$d/mem.raw"
	same "$d mem.raw: info alike" info "$UNPACKED/$d/mem.raw"
	same "$d vmcore.elf: check --all-roots alike" \
		check --all-roots --format=json "$UNPACKED/$d/vmcore.elf"
	same "$d mem.raw: roots (text) alike" roots "$UNPACKED/$d/mem.raw"
	# Every root's reverse map, one a job: a page of the first marker
	# and the first MiB, named by the task list.
	pa=$("$PGWALK" search --phys --format=json --string=PGWALK-MARKER \
		--max-hits=1 "$UNPACKED/$d/vmcore.elf" 2>/dev/null |
		sed -n 's/^{"type":"hit","pa":"\([^"]*\)".*/\1/p')
	same "$d vmcore.elf: ptov --all-roots (the marker at ${pa:-none}) alike" \
		ptov --all-roots --format=json "$UNPACKED/$d/vmcore.elf" \
		"${pa:-0x0}" 0x100000
done
# The command's one budget cut among the roots' walks, after the scan's
# and the kernel root's: the same stop (check: 5 of 9 roots walked, the
# 5th cut; ptov: 10 of 26 roots' walks undone).
same "x64-4l-a: check --all-roots --max-entries=120000 alike" check \
	--all-roots --max-entries=120000 -v "$UNPACKED/x64-4l-a/vmcore.elf"
grep -q '^pgwalk: check: 5 roots walked, ' "$TMP/e4" &&
	[ "$(tail -1 "$TMP/e4")" = "exit 4" ]
ok $? "... 5 roots walked, exit 4 on 4 threads"
same "x64-4l-a: ptov --all-roots --max-entries=140000 alike" ptov \
	--all-roots --max-entries=140000 "$UNPACKED/x64-4l-a/vmcore.elf" \
	0x100000
same "x64-4l-a vmcore-d31.kdump (zlib, inflated by the workers): roots alike" \
	roots --format=json "$X4/vmcore-d31.kdump"
is "$(pids_roots "$TMP/o4")" "$(crash_roots "$X4")" \
	"... on 4 threads every process root crash lists"
same "... and its flattened form: roots --format=csv alike" \
	roots --format=csv "$X4/vmcore-d31-zlib.flat"
same "... check --all-roots alike" check --all-roots --format=json \
	"$X4/vmcore-d31.kdump"
same "i386-pae-a vmcore.kdump-zlib: roots alike" roots --format=json \
	"$SHARED/i386-pae-a/vmcore.kdump-zlib"
# search --phys: the markers (strings, on threads) alike, and as many as
# the same bytes as a regular expression find on one thread.
same "x64-4l-a mem.raw: search --phys the markers alike" search --phys \
	--format=json --string=PGWALK-MARKER --wide "$UNPACKED/x64-4l-a/mem.raw"
n=$("$PGWALK" search --phys --format=json --regex='PGWALK-MARKER' \
	"$UNPACKED/x64-4l-a/mem.raw" | grep -c '"pattern":"regex:')
[ "$n" -gt 0 ] && [ "$(grep -c '"pattern":"string:PGWALK-MARKER"' "$TMP/o2")" = "$n" ]
ok $? "... the $n the regular expression finds on one thread"
same "vmcore-d31.kdump: search --phys alike (pages excluded, not in the image)" \
	search --phys --format=json --string=PGWALK-MARKER "$X4/vmcore-d31.kdump"
# Regular expressions and YARA rules: pieces cut where one search's
# 256 KiB chunks begin (after the excluded pages of the kdump too).
same "vmcore-d31.kdump: search --phys --regex alike" search --phys \
	--format=json --regex='PGWALK-(MARKER|SHARED)-[0-9a-f-]+' \
	--regex='[A-Za-z]{6,}' --max-hits=50000 "$X4/vmcore-d31.kdump"
same "x64-4l-a mem.raw: search --phys --regex alike" search --phys \
	--format=json --regex='PGWALK-MARKER-[0-9]+-[0-9a-f]+' \
	"$UNPACKED/x64-4l-a/mem.raw"
is "$(grep -c '"pattern":"regex:' "$TMP/o2")" \
	"$(LC_ALL=C grep -a -o 'PGWALK-MARKER-[0-9][0-9]*-[0-9a-f][0-9a-f]*' "$UNPACKED/x64-4l-a/mem.raw" | wc -l)" \
	"... on 2 threads each marker grep -a -o finds in the file"
"$PGWALK" search --phys --yara="$(dirname "$0")/../rules/markers.yar" \
	"$UNPACKED/i386-pae-a/vmcore.elf" >/dev/null 2>&1
if [ $? -ne 69 ]; then
	same "i386-pae-a vmcore.elf: search --phys --yara alike" search \
		--phys --format=json \
		--yara="$(dirname "$0")/../rules/markers.yar" \
		"$UNPACKED/i386-pae-a/vmcore.elf"
else
	skip "libyara is not installed"
fi
if [ -f "$UNPACKED/arm64-4k-a/mem.raw" ]; then
	same "arm64-4k-a mem.raw: roots alike" roots --format=json \
		"$UNPACKED/arm64-4k-a/mem.raw"
	same "arm64-4k-a vmcore.elf: check --all-roots alike" check \
		--all-roots --format=json "$UNPACKED/arm64-4k-a/vmcore.elf"
	same "arm64-4k-a vmcore.elf: ptov --all-roots alike" ptov \
		--all-roots --format=json "$UNPACKED/arm64-4k-a/vmcore.elf" \
		0x40000000 0x41000000
else
	skip "arm64-4k-a is not unpacked"
	skip "arm64-4k-a is not unpacked"
	skip "arm64-4k-a is not unpacked"
fi
