#!/bin/sh
# The suite cannot pass by accident: other test files run here on broken
# setups must fail, not skip or pass.
#  - real dumps present but unusable (an oracle file emptied, a dump folder
#    missing, PGW_UNPACKED not creatable, an oracle with one CPU's answers
#    only) fail the real-dump tests; absent real dumps skip them, except
#    under PGW_STRICT=1 (CI);
#  - golden files are rewritten only with PGW_UPDATE_GOLDEN=1 exactly, and
#    never with CI set.
. "$(dirname "$0")/lib.sh"
plan 22

# t FILE [VAR=VALUE...]: run tests/cli/FILE with the environment changed;
# sets rc and out (its TAP output and errors).
t() {
	_f=$1
	shift
	out=$(env PGW_SKIP_LOG= "$@" sh "$TESTDIR/$_f" 2>&1)
	rc=$?
}

# fake [DUMP FILE [CONTENT]]...: a copy of ../shared/testdata in
# $TMP/shared made of links, with FILE of DUMP replaced by CONTENT (a
# command whose output it is; none: the file is removed) or, for FILE "-",
# the whole DUMP folder left out.
fake() {
	rm -rf "$TMP/shared"
	mkdir -p "$TMP/shared"
	ln -s "$SHARED/unpack.sh" "$TMP/shared/unpack.sh"
	for _d in "$SHARED"/*/; do
		_b=$(basename "$_d")
		mkdir "$TMP/shared/$_b"
		for _f in "$_d"*; do ln -s "$_f" "$TMP/shared/$_b/"; done
	done
	while [ $# -ge 2 ]; do
		if [ "$2" = - ]; then
			rm -rf "$TMP/shared/$1"
		else
			rm -f "$TMP/shared/$1/$2"
			[ -z "${3:-}" ] || sh -c "$3" >"$TMP/shared/$1/$2"
		fi
		if [ $# -ge 3 ]; then shift 3; else shift $#; fi
	done
}

if [ -d "$SHARED" ]; then
	fake x64-4l-a gva2gpa.txt ":"
	t real-oracle.t PGW_SHARED="$TMP/shared" PGW_UNPACKED="$UNPACKED"
	[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^Bail out! .*gva2gpa.txt'
	ok $? "real-oracle.t fails on an empty gva2gpa.txt (exit $rc)"

	fake i386-2l-a - -
	t real-info.t PGW_SHARED="$TMP/shared" PGW_UNPACKED="$UNPACKED"
	[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^Bail out! dump i386-2l-a is missing'
	ok $? "real-info.t fails when a dump folder is missing (exit $rc)"

	fake x64-5l-a crash-vtop.txt
	t real-crash.t PGW_SHARED="$TMP/shared" PGW_UNPACKED="$UNPACKED"
	[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^Bail out! .*crash-vtop.txt is missing'
	ok $? "real-crash.t fails when an oracle file is missing (exit $rc)"

	t dump-qemu.t PGW_UNPACKED=/dev/null/unpacked
	[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^Bail out! cannot unpack'
	ok $? "dump-qemu.t fails when the dumps cannot be unpacked (exit $rc)"

	# Big enough, but one CPU's answers only: fewer tests than planned.
	fake x64-4l-a gva2gpa.txt "grep '^cpu0 ' '$SHARED/x64-4l-a/gva2gpa.txt'"
	t real-oracle.t PGW_SHARED="$TMP/shared" PGW_UNPACKED="$UNPACKED"
	[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^# planned 32 tests but ran 28'
	ok $? "real-oracle.t fails when an oracle holds one CPU of two (exit $rc)"
else
	for _i in 1 2 3 4 5; do skip "no real dumps at $SHARED to break"; done
fi

t real-markers.t PGW_SHARED="$TMP/nothing-here" PGW_STRICT=
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q '^1\.\.0 # skip no real dumps'
ok $? "without real dumps real-markers.t skips as a whole (exit $rc)"
t real-markers.t PGW_SHARED="$TMP/nothing-here" PGW_STRICT=1
[ "$rc" != 0 ]
ok $? "... and fails under PGW_STRICT=1 (exit $rc)"

# Golden files: a copy with one file altered.
mkdir -p "$TMP/golden"
cp "$REPO"/tests/golden/* "$TMP/golden/"
echo "altered" >"$TMP/golden/dump-pae.txt"
for v in 0 yes; do
	t dump-golden.t PGW_GOLDEN="$TMP/golden" PGW_UPDATE_GOLDEN=$v CI=
	[ "$rc" != 0 ] && [ "$(cat "$TMP/golden/dump-pae.txt")" = altered ]
	ok $? "PGW_UPDATE_GOLDEN=$v rewrites nothing: dump-golden.t fails on the altered file (exit $rc)"
done
t dump-golden.t PGW_GOLDEN="$TMP/golden" PGW_UPDATE_GOLDEN=1 CI=true
[ "$rc" != 0 ] && [ "$(cat "$TMP/golden/dump-pae.txt")" = altered ] &&
	printf '%s\n' "$out" | grep -q '^Bail out! PGW_UPDATE_GOLDEN=1 under CI'
ok $? "PGW_UPDATE_GOLDEN=1 with CI set stops dump-golden.t and rewrites nothing (exit $rc)"
t dump-golden.t PGW_GOLDEN="$TMP/golden" PGW_UPDATE_GOLDEN=1 CI=
[ "$(cat "$TMP/golden/dump-pae.txt")" != altered ] && [ -s "$TMP/golden/dump-pae.txt" ]
ok $? "PGW_UPDATE_GOLDEN=1 alone rewrites the golden file"
t formats.t PGW_GOLDEN="$TMP/golden" PGW_UPDATE_GOLDEN=1 CI=1
[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^Bail out! PGW_UPDATE_GOLDEN=1 under CI'
ok $? "formats.t refuses PGW_UPDATE_GOLDEN=1 under CI too (exit $rc)"
t formats.t PGW_GOLDEN="$TMP/golden" CI=1
[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^Bail out! PGW_GOLDEN=.* under CI'
ok $? "PGW_GOLDEN under CI stops formats.t: CI compares with tests/golden only (exit $rc)"

# A binary that prints nothing and exits 0 passes no comparison: every
# assertion about pgwalk's output fails (empty never equals empty).
printf '#!/bin/sh\nexit 0\n' >"$TMP/noop"
printf '#!/bin/sh\nexec yes 0123456789abcdef\n' >"$TMP/endless"
printf '#!/bin/sh\nexec sleep 600\n' >"$TMP/hang"
chmod +x "$TMP/noop" "$TMP/endless" "$TMP/hang"
t brief.t PGWALK="$TMP/noop" PGW_BIN=
[ "$rc" != 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^ok')" = 0 ] &&
	[ "$(printf '%s\n' "$out" | grep -c '^not ok')" = 32 ]
ok $? "brief.t with a binary that prints nothing: all 32 comparisons fail (exit $rc)"
t examples.t PGWALK="$TMP/noop" PGW_BIN=
# Only the two checks of each source's example blocks pass (skips, as
# without the real dumps, are no passes).
[ "$rc" != 0 ] &&
	[ "$(printf '%s\n' "$out" | grep '^ok' | grep -vc '# skip')" = 4 ]
ok $? "examples.t with a binary that prints nothing: every example fails ($(printf '%s\n' "$out" | grep -c '^not ok') of them, exit $rc)"
if [ -d "$SHARED" ]; then
	t real-perms.t PGWALK="$TMP/noop" PGW_BIN=
	[ "$(printf '%s\n' "$out" | grep -c '^not ok .* user ranges .* inside pid')" = 4 ] &&
		! printf '%s\n' "$out" | grep -q '^ok .* user ranges'
	ok $? "real-perms.t with a binary that prints nothing: its 4 user-range checks fail"
else
	skip "no real dumps at $SHARED for real-perms.t"
fi

# The watchdog: a file whose pgwalk never returns fails by itself, soon.
start=$(date +%s)
t escape.t PGWALK="$TMP/hang" PGW_BIN= PGW_WATCHED= PGW_FILE_TIMEOUT=3 PGW_TIMEOUT=1000
took=$(($(date +%s) - start))
[ "$rc" != 0 ] && [ "$took" -lt 30 ] &&
	printf '%s\n' "$out" | grep -q '^Bail out! watchdog: escape.t ran for more than 3 s'
ok $? "a pgwalk that hangs: the watchdog stops escape.t after 3 s (exit $rc, $took s)"
# ... and one that writes without end is stopped at PGW_MAX_OUTPUT_MB.
PGW_BIN="$TMP/endless" PGW_MAX_OUTPUT_MB=1 sh -c '
	. "$0/lib.sh"
	"$PGWALK" >"$1/big"' "$TESTDIR" "$TMP" 2>/dev/null
rc=$?
size=$(wc -c <"$TMP/big")
[ "$rc" != 0 ] && [ "$size" -le 1048576 ] && [ "$size" -gt 0 ]
ok $? "a pgwalk that prints without end is stopped at 1 MiB of output (exit $rc, $size bytes)"
rm -f "$TMP/big"
t escape.t PGWALK="$TMP/endless" PGW_BIN= PGW_WATCHED= PGW_MAX_OUTPUT_MB=1 PGW_FILE_TIMEOUT=120
[ "$rc" != 0 ] && ! printf '%s\n' "$out" | grep -q '^Bail out! watchdog'
ok $? "... so escape.t with it fails without waiting for the watchdog (exit $rc)"

# A file without a plan, or one that stops before its plan, fails;
# a skip is listed in PGW_SKIP_LOG.
mkdir -p "$TMP/files"
cp "$TESTDIR/lib.sh" "$TMP/files/"
printf '. "$(dirname "$0")/lib.sh"\nok 0 one\ndone_testing\n' >"$TMP/files/noplan.t"
printf '. "$(dirname "$0")/lib.sh"\nplan 3\nok 0 one\nok 0 two\nexit 0\n' >"$TMP/files/short.t"
printf '. "$(dirname "$0")/lib.sh"\nplan 2\nok 0 one\nskip "no frobnicator"\ndone_testing\n' >"$TMP/files/skips.t"
out=$(sh "$TMP/files/noplan.t" 2>&1)
rc=$?
[ "$rc" != 0 ] && printf '%s\n' "$out" | grep -q '^# no plan: noplan.t'
ok $? "a file without a plan fails (exit $rc)"
prove "$TMP/files/short.t" >/dev/null 2>&1
ok $((! $?)) "a file that stops before its plan fails under prove"
out=$(PGW_STRICT= PGW_SKIP_LOG="$TMP/skips.log" sh "$TMP/files/skips.t" 2>&1)
rc=$?
[ "$rc" = 0 ] && [ "$(cat "$TMP/skips.log")" = "skips.t: no frobnicator" ]
ok $? "a skip is passed and written to PGW_SKIP_LOG for make check's summary (exit $rc)"

done_testing
