#!/bin/sh
# Mutation check of the test suite (`make mutants`; never part of `make
# check`): copy the tree to a scratch directory, put each mutant of
# tests/mutants/mutants.txt into it alone, run `make check` there, and
# report which test files failed.  A mutant no test file kills, a mutant
# that does not compile, and a mutant whose original text is not in the
# tree (exactly once) are failures: exit 1.
#
#   sh tests/mutants/run.sh [NAME...]     only these mutants
#   sh tests/mutants/run.sh --check       only check that every mutant
#                                         applies (seconds; after a merge)
#
# The real dumps are required (../shared/testdata, or PGW_SHARED): the
# check is of the whole suite.  MUTANTS_DIR keeps the scratch copy and the
# logs there instead of a temporary directory.
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
}

# failed LOG: the test files prove's summary lists as failed.
failed() {
	sed -n 's/^\([^ ][^ ]*\) *(Wstat: .*/\1/p' "$1" | sed 's|^build/tests/|tests/unit/|' |
		sort -u | tr '\n' ' ' | sed 's/ $//'
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
export PGW_SHARED PGW_UNPACKED

echo "mutants: copying the tree to $TREE"
rm -rf "$TREE"; mkdir -p "$TREE"
copy "$TREE" || die "cannot copy the tree"
echo "mutants: make check on the unmutated copy (it must pass)"
(cd "$TREE" && $MAKE -j"$JOBS" check) >"$WORK/baseline.log" 2>&1 ||
	die "make check fails without any mutant: see $WORK/baseline.log"

survived=0 broken=0 total=0
printf '%-28s %s\n' MUTANT RESULT
for m in $list; do
	total=$((total + 1))
	apply "$m" "$TREE" || { restore "$TREE"; broken=$((broken + 1)); continue; }
	log=$WORK/$m.log
	(cd "$TREE" && $MAKE -j"$JOBS" all >/dev/null 2>"$log.build") || {
		printf '%-28s %s\n' "$m" "DOES NOT COMPILE (see $log.build)"
		broken=$((broken + 1)); restore "$TREE"; continue
	}
	(cd "$TREE" && $MAKE -j"$JOBS" check) >"$log" 2>&1
	rc=$?
	killers=$(failed "$log")
	if [ "$rc" != 0 ] && [ -n "$killers" ]; then
		printf '%-28s killed by %s\n' "$m" "$killers"
	elif [ "$rc" != 0 ]; then
		printf '%-28s %s\n' "$m" "make check failed outside the tests (see $log)"
		broken=$((broken + 1))
	else
		printf '%-28s %s\n' "$m" "SURVIVED"
		survived=$((survived + 1))
	fi
	restore "$TREE"
done
echo "mutants: $total run, $((total - survived - broken)) killed, $survived survived, $broken broken"
[ "$survived" = 0 ] && [ "$broken" = 0 ]
