# Helpers for tests on synthetic images (tests/tools/pgw-mkimage); source
# after lib.sh.
. "$TESTDIR/assert.sh"
MKIMAGE=${PGW_TOOLS:+$PGW_TOOLS/pgw-mkimage}
SPECS=$REPO/tests/specs
if [ -z "$MKIMAGE" ] || [ ! -x "$MKIMAGE" ]; then
	skip_all "pgw-mkimage is not built (run through make check)"
fi

# mkimg NAME [pgw-mkimage options] < SPEC: writes $TMP/NAME.raw,
# $TMP/NAME.elf and $TMP/NAME.exp (expected translate --format=tsv).
mkimg() {
	_name=$1
	shift
	"$MKIMAGE" -r "$TMP/$_name.raw" -e "$TMP/$_name.elf" \
		-x "$TMP/$_name.exp" "$@" || echo "# pgw-mkimage $_name failed"
}

# expect_tsv DESC EXP PGWALK-ARGS...: translate every address in the first
# column of EXP (from stdin); TSV's header row, then its columns va, pa,
# page_size and flags must equal EXP line for line.
TSV_HEADER='va	pa	page_size	level	flags	effective	in_image	reason	absence	input	pkey'
expect_tsv() {
	_desc=$1 _exp=$2
	shift 2
	cut -f1 "$_exp" | "$PGWALK" translate --format=tsv "$@" - \
		>"$TMP/got.all" 2>"$TMP/got.err"
	_rc=$?
	sed 1d "$TMP/got.all" | cut -f1,2,3,5 >"$TMP/got.tsv"
	if cmp -s "$TMP/got.tsv" "$_exp" && [ "$_rc" -le 2 ] &&
	   [ "$(sed -n 1p "$TMP/got.all")" = "$TSV_HEADER" ]; then
		ok 0 "$_desc ($(wc -l <"$_exp") addresses)"
	else
		ok 1 "$_desc"
		echo "#   rc=$_rc; header: $(sed -n 1p "$TMP/got.all")"
		echo "#   first differences (expected < > got):"
		diff "$_exp" "$TMP/got.tsv" | head -6 | sed 's/^/#   /'
		head -3 "$TMP/got.err" | sed 's/^/#   /'
	fi
}
