#!/bin/sh
# Mutation check of the test suite (`make mutants`; never part of `make
# check`): copy the tree to a scratch directory, put each mutant of
# tests/mutants/mutants.txt into it alone, build what `make check` runs,
# and run the suite's files one at a time until one fails: first the
# mutant's own "tests" (the files most likely to kill it), then every
# other file of the suite.  The first failing file kills the mutant; a
# survivor has run the whole suite.  A mutant no test file kills, a mutant
# that does not compile, and a mutant whose original text is not in the
# tree (exactly once) are failures: exit 1.
#
# Before any mutant, the "tests" files of the mutants run on the unmutated
# copy and must pass; a file outside them that kills a mutant is run again
# without it (it must pass there, else the run is broken, not a kill).
#
#   sh tests/mutants/run.sh [NAME...]     only these mutants
#   sh tests/mutants/run.sh --check       only check that every mutant
#                                         applies (seconds; after a merge)
#
# The real dumps are required (../shared/testdata, or PGW_SHARED): the
# check is of the whole suite.  MUTANTS_DIR keeps the scratch copy and the
# logs there instead of a temporary directory; MUTANTS_FILE_TIMEOUT (300 s)
# is each file's watchdog (a mutant that hangs a file is killed by it);
# MUTANTS_OWN_ONLY=1 runs each mutant's own files alone (a quick re-audit:
# a mutant they miss is reported as surviving without the whole suite).
set -u
check_only=
[ "${1:-}" = --check ] && { check_only=1; shift; }
REPO=$(cd "$(dirname "$0")/../.." && pwd)
TABLE=$REPO/tests/mutants/mutants.txt
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}

die() { echo "mutants: $*" >&2; exit 2; }

# names: every mutant of the table, in order.
names() { awk '$1 == "mutant" { print $2 }' "$TABLE"; }

# hunks NAME DIR: DIR/N.file (the path), DIR/N.orig, DIR/N.repl per hunk;
# prints the number of hunks.
hunks() {
	awk -v want="$1" -v dir="$2" '
	$1 == "mutant" { on = $2 == want; next }
	!on { next }
	$1 == "file" { n++; print $2 > (dir "/" n ".file"); close(dir "/" n ".file")
		printf "" > (dir "/" n ".orig"); printf "" > (dir "/" n ".repl"); next }
	/^-/ && n { print substr($0, 2) >> (dir "/" n ".orig"); next }
	/^\+/ && n { print substr($0, 2) >> (dir "/" n ".repl"); next }
	END { print n + 0 }' "$TABLE"
}

# replace ORIG REPL SRC > OUT: SRC with the lines of ORIG (exactly one
# occurrence, whole lines) replaced by REPL; exit 3 when ORIG is missing,
# 4 when it occurs more than once.
replace() {
	awk -v of="$1" -v rf="$2" '
	BEGIN {
		while ((getline l < of) > 0) o[++no] = l
		while ((getline l < rf) > 0) r[++nr] = l
	}
	{ s[++ns] = $0 }
	END {
		for (i = 1; i + no - 1 <= ns; i++) {
			for (j = 1; j <= no && s[i + j - 1] == o[j]; j++) ;
			if (j > no) { hits++; at = i }
		}
		if (no == 0 || hits == 0) exit 3
		if (hits > 1) exit 4
		for (i = 1; i < at; i++) print s[i]
		for (j = 1; j <= nr; j++) print r[j]
		for (i = at + no; i <= ns; i++) print s[i]
	}' "$3"
}

# apply NAME TREE: put the mutant into TREE (originals kept as FILE.orig-mutant).
apply() {
	_h=$WORK/hunks/$1
	rm -rf "$_h"; mkdir -p "$_h"
	_n=$(hunks "$1" "$_h")
	[ "$_n" -gt 0 ] || { echo "mutant $1: not in the table, or no hunks" >&2; return 1; }
	_i=1
	while [ "$_i" -le "$_n" ]; do
		_f=$(cat "$_h/$_i.file")
		[ -f "$2/$_f" ] || { echo "mutant $1: $_f does not exist" >&2; return 1; }
		[ -f "$2/$_f.orig-mutant" ] || cp -p "$2/$_f" "$2/$_f.orig-mutant"
		cmp -s "$_h/$_i.orig" "$_h/$_i.repl" &&
			{ echo "mutant $1: hunk $_i changes nothing" >&2; return 1; }
		replace "$_h/$_i.orig" "$_h/$_i.repl" "$2/$_f" >"$_h/out"
		case $? in
		0) cat "$_h/out" >"$2/$_f" ;;
		3) echo "mutant $1: hunk $_i: original text not found in $_f (update tests/mutants/mutants.txt)" >&2; return 1 ;;
		4) echo "mutant $1: hunk $_i: original text occurs more than once in $_f" >&2; return 1 ;;
		*) echo "mutant $1: hunk $_i: cannot apply to $_f" >&2; return 1 ;;
		esac
		_i=$((_i + 1))
	done
}

# restore TREE: undo apply.
restore() {
	find "$1" -name '*.orig-mutant' | while read -r _o; do
		mv "$_o" "${_o%.orig-mutant}"
		touch "${_o%.orig-mutant}"   # newer than the mutant's objects
	done
	rm -f "$1/.mutant-in"
}

# hints NAME: the files of NAME's "tests" line, in order.
hints() {
	awk -v want="$1" '$1 == "mutant" { on = $2 == want; next }
		on && $1 == "tests" { for (i = 2; i <= NF; i++) print $i }' "$TABLE"
}

# suite: every file `make check` runs, the unit tests (quick) first.
suite() {
	(cd "$REPO" && for f in tests/unit/*.c; do echo "${f%.c}"; done &&
		ls tests/cli/*.t)
}

# needs FILE: what FILE runs, to build before it: a unit test its binary;
# a CLI file the binary, the library and the test tools it names (or
# its helpers, or the Python tests it runs).  Relinking every tool for
# every mutant took minutes; a tool not named here is still there,
# built unmutated by the first build, so a missed one can only let a
# mutant survive, never kill one.  A file that runs other files
# (vacuous.t) or the fuzz replay drivers gets everything.
needs() {
	case $1 in
	tests/unit/*) echo "build/tests/${1#tests/unit/}"; return ;;
	tests/cli/vacuous.t|tests/cli/fuzz_corpus.t) echo check-build; return ;;
	esac
	echo all
	_src="$TREE/$1 $TREE/tests/cli/*.sh"
	[ "$1" = tests/cli/python.t ] && _src="$_src $TREE/tests/python/*.py"
	for _c in "$TREE"/tests/tools/*.c; do
		_n=$(basename "$_c" .c)
		# shellcheck disable=SC2086  # the globs above
		grep -q -- "$_n" $_src && echo "build/tools/$_n"
	done
}

# run_file FILE LOG: FILE alone in the scratch tree, after building what
# it needs; its status.
run_file() {
	_need=$(needs "$1")
	case $1 in
	tests/unit/*) _t=build/tests/${1#tests/unit/} ;;
	*) _t=$1 ;;
	esac
	# shellcheck disable=SC2086  # one target a word
	(cd "$TREE" && $MAKE -s -j"$JOBS" $_need &&
		PGWALK=$TREE/build/pgwalk PGW_TOOLS=$TREE/build/tools \
		PGW_TESTS=$TREE/build/tests PGW_FILE_TIMEOUT=$FILE_TIMEOUT \
		timeout -k 10 $((FILE_TIMEOUT + 30)) prove -f "$_t") >"$2" 2>&1
}

# copy DIR: the tree's tracked and untracked (not ignored) files, as they
# are in the work tree, into DIR.
copy() {
	_to=$1
	shift
	(cd "$REPO" && git ls-files -z -co --exclude-standard "$@" |
		tar --null -T - -cf -) | (cd "$_to" && tar xf -)
}

WORK=${MUTANTS_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/pgwalk-mutants.XXXXXX")}
mkdir -p "$WORK"
[ -n "${MUTANTS_DIR:-}" ] || trap 'rm -rf "$WORK"' EXIT
TREE=$WORK/tree

if [ $# -gt 0 ]; then
	list=$*
else
	list=$(names)
fi
[ -n "$list" ] || die "no mutants in $TABLE"

# Every mutant must apply to the tree as it is, before anything is built.
rm -rf "$WORK/check"; mkdir -p "$WORK/check"
copy "$WORK/check" || die "cannot copy the tree"
bad=0
for m in $list; do
	apply "$m" "$WORK/check" || bad=$((bad + 1))
	restore "$WORK/check"
done
[ "$bad" = 0 ] || die "$bad mutant(s) do not apply: the table must match the tree"
if [ -n "$check_only" ]; then
	echo "mutants: all $(echo $list | wc -w) apply"
	exit 0
fi

SHARED=${PGW_SHARED:-$REPO/../shared/testdata}
[ -d "$SHARED" ] || die "no real dumps at $SHARED: the suite would skip its real-dump tests (set PGW_SHARED)"
PGW_SHARED=$(cd "$SHARED" && pwd)
PGW_UNPACKED=${PGW_UNPACKED:-$REPO/build/unpacked}
FILE_TIMEOUT=${MUTANTS_FILE_TIMEOUT:-300}
export PGW_SHARED PGW_UNPACKED

echo "mutants: copying the tree to $TREE"
# A kept copy (MUTANTS_DIR) keeps its build, unless a run stopped with a
# mutant in: then its objects may be the mutant's.  Only the files that
# changed are copied, with a new time: an unchanged source keeps the time
# a restore gave it, newer than a mutant's objects (copying the tree's
# own, older times over it would make those look up to date).
[ -e "$TREE/.mutant-in" ] && rm -rf "$TREE"
rm -rf "$WORK/stage"; mkdir -p "$WORK/stage" "$TREE"
copy "$WORK/stage" || die "cannot copy the tree"
(cd "$WORK/stage" && find . -type f) | while read -r f; do
	cmp -s "$WORK/stage/$f" "$TREE/$f" && continue
	mkdir -p "$(dirname "$TREE/$f")"
	cp "$WORK/stage/$f" "$TREE/$f" || exit 1
done || die "cannot copy the tree"
# ... and files the tree no longer has go (the Makefile compiles every
# src/*/*.c it finds).
(cd "$TREE" && find . -path ./build -prune -o -type f -print) | while read -r f; do
	[ -e "$WORK/stage/$f" ] || rm -f "$TREE/$f"
done
(cd "$TREE" && $MAKE -j"$JOBS" check-build) >"$WORK/build.log" 2>&1 ||
	die "the unmutated copy does not build: see $WORK/build.log"
# The files the mutants name must pass without them: a file that fails
# anyway would kill every mutant.
base=$(for m in $list; do hints "$m"; done | awk '!seen[$0]++')
for f in $base; do
	[ -e "$REPO/$f" ] || [ -e "$REPO/$f.c" ] || die "no test file $f (tests/mutants/mutants.txt)"
done
echo "mutants: $(echo $base | wc -w) files the mutants name, on the unmutated copy"
passing=
for f in $base; do
	run_file "$f" "$WORK/baseline.log" ||
		die "$f fails without any mutant: see $WORK/baseline.log"
	passing="$passing $f "
done

# passes_unmutated FILE: FILE passes on the unmutated copy (the tree is
# restored and rebuilt for it; each file once).
passes_unmutated() {
	case $passing in *" $1 "*) return 0 ;; esac
	run_file "$1" "$WORK/unmutated.log" || return 1
	passing="$passing $1 "
}

survived=0 broken=0 total=0
all=$(suite)
printf '%-28s %s\n' MUTANT RESULT
for m in $list; do
	total=$((total + 1))
	: >"$TREE/.mutant-in"
	apply "$m" "$TREE" || { restore "$TREE"; broken=$((broken + 1)); continue; }
	log=$WORK/$m.log
	t0=$(date +%s)
	(cd "$TREE" && $MAKE -j"$JOBS" all >/dev/null 2>"$log.build") || {
		printf '%-28s %s\n' "$m" "DOES NOT COMPILE (see $log.build)"
		broken=$((broken + 1)); restore "$TREE"; continue
	}
	own=$(hints "$m")
	killer= ran=0
	rest=$(echo "$all" | grep -vxF "${own:-/}")
	[ -n "${MUTANTS_OWN_ONLY:-}" ] && rest=
	for f in $own $rest; do
		ran=$((ran + 1))
		run_file "$f" "$log" || { killer=$f; break; }
	done
	restore "$TREE"
	took=$(($(date +%s) - t0))
	if [ -z "$killer" ]; then
		printf '%-28s %s\n' "$m" "SURVIVED ($ran files${MUTANTS_OWN_ONLY:+, its own alone}, ${took}s)"
		survived=$((survived + 1))
	elif echo "$own" | grep -qxF "$killer" ||
	     passes_unmutated "$killer"; then
		printf '%-28s killed by %s (file %d, %ds)\n' "$m" "$killer" "$ran" "$took"
	else
		printf '%-28s %s\n' "$m" "BROKEN: $killer fails without the mutant too (see $WORK/unmutated.log)"
		broken=$((broken + 1))
	fi
done
echo "mutants: $total run, $((total - survived - broken)) killed, $survived survived, $broken broken"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
