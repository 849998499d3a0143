# Tests on the real dumps in ../shared/testdata: source after lib.sh.
# Skips the whole test when they are absent (a fresh clone).
. "$TESTDIR/assert.sh"
. "$TESTDIR/oracles.sh"
if [ ! -d "$SHARED" ]; then
	echo "1..0 # skip no real dumps ($SHARED absent)"
	exit 0
fi
if ! unpack_shared; then
	echo "1..0 # skip cannot unpack the real dumps into $UNPACKED"
	exit 0
fi
