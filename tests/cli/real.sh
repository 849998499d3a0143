# Helpers for tests on the real dumps in ../shared/testdata (source after
# lib.sh).  Skips the whole test when they are absent (a fresh clone).
. "$TESTDIR/assert.sh"
if [ ! -d "$SHARED" ]; then
	echo "1..0 # skip no real dumps ($SHARED absent)"
	exit 0
fi
if ! unpack_shared; then
	echo "1..0 # skip cannot unpack the real dumps into $UNPACKED"
	exit 0
fi
# The dumps, each with the mode its README documents.
DUMPS="x64-4l-a:x86-64 x64-5l-a:la57 i386-2l-a:i386 i386-pae-a:pae"

# hexnorm: lower-case 0x hex without leading zeros (pgwalk's spelling).
hexnorm() {
	tr 'A-F' 'a-f' | sed 's/0x0*\([0-9a-f]\)/0x\1/g; s/0x0*$/0x0/'
}
# cr3_of DUMP CPU: CR3 from QEMU's `info registers`.
cr3_of() {
	sed -n 's/.*CR3=\([0-9a-fA-F]*\).*/0x\1/p' \
		"$SHARED/$1/registers-cpu$2.txt" | hexnorm
}
# cpus_of DUMP: the CPU numbers gva2gpa.txt has answers for.
cpus_of() {
	sed -n 's/^cpu\([0-9]*\) .*/\1/p' "$SHARED/$1/gva2gpa.txt" | sort -un
}
# qemu_answers DUMP CPU: "va<TAB>pa" lines, pa "-" where QEMU says Unmapped.
# (QEMU prints with %#x, which writes zero as "0", without 0x.)
qemu_answers() {
	awk -v c="cpu$2" '$1 == c {
		pa = $3 == "gpa:" ? $4 : "-"
		if (pa != "-" && pa !~ /^0x/) pa = "0x" pa
		print $2 "\t" pa }' \
		"$SHARED/$1/gva2gpa.txt" | hexnorm
}
# agree DESC WANT GOT: two va<TAB>pa files must be equal; counts in the
# description, the first mismatches as diagnostics.
agree() {
	_cnt=$(grep -c '' "$2")
	_bad=$(diff "$2" "$3" | grep -c '^<')
	if [ "$_cnt" -gt 0 ] && [ "$_bad" = 0 ] && cmp -s "$2" "$3"; then
		ok 0 "$1: $_cnt/$_cnt agree"
	else
		ok 1 "$1: $_bad of $_cnt differ"
		diff "$2" "$3" | head -8 | sed 's/^/#   /'
	fi
}
