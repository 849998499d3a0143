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
# The watchdog: every test file runs again under `timeout`, which kills
# its whole process group (every command the file started) after
# PGW_FILE_TIMEOUT seconds; the file then fails with a "Bail out!".
# $PGWALK is a wrapper whose output files may not grow past
# PGW_MAX_OUTPUT_MB (a soft `ulimit -f`: pgwalk dies of SIGXFSZ, its
# command fails), so a runaway pgwalk can neither hang the suite nor fill
# the disk.  (The tools are left unbounded in size: their raw images are
# sparse files hundreds of GiB long.)  `run` bounds each command further,
# to PGW_TIMEOUT seconds.
PGW_FILE_TIMEOUT=${PGW_FILE_TIMEOUT:-900}
if [ -z "${PGW_WATCHED:-}" ] && command -v timeout >/dev/null 2>&1; then
	_watch_tmp=$(mktemp -d)
	# The file's own interpreter (#!/bin/bash for completion.t).
	_shell=$(sed -n '1s/^#![ ]*//p' "$0")
	# shellcheck disable=SC2086  # an interpreter may take options
	PGW_WATCHED=1 _PGW_TMP=$_watch_tmp \
		timeout -k 10 "$PGW_FILE_TIMEOUT" ${_shell:-sh} "$0" "$@"
	_rc=$?
	rm -rf "$_watch_tmp"
	case $_rc in
	124|137) echo "Bail out! watchdog: $(basename "$0") ran for more than $PGW_FILE_TIMEOUT s (PGW_FILE_TIMEOUT)" ;;
	esac
	exit "$_rc"
fi
export PGW_WATCHED=1
# The watched file's temporary folder is its watcher's, which removes it
# even after a kill; a file this one runs (vacuous.t) gets its own.
if [ -n "${_PGW_TMP:-}" ]; then
	TMP=$_PGW_TMP
	unset _PGW_TMP
else
	TMP=$(mktemp -d)
fi
trap 'rm -rf "$TMP"' EXIT
# The facts cache: the file's own, never the user's (PGW_TEST_CACHE=/dev/null/x:
# none can be written, so no command uses one).
export XDG_CACHE_HOME="${PGW_TEST_CACHE:-$TMP/.cache}"
# PGW_BIN: the binary itself (its folder holds the libraries).
export PGW_BIN="${PGW_BIN:-$PGWALK}"
mkdir "$TMP/.watch"
# ulimit -f counts 512-byte blocks in dash and in POSIX shells.
printf '#!/bin/sh\nulimit -S -f %s\nexec "$PGW_BIN" "$@"\n' \
	$((${PGW_MAX_OUTPUT_MB:-1024} * 2048)) >"$TMP/.watch/pgwalk"
chmod +x "$TMP/.watch/pgwalk"
PGWALK=$TMP/.watch/pgwalk
_n=0
_failed=0

_planned=

ok() { _n=$((_n + 1)); if [ "$1" = 0 ]; then printf 'ok %s - %s\n' $_n "$2"; else printf 'not ok %s - %s\n' $_n "$2"; _failed=$((_failed + 1)); fi; }
# is GOT WANT NAME
is() { if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi; }
# skip REASON: a test that cannot run here.  PGW_STRICT=1 (CI, where every
# dependency is installed) makes it a failure: nothing is skipped there.
# Each skip is also written to PGW_SKIP_LOG, which `make check` lists at
# its end: prove's summary counts a skip as a pass.
skip() {
	if [ -n "${PGW_STRICT:-}" ]; then
		ok 1 "skipped under PGW_STRICT: $1"
	else
		_n=$((_n + 1)); echo "ok $_n # skip $1"
		_log_skip "$1"
	fi
}
# skip_all REASON: the rest of the file cannot run here (all of it, before
# its plan).
skip_all() {
	[ -z "${PGW_STRICT:-}" ] || bail "$1 (PGW_STRICT: it must run)"
	_log_skip "all of it: $1"
	if [ -z "$_planned" ]; then
		echo "1..0 # skip $1"
	else
		while [ "$_n" -lt "$_planned" ]; do
			_n=$((_n + 1)); echo "ok $_n # skip $1"
		done
	fi
	exit 0
}
_log_skip() {
	[ -z "${PGW_SKIP_LOG:-}" ] ||
		printf '%s: %s\n' "$(basename "$0")" "$1" >>"$PGW_SKIP_LOG"
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
		# Every file has a fixed plan: one that stops early must fail.
		echo "1..$_n"
		echo "# no plan: $(basename "$0") must call plan N before its tests"
		false
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
# golden_dir: sets GOLDEN, the golden files' folder: tests/golden, or
# PGW_GOLDEN (a copy to try a change on), never under CI, which compares
# with the tree's own.
golden_dir() {
	GOLDEN=$REPO/tests/golden
	[ -n "${PGW_GOLDEN:-}" ] || return 0
	if [ -n "${CI:-}" ]; then
		updating_golden || :
		bail "PGW_GOLDEN=$PGW_GOLDEN under CI: CI compares with tests/golden only"
	fi
	GOLDEN=$PGW_GOLDEN
}
# run CMD...: sets $out, $err, $rc; a program (not a shell function) is
# killed after PGW_TIMEOUT seconds (default 300; rc 124)
# (--foreground: it stays in the watchdog's process group).
run() {
	case $(command -v "$1") in
	/*) timeout --foreground -k 5 "${PGW_TIMEOUT:-300}" "$@" \
		>"$TMP/out" 2>"$TMP/err" ;;
	*) "$@" >"$TMP/out" 2>"$TMP/err" ;;
	esac
	rc=$?
	out=$(cat "$TMP/out")
	err=$(cat "$TMP/err")
}

# unpack_shared: decompress the real dumps once into $UNPACKED.
# Under a lock: `prove -j` runs two files at once, and both may unpack.
unpack_shared() {
	[ -d "$SHARED" ] && mkdir -p "$UNPACKED" || return 1
	if command -v flock >/dev/null 2>&1; then
		flock "$UNPACKED" sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null
	else
		sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null
	fi
}

# threads_agree WHAT BIN SUB ARGS...: BIN SUB --threads=T ARGS for T = 1, 2, 4
# (each run's stdin the file AGREE_IN names, when set); one test that the
# three agree (stdout not empty).  pgw-roots' scan line carries its time
# (ms=), which is no part of the answer.
threads_agree() {
	_what=$1 _bin=$2 _sub=$3
	shift 3
	for _t in 1 2 4; do
		"$_bin" "$_sub" --threads=$_t "$@" <"${AGREE_IN:-/dev/null}" \
			>"$TMP/o$_t" 2>"$TMP/e$_t"
		echo "exit $?" >>"$TMP/e$_t"
		sed -i 's/ ms=[0-9.]*//' "$TMP/o$_t"
	done
	if [ -s "$TMP/o1" ] && cmp -s "$TMP/o1" "$TMP/o2" &&
	   cmp -s "$TMP/o1" "$TMP/o4" && cmp -s "$TMP/e1" "$TMP/e2" &&
	   cmp -s "$TMP/e1" "$TMP/e4"; then
		ok 0 "$_what"
	else
		ok 1 "$_what"
		for _t in 2 4; do
			diff "$TMP/o1" "$TMP/o$_t" | head -5 | sed 's/^/#   /'
			diff "$TMP/e1" "$TMP/e$_t" | head -5 | sed 's/^/#   /'
		done
	fi
}
