#!/bin/sh
# The Python package (issue 38) against the CLI: translate_many of N
# random addresses (tests/tools/pgw-randaddr over CPU 1's space of
# x64-4l-a, half mapped, half in holes) beside `pgwalk translate
# --format=tsv -` on the same batch, and space.read of 64 MiB of the
# direct map (bench/python_bench.py says what each row times).  Targets:
# translate_many <= 1.5x the CLI's tsv batch; read >= 1 GB/s.  A
# benchmark: it never fails.  Environment: PGWALK, PGW_TOOLS, BENCH_N
# (1000000), BENCH_RUNS (7), PYTHON (python3).
. "$(dirname "$0")/lib/measure.sh"
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-7}
d=x64-4l-a
if [ ! -d "$SHARED/$d" ]; then
	echo "python: no real dumps ($SHARED); nothing to measure"
	exit 0
fi
if [ ! -f "$(dirname "$PGWALK")/python/pgwalk/__init__.py" ]; then
	echo "python: the package is not built (make python); nothing to measure"
	exit 0
fi
sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null || exit 1
elf=$UNPACKED/$d/vmcore.elf
"$PGW_TOOLS/pgw-randaddr" -n "$n" -c 1 "$elf" >"$TMP/addrs" 2>"$TMP/gen" ||
	{ cat "$TMP/gen"; exit 1; }
PYTHONPATH="$(dirname "$PGWALK")/python" $PIN "${PYTHON:-python3}" \
	"$REPO/bench/python_bench.py" "$PGWALK" "$elf" "$TMP/addrs" "$runs"
