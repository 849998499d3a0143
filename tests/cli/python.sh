# The Python package in the shell tests (python.t, install.t): source
# after lib.sh.  PY is the interpreter make check built it for.
PY=${PGW_PYTHON:-python3}
PY_BUILD=$(dirname "${PGW_BIN:-$PGWALK}")/python

# py_built: did make python build the package (cffi and Python.h found)?
py_built() { [ -f "$PY_BUILD/pgwalk/__init__.py" ]; }

# py_san: under SAN=1, the sanitizers' runtime preloaded into the
# interpreter (the package's libpgwalk.so is instrumented); leaks are not
# reported, since CPython keeps its memory to the end.
py_san() {
	[ -n "${PGW_SAN:-}" ] || return 0
	_asan=$(${PGW_CC:-cc} -print-file-name=libasan.so)
	_ubsan=$(${PGW_CC:-cc} -print-file-name=libubsan.so)
	[ -f "$_asan" ] || bail "SAN=1: no libasan.so to preload into $PY ($_asan)"
	export LD_PRELOAD="$_asan${_ubsan:+ $_ubsan}" \
		ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
}

# py_files PREFIX: the files make install puts under PYTHONDIR for PREFIX
# (relative to /), one a line; nothing when the package is not built.
py_files() {
	py_built || return 0
	_d=$("$PY" "$REPO/python/sitedir.py" "$1")
	_ext=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
	(cd "$REPO/python/pgwalk" && ls -- *.py *.pyi py.typed) |
		sed "s|^|${_d#/}/pgwalk/|"
	echo "${_d#/}/pgwalk/_ffi$_ext"
}
