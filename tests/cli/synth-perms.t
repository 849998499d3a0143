#!/bin/sh
# Effective permissions through table entries, in every mode: for each
# level that holds table entries, every combination of RW, US and NX on
# that one table entry (the others grant everything) with every
# combination on the leaf below it, as 4 KiB leaves and, where the level
# below allows them, as large leaves.  pgw-mkimage computes what the CPU
# grants (rw and user ANDed down the chain, nx ORed; PAE PDPTEs hold no
# permissions) from the entries it wrote, without the library; translate,
# `dump --leaves` and the coalesced `dump` must all say exactly that.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 22

# flags MASK: the spec words for a permission mask (1 rw, 2 user, 4 nx).
flags() {
	_w=a
	[ $(($1 & 1)) = 0 ] || _w="$_w rw"
	[ $(($1 & 2)) = 0 ] || _w="$_w user"
	[ $(($1 & 4)) = 0 ] || _w="$_w nx"
	echo "$_w"
}

# spec MODE: every case of MODE on stdout.  A case at table level L has
# its own entry at L: cases of one level differ in their index there
# (c << shift(L)), under a top-level entry of their own (TOP << shift(top)).
spec() {
	echo "mode $1"
	echo "ram 0 64M"
	echo "root 0x100000"
	echo "alloc 0x200000"
	case $1 in
	i386)	masks=4 top=22
		set -- "pgd 22 1 4096" ;;
	pae)	masks=8 top=30
		set -- "pmd 21 1 4096" ;;
	x86-64)	masks=8 top=39
		set -- "pgd 39 1 4096" "pgd 39 100 1G" "pud 30 300 4096" \
			"pud 30 301 2M" "pmd 21 302 4096" ;;
	la57)	masks=8 top=48
		set -- "pgd 48 1 4096" "p4d 39 300 4096" "p4d 39 301 1G" \
			"pud 30 302 4096" "pud 30 303 2M" "pmd 21 304 4096" ;;
	esac
	for group; do
		set -- $group
		lvl=$1 shift_=$2 topidx=$3 page=$4
		c=0
		tm=0
		while [ $tm -lt $masks ]; do
			lm=0
			while [ $lm -lt $masks ]; do
				if [ "$lvl" = pgd ]; then
					va=$(((topidx + c) << top))
				else
					va=$(((topidx << top) + (c << shift_)))
				fi
				# Large leaves want aligned frames.
				case $page in
				1G) pa=$(((c + 1) << 30)) ;;
				2M) pa=$((0x2000000 + (c << 21))) ;;
				*) pa=$((0x1000000 + (c << 12))) ;;
				esac
				echo "upper at=$lvl $(flags $tm)"
				printf 'map 0x%x 0x%x %s %s page=%s\n' $va $pa \
					"$page" "$(flags $lm)" "$page"
				echo "upper at=$lvl rw user a"
				c=$((c + 1))
				lm=$((lm + 1))
			done
			tm=$((tm + 1))
		done
	done
}

# project: "va<TAB>size<TAB>effective" from pgwalk's JSON map records
# (dump) or translations (translate), effective "-" when empty.
project() {
	sed -n 's/.*"va":"\(0x[0-9a-f]*\)".*"\(page_\)*size":\([0-9]*\).*"effective":\[\([^]]*\)\].*/\1	\3	\4/p' |
		sed 's/"//g; s/	$/	-/'
}

for mode in i386 pae x86-64 la57; do
	spec $mode >"$TMP/$mode.spec"
	"$MKIMAGE" -r "$TMP/$mode.raw" -L "$TMP/$mode.want" "$TMP/$mode.spec"
	ok $? "$mode: pgw-mkimage builds $(grep -c '^map' "$TMP/$mode.spec") cases"
	n=$(grep -c '' "$TMP/$mode.want")
	args="--image-format=raw --mode=$mode --cr3=0x100000"

	# Every combination appears among the expectations.
	kinds=$(cut -f3 "$TMP/$mode.want" | sort -u | tr '\n' ' ')
	case $mode in
	i386) want_kinds='- rw rw,user user ' ;;
	*) want_kinds='- nx rw rw,nx rw,user rw,user,nx user user,nx ' ;;
	esac
	is "$kinds" "$want_kinds" "$mode: the $n leaves cover every effective permission"

	"$PGWALK" dump $args --leaves --no-holes --format=json "$TMP/$mode.raw" \
		>"$TMP/leaves.json"
	rc=$?
	project <"$TMP/leaves.json" >"$TMP/got"
	if [ "$rc" = 0 ] && cmp -s "$TMP/$mode.want" "$TMP/got"; then
		ok 0 "$mode: dump --leaves: effective permissions of all $n leaves as built"
	else
		ok 1 "$mode: dump --leaves: effective permissions as built (exit $rc)"
		diff "$TMP/$mode.want" "$TMP/got" | head -6 | sed 's/^/#   /'
	fi

	"$PGWALK" dump $args --no-holes --format=json "$TMP/$mode.raw" \
		>"$TMP/runs.json"
	rc=$?
	project <"$TMP/runs.json" >"$TMP/got"
	if [ "$rc" = 0 ] && cmp -s "$TMP/$mode.want" "$TMP/got"; then
		ok 0 "$mode: dump: one range per case, each with the leaf's effective permissions"
	else
		ok 1 "$mode: dump: effective permissions as built (exit $rc)"
		diff "$TMP/$mode.want" "$TMP/got" | head -6 | sed 's/^/#   /'
	fi

	cut -f1 "$TMP/$mode.want" |
		"$PGWALK" translate $args --format=json "$TMP/$mode.raw" - \
		>"$TMP/xlat.json"
	rc=$?
	project <"$TMP/xlat.json" >"$TMP/got"
	if [ "$rc" = 0 ] && cmp -s "$TMP/$mode.want" "$TMP/got"; then
		ok 0 "$mode: translate: effective permissions of all $n leaves as built"
	else
		ok 1 "$mode: translate: effective permissions as built (exit $rc)"
		diff "$TMP/$mode.want" "$TMP/got" | head -6 | sed 's/^/#   /'
	fi
done

# Shared tables (x86-64), which dump reports a whole span at a time once
# it knows a table maps one frame everywhere: for each combination k of
# page-directory entry permissions (k / 8) and page-table entry
# permissions (k % 8), PML4[k] -> a PDPT whose entries 0 and 1 both point
# to one PD; its 512 entries point to one PT, whose 512 entries map frame
# 0x5000.  The second PDPT entry is answered from what the walk learnt
# from the first: its 1 GiB must carry the permissions of the PD entries
# too, so each k is one 2 GiB range.
# (awk without hex literals: decimal constants; every value fits 32 bits
# but NX, which is written as a prefix.)
awk 'function entry(pa, v, nx) {
	printf "entry 0x%x %s%08x\n", pa, nx ? "0x80000000" : "0x", v
}
BEGIN {
	print "mode x86-64"; print "ram 0 64M"; print "root 0x100000"
	for (k = 0; k < 64; k++) {
		t = int(k / 8); l = k % 8
		pdpt = 2097152 + k * 12288; pd = pdpt + 4096; pt = pd + 4096
		entry(1048576 + k * 8, pdpt + 103, 0)
		entry(pdpt, pd + 103, 0)
		entry(pdpt + 8, pd + 103, 0)
		for (i = 0; i < 512; i++) {
			entry(pd + i * 8, pt + 33 + (t % 2) * 2 + (int(t / 2) % 2) * 4, int(t / 4))
			entry(pt + i * 8, 20480 + 33 + (l % 2) * 2 + (int(l / 2) % 2) * 4, int(l / 4))
		}
	}
}' >"$TMP/shared.spec"
"$MKIMAGE" -r "$TMP/shared.raw" "$TMP/shared.spec"
ok $? "shared tables: pgw-mkimage builds 64 shared PD/PT pairs"
# The expectation, entry by entry: rw and user where both the PD entry and
# the PT entry grant them, nx where either sets it.
k=0
while [ $k -lt 64 ]; do
	t=$((k / 8)) l=$((k % 8)) e=
	[ $((t & l & 1)) = 0 ] || e="$e,rw"
	[ $((t & l & 2)) = 0 ] || e="$e,user"
	[ $(((t | l) & 4)) = 0 ] || e="$e,nx"
	printf '0x%x\t0x%x\t%s\n' $((k << 39)) $(((k << 39) + (1 << 31))) "${e#,}"
	k=$((k + 1))
done | sed 's/	$/	-/' >"$TMP/shared.want"
"$PGWALK" dump --image-format=raw --mode=x86-64 --cr3=0x100000 --no-holes \
	--format=json "$TMP/shared.raw" >"$TMP/shared.json"
rc=$?
sed -n 's/.*"va":"\(0x[0-9a-f]*\)","end":"\(0x[0-9a-f]*\)".*"effective":\[\([^]]*\)\].*"same_frame":true.*/\1	\2	\3/p' \
	"$TMP/shared.json" | sed 's/"//g; s/	$/	-/' >"$TMP/got"
if [ "$rc" = 0 ] && cmp -s "$TMP/shared.want" "$TMP/got"; then
	ok 0 "shared tables: 64 same-frame ranges of 2 GiB, each with the permissions of its whole chain"
else
	ok 1 "shared tables: permissions of the whole chain (exit $rc)"
	diff "$TMP/shared.want" "$TMP/got" | head -6 | sed 's/^/#   /'
fi

done_testing
