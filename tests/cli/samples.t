#!/bin/sh
# The committed samples (testdata/DUMP.elf, cut from the real dumps by
# tests/tools/make-samples.sh: page tables and marker pages only) against
# the copied oracles, so a fresh clone without ../shared checks real
# kernels' tables too: QEMU's gva2gpa answers on every CPU, the markers of
# CPU 1's process, the kernel root, and in_image exactly where the sample
# holds the frame (data pages left out translate, with in_image false).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
. "$(dirname "$0")/oracles.sh"
plan 48   # 2 per sample, 4 per CPU, 2 for its markers

DATA=$REPO/testdata
have_readelf=false
command -v readelf >/dev/null 2>&1 && have_readelf=true

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	img=$DATA/$d.elf dir=$DATA/$d
	if [ ! -f "$img" ]; then
		ok 1 "$d: sample $img is missing"
		continue
	fi
	run "$PGWALK" info "$img"
	like "^mode: +$mode \\(CPU 0 registers" "$d sample: info picks $mode"
	like "^root: +$(kernel_root "$dir") \\(VMCOREINFO " \
		"$d sample: kernel root from VMCOREINFO as the oracles say"

	for c in $(cpus_of "$dir"); do
		qemu_answers "$dir" "$c" >"$TMP/want"
		cut -f1 "$TMP/want" >"$TMP/va"
		"$PGWALK" translate --format=tsv --cpu="$c" "$img" - \
			<"$TMP/va" | sed 1d | cut -f1,2 >"$TMP/got"
		agree "$d sample cpu$c --cpu=$c" "$TMP/want" "$TMP/got"
		"$PGWALK" translate --format=tsv --cr3="$(cr3_of "$dir" "$c")" \
			--mode="$mode" "$img" - <"$TMP/va" | sed 1d | cut -f1,2 >"$TMP/got"
		agree "$d sample cpu$c --cr3 --mode=$mode" "$TMP/want" "$TMP/got"

		# in_image must be true exactly where a PT_LOAD holds the frame.
		if ! $have_readelf; then
			skip "readelf not installed: in_image not cross-checked"
			continue
		fi
		load_ranges "$img" >"$TMP/loads"
		"$PGWALK" translate --format=json --cpu="$c" "$img" - <"$TMP/va" |
			sed -n 's/^{"type":"translation","va":"\(0x[0-9a-f]*\)","pa":"\(0x[0-9a-f]*\)".*"in_image":\([a-z]*\).*/\2 \3 \1/p' |
			awk 'NR == FNR { lo[NR] = $1; hi[NR] = $1 + $2; n = NR; next }
			function num(h,   i, v) {
				sub(/^0x/, "", h); v = 0
				for (i = 1; i <= length(h); i++)
					v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
				return v
			}
			{ pa = num($1); held = "false"
			  for (i = 1; i <= n; i++)
				if (pa >= lo[i] && pa < hi[i]) held = "true"
			  if (held == $2) good++; else { bad++; print "# " $3 " pa " $1 " in_image " $2 ", sample holds it: " held }
			  if ($2 == "false") out++ }
			END { printf "%d %d %d\n", good, bad, out }' "$TMP/loads" - \
			>"$TMP/inimg"
		sed -n '/^#/p' "$TMP/inimg" | head -5
		set -- $(grep -v '^#' "$TMP/inimg")
		[ "${2:-1}" = 0 ] && [ "${1:-0}" -gt 0 ]
		ok $? "$d sample cpu$c: in_image true exactly for frames the sample holds (${1:-0} mapped addresses checked)"
		[ "${3:-0}" -gt 0 ]
		ok $? "$d sample cpu$c: data pages left out still translate, in_image false (${3:-0})"
	done

	markers "$dir" "$(owner "$dir")" >"$TMP/m"
	if $have_readelf; then
		check_markers "$d sample" "$img" "$TMP/m" read_elf
	else
		check_markers "$d sample" "$img" "$TMP/m" ""
	fi
done

done_testing
