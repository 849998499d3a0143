#!/bin/sh
# libkdumpfile's addrxlat as a peer on arm64 kdumps.  It reads nothing of
# QEMU's (64 KiB blocks on a 4K guest), and makedumpfile built for an
# x86-64 host cannot filter an arm64 vmcore (it translates the kernel's
# addresses with its own architecture's code), so each guest's kdump is
# written here by pgw-mkdump from mem.raw: 4 KiB blocks, zero pages left
# out (dump level 1), utsname.machine aarch64 and the guest's VMCOREINFO;
# for the 16K guest also one of 16 KiB blocks (a block a page, as
# makedumpfile writes a 16K kernel's dump), whose 16 KiB tables are
# whole blocks, where those of 4 KiB blocks lose a quarter left out as
# zeros.
# On it pgwalk must reproduce QEMU's gva2gpa (no root given: vCPU0's
# kernel half, vCPU1's process by pid), and addrxlat, walking the same
# tables (TTBR1's for the kernel half, vCPU1's TTBR0 for the user half),
# must give pgwalk's answer for every untagged gva2gpa address, mapping
# exactly the addresses QEMU maps.  Skips loudly without libkdumpfile.
. "$(dirname "$0")/lib.sh"
. "$TESTDIR/assert.sh"
. "$TESTDIR/oracles.sh"
if [ ! -d "$SHARED" ]; then
	[ -z "${PGW_STRICT:-}" ] || bail "no real dumps at $SHARED (PGW_STRICT: they must run)"
	echo "1..0 # skip no real dumps ($SHARED absent)"
	exit 0
fi
MKDUMP=${PGW_TOOLS:+$PGW_TOOLS/pgw-mkdump}
[ -n "$MKDUMP" ] && [ -x "$MKDUMP" ] ||
	skip_all "pgw-mkdump is not built (run through make check)"
# shellcheck disable=SC2046  # pkg-config's words
pkg-config --exists libaddrxlat libkdumpfile 2>/dev/null &&
	${PGW_CC:-cc} -O2 -o "$TMP/addrxlat_vtop" "$REPO/bench/peers/addrxlat_vtop.c" \
		$(pkg-config --cflags --libs libkdumpfile libaddrxlat) 2>"$TMP/cc" ||
	skip_all "no libkdumpfile/libaddrxlat to build the peer (apt-get install libkdumpfile-dev)"
PEER=$TMP/addrxlat_vtop
ARM="arm64-4k-a:arm64-4k-48:48:4096 arm64-16k-a:arm64-16k-47:47:4096
arm64-16k-a:arm64-16k-47:47:16384"
for _a in $ARM; do
	for _f in gva2gpa.txt README.txt vmcoreinfo.txt sysregs-cpu0.txt; do
		[ -s "$SHARED/${_a%%:*}/$_f" ] || bail "${_a%%:*}/$_f is missing or empty"
	done
done
unpack_shared || bail "cannot unpack the real dumps into $UNPACKED"
plan 24

# canonical BITS FILE: the va<TAB>pa lines whose address lies in one of
# the two halves of a BITS-bit space: no tag, nothing in the gap between.
# addrxlat's page-table method knows no address-space size: it walks
# such an address by its index bits (0xfff0000000000000 reaches a frame)
# where QEMU and pgwalk say Unmapped; those are checked against QEMU
# alone (above).
canonical() {
	awk -F'\t' -v bits="$1" 'BEGIN {
		for (i = 0; i < 16; i++) {
			h = substr("0123456789abcdef", i + 1, 1); b = ""
			for (k = 8; k >= 1; k /= 2) b = b (int(i / k) % 2)
			bin[h] = b
		} }
	{
		x = substr($1, 3); while (length(x) < 16) x = "0" x
		y = ""; for (i = 1; i <= 16; i++) y = y bin[substr(x, i, 1)]
		top = substr(y, 1, 65 - bits)
		if (top !~ /1/ || top !~ /0/) print
	}' "$2"
}
mapped() { awk -F'\t' '$2 != "-"' "$1" | grep -c ''; }

for a in $ARM; do
	d=${a%%:*} rest=${a#*:}; mode=${rest%%:*} rest=${rest#*:}
	bits=${rest%%:*} bs=${rest#*:}
	D=$SHARED/$d kd=$TMP/$d.$bs.kdump
	"$MKDUMP" kdump --raw="$UNPACKED/$d/mem.raw" --ram-from=0x40000000 \
		--machine=aarch64 --vmcoreinfo="$D/vmcoreinfo.txt" \
		--exclude-zero --block-size="$bs" "$kd" >/dev/null ||
		bail "pgw-mkdump $d failed"
	d="$d ($bs-byte blocks)"
	run "$PGWALK" info "$kd"
	like "machine: aarch64" "$d: a kdump of the guest's RAM, aarch64 in its header"
	if [ "$bs" = 4096 ]; then
		unlike "block_size" "$d: 4 KiB blocks, no block size said"
	else
		like "block_size: $bs bytes" "$d: its block size said"
	fi

	arm64_answers "$D" 0 kernel >"$TMP/want"
	cut -f1 "$TMP/want" | "$PGWALK" translate -f tsv "$kd" - |
		arm64_walked el1 >"$TMP/got"
	agree "$d kdump: vCPU0 (EL1) kernel half, no root given" \
		"$TMP/want" "$TMP/got"
	owner=$(sed -n 's/.*vCPU1 TTBR0.*owner by gva2gpa of all markers: (\([0-9]*\),.*/\1/p' "$D/README.txt" | head -1)
	arm64_answers "$D" 1 user >"$TMP/wantu"
	cut -f1 "$TMP/wantu" | "$PGWALK" translate -f tsv --pid="$owner" \
		"$kd" - | arm64_walked el0 >"$TMP/gotu"
	agree "$d kdump: vCPU1 (EL0) user half, --pid=$owner" \
		"$TMP/wantu" "$TMP/gotu"

	# The peer on the same tables: the kernel's (TTBR1) and vCPU1's TTBR0.
	ttbr1=$(sed -n 's/^TTBR1_EL1=//p' "$D/sysregs-cpu0.txt")
	ktable=$(printf '0x%x' $((ttbr1 & 0xfffffffffffe)))
	ttbr0=$(sed -n 's/^vCPU1:.*TTBR0_EL1=\(0x[0-9a-f]*\).*/\1/p' "$D/README.txt")
	utable=$(printf '0x%x' $((ttbr0 & 0xfffffffffffe)))
	canonical "$bits" "$TMP/want" >"$TMP/wantk"
	canonical "$bits" "$TMP/wantu" >"$TMP/wantc"
	cut -f1 "$TMP/wantk" | "$PEER" "$kd" "$ktable" "$mode" >"$TMP/peer"
	cut -f1 "$TMP/wantk" | "$PGWALK" translate -f tsv --mode="$mode" \
		--ttbr1="$ktable" "$kd" - | sed 1d | cut -f1,2 >"$TMP/ours"
	agree "$d kdump: addrxlat gives pgwalk's answer for every canonical kernel address" \
		"$TMP/ours" "$TMP/peer"
	is "$(mapped "$TMP/peer")" "$(mapped "$TMP/wantk")" \
		"$d kdump: addrxlat maps exactly the kernel addresses QEMU maps"
	cut -f1 "$TMP/wantc" | "$PEER" "$kd" "$utable" "$mode" >"$TMP/peer"
	cut -f1 "$TMP/wantc" | "$PGWALK" translate -f tsv --mode="$mode" \
		--ttbr0="$utable" "$kd" - | sed 1d | cut -f1,2 >"$TMP/ours"
	agree "$d kdump: addrxlat gives pgwalk's answer for every untagged user address (TTBR0 $utable)" \
		"$TMP/ours" "$TMP/peer"
	is "$(mapped "$TMP/peer")" "$(mapped "$TMP/wantc")" \
		"$d kdump: addrxlat maps exactly the user addresses QEMU maps"
done
