#!/bin/sh
# Every command in every --format, old binary against new: stdout, stderr
# and exit status must be byte-identical.  For refactors of the output
# layer (the record schema): build the old main once, keep it, run this.
#   bench/same-output.sh OLD NEW [quick]
# Real dumps from $PGW_UNPACKED and $PGW_SHARED (skipped when absent),
# synthetic images from build/tools.  Prints one line per difference and
# the count compared; exit 1 on any difference.
set -u
OLD=$1 NEW=$2 QUICK=${3:-}
UNPACKED=${PGW_UNPACKED:-/work/unpacked}
SHARED=${PGW_SHARED:-/work/shared/testdata}
TOOLS=${PGW_TOOLS:-$(dirname "$0")/../build/tools}
SPECS=${PGW_SPECS:-$(dirname "$0")/../tests/specs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FORMATS="text json csv tsv"
n=0 bad=0

# one IMAGE-LABEL ARGS...: the command in every format, stdin from $T/in.
one() {
	_l=$1
	shift
	for _f in $FORMATS; do
		"$OLD" "$@" --format=$_f <"$T/in" >"$T/o1" 2>"$T/e1"
		echo $? >>"$T/e1"
		"$NEW" "$@" --format=$_f <"$T/in" >"$T/o2" 2>"$T/e2"
		echo $? >>"$T/e2"
		n=$((n + 1))
		if ! cmp -s "$T/o1" "$T/o2" || ! cmp -s "$T/e1" "$T/e2"; then
			bad=$((bad + 1))
			echo "DIFF $_l: $* --format=$_f"
		fi
	done
}

# addrs IMAGE: some mapped VAs (every 97th map of the dump) and junk.
addrs() {
	"$OLD" dump --format=tsv "$1" 2>/dev/null |
		awk -F'\t' 'NR > 1 && $1 == "map" && NR % 97 == 2 { print $2 }' |
		head -300 >"$T/in"
	printf '%s\n' zzz 'a,"b' 0x800000000000 0xffffffffffffffff >>"$T/in"
}

# every IMAGE LABEL [all]: the commands on one image (all: the slow ones
# too: maps, search, check, diff of processes).
every() {
	_i=$1 _l=$2 _all=${3:-}
	: >"$T/in"
	one "$_l" info "$_i"
	one "$_l" regions "$_i"
	one "$_l" dump "$_i"
	one "$_l" dump --leaves --non-present "$_i"
	one "$_l" roots "$_i"
	one "$_l" ps "$_i"
	one "$_l" check --severity=info "$_i"
	addrs "$_i"
	one "$_l" translate "$_i" -
	one "$_l" translate --levels "$_i" -
	_va=$(sed -n 3p "$T/in")
	: >"$T/in"
	[ -n "$_va" ] && one "$_l" read "$_i" "$_va" 0x1100
	one "$_l" read --skip-unreadable --phys "$_i" 0xff000 0x3000
	printf '%s\n' 0x1000 0x100000 0x1234567 0x40001000 zzz >"$T/in"
	one "$_l" ptov "$_i" -
	: >"$T/in"
	[ -n "$_all" ] || return 0
	one "$_l" ptov --all-roots "$_i" 0x1000 0x100000 0x40001000
	one "$_l" check --all-roots --severity=info "$_i"
	one "$_l" maps "$_i"
	one "$_l" maps --smaps --pid=1 "$_i"
	one "$_l" maps --pages --pid=1 "$_i"
	one "$_l" search "$_i" Linux
	one "$_l" search --all-roots "$_i" 'init'
	one "$_l" diff --pid=1 --pid=2 "$_i"
	one "$_l" diff --cpu=1 "$_i" "$_i"
}

if [ -d "$UNPACKED" ]; then
	for d in x64-4l-a x64-5l-a i386-pae-a i386-2l-a arm64-4k-a arm64-16k-a; do
		[ -f "$UNPACKED/$d/vmcore.elf" ] || continue
		every "$UNPACKED/$d/vmcore.elf" "$d.elf" ${QUICK:-all}
		[ -n "$QUICK" ] || every "$UNPACKED/$d/mem.raw" "$d.raw"
	done
	[ -n "$QUICK" ] || for k in x64-4l-a/vmcore-d31.kdump \
		i386-pae-a/vmcore.kdump-zlib arm64-4k-a/vmcore.kdump-zlib; do
		[ -f "$SHARED/$k" ] && every "$SHARED/$k" "$k" all
	done
fi

# Synthetic images: every paging mode, kernels with tasks and planted
# findings, a filtered kdump.
for s in x86-64 pae i386 la57 x86-64-pti read-x86-64; do
	"$TOOLS/pgw-mkimage" -e "$T/$s.elf" -x "$T/$s.exp" "$SPECS/$s.spec" ||
		{ echo "pgw-mkimage $s failed"; exit 2; }
	every "$T/$s.elf" "synth-$s"
done
: >"$T/in"
one synth diff --pti --cpu=1 "$T/x86-64-pti.elf"
one synth diff --cr3=0x100000 --mode=x86-64 --data "$T/x86-64.elf" "$T/pae.elf"
"$TOOLS/pgw-mkkernel" "$T/k.elf" &&
	"$TOOLS/pgw-mkkernel" --raw --fake-vmcoreinfo --hidden "$T/kh.raw" &&
	"$TOOLS/pgw-mkkernel" --text-bounds "$T/kt.elf" ||
	{ echo "pgw-mkkernel failed"; exit 2; }
every "$T/k.elf" synth-kernel all
every "$T/kh.raw" synth-hidden all
for a in wx text-alias user-kernel reserved beyond-ram; do
	"$TOOLS/pgw-mkkernel" --text-bounds --plant=$a "$T/kp.elf" || exit 2
	one "synth-plant-$a" check --all-roots --severity=info "$T/kp.elf"
done
one synth diff --pid=1 --pid=10 --data "$T/kt.elf"
one synth dump --comm=init --kernel-half "$T/k.elf"
"$TOOLS/pgw-mkvmas" "$T/v.elf" || { echo "pgw-mkvmas failed"; exit 2; }
every "$T/v.elf" synth-vmas all
if "$TOOLS/pgw-mkdump" kdump --holes --filter --exclude-zero --codec=zlib \
	--vas="$T/kvas" "$T/kd" >"$T/kd.out"; then
	eval "$(cat "$T/kd.out")"
	cp "$T/kvas" "$T/in"
	one synth-kdump translate --cr3="$cr3" --mode=x86-64 "$T/kd" -
	: >"$T/in"
	one synth-kdump dump --cr3="$cr3" --mode=x86-64 "$T/kd"
	one synth-kdump check --cr3="$cr3" --mode=x86-64 --severity=info "$T/kd"
	one synth-kdump diff --cr3="$cr3" --mode=x86-64 --data "$T/kd" "$T/kd"
fi
echo "$n runs compared (command x format x image), $bad different"
[ $bad = 0 ]
