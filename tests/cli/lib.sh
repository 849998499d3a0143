# Shared helpers for the shell tests of the CLI (TAP, run by prove).
# Environment from `make check`: PGWALK (the binary), PGW_TOOLS (test tools).
set -u
: "${PGWALK:?run through make check}"
: "${PGW_TOOLS:=}"
TESTDIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$TESTDIR/../.." && pwd)
# The big real dumps: ../shared/testdata next to the repo, when present.
SHARED=${PGW_SHARED:-$REPO/../shared/testdata}
# Where unpacked real dumps go (vmcore.elf, mem.raw); reused between runs.
UNPACKED=${PGW_UNPACKED:-$REPO/build/unpacked}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
_n=0
_failed=0

ok() { _n=$((_n + 1)); if [ "$1" = 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; _failed=$((_failed + 1)); fi; }
# is GOT WANT NAME
is() { if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi; }
skip() { _n=$((_n + 1)); echo "ok $_n # skip $1"; }
done_testing() { echo "1..$_n"; [ "$_failed" = 0 ]; exit $?; }
# run CMD...: sets $out, $err, $rc
run() { "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?; out=$(cat "$TMP/out"); err=$(cat "$TMP/err"); }

# have_shared DUMP: is ../shared/testdata/DUMP there?
have_shared() { [ -d "$SHARED/$1" ]; }
# unpack_shared: decompress the real dumps once into $UNPACKED.
unpack_shared() { [ -d "$SHARED" ] && mkdir -p "$UNPACKED" && sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null; }
