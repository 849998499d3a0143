#!/bin/sh
# Golden output of `pgwalk dump` and `pgwalk regions` in every format, on
# synthetic page tables built by tests/tools/pgw-mkimage from
# tests/golden/*.spec.  The golden files double as examples of each format.
# PGW_UPDATE_GOLDEN=1 rewrites them from the current output (review the
# diff); PGW_GOLDEN reads them from another folder.
. "$(dirname "$0")/lib.sh"
plan 46

MKIMAGE=${PGW_TOOLS:+$PGW_TOOLS/pgw-mkimage}
golden_dir
if [ -z "$MKIMAGE" ] || [ ! -x "$MKIMAGE" ]; then
	skip_all "pgw-mkimage test tool not built"
fi

# image SPEC MODE: build $TMP/SPEC.raw, set $base_args for pgwalk (the
# root is the spec's `root`).
image() {
	"$MKIMAGE" -r "$TMP/$1.raw" "$GOLDEN/$1.spec"
	ok $? "pgw-mkimage builds $1.spec"
	cr3=$(awk '$1 == "root" { print $2; exit }' "$GOLDEN/$1.spec")
	base_args="--image-format=raw --mode=$2 --cr3=$cr3"
}

# golden FILE SPEC CMD [ARGS...]: pgwalk CMD on SPEC's image = FILE.
golden() {
	file=$1 spec=$2 cmd=$3
	shift 3
	# shellcheck disable=SC2086  # base_args is a list of options
	"$PGWALK" "$cmd" $base_args "$@" "$TMP/$spec.raw" >"$TMP/got" 2>"$TMP/err"
	rc=$?
	if updating_golden; then
		cp "$TMP/got" "$GOLDEN/$file"
		echo "# rewrote $GOLDEN/$file"
	fi
	if [ "$rc" = 0 ] && cmp -s "$TMP/got" "$GOLDEN/$file"; then
		ok 0 "$file: pgwalk $cmd $*"
	else
		ok 1 "$file: pgwalk $cmd $* (exit $rc)"
		sed 's/^/#   /' "$TMP/err"
		diff -u "$GOLDEN/$file" "$TMP/got" | head -20 | sed 's/^/#   /'
	fi
}

image x64 x86-64
golden dump-x64.txt x64 dump
golden dump-x64.json x64 dump --format=json
golden dump-x64.csv x64 dump --format=csv
golden dump-x64.tsv x64 dump --format=tsv
golden dump-x64-leaves.txt x64 dump --leaves --no-holes
golden dump-x64-leaves.json x64 dump --leaves --format=json --range=0x400000-0x408000
golden dump-x64-non-present.txt x64 dump --non-present --range=0x400000-0x800000
golden dump-x64-wx.txt x64 dump --wx
golden dump-x64-user.csv x64 dump --user --format=csv --no-summary
golden dump-x64-range.txt x64 dump --range=0xffffc90000000000-0xffffc90040600000
golden regions-x64.txt x64 regions
golden regions-x64.json x64 regions --format=json
golden regions-x64.csv x64 regions --format=csv
golden regions-x64.tsv x64 regions --format=tsv

image i386 i386
golden dump-i386.txt i386 dump --non-present
golden dump-i386-leaves.json i386 dump --leaves --non-present --format=json
golden regions-i386.txt i386 regions

image pae pae
golden dump-pae.txt pae dump --non-present
golden regions-pae.txt pae regions

# The same walk in every format: the map records agree.
rcs=
for f in json csv tsv; do
	"$PGWALK" dump $base_args --no-holes --format=$f "$TMP/pae.raw" >"$TMP/$f"
	rcs="$rcs$?"
done
is "$rcs" 000 "dump in json, csv and tsv exits 0"
n_json=$(grep -c '"type":"map"' "$TMP/json")
n_csv=$(grep -c '^map,' "$TMP/csv")
n_tsv=$(grep -c "^map	" "$TMP/tsv")
[ "$n_json" -gt 0 ]
ok $? "json lists $n_json maps"
is "$n_csv/$n_tsv" "$n_json/$n_json" "json, csv and tsv list the same maps"

# Usage errors.
run "$PGWALK" dump $base_args --range=0x2000-0x1000 "$TMP/pae.raw"
is "$rc" 64 "dump --range with END <= START is a usage error"
run "$PGWALK" dump $base_args --user --kernel "$TMP/pae.raw"
is "$rc" 64 "dump --user --kernel is a usage error"
run "$PGWALK" dump $base_args --layout=x86-64-4.20 "$TMP/pae.raw"
is "$rc" 64 "a layout for another paging mode is refused"
run "$PGWALK" dump $base_args --max-entries=10 "$TMP/pae.raw"
is "$rc" 4 "an exhausted entry budget exits 4"
case $out in
*INCOMPLETE*) ok 0 "... and the summary says the dump is incomplete" ;;
*) ok 1 "... and the summary says the dump is incomplete" ;;
esac
for f in json csv tsv; do
	run "$PGWALK" dump $base_args --max-entries=10 --format=$f "$TMP/pae.raw"
	is "$rc" 4 "$f: the budget stop exits 4 in every format"
	sum=$(printf '%s\n' "$out" | grep -E '^(summary|\{"type":"summary")')
	case $sum in
	*'"complete":false,"reason":"budget"}'* | *",budget,,"*"complete=false"* | \
	*"	budget	-	"*"complete=false"*)
		ok 0 "$f: the summary says complete false, reason budget" ;;
	*) ok 1 "$f: the summary says complete false, reason budget"
	   echo "#   $sum" ;;
	esac
	run "$PGWALK" regions $base_args --max-entries=10 --format=$f "$TMP/pae.raw"
	is "$rc" 4 "$f: regions stopped by the budget exits 4"
	sum=$(printf '%s\n' "$out" | grep -E '^(summary|\{"type":"summary")')
	case $sum in
	*'"complete":false,"reason":"budget"}'* | *",false,budget,"* | \
	*"	false	budget	"*)
		ok 0 "$f: regions' summary says complete false, reason budget" ;;
	*) ok 1 "$f: regions' summary says complete false, reason budget"
	   echo "#   $sum" ;;
	esac
done
run "$PGWALK" dump $base_args --range=0x100000000- "$TMP/pae.raw"
is "$rc" 64 "a --range past the 32-bit space is an error, not an empty answer"
case $err in
*"beyond the 32-bit address space"*) ok 0 "... and says so" ;;
*) ok 1 "... and says so"; echo "#   $err" ;;
esac
run "$PGWALK" dump --layout=list
is "$rc" 0 "--layout=list exits 0"
case $out in
*x86-64-2.6.11*la57-4.20*i386*) ok 0 "--layout=list names the layouts" ;;
*) ok 1 "--layout=list names the layouts" ;;
esac
done_testing
