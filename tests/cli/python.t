#!/bin/sh
# The Python package (python/, built by `make python` into $(O)/python):
# tests/python's unittest suite as TAP, one line per test (tests/python/
# tap.py), against the same oracles as the CLI's tests.  Under SAN=1 the
# interpreter runs with the sanitizers' runtime preloaded (the package's
# libpgwalk.so is the instrumented one); leaks are not reported there,
# since CPython itself keeps its memory to the end.
. "$(dirname "$0")/lib.sh"

O=$(dirname "$PGWALK")
PY=${PGW_PYTHON:-python3}
if [ ! -f "$O/python/pgwalk/__init__.py" ]; then
	if [ -n "${PGW_STRICT:-}" ]; then
		bail "the Python package was not built ($PY lacks cffi or Python.h; make python says which)"
	fi
	echo "1..0 # skip the Python package was not built: $PY lacks python3-cffi or python3-dev"
	exit 0
fi
export PYTHONPATH="$O/python${PYTHONPATH:+:$PYTHONPATH}" PGW_SHARED="$SHARED" \
	PGW_UNPACKED="$UNPACKED"
if [ -n "${PGW_SAN:-}" ]; then
	asan=$(${PGW_CC:-cc} -print-file-name=libasan.so)
	ubsan=$(${PGW_CC:-cc} -print-file-name=libubsan.so)
	[ -f "$asan" ] || bail "SAN=1: no libasan.so to preload into $PY ($asan)"
	export LD_PRELOAD="$asan${ubsan:+ $ubsan}" \
		ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
unpack_shared
exec "$PY" "$REPO/tests/python/tap.py"
