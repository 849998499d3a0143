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

_planned=

ok() { _n=$((_n + 1)); if [ "$1" = 0 ]; then printf 'ok %s - %s\n' $_n "$2"; else printf 'not ok %s - %s\n' $_n "$2"; _failed=$((_failed + 1)); fi; }
# is GOT WANT NAME
is() { if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi; }
# skip REASON: a test that cannot run here.  PGW_STRICT=1 (CI, where every
# dependency is installed) makes it a failure: nothing is skipped there.
skip() {
	if [ -n "${PGW_STRICT:-}" ]; then
		ok 1 "skipped under PGW_STRICT: $1"
	else
		_n=$((_n + 1)); echo "ok $_n # skip $1"
	fi
}
# bail REASON: stop the whole file as failed (prove counts it).
bail() { echo "Bail out! $1"; exit 1; }
# plan N: the file runs exactly N tests (prove fails it on any other count,
# so a file that stops early or skips a loop cannot pass).
plan() { _planned=$1; echo "1..$1"; }
done_testing() {
	if [ -n "$_planned" ]; then
		[ "$_n" = "$_planned" ] ||
			echo "# planned $_planned tests but ran $_n"
		[ "$_failed" = 0 ] && [ "$_n" = "$_planned" ]
	else
		echo "1..$_n"
		[ "$_failed" = 0 ]
	fi
	exit $?
}
# updating_golden: PGW_UPDATE_GOLDEN=1 (exactly) rewrites golden files from
# the current output; never under CI, where it stops the file.
updating_golden() {
	[ "${PGW_UPDATE_GOLDEN:-}" = 1 ] || return 1
	[ -z "${CI:-}" ] || bail "PGW_UPDATE_GOLDEN=1 under CI: golden files are never rewritten there"
	return 0
}
# run CMD...: sets $out, $err, $rc
run() { "$@" >"$TMP/out" 2>"$TMP/err"; rc=$?; out=$(cat "$TMP/out"); err=$(cat "$TMP/err"); }

# unpack_shared: decompress the real dumps once into $UNPACKED.
unpack_shared() { [ -d "$SHARED" ] && mkdir -p "$UNPACKED" && sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null; }
