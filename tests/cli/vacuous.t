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

# t FILE [VAR=VALUE...]: run tests/cli/FILE with the environment changed;
# sets rc and out (its TAP output and errors).
t() {
	_f=$1
	shift
	out=$(env "$@" sh "$TESTDIR/$_f" 2>&1)
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

done_testing
