#!/bin/sh
# The Python package (python/, built by `make python` into $(O)/python):
# tests/python's unittest suite as TAP, one line per test (tests/python/
# tap.py), against the same oracles as the CLI's tests.  Under SAN=1 the
# interpreter runs with the sanitizers' runtime preloaded (the package's
# libpgwalk.so is the instrumented one); leaks are not reported there,
# since CPython itself keeps its memory to the end.
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/python.sh"
if [ -n "${PGW_VALGRIND:-}" ]; then
	echo "1..0 # skip python.t under make valgrind: the interpreter is not run under memcheck (make SAN=1 check runs the package under ASan)"
	exit 0
fi
if ! py_built; then
	if [ -n "${PGW_STRICT:-}" ]; then
		bail "the Python package was not built ($PY lacks cffi or Python.h; make python says which)"
	fi
	echo "1..0 # skip the Python package was not built: $PY lacks python3-cffi or python3-dev"
	exit 0
fi
export PYTHONPATH="$PY_BUILD${PYTHONPATH:+:$PYTHONPATH}" PGW_SHARED="$SHARED" \
	PGW_UNPACKED="$UNPACKED"
py_san
unpack_shared
exec "$PY" "$REPO/tests/python/tap.py"
