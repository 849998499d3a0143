#!/bin/sh
# translate's batch on stdin on the image's threads (issue 39): stdout,
# stderr and the exit status on 2 and 4 threads byte for byte those of
# one, in every format, with and without --levels.  The batches are long
# enough for many pieces (64 KiB of lines each) and rounds of pieces:
# good lines, lines that are not addresses (more than ten, so the count
# shows, and their line numbers), NULs, CRs, comments and blank lines,
# overlong lines (65534, 65535 and more bytes) between pieces, a last
# line without its newline, empty input, addresses given as arguments
# around the "-"; on a raw image, a filtered kdump (a table not in the
# image: exit 2) and a truncated one; where pieces meet, a bad line, a
# NUL and a 65535-byte line; a directory as stdin (a read error).
. "$(dirname "$0")/lib.sh"
plan 60
MK=$PGW_TOOLS/pgw-mkdump

# The calling thread runs the first 4 pieces (256 KiB) alone, so every
# input but a directory and the empty one comes after 256 KiB of lines of
# 16 bytes: 4 pieces of exactly 4096 lines, the input's first byte the
# first of the first piece the threads share.
yes 0x0000000001000 | head -n 16384 >"$TMP/pre"

# agree WHAT INPUT ARGS...: translate --threads=T ARGS <PRE+INPUT for T =
# 1, 2, 4 alike (stdout not empty; lib.sh's threads_agree); agree_bare:
# <INPUT.
agree() {
	_what=$1
	cat "$TMP/pre" "$2" >"$TMP/in"
	shift 2
	agree_bare "$_what" "$TMP/in" "$@"
}
agree_bare() {
	AGREE_IN=$2
	_w=$1
	shift 2
	threads_agree "$_w" "$PGWALK" translate "$@"
	AGREE_IN=
}

run "$MK" raw "$TMP/mem.raw" --holes --vas="$TMP/vas"
is "$rc" 0 "synthetic memory written"
eval "$out"   # cr3= filtered_table_va= npages=
"$MK" kdump --holes --filter --exclude-zero --codec=zlib "$TMP/kd" >/dev/null ||
	bail "pgw-mkdump kdump --filter failed"
size=$(wc -c <"$TMP/kd")
head -c $((size * 2 / 3)) "$TMP/kd" >"$TMP/kd.cut"

# The input: the spec's addresses over and over (some 40000 lines, 12
# pieces), with the odd lines of every kind among them.
awk -v n=400 'BEGIN { srand(7) }
	{ va[NR] = $1 }
	END {
		for (r = 0; r < n; r++)
			for (i = 1; i <= NR; i++) {
				print va[i]
				x = rand()
				if (x < 0.002) print "garbage" r "." i
				else if (x < 0.003) printf "0x12%c34\n", 0
				else if (x < 0.004) print "# a comment"
				else if (x < 0.005) print ""
				else if (x < 0.006) printf "%s\r\n", va[i]
				else if (x < 0.007) print "0d4096"
			}
	}' "$TMP/vas" >"$TMP/mixed"
[ "$(wc -l <"$TMP/mixed")" -gt 30000 ]
ok $? "a batch of over 30000 lines"
# Overlong lines where pieces meet, one just short of overlong, one at
# the end with no newline.
long=$(head -c 65534 /dev/zero | tr '\0' y)
{
	yes 0x7f0000000000 | head -n 6000
	printf '%s\n%sy\n%syy\n' "$long" "$long" "$long"
	yes 0xffff888000000000 | head -n 3000
	printf '%s%s%s\n' "$long" "$long" "$long"
	yes 0x1000 | head -n 3000
	printf '%sy' "$long"
} >"$TMP/long"
printf '%s\n' "$(cat "$TMP/mixed")" | head -c 100000 >"$TMP/nonl"
# at OFF FILE: good lines, then a comment so that byte OFF (from 0) is
# the NUL of a bad line ("ab", NUL, "cd..."), a bad line across it, then
# more good lines: a piece (64 KiB of lines) ends near OFF.
at() {
	awk -v off="$1" 'BEGIN {
		n = int((off - 40) / 7)
		for (i = 0; i < n; i++) print "0x1000"
		pad = off - 7 * n - 2
		s = "#"; while (length(s) < pad - 1) s = s "c"
		print s
		printf "ab%ccd-not-an-address\n", 0
		for (i = 0; i < 4000; i++) print "0x7f0000000000"
		s = "bad"; while (length(s) < 80) s = s "-"
		for (i = 0; i < 3000; i++) print (i % 7 ? "0xffff888000000000" : s)
	}' >"$2"
}
: >"$TMP/empty"

cr="--cr3=$cr3 --mode=x86-64"
for img in "raw:$TMP/mem.raw" "kd:$TMP/kd" "cut:$TMP/kd.cut"; do
	name=${img%%:*} file=${img#*:}
	fmt=
	[ "$name" = raw ] && fmt=--image-format=raw
	for f in text json csv tsv; do
		agree "$name $f: the mixed batch alike" "$TMP/mixed" \
			$fmt $cr --format=$f "$file" -
	done
	agree "$name json --levels: alike" "$TMP/mixed" $fmt $cr \
		--format=json --levels "$file" -
	agree "$name text --levels: alike" "$TMP/mixed" $fmt $cr \
		--levels "$file" -
	agree "$name tsv --levels: alike" "$TMP/mixed" $fmt $cr \
		--format=tsv --levels "$file" -
	agree "$name: overlong lines alike" "$TMP/long" $fmt $cr \
		--format=csv "$file" -
	agree "$name: a last line without its newline alike" "$TMP/nonl" \
		$fmt $cr --format=json "$file" -
	agree "$name: arguments around the batch alike" "$TMP/mixed" \
		$fmt $cr --format=tsv "$file" 0x1000 - 0x7f0000000000
done

# Where pieces meet: NULs at and around 64 KiB, bad lines across it.
for off in 65533 65534 65535 65536 65537; do
	at $off "$TMP/at$off"
done
[ "$(head -c 65536 "$TMP/at65535" | tail -c 3 | od -An -c | tr -d ' ')" = \
  'ab\0' ]
ok $? "a NUL at byte 65535 (the check of the input's own making)"
for off in 65533 65534 65535 65536 65537; do
	agree "raw: a NUL at byte $off alike" "$TMP/at$off" \
		--image-format=raw $cr --format=tsv "$TMP/mem.raw" -
done
like_file() { grep -q "$1" "$2"; ok $? "$3"; }
like_file 'a NUL byte inside the line' "$TMP/e2" "... said on 2 threads"
# --levels' pieces are 8 KiB or more, up to a newline: lines as long as
# a piece and longer, overlong ones among them.
agree "raw json --levels: overlong lines alike" "$TMP/long" \
	--image-format=raw $cr --format=json --levels "$TMP/mem.raw" -
agree "raw csv --levels: a NUL at byte 65535 alike" "$TMP/at65535" \
	--image-format=raw $cr --format=csv --levels "$TMP/mem.raw" -
# A line of 65535 bytes and its newline: a whole piece, overlong.
{
	head -c 65535 /dev/zero | tr '\0' z
	printf '\n0x1000\n'
} >"$TMP/one64k"
agree "raw: a 65535-byte line alone in a piece alike" "$TMP/one64k" \
	--image-format=raw $cr --format=csv "$TMP/mem.raw" -
grep -q '^,,,,,,,not-an-address,,z\{80\},$' "$TMP/o2"
ok $? "... overlong: its first 80 bytes echoed"
# A read error: a directory as stdin.
agree_bare "raw: a directory as stdin alike" "$TMP" --image-format=raw $cr \
	--format=csv "$TMP/mem.raw" -
like_file 'cannot read standard input' "$TMP/e2" "... said"

# What the batch said, checked once (it is the same on every thread).
agree "raw: the mixed batch, text" "$TMP/mixed" --image-format=raw $cr \
	"$TMP/mem.raw" -
grep -q '^pgwalk: stdin line [0-9]*: .garbage' "$TMP/e4"
ok $? "... bad lines said with their line numbers"
n=$(grep -c '^pgwalk: stdin line' "$TMP/e4")
is "$n" 10 "... the first ten of them"
like_file 'lines on stdin were not addresses' "$TMP/e4" "... and how many"
like_file 'a NUL byte inside the line' "$TMP/e4" "... a NUL said"
is "$(tail -1 "$TMP/e4")" "exit 1" "... exit 1"
agree "kd: exit 2 for the table not in the image" "$TMP/mixed" $cr \
	--format=json "$TMP/kd" -
is "$(tail -1 "$TMP/e4")" "exit 2" "... (2 outranks the bad lines' 1)"
grep -a -v -e garbage -e '0x12' "$TMP/mixed" >"$TMP/good"
agree "kd: the good lines alone" "$TMP/good" $cr --format=json "$TMP/kd" -
is "$(tail -1 "$TMP/e4")" "exit 2" "... exit 2: a table not in the image"
grep -q '"reason":"table-not-in-image","absence":"excluded"' "$TMP/o4"
ok $? "... said in the records"
agree "raw: overlong lines, text" "$TMP/long" --image-format=raw $cr \
	"$TMP/mem.raw" -
is "$(grep -c '^pgwalk: stdin line' "$TMP/e4")" 5 \
	"... five lines said: 65534 bytes, not an address; 65535 and more, overlong"
# Empty input: nothing but a header, so agree's stdout test is csv's.
agree_bare "empty input alike (csv)" "$TMP/empty" --image-format=raw $cr \
	--format=csv "$TMP/mem.raw" -
is "$(tail -1 "$TMP/e4")" "exit 0" "... exit 0"
