#!/bin/sh
# read and ptov against the guests' own words: the marker pages each
# test process wrote and printed on the console (PGWALK pid=.. marker_va=..
# pa=.. marker="..", the pa from its /proc/self/pagemap).  read at each
# marker's virtual address, in its process, returns the marker string (ELF,
# raw and kdump images); ptov --all-roots of each marker's physical address
# lists that virtual address in that process's root; the memfd page
# pgw-shr-parent and pgw-shr-child share shows both; every address QEMU's
# gva2gpa translates is listed by ptov at its frame; the filtered kdump
# (-d 31: user pages excluded) refuses a user marker, never zeros.  The
# x86-64 kernels carry kallsyms and BTF, so a process is named --pid; the
# i386 ones do not, so there the process on CPU 1 (README: whose CR3 it
# is) is read through its CR3 and ptov's roots are unnamed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 26

# usable DIR PID: the markers of PID that have a frame and a string, and
# are mapped (PROT_NONE pages are not: the CPU faults): "va pa marker".
usable() {
	markers "$1" "$2" | awk '$2 != "-" && $4 != "-" && $3 !~ /^protnone/ {
		print $1, $2, $4 }'
}
# pids DIR: the processes that printed markers.
pids() {
	tr -d '\r' <"$1/console.log" | awk '$1 == "PGWALK-FINAL" || $1 == "PGWALK" {
		for (i = 2; i <= NF; i++) if ($i ~ /^pid=/) print substr($i, 5) }' |
		sort -un
}

# read_markers LABEL IMAGE MARKERS: "root-option va pa marker" lines;
# read --raw each marker's string at its va through that root; one test:
# all agree, and there are at least 10.
read_markers() {
	_label=$1 _img=$2 _m=$3
	_mn=0 _mbad=0
	while read -r _opt _va _pa _marker; do
		_mn=$((_mn + 1))
		# shellcheck disable=SC2086
		_got=$("$PGWALK" read --raw $_opt "$_img" "$_va" ${#_marker} 2>&1)
		if [ "$_got" != "$_marker" ]; then
			_mbad=$((_mbad + 1))
			[ "$_mbad" -le 3 ] && echo "# $_label $_opt $_va: got '$(printf '%s' "$_got" | head -c 160)', want '$_marker'"
		fi
	done <"$_m"
	[ "$_mbad" = 0 ] && [ "$_mn" -ge 10 ]
	ok $? "$_label: read returns the marker string at each of $_mn marker VAs ($_mbad differ)"
}

# ptov_markers LABEL JSON MARKERS-WITH-PID RC: every "pid va pa" line is
# a mapping record of ptov's output (pid "-": any root, "root=R": root R),
# and ptov exited RC 0 (every address mapped, the task list whole).
ptov_markers() {
	_label=$1 _json=$2 _m=$3 _rc=$4
	jq -r 'select(.va != null) | "\(.pid // "-") \(.root) \(.va) \(.pa)"' \
		"$_json" >"$TMP/ptov.have"
	_mn=0 _mbad=0
	while read -r _pid _va _pa; do
		_mn=$((_mn + 1))
		case $_pid in
		-) _pat=" [^ ]* $_va $_pa\$" ;;
		root=*) _pat="^[^ ]* ${_pid#root=} $_va $_pa\$" ;;
		*) _pat="^$_pid [^ ]* $_va $_pa\$" ;;
		esac
		if ! grep -q -- "$_pat" "$TMP/ptov.have"; then
			_mbad=$((_mbad + 1))
			[ "$_mbad" -le 3 ] && echo "# $_label: no mapping $_pid $_va $_pa; ptov says: $(grep " $_pa\$" "$TMP/ptov.have" | head -4 | tr '\n' ';')"
		fi
	done <"$_m"
	[ "$_mbad" = 0 ] && [ "$_mn" -ge 10 ] && [ "$_rc" = 0 ]
	ok $? "$_label: ptov --all-roots lists each of $_mn marker VAs at its pa ($_mbad missing, exit $_rc)"
}

for dm in $DUMPS; do
	d=${dm%%:*}
	dir=$SHARED/$d
	: >"$TMP/all"
	: >"$TMP/m"
	case $d in
	x64*)
		for p in $(pids "$dir"); do
			usable "$dir" "$p" | sed "s/^/--pid=$p /" >>"$TMP/m"
			usable "$dir" "$p" | awk -v p="$p" '{ print p, $1, $2 }' >>"$TMP/all"
		done
		np=$(pids "$dir" | grep -c '')
		read_markers "$d vmcore.elf ($np processes by --pid)" "$UNPACKED/$d/vmcore.elf" "$TMP/m"
		read_markers "$d mem.raw ($np processes by --pid)" "$UNPACKED/$d/mem.raw" "$TMP/m" ;;
	*)
		p=$(owner "$dir")
		cr3=$(cr3_of "$dir" 1)
		usable "$dir" "$p" | sed "s/^/--cpu=1 /" >"$TMP/m"
		read_markers "$d vmcore.elf (pid $p on CPU 1)" "$UNPACKED/$d/vmcore.elf" "$TMP/m"
		usable "$dir" "$p" | sed "s/^/--root=$cr3 /" >"$TMP/m"
		read_markers "$d mem.raw (pid $p by its CR3)" "$UNPACKED/$d/mem.raw" "$TMP/m"
		awk -v r="root=$cr3" '{ print r, $2, $3 }' "$TMP/m" >>"$TMP/all"
		for q in $(pids "$dir"); do
			[ "$q" = "$p" ] && continue
			usable "$dir" "$q" | awk '{ print "-", $1, $2 }' >>"$TMP/all"
		done ;;
	esac
	for img in vmcore.elf mem.raw; do
		awk '{ print $3 }' "$TMP/all" | "$PGWALK" ptov --all-roots --format=json \
			"$UNPACKED/$d/$img" - >"$TMP/ptov.json" 2>"$TMP/ptov.err"
		rc=$?
		[ "$rc" = 0 ] || echo "# ptov exit $rc: $(head -2 "$TMP/ptov.err")"
		ptov_markers "$d $img" "$TMP/ptov.json" "$TMP/all" "$rc"
	done
	# QEMU's own answers: every va a CPU translates (gva2gpa) is listed
	# by ptov --all-roots at its pa.
	for c in $(cpus_of "$dir"); do
		qemu_answers "$dir" "$c"
	done | awk -F'\t' '$2 != "-"' | sort -u >"$TMP/qemu"
	cut -f2 "$TMP/qemu" | sort -u | "$PGWALK" ptov --all-roots --format=json \
		"$UNPACKED/$d/vmcore.elf" - 2>/dev/null |
		jq -r 'select(.va != null) | "\(.va)\t\(.pa)"' | sort -u >"$TMP/ours"
	missing=$(comm -23 "$TMP/qemu" "$TMP/ours" | grep -c '')
	[ "$missing" = 0 ] && [ "$(grep -c '' "$TMP/qemu")" -ge 100 ]
	ok $? "$d: ptov --all-roots lists every va QEMU's gva2gpa maps at its pa ($(grep -c '' "$TMP/qemu") pairs, $missing missing)"
	comm -23 "$TMP/qemu" "$TMP/ours" | head -3 | sed 's/^/#   /'
done

# The memfd page both processes map (at different addresses).
d=x64-4l-a
memfd=$(markers "$SHARED/$d" 131 | awk '$3 == "memfd-shared" { print $2 }')
child=$(markers "$SHARED/$d" 133 | awk '$3 == "memfd-shared" { print $1 }')
parent=$(markers "$SHARED/$d" 131 | awk '$3 == "memfd-shared" { print $1 }')
"$PGWALK" ptov --all-roots --format=json "$UNPACKED/$d/vmcore.elf" "$memfd" >"$TMP/memfd.json"
rc=$?
got=$(jq -r 'select(.pid != null) | "\(.pid) \(.comm) \(.va)"' "$TMP/memfd.json" | sort | tr '\n' ';')
case $rc:$got in
0:*"131 pgw-shr-parent $parent;"*"133 pgw-shr-child $child;"*) ok 0 "$d: the memfd page $memfd: pgw-shr-parent at $parent and pgw-shr-child at $child ($got)" ;;
*) ok 1 "$d: the memfd page $memfd in both processes"; echo "#   got: $got" ;;
esac

# The filtered kdump: a user marker is not in it; read says so, writes
# nothing, exits 2 (partial evidence).  The flattened copy alike.
set -- $(markers "$SHARED/$d" 129 | awk '$3 == "anon4k" { print $1, $4; exit }')
va=$1 marker=$2
for k in vmcore-d31.kdump vmcore-d31-zlib.flat; do
	"$PGWALK" read --raw --pid=129 "$SHARED/$d/$k" "$va" ${#marker} >"$TMP/k.out" 2>"$TMP/k.err"
	rc=$?
	n=$(wc -c <"$TMP/k.out" | tr -d ' ')
	[ "$rc" = 2 ] && [ "$n" = 0 ] && [ "$(grep -c '' "$TMP/k.err")" = 1 ] &&
		grep -q "at $va: data-not-in-image (excluded) at pte: .*excluded from the dump" "$TMP/k.err"
	ok $? "$d $k: read of the marker at $va fails 'excluded from the dump' (exit $rc, $n bytes, $(cat "$TMP/k.err"))"
done
"$PGWALK" read --format=json --skip-unreadable --pid=129 "$SHARED/$d/vmcore-d31.kdump" "$va" 4096 >"$TMP/k.json" 2>/dev/null
rc=$?
is "$rc $(jq -r '"\(.type) \(.reason) \(.absence) \(.size)"' "$TMP/k.json")" \
	"2 gap data-not-in-image excluded 4096" "$d vmcore-d31.kdump --skip-unreadable: the page is one gap record, no data, exit 2"

# QEMU's own kdump of the PAE guest (flattened, zlib): the markers of the
# process on CPU 1, read and found by ptov.
d=i386-pae-a
p=$(owner "$SHARED/$d")
usable "$SHARED/$d" "$p" | sed "s/^/--cpu=1 /" >"$TMP/m.kd"
read_markers "$d vmcore.kdump-zlib (pid $p on CPU 1)" "$SHARED/$d/vmcore.kdump-zlib" "$TMP/m.kd"
awk -v r="root=$(cr3_of "$SHARED/$d" 1)" '{ print r, $2, $3 }' "$TMP/m.kd" >"$TMP/all"
awk '{ print $3 }' "$TMP/all" | "$PGWALK" ptov --all-roots --format=json \
	"$SHARED/$d/vmcore.kdump-zlib" - >"$TMP/ptov.json" 2>/dev/null
ptov_markers "$d vmcore.kdump-zlib" "$TMP/ptov.json" "$TMP/all" $?

done_testing
