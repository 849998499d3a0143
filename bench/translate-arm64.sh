#!/bin/sh
# Batch translation on the arm64 dumps side by side with libkdumpfile's
# addrxlat (issue 39: >= 10x, as on x86): N random addresses of the
# kernel's half (tests/tools/pgw-randaddr: half in its leaves, half in
# its holes) through `pgwalk translate --mode=M --ttbr1=T --format=tsv -`
# and through bench/peers/addrxlat_vtop (the same table and batch) on
# the ELF core, the raw image, for arm64-4k-a QEMU's kdump (64 KiB
# blocks, which libkdumpfile answers nothing from), and a kdump of each
# guest libkdumpfile reads: tests/tools/pgw-mkdump from mem.raw (4 KiB
# blocks, zero pages left out, aarch64 and the guest's VMCOREINFO in its
# headers; makedumpfile built for x86-64 cannot filter an arm64 vmcore),
# and for arm64-16k-a one of 16 KiB blocks too (kdump-16k: a block a
# page, as makedumpfile writes a 16K kernel's dump).
# The answers are compared on the whole batch first; then the
# peer's runs, pgwalk's (on its default threads, the CPUs it may run on:
# the header says how many) and pgwalk --threads=1's take turns, RUNS of
# each, and each row gives the medians of wall and CPU time (user+system,
# which a loaded machine disturbs less), the same of one thread, and the
# ratios of the peer's to pgwalk's default run.  A benchmark:
# it never fails.  Environment: PGWALK, PGW_TOOLS (set by make bench),
# BENCH_N (1000000), BENCH_RUNS (7).
. "$(dirname "$0")/lib/measure.sh"
n=${BENCH_N:-1000000}
runs=${BENCH_RUNS:-7}
T=$PGW_TOOLS/pgw-timeit

if [ ! -d "$SHARED/arm64-4k-a" ] || [ ! -d "$SHARED/arm64-16k-a" ]; then
	echo "translate-arm64: no arm64 dumps ($SHARED); nothing to measure"
	exit 0
fi
sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null || exit 1
build_peer
[ -n "$peer" ] || exit 0

nthreads=$(nproc 2>/dev/null || echo "?")
echo "pgwalk ms, cpu ms: on its default threads ($nthreads here); 1thr: --threads=1"
printf '%-28s %9s %9s %9s %9s %9s %9s %7s %7s  %s\n' "$n addresses" \
	"peer ms" "peer cpu" "pgwalk ms" "cpu ms" "1thr ms" "1thr cpu" \
	"vs peer" "vs(cpu)" "answers"
for a in arm64-4k-a:arm64-4k-48 arm64-16k-a:arm64-16k-47; do
	d=${a%%:*} mode=${a#*:}
	elf=$UNPACKED/$d/vmcore.elf
	"$PGW_TOOLS/pgw-randaddr" -n "$n" "$elf" >"$TMP/addrs" 2>"$TMP/gen" ||
		{ cat "$TMP/gen"; continue; }
	table=$("$PGWALK" info --format=json "$elf" |
		sed -n 's/.*"root":"\(0x[0-9a-f]*\)".*/\1/p')
	"$PGW_TOOLS/pgw-mkdump" kdump --raw="$UNPACKED/$d/mem.raw" \
		--ram-from=0x40000000 --machine=aarch64 \
		--vmcoreinfo="$SHARED/$d/vmcoreinfo.txt" --exclude-zero \
		"$TMP/$d.kdump" >/dev/null || rm -f "$TMP/$d.kdump"
	rm -f "$TMP/$d.kdump16"
	[ "$mode" = arm64-16k-47 ] &&
		{ "$PGW_TOOLS/pgw-mkdump" kdump --raw="$UNPACKED/$d/mem.raw" \
			--ram-from=0x40000000 --machine=aarch64 \
			--vmcoreinfo="$SHARED/$d/vmcoreinfo.txt" --exclude-zero \
			--block-size=16384 "$TMP/$d.kdump16" >/dev/null ||
		  rm -f "$TMP/$d.kdump16"; }
	for img in elf raw kdump kdump-4k kdump-16k; do
		case $img in
		elf) file=$elf fmt= pflag= ;;
		raw) file=$UNPACKED/$d/mem.raw fmt=--image-format=raw pflag=--raw ;;
		kdump) file=$SHARED/$d/vmcore.kdump-zlib fmt= pflag= ;;
		kdump-4k) file=$TMP/$d.kdump fmt= pflag= ;;
		kdump-16k) file=$TMP/$d.kdump16 fmt= pflag= ;;
		esac
		[ -f "$file" ] || continue
		pg="$PGWALK translate $fmt --mode=$mode --ttbr1=$table --format=tsv"
		# shellcheck disable=SC2086  # pflag, pg: words
		"$peer" $pflag "$file" "$table" "$mode" <"$TMP/addrs" >"$TMP/peer.out"
		# shellcheck disable=SC2086
		$pg "$file" - <"$TMP/addrs" 2>/dev/null | sed 1d | cut -f1,2 >"$TMP/ours"
		if cmp -s "$TMP/ours" "$TMP/peer.out"; then
			same="identical on all $n"
		else
			same="DIFFER on $(diff "$TMP/ours" "$TMP/peer.out" | grep -c '^<')"
		fi
		: >"$TMP/peer.runs"
		: >"$TMP/pg.runs"
		: >"$TMP/pg1.runs"
		i=0
		while [ "$i" -lt "$runs" ]; do
			# shellcheck disable=SC2086
			once /dev/null "$peer" $pflag "$file" "$table" "$mode" \
				>>"$TMP/peer.runs" &&
			once /dev/null $pg "$file" - >>"$TMP/pg.runs" &&
			once /dev/null $pg --threads=1 "$file" - \
				>>"$TMP/pg1.runs" ||
				{ echo "$d $img: a timed run failed"; break; }
			i=$((i + 1))
		done
		pt=$(timing "$TMP/peer.runs")
		gt=$(timing "$TMP/pg.runs")
		g1=$(timing "$TMP/pg1.runs")
		awk -v nm="$d $img" -v pm="$(field wall_ms "$pt")" \
		    -v pc="$(field cpu_ms "$pt")" -v gm="$(field wall_ms "$gt")" \
		    -v gc="$(field cpu_ms "$gt")" -v g1m="$(field wall_ms "$g1")" \
		    -v g1c="$(field cpu_ms "$g1")" -v same="$same" 'BEGIN {
			printf "%-28s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %6.1fx %6.1fx  %s\n",
			       nm, pm, pc, gm, gc, g1m, g1c, pm / gm, pc / gc, same }'
	done
done
echo "(medians of $runs runs each, taken in turn; process start included;"
echo " tsv output; the kernel's half of each guest, its root the TTBR1 table)"
