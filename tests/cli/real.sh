# Tests on the real dumps in ../shared/testdata: source after lib.sh.
# Without ../shared (a fresh clone) the whole file is skipped, and `make
# check` says so at its end; with PGW_STRICT=1 (CI) that is a failure.
# When the folder is there but unusable (a dump or an oracle file missing
# or empty, the dumps not unpackable) the file fails: a broken setup never
# looks like a pass.
. "$TESTDIR/assert.sh"
. "$TESTDIR/oracles.sh"
[ -d "$SHARED" ] || skip_all "no real dumps ($SHARED absent)"

# need FILE MINBYTES: an oracle file that is there and not truncated (the
# sizes are about half of what the dumps hold).
need() {
	[ -f "$1" ] || bail "$1 is missing"
	[ "$(wc -c <"$1")" -ge "$2" ] || bail "$1 has fewer than $2 bytes"
}
for _dm in $DUMPS; do
	_d=$SHARED/${_dm%%:*}
	[ -d "$_d" ] || bail "dump ${_dm%%:*} is missing from $SHARED"
	need "$_d/vmcore.elf.xz" 10000000
	need "$_d/README.txt" 8000
	need "$_d/gva2gpa.txt" 15000
	need "$_d/console.log" 40000
	need "$_d/vmcoreinfo.txt" 1000
	need "$_d/paging-segments.txt" 5000
	for _c in 0 1; do
		need "$_d/registers-cpu$_c.txt" 1000
		need "$_d/tlb-cpu$_c.txt" 100000
		# QEMU 7.2 prints no info mem for 5-level paging.
		case $_dm in *:la57) ;; *) need "$_d/mem-cpu$_c.txt" 1000 ;; esac
	done
	case $_dm in
	x64*)	need "$_d/crash-vtop.txt" 40000
		need "$_d/crash-machine.txt" 5000
		need "$_d/process-roots.txt" 500
		need "$_d/vmcore-elf-headers.txt" 1000 ;;
	*)	need "$_d/readelf-l.txt" 300 ;;
	esac
done
need "$SHARED/x64-4l-a/vmcore-d31.kdump" 10000000
need "$SHARED/x64-4l-a/vmcore-d31-zlib.flat" 10000000
need "$SHARED/i386-pae-a/vmcore.kdump-zlib" 10000000
need "$SHARED/unpack.sh" 100
unpack_shared || bail "cannot unpack the real dumps into $UNPACKED"
for _dm in $DUMPS; do
	need "$UNPACKED/${_dm%%:*}/vmcore.elf" 50000000
	need "$UNPACKED/${_dm%%:*}/mem.raw" 50000000
done
