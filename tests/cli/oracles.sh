# Reading a dump folder's oracle files (../shared/testdata/DUMP, or the
# small copies under testdata/DUMP).  Plain functions of the folder; source
# after lib.sh.

# The dumps, each with the mode its README documents.
DUMPS="x64-4l-a:x86-64 x64-5l-a:la57 i386-2l-a:i386 i386-pae-a:pae"

# hexnorm: lower-case 0x hex without leading zeros (pgwalk's spelling).
hexnorm() {
	tr 'A-F' 'a-f' | sed 's/0x0*\([0-9a-f]\)/0x\1/g; s/0x0*$/0x0/'
}
# cr3_of DIR CPU: CR3 from QEMU's `info registers`.
cr3_of() {
	sed -n 's/.*CR3=\([0-9a-fA-F]*\).*/0x\1/p' "$1/registers-cpu$2.txt" |
		hexnorm
}
# cpus_of DIR: the CPU numbers gva2gpa.txt has answers for.
cpus_of() {
	sed -n 's/^cpu\([0-9]*\) .*/\1/p' "$1/gva2gpa.txt" | sort -un
}
# qemu_answers DIR CPU: "va<TAB>pa" lines, pa "-" where QEMU says Unmapped.
# (QEMU prints with %#x, which writes zero as "0", without 0x.)
qemu_answers() {
	awk -v c="cpu$2" '$1 == c {
		pa = $3 == "gpa:" ? $4 : "-"
		if (pa != "-" && pa !~ /^0x/) pa = "0x" pa
		print $2 "\t" pa }' "$1/gva2gpa.txt" | hexnorm
}
# arm64_answers DIR CPU HALF: "va<TAB>pa" of an arm64 dump's gva2gpa.txt
# lines for vCPU CPU in HALF (kernel: VA bit 55 set, user: clear; the top
# byte is a tag), pa "-" for Unmapped.
arm64_answers() {
	qemu_answers "$1" "$2" | awk -F'\t' -v h="$3" '{
		x = substr($1, 3); while (length(x) < 16) x = "0" x
		k = substr(x, 3, 1) ~ /[89a-f]/
		if ((h == "kernel") == k) print }'
}
# arm64_walked MODEL: pgwalk's tsv records as QEMU would answer at that EL
# (the arm64 READMEs): el1 (PAN): EL0-accessible pages Unmapped; el0: all
# others (E0PD1).
arm64_walked() {
	sed 1d | awk -F'\t' -v m="$1" '{
		pa = $2; user = $6 ~ /user/
		if (pa != "-" && ((m == "el1" && user) || (m == "el0" && !user)))
			pa = "-"
		print $1 "\t" pa }'
}
# arm64_ram_only DIR OUT: a raw image of RAM alone, cut out of the
# unpacked mem.raw where the README says RAM starts; sets start.
arm64_ram_only() {
	start=$(sed -n 's/.*RAM starts at guest-physical \(0x[0-9a-f]*\).*/\1/p' "$SHARED/$1/README.txt")
	bytes=$(sed -n 's/^RAM: \([0-9]*\) bytes.*/\1/p' "$SHARED/$1/README.txt")
	[ -n "$start" ] && [ -n "$bytes" ] || bail "$1: README gives no RAM start and size"
	dd if="$UNPACKED/$1/mem.raw" of="$2" bs=1048576 skip=$((start / 1048576)) \
		count=$((bytes / 1048576)) conv=sparse status=none ||
		bail "cannot cut $1's RAM out of mem.raw"
}
# owner DIR: pid of the process whose top table is CPU 1's CR3: from
# crash's process-roots.txt (x86-64), the README (i386), or the header of
# a sample's markers.txt.
owner() {
	if [ -f "$1/process-roots.txt" ]; then
		awk -v r="$(cr3_of "$1" 1)" '$1 ~ /^pid=/ {
			split($3, a, "="); v = tolower(a[2])
			sub(/^0x0*/, "0x", v)
			if (v == r) { sub(/pid=/, "", $1); print $1 } }' \
			"$1/process-roots.txt"
	elif [ -f "$1/README.txt" ]; then
		awk '/^cpu1:/ { f = 1 }
		     f && /CR3 belongs to pid/ {
			sub(/.*CR3 belongs to pid /, ""); print $1; exit }' \
			"$1/README.txt"
	else
		sed -n 's/^# owner pid \([0-9]*\).*/\1/p' "$1/markers.txt"
	fi
}
# markers DIR PID: "va pa kind marker" for each marker of PID (pa "-" when
# the page has no frame, marker "-" when there is none), from console.log
# or a sample's markers.txt.  x86-64 guests print PGWALK-FINAL lines (the
# final values); i386 guests PGWALK lines with present= and marker=-.
markers() {
	_src=$1/console.log
	[ -f "$_src" ] || _src=$1/markers.txt
	tr -d '\r' <"$_src" | awk -v pid="$2" '
	function hex(v) {   # pgwalk spelling: lower case, no leading zeros
		v = tolower(v)
		if (v ~ /^0x/) { sub(/^0x0*/, "0x", v); if (v == "0x") v = "0x0" }
		return v
	}
	function field(k,   i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	($1 == "PGWALK-FINAL" || $1 == "PGWALK") && $2 == "pid=" pid {
		final = $1 == "PGWALK-FINAL"
		if (!final && seen_final) next
		seen_final = seen_final || final
		va = hex(field("marker_va")); pa = hex(field("pa"))
		m = field("marker")
		gsub(/"/, "", m)
		if (m == "") m = "-"
		if (pa == "none" || field("present") == "0") pa = "-"
		print va, pa, field("kind"), m
	}' | sort -u
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
# kernel_root DIR: the kernel's top table by the oracles: crash's
# init_top_pgt (x86-64), or swapper_pg_dir - PAGE_OFFSET (i386 README).
kernel_root() {
	if [ -f "$1/process-roots.txt" ]; then
		sed -n 's/^kernel .*pgd_phys=\(0x[0-9a-fA-F]*\).*/\1/p' \
			"$1/process-roots.txt" | hexnorm
	else
		_sym=$(sed -n 's/^SYMBOL(swapper_pg_dir)=//p' \
			"$1/vmcoreinfo.txt" | tr -d '\r')
		_po=$(sed -n 's/^PAGE_OFFSET = \(0x[0-9a-f]*\).*/\1/p' \
			"$1/README.txt")
		printf '0x%x' $((0x$_sym - _po))
	fi
}

# load_ranges ELF: "paddr memsz offset" (decimal) per PT_LOAD, by readelf.
load_ranges() {
	readelf -lW "$1" | awk '
	function num(h,   i, c, v) {
		h = tolower(h); sub(/^0x/, "", h); v = 0
		for (i = 1; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	$1 == "LOAD" { printf "%.0f %.0f %.0f\n", num($4), num($6), num($2) }'
}
# read_raw IMAGE PA LEN / read_elf IMAGE PA LEN: LEN bytes of physical
# memory at PA, read with dd (for ELF, at the offset its PT_LOAD gives).
read_raw() {
	dd if="$1" bs=4096 iflag=skip_bytes,count_bytes skip="$2" count="$3" \
		2>/dev/null
}
read_elf() {
	# Program headers cached per image: this runs once per marker.
	_lr=$TMP/loads.$(basename "$1")
	[ -s "$_lr" ] || load_ranges "$1" >"$_lr"
	_off=$(awk -v pa="$2" '
		pa >= $1 && pa < $1 + $2 { printf "%.0f\n", $3 + pa - $1 }' "$_lr")
	[ -n "$_off" ] && read_raw "$1" "$_off" "$3"
}

# check_markers LABEL IMAGE MARKERS READER: the markers ("va pa kind
# marker" lines) translate through CPU 1 of IMAGE to their pa, with the
# marker string at pa (READER IMAGE PA LEN reads it, or "" to skip);
# PROT_NONE pages are unmapped and name their real frame; pages without a
# frame are unmapped.
check_markers() {
	_label=$1 _img=$2 _m=$3 _reader=$4
	cut -d' ' -f1 "$_m" | "$PGWALK" translate --format=json --cpu=1 \
		"$_img" - >"$TMP/markers.json"
	_mapped=0 _unmapped=0 _protnone=0 _strings=0 _bad=0
	while read -r _va _pa _kind _marker; do
		_line=$(grep -m1 "^{\"type\":\"translation\",\"va\":\"$_va\"" "$TMP/markers.json")
		case $_kind:$_pa in
		*:-)	_want='"pa":null' ;;
		protnone*)
			_want="\"pa\":null.*\"kind\":\"protnone\",\"pa\":\"$(printf '0x%x' $((_pa >> 12 << 12)))\"" ;;
		*)	_want="\"pa\":\"$_pa\".*\"in_image\":true" ;;
		esac
		if ! printf '%s\n' "$_line" | grep -Eq "$_want"; then
			_bad=$((_bad + 1))
			echo "# $_label $_kind $_va: want /$_want/, got: $(printf '%s' "$_line" | cut -c1-160)"
			continue
		fi
		case $_kind:$_pa in
		*:-) _unmapped=$((_unmapped + 1)); continue ;;
		protnone*) _protnone=$((_protnone + 1)); continue ;;
		esac
		_mapped=$((_mapped + 1))
		[ "$_marker" = - ] || [ -z "$_reader" ] && continue
		_got=$("$_reader" "$_img" $((_pa)) ${#_marker})
		if [ "$_got" = "$_marker" ]; then
			_strings=$((_strings + 1))
		else
			_bad=$((_bad + 1))
			echo "# $_label $_va: at $_pa the image has '$_got', not '$_marker'"
		fi
	done <"$_m"
	is "$_bad" 0 "$_label: markers agree: $_mapped map to their pa ($_strings marker strings read there), $_protnone PROT_NONE name their frame, $_unmapped have no frame"
	[ "$_protnone" -ge 1 ] && { [ -z "$_reader" ] || [ "$_strings" -ge 10 ]; }
	ok $? "$_label: the markers include PROT_NONE${_reader:+ and marker strings}"
}

# awk functions for 64-bit addresses (awk numbers are doubles: exact for
# every multiple of 4096 below 2^64 and every integer below 2^53, which is
# what page-aligned addresses and their sums and differences are).
# hexnum("0x..." or "...") -> number; hex16(n) -> 16 hex digits of n
# (0 <= n < 2^64).  Prepend to an awk program: awk "$AWK_HEX"'...'.
AWK_HEX='
function hexnum(h,   i, v) {
	h = tolower(h); sub(/^0x/, "", h); v = 0
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v
}
function hex16(n,   s, d) {
	s = ""
	while (length(s) < 16) {
		d = n % 16; s = substr("0123456789abcdef", d + 1, 1) s
		n = (n - d) / 16
	}
	return s
}
'

# vmas DIR PID: "start end perms" (hex without 0x, /proc/PID/maps's
# rwxp) of PID's mappings as the guest printed them on its console:
# PGWALK-MAPS lines (x86-64 guests) or a PGWALK-MAPS-BEGIN/END block (i386).
vmas() {
	tr -d '\r' <"$1/console.log" | awk -v pid="$2" '
	$1 == "PGWALK-MAPS" && $2 == "pid=" pid { split($4, r, "-"); print r[1], r[2], $5; next }
	$1 == "PGWALK-MAPS-BEGIN" { on = $2 == "pid=" pid; next }
	$1 == "PGWALK-MAPS-END" { on = 0; next }
	on && $1 ~ /^[0-9a-f]+-[0-9a-f]+$/ { split($1, r, "-"); print r[1], r[2], $2 }'
}
