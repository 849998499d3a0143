#!/bin/sh
# kdump vs ELF of the same guest state (../shared/testdata/x64-4l-a):
# translations per second from stdin, a whole-address-space walk, and peak
# RSS, for the ELF core, the zlib kdump (-d 31), its flattened form, and
# kdumps this benchmark writes from the ELF's memory with the other codecs.
# Env: PGWALK (the binary), PGW_TOOLS (test tools: pgw-walkcount,
# pgw-mkdump), PGW_SHARED, PGW_UNPACKED as for the tests.
set -eu
: "${PGWALK:?set PGWALK to the pgwalk binary}"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
SHARED=${PGW_SHARED:-$repo/../shared/testdata}
UNPACKED=${PGW_UNPACKED:-$repo/build/unpacked}
TOOLS=${PGW_TOOLS:-$repo/build/tools}
dump=x64-4l-a
if [ ! -d "$SHARED/$dump" ]; then
	echo "bench/kdump.sh: no $SHARED/$dump; skipped"
	exit 0
fi
mkdir -p "$UNPACKED"
sh "$SHARED/unpack.sh" "$UNPACKED" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 200,000 addresses: QEMU's gva2gpa list for CPU 1, over and over.
awk '$1 == "cpu1" { print $2 }' "$SHARED/$dump/gva2gpa.txt" >"$tmp/one"
n1=$(wc -l <"$tmp/one")
reps=$((200000 / n1 + 1))
i=0
while [ $i -lt $reps ]; do cat "$tmp/one"; i=$((i + 1)); done >"$tmp/vas"
naddr=$(wc -l <"$tmp/vas")

now() { date +%s.%N; }
# peak RSS in KiB of a command: GNU time if there, else poll VmHWM.
peak_rss() {
	if /usr/bin/time -v true >/dev/null 2>&1; then
		/usr/bin/time -v "$@" >/dev/null 2>"$tmp/time" </dev/null || true
		awk -F: '/Maximum resident set size/ { gsub(/ /, "", $2); print $2 }' "$tmp/time"
		return
	fi
	"$@" >/dev/null 2>&1 </dev/null &
	pid=$!
	hwm=0
	while kill -0 $pid 2>/dev/null; do
		v=$(awk '/VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null || true)
		[ -n "$v" ] && hwm=$v
		sleep 0.01
	done
	wait $pid || true
	echo "$hwm"
}

# Extra codecs: kdumps of the same memory written by pgw-mkdump (no notes,
# so they are walked from CPU 1's CR3 given explicitly).
cr3=$("$PGWALK" info --format=json "$UNPACKED/$dump/vmcore.elf" |
	sed -E 's/.*"cpu":1,"cr0":"[^"]*","cr3":"([^"]*)".*/\1/')
extra=""
for c in lzo snappy zstd; do
	if "$TOOLS/pgw-mkdump" kdump --raw="$UNPACKED/$dump/mem.raw" --codec=$c \
		"$tmp/mem-$c.kdump" >/dev/null 2>&1; then
		extra="$extra $c"
	fi
done

printf '%-28s %10s %14s %10s %10s\n' image size-MiB translations/s walk-ms peak-RSS-MiB
row() { # NAME FILE ROOT-ARGS...
	name=$1 file=$2
	shift 2
	# Best of three: the machine is shared, the best run is the code's.
	best=0 walk=-
	for run in 1 2 3; do
		t0=$(now)
		"$PGWALK" translate "$@" --format=tsv "$file" - <"$tmp/vas" >/dev/null || true
		t1=$(now)
		best=$(echo "$t0 $t1 $naddr $best" |
			awk '{ r = $3 / ($2 - $1); printf "%.0f", (r > $4 ? r : $4) }')
		if [ "$1" = --cpu=1 ]; then
			w=$("$TOOLS/pgw-walkcount" "$file" 1 | sed -E 's/.*seconds=([0-9.]+).*/\1/')
			walk=$(echo "$w $walk" | awk '{ m = $1 * 1000; if ($2 != "-" && $2 < m) m = $2; printf "%.1f", m }')
		fi
	done
	rate=$best
	rss=$(peak_rss "$PGWALK" translate "$@" --format=tsv "$file" "$tmp/vas")
	size=$(du -m "$file" | cut -f1)
	printf '%-28s %10s %14s %10s %10.1f\n' "$name" "$size" "$rate" "$walk" "$(echo "$rss" | awk '{ print $1 / 1024 }')"
}
row "ELF (vmcore.elf)" "$UNPACKED/$dump/vmcore.elf" --cpu=1
row "kdump zlib -d 31" "$SHARED/$dump/vmcore-d31.kdump" --cpu=1
row "kdump zlib -d 31 flattened" "$SHARED/$dump/vmcore-d31-zlib.flat" --cpu=1
row "raw (mem.raw)" "$UNPACKED/$dump/mem.raw" --image-format=raw --mode=x86-64 --cr3="$cr3"
for c in $extra; do
	row "kdump $c (pgw-mkdump)" "$tmp/mem-$c.kdump" --mode=x86-64 --cr3="$cr3"
done
echo "($naddr addresses from stdin per run, best of 3; walk = CPU 1's whole"
echo " address space in a fresh process, best of 3; RSS of the translate run)"
