# Tests on the arm64 dumps of ../shared/testdata (arm64-4k-a, arm64-16k-a):
# source after lib.sh.  Without ../shared the whole file is skipped (with
# PGW_STRICT=1, CI, that is a failure); a folder there but missing an
# oracle file, or dumps that cannot be unpacked, fail the file.
. "$TESTDIR/assert.sh"
. "$TESTDIR/oracles.sh"
[ -d "$SHARED" ] || skip_all "no real dumps ($SHARED absent)"
ARM64_DUMPS="arm64-4k-a arm64-16k-a"
for _d in $ARM64_DUMPS; do
	for _f in README.txt gva2gpa.txt console.log vmcoreinfo.txt \
		  sysregs-cpu0.txt sysregs-cpu1.txt registers-cpu0.txt \
		  registers-cpu1.txt; do
		[ -s "$SHARED/$_d/$_f" ] || bail "$SHARED/$_d/$_f is missing or empty"
	done
done
unpack_shared || bail "cannot unpack the real dumps into $UNPACKED"
