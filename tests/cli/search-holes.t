#!/bin/sh
# search --phys steps over the holes of a sparse raw file (and the runs an
# image holds nothing of) in one step, with the hits of reading every byte:
#  - markers written into a 32 MiB sparse file at a hole's borders (a
#    match running from data into the hole's zeros, one running out of
#    them into data), around holes of one and two pages, and at the last
#    byte: each pattern's hits are every offset perl finds it at in the
#    file, on 1 and 2 threads, every byte counted searched;
#  - a pattern of zeros alone (every offset of a hole matches): as many
#    hits as perl counts, on both thread counts;
#  - a regular expression over the borders (fed page by page): the same
#    offsets;
#  - a 512 GiB sparse file holding one page: the hole costs no read (in
#    seconds where reading it would take minutes);
#  - a hostile ELF claiming 2^63 bytes past its file, and a LiME range cut
#    short: searched to the end, each absent byte counted by the reason
#    `info` gives its pages.
. "$(dirname "$0")/lib.sh"
plan 23

H=$TMP/h.raw
# put OFFSET TEXT: TEXT's bytes at OFFSET of $H.
put() { printf '%s' "$2" | dd of="$H" bs=1 seek=$(($1)) conv=notrunc status=none; }
truncate -s 32M "$H" || bail "cannot make a sparse file"
put 0x3ffa HOLEIN          # the hole starts at 0x4000
put 0x800000 OUTHOLE       # a hole ends here
put 0xfffffc PIECEDGE      # across frame 4096: two threads' pieces
put 0x1000ffe AB           # a hole of one page: 0x1001000
put 0x1002000 CD
put 0x1800ffe EF           # a hole of two pages: 0x1801000-0x1802fff
put 0x1803000 GH
put 0x1fffff9 ENDMARK      # the last byte of the file
if [ "$(du -k "$H" | cut -f1)" -gt 1024 ]; then
	skip_all "the file system of $TMP does not keep files sparse"
fi
SIZE=$((32 << 20))

# offsets PERL-REGEX FILE: every offset the bytes match at (overlapping),
# one a line, as pgwalk prints a pa.
offsets() {
	perl -0777 -ne 'while (/(?=$re)/sg) { printf "0x%x\n", pos }
		BEGIN { $re = shift @ARGV }' "$1" "$2"
}
# found T ARGS...: the hits' pa, one a line, of search --phys on T threads.
found() {
	_t=$1
	shift
	"$PGWALK" search --phys --threads="$_t" --format=json "$@" |
		jq -r 'if .type == "hit" then .pa
		       else "searched=\(.bytes_searched) absent=\(.bytes_not_in_image)" end'
}
# check DESC PERL-REGEX ARGS...: on 1 and 2 threads, the hits are perl's
# offsets and every byte was searched.
check() {
	_desc=$1 _re=$2
	shift 2
	{ offsets "$_re" "$H"; echo "searched=$SIZE absent=0"; } >"$TMP/want"
	for t in 1 2; do
		found "$t" "$@" "$H" >"$TMP/got"
		if cmp -s "$TMP/want" "$TMP/got"; then ok 0 "$_desc ($t threads)"
		else ok 1 "$_desc ($t threads)"; diff "$TMP/want" "$TMP/got" |
			head -5 | sed 's/^/#   /'; fi
	done
}
check "a match from data into a hole" 'HOLEIN\x00{4}' \
	--hex='48 4f 4c 45 49 4e 00 00 00 00'
check "a match from a hole into data" '\x00{4}OUT' --hex='00 00 00 00 4f 55 54'
check "across the pieces' edge, into a hole" 'PIECEDGE\x00' \
	--hex='50 49 45 43 45 44 47 45 00'
check "into and out of a hole of one page" \
	'AB\x00\x00|\x00\x00CD' --hex='41 42 00 00' --hex='00 00 43 44'
check "into and out of a hole of two pages" \
	'EF\x00\x00|\x00\x00GH' --hex='45 46 00 00' --hex='00 00 47 48'
check "the last bytes, after a hole" '\x00ENDMARK' --hex='00 45 4e 44 4d 41 52 4b'
check "a pattern with ?? across the hole's border" 'N\x00.\x00' --hex='4e 00 ?? 00'

# A pattern of zeros alone, over 1 MiB with holes: every offset of a
# hole is a hit.
Z=$TMP/z.raw
truncate -s 1M "$Z" && printf 'ZZ' | dd of="$Z" bs=1 seek=$((0x40000)) \
	conv=notrunc status=none || bail "cannot make $Z"
want=$(perl -0777 -ne 'my $n = () = /(?=\x00{8})/g; print $n' "$Z")
for t in 1 2; do
	n=$("$PGWALK" search --phys --threads="$t" --format=json --max-hits=1 \
		--hex='00 00 00 00 00 00 00 00' "$Z" 2>/dev/null |
		jq -r 'select(.type == "summary") | .hits')
	is "$n" "$want" "zeros alone: every offset perl finds ($t threads)"
done
# A regular expression: searched page by page, the same offsets.
offsets 'HOLEIN|OUTHOLE|PIECEDGE|ENDMARK' "$H" >"$TMP/want"
echo "searched=$SIZE absent=0" >>"$TMP/want"
found 1 --regex='HOLEIN|OUTHOLE|PIECEDGE|ENDMARK' "$H" >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"
ok $? "a regular expression: every marker at its offset"

# 512 GiB of hole and one page: reading the hole would take minutes.
B=$TMP/big.raw
if truncate -s 512G "$B" 2>/dev/null; then
	printf 'FARMARK' | dd of="$B" bs=1 seek=$(((512 << 30) - 4096)) \
		conv=notrunc status=none
	run "$PGWALK" search --phys --format=json --string=FARMARK "$B"
	is "$rc:$(printf '%s\n' "$out" | jq -r 'select(.type == "hit") | .pa')" \
		"0:0x7ffffff000" "512 GiB sparse: the one marker, exit 0"
	is "$(printf '%s\n' "$out" | jq -r 'select(.type == "summary") | .bytes_searched')" \
		$((512 << 30)) "... every byte counted searched"
	rm -f "$B"
else
	skip "no 512 GiB sparse file here"
	skip "no 512 GiB sparse file here"
fi

# Hostile claims: searched to the end, the absent bytes by info's reasons.
CORPUS=$TESTDIR/../../fuzz/corpus
# pages IMAGE: info's excluded and truncated pages, in bytes (perl's
# bigint: jq and awk count in doubles).
pages() {
	"$PGWALK" info "$1" 2>/dev/null | perl -Mbigint -ne '
		next unless /^pages:/;
		my ($e) = /excluded (\d+)/; my ($t) = /truncated (\d+)/;
		print "excluded=", ($e // 0) * 4096, " truncated=", ($t // 0) * 4096'
}
# absent IMAGE: search --phys's bytes not searched, by reason.
absent() {
	"$PGWALK" search --phys --format=tsv --string=ABC "$1" 2>/dev/null |
		sed -n 's/.* not_in_image_excluded=\([0-9]*\) not_in_image_truncated=\([0-9]*\) .*/excluded=\1 truncated=\2/p'
}
for f in image_elf/timeout-zero-fill-scan.elf image_lime/timeout-cut-range-scan.lime; do
	run "$PGWALK" search --phys --string=ABC "$CORPUS/$f"
	is "$rc" 2 "$f: searched to the end, exit 2 (data not in the image)"
	is "$(absent "$CORPUS/$f")" "$(pages "$CORPUS/$f")" \
		"... the bytes not searched are info's excluded and truncated pages"
done
done_testing
