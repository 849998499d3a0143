#!/bin/sh
# make install / make uninstall into temporary DESTDIRs, as a packager or
# a user would run them, and a program built against what was installed:
# every file where PREFIX and the *DIR variables say, symlinks and soname,
# one version everywhere, DESTDIR in no installed file, both man pages
# rendering without a warning (groff -ww), a .so exporting
# exactly the public header's pgw_ names, and examples/vtop.c built with
# the installed pgwalk.pc -- dynamically, and statically against
# libpgwalk.a with `pkg-config --static --libs` -- answering as QEMU did on
# the bundled sample (testdata/x64-4l-a.elf, its gva2gpa.txt).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
. "$(dirname "$0")/oracles.sh"
. "$(dirname "$0")/python.sh"
plan 48

if [ -n "${PGW_VALGRIND:-}" ]; then
	skip_all "install.t under make valgrind: installs and compiles, no pgwalk runs worth checking"
fi
for t in pkg-config nm readelf; do
	if ! command -v "$t" >/dev/null 2>&1; then
		skip_all "$t not installed (scripts/install-deps.sh installs it)"
	fi
done

CC=${PGW_CC:-cc}
SAN_FLAGS=${PGW_SAN_FLAGS:-}
VERSION=$(cat "$REPO/VERSION")
SOMAJOR=${VERSION%%.*}
DATA=$REPO/testdata/x64-4l-a

# The suite runs inside `make check`, whose job server is not handed to
# this script: keep the rest of MAKEFLAGS (WITHOUT_CODECS=... and the
# like) and drop that, so the nested make runs on its own without a
# warning.  SAN selects the build directory, so it is given explicitly.
MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" | sed 's/--jobserver-[a-z]*=[^ ]*//g')
export MAKEFLAGS
unset MAKELEVEL MFLAGS
mk() { run "${MAKE:-make}" --no-print-directory -C "$REPO" SAN="${PGW_SAN:-}" "$@"; }

# installed ROOT: the files and symlinks under ROOT, relative, sorted.
installed() { (cd "$1" && find . ! -type d | sed 's|^\./||' | sort); }

# ---- default PREFIX, staged in DESTDIR --------------------------------
D=$TMP/dest
P=$D/usr/local
mk install DESTDIR="$D"
is "$rc" 0 "make install DESTDIR=... exits 0"
[ "$rc" = 0 ] || printf '%s\n' "$err" | head -5 | sed 's/^/#   /'
unlike ' -c -o |ar rcs' "make install compiles nothing 'make check' did not"

is "$(installed "$D" | tr '\n' ' ')" \
"$({ printf '%s\n' usr/local/bin/pgwalk usr/local/include/pgwalk.h \
	usr/local/lib/libpgwalk.a usr/local/lib/libpgwalk.so \
	usr/local/lib/libpgwalk.so.$SOMAJOR usr/local/lib/libpgwalk.so.$VERSION \
	usr/local/lib/pkgconfig/pgwalk.pc \
	usr/local/share/bash-completion/completions/pgwalk \
	usr/local/share/man/man1/pgwalk.1 usr/local/share/man/man3/pgwalk.3
	py_files /usr/local; } | sort | tr '\n' ' ')" \
	"every file under PREFIX=/usr/local (the Python package's too, when built)"
is "$(readlink "$P/lib/libpgwalk.so.$SOMAJOR")" "libpgwalk.so.$VERSION" \
	"libpgwalk.so.$SOMAJOR -> libpgwalk.so.$VERSION"
is "$(readlink "$P/lib/libpgwalk.so")" "libpgwalk.so.$SOMAJOR" \
	"libpgwalk.so -> libpgwalk.so.$SOMAJOR"
cmp -s "$P/bin/pgwalk" "$PGW_BIN"
ok $? "the installed binary is the one the suite tests"
[ -x "$P/bin/pgwalk" ] && [ "$(stat -c %a "$P/lib/libpgwalk.so.$VERSION")" = 644 ]
ok $? "modes: binary executable, libraries 0644"
cmp -s "$P/share/bash-completion/completions/pgwalk" \
	"$REPO/completion/pgwalk.bash"
ok $? "completion installed under the command's name"
cmp -s "$P/include/pgwalk.h" "$REPO/include/pgwalk.h"
ok $? "the public header installed as it is"

# One version everywhere: VERSION, --version, soname, pgwalk.pc, man page.
run "$P/bin/pgwalk" --version
like "^pgwalk $VERSION \\(codecs: zlib( [a-z0-9]+)*\\)\$" \
	"--version: VERSION and the codecs compiled in ($out)"
is "$(readelf -d "$P/lib/libpgwalk.so.$VERSION" |
	sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" "libpgwalk.so.$SOMAJOR" \
	"soname libpgwalk.so.$SOMAJOR"
grep -qx "Version: $VERSION" "$P/lib/pkgconfig/pgwalk.pc"
ok $? "pgwalk.pc: Version: $VERSION"
head -1 "$P/share/man/man1/pgwalk.1" | grep -q "\"pgwalk $VERSION\"" &&
	head -1 "$P/share/man/man3/pgwalk.3" | grep -q "\"pgwalk $VERSION\""
ok $? "man pages pgwalk(1) and pgwalk(3): pgwalk $VERSION"
# The API page as man renders it: every warning groff has enabled (-ww),
# none printed; pgwalk(1) too (its long column lists carry break points
# or sit in no-fill blocks).
if command -v groff >/dev/null 2>&1; then
	run groff -man -Tutf8 -ww -z "$P/share/man/man3/pgwalk.3"
	is "$rc:$err" "0:" "the installed pgwalk(3) renders without a warning (groff -man -ww)"
	run groff -man -Tutf8 -ww -z "$P/share/man/man1/pgwalk.1"
	is "$rc:$err" "0:" "the installed pgwalk(1) renders without a warning (groff -man -ww)"
else
	skip "groff not installed (scripts/install-deps.sh installs groff-base)"
	skip "groff not installed (scripts/install-deps.sh installs groff-base)"
fi
grep -rlF "$D" "$D" >"$TMP/leak"
is "$(cat "$TMP/leak")" "" "DESTDIR appears in no installed file"
grep -qx 'prefix=/usr/local' "$P/lib/pkgconfig/pgwalk.pc" &&
	grep -qx 'libdir=${prefix}/lib' "$P/lib/pkgconfig/pgwalk.pc" &&
	grep -qx 'Libs: -L${libdir} -lpgwalk' "$P/lib/pkgconfig/pgwalk.pc"
ok $? "pgwalk.pc: prefix=/usr/local, libdir under it (a loader directory: no RUNPATH)"

# The .so exports the public API and nothing else.
nm -D --defined-only "$P/lib/libpgwalk.so.$VERSION" | awk '{ print $3 }' |
	sort >"$TMP/exported"
grep -v '^pgw_' "$TMP/exported" >"$TMP/foreign"
is "$(tr '\n' ' ' <"$TMP/foreign")" "" "the .so exports only pgw_ names"
: >"$TMP/undeclared"
while read -r s; do
	grep -q "\\<$s\\>" "$P/include/pgwalk.h" || echo "$s" >>"$TMP/undeclared"
done <"$TMP/exported"
is "$(tr '\n' ' ' <"$TMP/undeclared")" "" \
	"every exported name is declared in pgwalk.h (internal pgw_ helpers hidden)"
grep -oE '\<pgw_[a-z0-9_]+ *\(' "$P/include/pgwalk.h" | tr -d ' (' |
	sort -u >"$TMP/declared"
is "$(comm -23 "$TMP/declared" "$TMP/exported" | tr '\n' ' ')" "" \
	"every function pgwalk.h declares is exported"
grep -qx pgw_translate "$TMP/exported"
ok $? "pgw_translate exported ($(grep -c '' "$TMP/exported") names)"

# examples/vtop.c against the installed tree.  pkg-config reads the staged
# pgwalk.pc and prefixes its paths with the staging root.
export PKG_CONFIG_PATH="$P/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
run pkg-config --modversion pgwalk
is "$out" "$VERSION" "pkg-config finds the installed pgwalk.pc"
# shellcheck disable=SC2046
run "$CC" $SAN_FLAGS -std=c11 -Wall -Wextra -Werror \
	$(pkg-config --cflags pgwalk) -o "$TMP/vtop" "$REPO/examples/vtop.c" \
	$(pkg-config --libs pgwalk)
is "$rc" 0 "vtop builds with pkg-config --cflags --libs pgwalk"
[ "$rc" = 0 ] || printf '%s\n' "$err" | head -5 | sed 's/^/#   /'
readelf -d "$TMP/vtop" 2>/dev/null | grep -q "NEEDED.*\\[libpgwalk.so.$SOMAJOR\\]"
ok $? "vtop (dynamic) needs libpgwalk.so.$SOMAJOR"
# The archive, with what it needs from Libs.private/Requires.private
# (the system's libraries stay shared).
libs=$(pkg-config --static --libs pgwalk | sed 's/-lpgwalk\>/-l:libpgwalk.a/')
# shellcheck disable=SC2086
run "$CC" $SAN_FLAGS -std=c11 -Wall -Wextra -Werror \
	$(pkg-config --cflags pgwalk) -o "$TMP/vtop-static" \
	"$REPO/examples/vtop.c" $libs
is "$rc" 0 "vtop links libpgwalk.a with pkg-config --static --libs pgwalk ($libs)"
[ "$rc" = 0 ] || printf '%s\n' "$err" | head -5 | sed 's/^/#   /'
readelf -d "$TMP/vtop-static" 2>/dev/null | grep -q 'NEEDED.*libpgwalk'
ok $((! $?)) "vtop (static) does not need libpgwalk.so"

# pgw_version() through the installed library: what VERSION says.
printf '%s\n' '#include <stdio.h>' '#include <pgwalk.h>' \
	'int main(void) { return puts(pgw_version()) < 0; }' >"$TMP/ver.c"
# shellcheck disable=SC2046
run "$CC" $SAN_FLAGS -std=c11 -Wall -Wextra -Werror \
	$(pkg-config --cflags pgwalk) -o "$TMP/ver" "$TMP/ver.c" \
	$(pkg-config --libs pgwalk)
run env LD_LIBRARY_PATH="$P/lib" "$TMP/ver"
is "$rc:$out" "0:$VERSION" "pgw_version() of the installed library: $VERSION"

for c in $(cpus_of "$DATA"); do
	qemu_answers "$DATA" "$c" >"$TMP/want"
	# shellcheck disable=SC2046
	LD_LIBRARY_PATH=$P/lib "$TMP/vtop" "$REPO/testdata/x64-4l-a.elf" "$c" \
		$(cut -f1 "$TMP/want") | cut -f1,2 >"$TMP/got"
	agree "vtop (dynamic) cpu$c: QEMU's gva2gpa" "$TMP/want" "$TMP/got"
	# shellcheck disable=SC2046
	"$TMP/vtop-static" "$REPO/testdata/x64-4l-a.elf" "$c" \
		$(cut -f1 "$TMP/want") | cut -f1,2 >"$TMP/got"
	agree "vtop (static) cpu$c: QEMU's gva2gpa" "$TMP/want" "$TMP/got"
done
# pgwalk(3)'s EXAMPLE runs vtop from the top of the tree: it prints what the
# page shows.
sed -n '/^\.\\" api: run/,/^\.fi/p' "$REPO/man/pgwalk.3" | sed 's/\\-/-/g' >"$TMP/run"
args=$(sed -n 's/^\\&\.\/vtop //p' "$TMP/run")
shown=$(sed -n '/^\\&\.\/vtop /,/^\.fi/p' "$TMP/run" | sed '1d;$d')
# shellcheck disable=SC2086
got=$(cd "$REPO" && LD_LIBRARY_PATH=$P/lib "$TMP/vtop" $args)
is "$args: $got" "testdata/x64-4l-a.elf 1 0x403390: $shown" \
	"pgwalk(3)'s example: vtop prints what the page shows"
run env LD_LIBRARY_PATH="$P/lib" "$TMP/vtop" "$REPO/testdata/x64-4l-a.elf" 1 \
	0x403390 0x8000000000000
is "$rc" 1 "vtop: exit 1 when an address does not translate"
like "^0x8000000000000	-	non-canonical" "vtop: the reason it does not"

# The Python package from the staged tree: it imports, its version is
# the library's, and it answers as QEMU did on the sample.
if py_built; then
	pydir=$D$("$PY" "$REPO/python/sitedir.py" /usr/local)
	ext=$(ls "$pydir/pgwalk/"_ffi*)
	is "$(readelf -d "$ext" | sed -n 's/.*R[UN]*PATH.*\[\(.*\)\]/\1/p')" \
		/usr/local/lib "the installed pgwalk._ffi finds libpgwalk in LIBDIR"
	qemu_answers "$DATA" 1 >"$TMP/want"
	(
		py_san
		cd "$TMP" && PYTHONPATH=$pydir LD_LIBRARY_PATH=$P/lib "$PY" -c '
import sys, pgwalk
assert pgwalk.__file__.startswith(sys.argv[1]), pgwalk.__file__
print(pgwalk.__version__)
with pgwalk.open(sys.argv[2]) as im:
    sp = im.space(cpu=1)
    for line in open(sys.argv[3]):
        va = int(line.split()[0], 16)
        t = sp.translate(va)
        print("%s\t%s" % (line.split()[0], "%#x" % t.pa if t.mapped else "-"))
' "$pydir" "$REPO/testdata/x64-4l-a.elf" "$TMP/want"
	) >"$TMP/py.out" 2>"$TMP/py.err"
	is "$(head -1 "$TMP/py.out"):$(cat "$TMP/py.err")" "$VERSION:" \
		"import pgwalk from the DESTDIR install: version $VERSION"
	sed 1d "$TMP/py.out" >"$TMP/got"
	agree "the installed Python package, cpu1: QEMU's gva2gpa" "$TMP/want" "$TMP/got"
else
	skip "the Python package was not built ($PY lacks python3-cffi or python3-dev)"
	skip "the Python package was not built"
	skip "the Python package was not built"
fi

unset PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR

mk uninstall DESTDIR="$D"
is "$rc:$(installed "$D" | tr '\n' ' ')" "0:" "make uninstall removes every file"

# ---- a user's own prefix (make install PREFIX=$HOME/.local) ------------
# Its lib is no directory the dynamic loader searches: pgwalk.pc puts a
# RUNPATH into what it links, so vtop runs without LD_LIBRARY_PATH.  (The
# loader's cache is left alone: LDCONFIG=true.)
U=$TMP/home/.local
mk install PREFIX="$U" LDCONFIG=true
grep -q '^Libs: -L${libdir} -Wl,-rpath,${libdir} -lpgwalk$' "$U/lib/pkgconfig/pgwalk.pc"
ok $? "PREFIX=\$HOME/.local: pgwalk.pc's Libs carry -Wl,-rpath,\${libdir} (rc $rc)"
run $CC $SAN_FLAGS $(PKG_CONFIG_PATH=$U/lib/pkgconfig pkg-config --cflags pgwalk) \
	-o "$TMP/vtop-user" "$REPO/examples/vtop.c" \
	$(PKG_CONFIG_PATH=$U/lib/pkgconfig pkg-config --libs pgwalk)
run env -u LD_LIBRARY_PATH "$TMP/vtop-user" "$REPO/testdata/x64-4l-a.elf" 1 0x403390
is "$rc:$out:$(readelf -d "$TMP/vtop-user" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" \
	"0:0x403390	0x7177390:$U/lib" \
	"... a program built with it runs without LD_LIBRARY_PATH (RUNPATH $U/lib)"
mk uninstall PREFIX="$U"
is "$rc:$(installed "$U" | tr '\n' ' ')" "0:" "make uninstall PREFIX=\$HOME/.local removes every file"

# ---- every directory variable ------------------------------------------
D=$TMP/dest2
dirs="PREFIX=/opt/pgw BINDIR=/opt/pgw/sbin LIBDIR=/opt/pgw/lib64
INCLUDEDIR=/opt/pgw/inc MANDIR=/opt/pgw/man PKGCONFIGDIR=/opt/pc
BASHCOMPDIR=/opt/bc"
# shellcheck disable=SC2086
mk install DESTDIR="$D" $dirs
is "$rc:$(installed "$D" | tr '\n' ' ')" \
"0:$({ printf '%s\n' opt/bc/pgwalk opt/pc/pgwalk.pc opt/pgw/inc/pgwalk.h \
	opt/pgw/lib64/libpgwalk.a opt/pgw/lib64/libpgwalk.so \
	opt/pgw/lib64/libpgwalk.so.$SOMAJOR opt/pgw/lib64/libpgwalk.so.$VERSION \
	opt/pgw/man/man1/pgwalk.1 opt/pgw/man/man3/pgwalk.3 opt/pgw/sbin/pgwalk
	py_files /opt/pgw; } | sort | tr '\n' ' ')" \
	"BINDIR, LIBDIR, INCLUDEDIR, MANDIR, PKGCONFIGDIR, BASHCOMPDIR honoured"
grep -E '^(prefix|libdir|includedir)=' "$D/opt/pc/pgwalk.pc" | tr '\n' ' ' >"$TMP/pc"
is "$(cat "$TMP/pc")" 'prefix=/opt/pgw libdir=${prefix}/lib64 includedir=${prefix}/inc ' \
	"pgwalk.pc follows PREFIX, LIBDIR and INCLUDEDIR"
# shellcheck disable=SC2086
mk uninstall DESTDIR="$D" $dirs
is "$rc:$(installed "$D" | tr '\n' ' ')" "0:" "make uninstall with the same variables removes every file"

# ---- the completion directory from bash-completion's pgwalk.pc ---------
# (bash-completion is optional: a stand-in .pc shows its rule is used, with
# the prefix moved to PREFIX.)
mkdir -p "$TMP/fakepc"
printf '%s\n' 'prefix=/usr' 'datadir=${prefix}/share' \
	'completionsdir=${datadir}/bash-completion/from-pc' 'Name: bash-completion' \
	'Description: stand-in' 'Version: 2.11' >"$TMP/fakepc/bash-completion.pc"
export PKG_CONFIG_PATH="$TMP/fakepc"
D=$TMP/dest3
mk install DESTDIR="$D" PREFIX=/usr
[ -f "$D/usr/share/bash-completion/from-pc/pgwalk" ]
ok $? "BASHCOMPDIR from bash-completion's completionsdir when it has a .pc"
D=$TMP/dest4
mk install DESTDIR="$D" PREFIX=/opt/x
[ -f "$D/opt/x/share/bash-completion/from-pc/pgwalk" ]
ok $? "... moved under PREFIX=/opt/x"
unset PKG_CONFIG_PATH

# The user's CFLAGS replace only the optimisation: the include paths and
# warnings stay (make -n: the command that would compile one object, its
# source marked new with -W); RELEASE=1 drops -Werror.
src=$(cd "$REPO" && ls src/lib/*.c | head -1)
obj=$(if [ -n "${PGW_SAN:-}" ]; then echo build-asan; else echo build; fi)/${src%.c}.o
compile_line() {
	mk -n -W "$src" "$@" "$obj"
	printf '%s\n' "$out" | grep -- " -c -o $obj $src\$"
}
line=$(compile_line CFLAGS=-O0)
case " $line " in
*" -Iinclude "*) case " $line " in
	*" -Werror "*" -O0 -c "*) ok 0 "make CFLAGS=-O0 keeps -Iinclude and -Werror, adds -O0" ;;
	*) ok 1 "make CFLAGS=-O0 keeps -Werror, adds -O0"; echo "#   $line" ;;
	esac ;;
*) ok 1 "make CFLAGS=-O0 keeps -Iinclude"; echo "#   $line" ;;
esac
line=$(compile_line RELEASE=1)
case " $line " in
*" -Werror "*) ok 1 "make RELEASE=1: no -Werror"; echo "#   $line" ;;
*" -Wall -Wextra "*" -Iinclude "*) ok 0 "make RELEASE=1: -Wall -Wextra, no -Werror" ;;
*) ok 1 "make RELEASE=1: -Wall -Wextra, no -Werror"; echo "#   $line" ;;
esac

done_testing
