#!/bin/sh
# The real dumps' physical and virtual segments against QEMU's own:
#  - paging-segments.txt is readelf -l of QEMU's `dump-guest-memory -p`:
#    QEMU walked the page tables of both CPUs (target/i386/
#    arch_memory_mapping.c) and merged every present page into segments
#    where virtual and physical addresses both run on (system/
#    memory_mapping.c), leaving out pages whose frame is not RAM or ROM.
#    Its p_flags are 0: QEMU writes no permissions there.  pgwalk's
#    coalesced `dump` ranges of CPU 0 and CPU 1 promise the same thing
#    (each range maps its VAs linearly onto its PAs), so both, cut into
#    maximal linear runs, must be the same set;
#  - every PT_LOAD of vmcore.elf (readelf's view in the dump's README
#    files) is one of `info`'s physical ranges, and the last one (the
#    256 KiB BIOS ROM at 0xfffc0000) reads the bytes the file holds there.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 20   # 5 per dump

# QEMU's virtual addresses are not sign-extended: 4-level walks put 0xffff
# in bits 48-63 of every address, 5-level ones 0x7f in bits 57-63.  (It
# also writes p_vaddr = p_paddr for virtual address 0, which no dump here
# maps.)
# qemu_runs MODE FILE: "va pa length" (hex) per PT_LOAD, real VAs.
qemu_runs() {
	awk -v mode="$1" '$1 == "LOAD" {
		v = tolower($3); sub(/^0x/, "", v)
		while (length(v) < 16) v = "0" v
		if (mode == "x86-64")
			v = (index("89abcdef", substr(v, 5, 1)) ? "ffff" : "0000") substr(v, 5)
		else if (mode == "la57")
			v = (index("13579bdf", substr(v, 2, 1)) ? "ff" : "00") substr(v, 3)
		print v, $4, $6
	}' "$2"
}

# pgwalk_runs PT_LOADS < dump TSV: "va pa length" (hex) of every map
# range, cut to the frames the image holds as RAM or ROM (PT_LOADS: "pa
# size" hex lines), like QEMU's walk.
pgwalk_runs() {
	awk -F'\t' "$AWK_HEX"'
	NR == FNR { split($0, f, " "); lo[++n] = hexnum(f[1])
		hi[n] = lo[n] + hexnum(f[2]); next }
	$1 == "map" {
		va = hexnum($2); pa = hexnum($5); len = $4 + 0
		for (i = 1; i <= n; i++) {
			s = pa > lo[i] ? pa : lo[i]
			e = pa + len < hi[i] ? pa + len : hi[i]
			if (s < e) print hex16(va + s - pa), hex16(s), hex16(e - s)
		}
	}' "$1" -
}

# normalize < "va pa length": the maximal linear runs of the set of
# (va, pa) pairs, as "delta start end": overlapping or touching pieces
# with one va - pa merge, duplicates vanish.
normalize() {
	awk "$AWK_HEX"'{
		va = hexnum($1); d = va - hexnum($2)
		if (d < 0) d += 2^64
		print hex16(d), hex16(va), hex16(va + hexnum($3))
	}' | sort | awk '
	$1 == d && $2 <= e { if ($3 > e) e = $3; next }
	{ if (d != "") print d, s, e; d = $1; s = $2; e = $3 }
	END { if (d != "") print d, s, e }'
}

# loads DIR: "pa size offset" (hex) per PT_LOAD of vmcore.elf, from
# readelf's output the dump folder keeps.
loads() {
	for f in "$1/vmcore-elf-headers.txt" "$1/readelf-l.txt"; do
		[ -f "$f" ] && awk '$1 == "LOAD" { print $4, $6, $2 }' "$f" && return
	done
}

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	dir=$SHARED/$d elf=$UNPACKED/$d/vmcore.elf
	loads "$dir" >"$TMP/loads"
	nloads=$(grep -c '' "$TMP/loads")
	is "$nloads" 2 "$d: readelf lists 2 PT_LOADs (RAM and the BIOS ROM)"

	# Every PT_LOAD is one of info's physical ranges, and nothing else.
	run "$PGWALK" info --format=json "$elf"
	printf '%s\n' "$out" | sed 's/.*"ranges":\[\([^]]*\)\].*/\1/; s/},{/\n/g' |
		sed 's/.*"pa":"\(0x[0-9a-f]*\)","end":"0x[0-9a-f]*","size":\([0-9]*\).*/\1 \2/' >"$TMP/ranges"
	awk "$AWK_HEX"'{ printf "%s %.0f\n", $1, hexnum($2) }' "$TMP/loads" |
		hexnorm >"$TMP/want"
	if [ "$rc" = 0 ] && cmp -s "$TMP/want" "$TMP/ranges"; then
		ok 0 "$d: info's physical ranges are readelf's $nloads PT_LOADs"
	else
		ok 1 "$d: info's physical ranges are readelf's PT_LOADs (exit $rc)"
		diff "$TMP/want" "$TMP/ranges" | sed 's/^/#   /'
	fi

	# The last PT_LOAD (the BIOS ROM) reads what the file holds there.
	set -- $(tail -1 "$TMP/loads")
	read_raw "$elf" $(($3)) $(($2)) >"$TMP/rom.raw"
	run "$PGW_TOOLS/pgw-cmp-images" "$elf" "raw@$1:$TMP/rom.raw"
	pages=$(($2 / 4096))
	case $out in
	*" same=$pages differ=0 nodata_a=0 "*) ok 0 "$d: the last PT_LOAD ($pages pages at $1) reads the file's bytes" ;;
	*) ok 1 "$d: the last PT_LOAD ($pages pages at $1) reads the file's bytes"; echo "#   $out" ;;
	esac

	# QEMU's merged paging segments = pgwalk's ranges of both CPUs.
	qemu_runs "$mode" "$dir/paging-segments.txt" | normalize >"$TMP/qemu"
	: >"$TMP/ours.raw"
	bad=0
	for c in 0 1; do
		"$PGWALK" dump --cpu=$c --no-holes --no-summary --format=tsv "$elf" \
			>"$TMP/dump.tsv" || bad=1
		pgwalk_runs "$TMP/loads" <"$TMP/dump.tsv" >>"$TMP/ours.raw"
	done
	is "$bad" 0 "$d: dump of CPU 0 and CPU 1 exits 0"
	normalize <"$TMP/ours.raw" >"$TMP/ours"
	nseg=$(grep -c '^ *LOAD' "$dir/paging-segments.txt")
	nrun=$(grep -c '' "$TMP/qemu")
	kib=$(awk "$AWK_HEX"'{ s += hexnum($3) - hexnum($2) } END { printf "%.0f", s / 1024 }' "$TMP/qemu")
	if [ "$nrun" -gt 50 ] && cmp -s "$TMP/qemu" "$TMP/ours"; then
		ok 0 "$d: QEMU's $nseg paging segments = pgwalk's ranges of both CPUs ($nrun linear runs, $kib KiB)"
	else
		ok 1 "$d: QEMU's $nseg paging segments = pgwalk's ranges of both CPUs ($nrun runs)"
		diff "$TMP/qemu" "$TMP/ours" | head -8 | sed 's/^/#   /'
	fi
done

done_testing
