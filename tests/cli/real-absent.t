#!/bin/sh
# Not-in-image accounting, exactly: on the filtered kdump of x64-4l-a
# (makedumpfile -d 31: user data, caches, free and zero pages left out),
# every range `dump` prints for CPU 0 and CPU 1 has the bytes_not_in_image
# of the frames the kdump's 2nd bitmap does not hold, as read by
# pgw-kdump-pages (the bitmap alone, nothing of the library), the
# summary their sum, and the text output a note on exactly those ranges.
# The tool is first held to makedumpfile's own page report (README.txt).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 9   # 1, then 4 per CPU

KD=$SHARED/x64-4l-a/vmcore-d31.kdump
"$PGW_TOOLS/pgw-kdump-pages" "$KD" >"$TMP/held" 2>"$TMP/err" ||
	bail "pgw-kdump-pages: $(cat "$TMP/err")"
# makedumpfile's report: the pages it kept, and the zero pages it kept as
# one shared zero page (still set in the bitmap, read as zeros).
report() {
	sed -n "s/^ *$1 *: 0x\([0-9a-f]*\).*/\1/p" "$SHARED/x64-4l-a/README.txt" | head -1
}
remaining=$(report 'Remaining pages')
zero=$(report 'Pages filled with zero')
[ -n "$remaining" ] && [ -n "$zero" ] || bail "no page report in x64-4l-a/README.txt"
want=$((0x$remaining + 0x$zero))
is "$(sed -n 's/^# .* dumped=\([0-9]*\)$/\1/p' "$TMP/held")" "$want" \
	"pgw-kdump-pages: the 2nd bitmap holds makedumpfile's remaining and zero pages ($want)"

# expect TSV: per map range "va bytes_not_in_image" from the bitmap; the
# kdump's own figure beside it, the ranges that differ, and the totals.
expect() {
	awk "$AWK_HEX"'
	NR == FNR { if ($1 != "#") for (i = 0; i < $2; i++) held[$1 + i] = 1; next }
	$1 == "map" {
		pfn = int(hexnum($5) / 4096); miss = 0
		for (i = 0; i < $4 / 4096; i++) if (!((pfn + i) in held)) miss++
		want = miss * 4096; got = $12 == "-" ? 0 : $12
		if (want != got) { bad++; if (bad <= 5) print "# " $2 ": " got " bytes not in image, the bitmap says " want }
		total += want; ranges += want > 0; gotsum += got
	}
	END { print ranges + 0, total + 0, gotsum + 0, bad + 0 }' "$TMP/held" FS='\t' "$1"
}

for c in 0 1; do
	"$PGWALK" dump --cpu=$c --format=tsv "$KD" >"$TMP/dump.tsv"
	expect "$TMP/dump.tsv" >"$TMP/cmp"
	grep '^#' "$TMP/cmp"
	set -- $(tail -1 "$TMP/cmp")
	ranges=$1 total=$2
	[ "$ranges" -gt 10 ] && [ "$4" = 0 ] && [ "$3" = "$total" ]
	ok $? "cpu$c: each of the $(grep -c '^map' "$TMP/dump.tsv") ranges lacks what the bitmap lacks ($ranges ranges, $total bytes; $4 differ)"
	"$PGWALK" dump --cpu=$c --format=json "$KD" | tail -1 >"$TMP/sum"
	is "$(sed -n 's/.*"bytes_not_in_image":\([0-9]*\).*/\1/p' "$TMP/sum")" "$total" \
		"cpu$c: the summary's bytes_not_in_image is their sum"
	grep -q '"complete":true' "$TMP/sum"
	ok $? "cpu$c: the walk itself is complete (every table is in the image)"
	is "$("$PGWALK" dump --cpu=$c "$KD" | grep -c '^0x.* not in image: ')" "$ranges" \
		"cpu$c: the text output notes exactly those $ranges ranges"
done

done_testing
