#!/bin/sh
# A batch's compact records from brief answers (pgw_translate_brief, the
# tails spelled before) are the records written from answers in full.  On
# the committed samples (real kernels' tables in all four modes, data
# pages left out, so many frames are not in the image): random addresses
# of each CPU's space (leaves of every size, holes at every level), each
# asked twice on stdin (a batch: most answers brief), against the same
# addresses given as arguments, at most 60 at a time (walked from the root
# without the cache), in tsv, csv, json and text; and the exit status.
# pgw-xlatcmp says more than half the answers of such a batch come brief
# before their walk, as the batch asks, so the comparison is not of two
# full paths.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracles.sh"
N=600
plan 32   # 4 samples x 2 CPUs x (4 formats)

DATA=$REPO/testdata

# in_args FMT IMG OPTS: the records of $TMP/va given as arguments, 60 at a
# time (the header once); the worst status in $args_rc.
in_args() {
	args_rc=0
	: >"$TMP/args.out"
	split -l 60 "$TMP/va" "$TMP/part."
	for p in "$TMP"/part.*; do
		# shellcheck disable=SC2046,SC2086  # the addresses, options
		"$PGWALK" translate --format="$1" $3 "$2" $(cat "$p") \
			>"$TMP/one" 2>/dev/null
		r=$?
		[ "$r" -gt "$args_rc" ] && args_rc=$r
		if [ -s "$TMP/args.out" ]; then
			case $1 in tsv|csv) sed 1d "$TMP/one" ;; *) cat "$TMP/one" ;; esac
		else
			cat "$TMP/one"
		fi >>"$TMP/args.out"
		rm -f "$p"
	done
}

for dm in $DUMPS; do
	d=${dm%%:*}
	img=$DATA/$d.elf
	[ -f "$img" ] || bail "sample $img is missing"
	for c in 0 1; do
		"$PGW_TOOLS/pgw-randaddr" -n "$N" -s "$((c + 11))" -c "$c" "$img" \
			>"$TMP/va" 2>"$TMP/gen" || bail "pgw-randaddr: $(cat "$TMP/gen")"
		cat "$TMP/va" "$TMP/va" >"$TMP/twice"
		# Answers brief before their walk, as a batch asks.
		brief=$("$PGW_TOOLS/pgw-xlatcmp" -c "$c" "$img" <"$TMP/twice" |
			sed -n 's/.* \([0-9]*\) before their walk;.*/\1/p')
		for f in tsv csv json text; do
			in_args "$f" "$img" "--cpu=$c"
			"$PGWALK" translate --format="$f" "--cpu=$c" "$img" - \
				<"$TMP/twice" >"$TMP/batch" 2>/dev/null
			batch_rc=$?
			# The arguments' records twice, the header once.
			{ cat "$TMP/args.out"
			  case $f in tsv|csv) sed 1d "$TMP/args.out" ;;
			  *) cat "$TMP/args.out" ;; esac
			} >"$TMP/want"
			# One record an address (and the header of tsv and csv):
			# empty output never equals empty output here.
			case $f in tsv|csv) nrec=$((2 * N + 1)) ;; *) nrec=$((2 * N)) ;; esac
			if cmp -s "$TMP/want" "$TMP/batch" &&
			   [ "$(grep -c '' "$TMP/batch")" = "$nrec" ] &&
			   [ "$batch_rc" = "$args_rc" ] &&
			   [ "${brief:-0}" -gt "$N" ]; then
				ok 0 "$d cpu$c $f: $((2 * N)) records of a batch ($brief answers brief) as walked one by one, status $batch_rc"
			else
				ok 1 "$d cpu$c $f: batch records ($(grep -c '' "$TMP/batch") lines, status $batch_rc, ${brief:-no} brief) unlike the walked ones ($nrec lines, status $args_rc)"
				diff "$TMP/want" "$TMP/batch" | head -5 | sed 's/^/#   /'
			fi
		done
	done
done
done_testing
