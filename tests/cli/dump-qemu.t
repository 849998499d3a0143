#!/bin/sh
# `pgwalk dump` against QEMU's own page-table walks of the real dumps:
#  - `dump --leaves` must list exactly the leaves of `info tlb` (tlb-cpuN.txt)
#    with the same flag letters;
#  - coalesced ranges, merged by user/write like `info mem`, must equal
#    mem-cpuN.txt (QEMU 7.2 prints nothing there for 5-level: those ranges
#    are rebuilt from tlb-cpuN.txt instead);
#  - the raw image (mem.raw, --cr3) gives the same leaves as the ELF core;
#  - with --non-present, the PROT_NONE page of the process on CPU 1 is a
#    hole carrying the frame the guest's /proc/PID/pagemap reported.
# Lists are compared sorted with their duplicates: a leaf or range listed
# twice is a difference.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 60   # 7 per CPU and 1 more for CPU 1, per dump

AWK_LIB='
# Zero-pad a hex string (no 0x) to 16 digits, as QEMU prints addresses.
function pad16(h) { return substr("0000000000000000", 1, 16 - length(h)) h }
# Value of "key":"0x..." in a JSON line, without 0x.
function jhex(key,   m) {
	if (!match($0, "\"" key "\":\"0x[0-9a-f]+\"")) return ""
	m = substr($0, RSTART, RLENGTH)
	sub(/^"[a-z_]+":"0x/, "", m); sub(/"$/, "", m)
	return m
}
function jnum(key,   m) {
	if (!match($0, "\"" key "\":[0-9]+")) return ""
	m = substr($0, RSTART, RLENGTH); sub(/^"[a-z_]+":/, "", m)
	return m
}
# Is name in the JSON array "key":[...]?
function jhas(key, name,   m) {
	if (!match($0, "\"" key "\":\\[[^]]*\\]")) return 0
	m = substr($0, RSTART, RLENGTH)
	return index(m, "\"" name "\"") > 0
}
# 16-digit hex strings: a + b (mod 2^64), digit by digit (awk numbers are
# doubles and cannot hold 64-bit addresses).
function hexadd(a, b,   i, s, c, d, out) {
	c = 0; out = ""
	for (i = 16; i >= 1; i--) {
		d = index("0123456789abcdef", substr(a, i, 1)) - 1 + \
		    index("0123456789abcdef", substr(b, i, 1)) - 1 + c
		c = d >= 16; if (c) d -= 16
		out = substr("0123456789abcdef", d + 1, 1) out
	}
	return out
}
function tohex16(n,   s) {
	s = ""
	while (n > 0) { s = substr("0123456789abcdef", n % 16 + 1, 1) s; n = int(n / 16) }
	return pad16(s)
}
'

# Our leaves as QEMU prints them: "va: pa size letters".
ours_tlb() {
	awk "$AWK_LIB"'
	/"type":"map"/ {
		f = (jhas("flags", "nx") ? "X" : "-") (jhas("flags", "global") ? "G" : "-") \
		    (jhas("flags", "ps") ? "P" : "-") (jhas("flags", "dirty") ? "D" : "-") \
		    (jhas("flags", "accessed") ? "A" : "-") (jhas("flags", "pcd") ? "C" : "-") \
		    (jhas("flags", "pwt") ? "T" : "-") (jhas("flags", "user") ? "U" : "-") \
		    (jhas("flags", "rw") ? "W" : "-")
		print pad16(jhex("va")) ": " pad16(jhex("pa")) " " jnum("page_size") " " f
	}' "$@"
}

# QEMU info tlb lines the same way.  QEMU masks NX into nothing on 64-bit
# but leaves it in the pa column on PAE: clear bit 63.  A large page is one
# line with P; its size is the mode's PMD size (these dumps have no 1 GiB
# pages: checked below on our side).
qemu_tlb() {
	awk -v large="$1" "$AWK_LIB"'
	{
		sub(/\r$/, "")   # the monitor answers with CRLF
		va = $1; sub(/:$/, "", va); pa = $2
		d = index("0123456789abcdef", substr(pa, 1, 1)) - 1
		if (d >= 8) pa = substr("01234567", d - 8 + 1, 1) substr(pa, 2)
		print va ": " pa " " (substr($3, 3, 1) == "P" ? large : 4096) " " $3
	}' "$2"
}

# Coalesced ranges merged by user/write: "start-end prot" like info mem.
ours_mem() {
	awk "$AWK_LIB"'
	/"type":"map"/ {
		s = pad16(jhex("va")); e = pad16(jhex("end"))
		p = (jhas("effective", "user") ? "u" : "-") "r" (jhas("effective", "rw") ? "w" : "-")
		if (open && s == cend && p == cprot) { cend = e; next }
		if (open) print cstart "-" cend " " cprot
		cstart = s; cend = e; cprot = p; open = 1
	}
	END { if (open) print cstart "-" cend " " cprot }' "$@"
}

qemu_mem() { awk '{ sub(/\r$/, ""); print $1 " " $3 }' "$1"; }

# info mem rebuilt from info tlb (for 5-level), with the same merge rule.
tlb_mem() {
	awk -v large="$1" "$AWK_LIB"'
	{
		sub(/\r$/, "")
		va = $1; sub(/:$/, "", va)
		size = substr($3, 3, 1) == "P" ? large : 4096
		e = hexadd(va, tohex16(size))
		p = (substr($3, 8, 1) == "U" ? "u" : "-") "r" (substr($3, 9, 1) == "W" ? "w" : "-")
		if (open && va == cend && p == cprot) { cend = e; next }
		if (open) print cstart "-" cend " " cprot
		cstart = va; cend = e; cprot = p; open = 1
	}
	END { if (open) print cstart "-" cend " " cprot }' "$2"
}

# same NAME FILE1 FILE2: equal as sorted lists, duplicates included, and
# not empty; else show a few differences.
same() {
	sort "$2" >"$TMP/a"; sort "$3" >"$TMP/b"
	n=$(comm -3 "$TMP/a" "$TMP/b" | wc -l)
	na=$(wc -l <"$TMP/a")
	[ "$n" = 0 ] && [ "$na" -gt 0 ]
	ok $? "$1 ($na vs $(wc -l <"$TMP/b") lines)"
	[ "$n" = 0 ] || comm -3 "$TMP/a" "$TMP/b" | head -5 | sed 's/^/#   /'
}

for dump in x64-4l-a x64-5l-a i386-pae-a i386-2l-a; do
	dir=$SHARED/$dump
	elf=$UNPACKED/$dump/vmcore.elf
	raw=$UNPACKED/$dump/mem.raw
	case $dump in
	i386-2l-*) large=4194304 mode=i386 ;;
	i386-pae-*) large=2097152 mode=pae ;;
	x64-5l-*) large=2097152 mode=la57 ;;
	*) large=2097152 mode=x86-64 ;;
	esac
	for cpu in 0 1; do
		run "$PGWALK" dump --cpu=$cpu --leaves --no-holes --format=json "$elf"
		is "$rc" 0 "$dump cpu$cpu: dump --leaves exits 0"
		printf '%s\n' "$out" >"$TMP/leaves.json"
		ours_tlb "$TMP/leaves.json" >"$TMP/ours"
		qemu_tlb "$large" "$dir/tlb-cpu$cpu.txt" >"$TMP/qemu"
		n1g=$(grep -c '"page_size":1073741824' "$TMP/leaves.json")
		is "$n1g" 0 "$dump cpu$cpu: no 1 GiB pages (QEMU's line would not tell)"
		cut -d' ' -f1-3 "$TMP/ours" >"$TMP/ours3"
		cut -d' ' -f1-3 "$TMP/qemu" >"$TMP/qemu3"
		same "$dump cpu$cpu: (va, pa, size) of every leaf = info tlb" \
			"$TMP/ours3" "$TMP/qemu3"
		same "$dump cpu$cpu: leaf flags = info tlb letters" \
			"$TMP/ours" "$TMP/qemu"

		run "$PGWALK" dump --cpu=$cpu --no-holes --format=json "$elf"
		is "$rc" 0 "$dump cpu$cpu: coalesced dump exits 0"
		printf '%s\n' "$out" >"$TMP/runs.json"
		ours_mem "$TMP/runs.json" >"$TMP/ours"
		if [ -s "$dir/mem-cpu$cpu.txt" ]; then
			qemu_mem "$dir/mem-cpu$cpu.txt" >"$TMP/qemu"
			what="info mem"
		else
			tlb_mem "$large" "$dir/tlb-cpu$cpu.txt" >"$TMP/qemu"
			what="info tlb merged like info mem"
		fi
		same "$dump cpu$cpu: ranges by user/write = $what" \
			"$TMP/ours" "$TMP/qemu"

		if [ $cpu = 1 ]; then
			# The process on CPU 1 is pgw-spin; its PROT_NONE page
			# (written, then mprotect'ed) keeps its frame.
			m=$(grep -a -E '^PGWALK(-FINAL)? .*name=pgw-spin kind=protnone-(touched|populated) ' \
				"$dir/console.log" | tail -1 | tr -d '\r')
			va=$(printf '%s\n' "$m" | sed -n 's/.*marker_va=0x\([0-9a-f]*\).*/\1/p')
			pa=$(printf '%s\n' "$m" | sed -n 's/.* pa=0x\([0-9a-f]*\)000 .*/\1/p')
			run "$PGWALK" dump --cpu=1 --non-present --format=json "$elf"
			got=$(printf '%s\n' "$out" | grep "\"va\":\"0x$va\"")
			case $got in
			*'"type":"hole"'*'"non_present":{"kind":"protnone","pa":"0x'$pa'000"}'*)
				ok 0 "$dump cpu1: PROT_NONE page 0x$va is a hole keeping frame 0x${pa}000" ;;
			*)
				ok 1 "$dump cpu1: PROT_NONE page 0x$va is a hole keeping frame 0x${pa}000"
				echo "#   got: $got" ;;
			esac
		fi

		cr3=$(sed -n 's/.*CR3=\([0-9a-f]*\).*/\1/p' "$dir/registers-cpu$cpu.txt")
		run "$PGWALK" dump --image-format=raw --mode=$mode --cr3=0x$cr3 \
			--leaves --no-holes --format=json "$raw"
		printf '%s\n' "$out" | ours_tlb >"$TMP/raw"
		ours_tlb "$TMP/leaves.json" >"$TMP/ours"
		same "$dump cpu$cpu: mem.raw with --cr3 gives the ELF's leaves" \
			"$TMP/raw" "$TMP/ours"
	done
done
done_testing
