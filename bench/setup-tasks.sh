#!/bin/sh
# The set-up a process's command pays (the task list: kallsyms, BTF, the
# list; translate also the process's VMAs for its names) on the real
# dumps, first (--no-cache) against second (the facts cache warmed by a
# run before), for translate --pid=1, read --pid=1 and ps.  CPU time
# (user + sys, pgw-timeit), ROUNDS rounds of RUNS runs each, the variants
# interleaved within each round (the machine is shared); the median of
# the rounds' medians.  The set-up is each minus the floor: the same
# read with --mode and --cr3 given (pid 1's root), which reads no task
# list.  Target: the second command's set-up at most 10 % of the first's.
# Then 100 reads of pid 1 in one command (`read --pid=1 IMAGE -`, no
# cache) against one read: target at most 2x one read's set-up.
. "$(dirname "$0")/lib/measure.sh"
ROUNDS=${ROUNDS:-7}
RUNS=${RUNS:-3}
T=$PGW_TOOLS/pgw-timeit
export XDG_CACHE_HOME=$TMP/cache

# cpu CMD...: the median CPU ms of RUNS runs.
cpu() { "$T" -n "$RUNS" "$@" | sed -n 's/.*cpu_ms=\([0-9.]*\).*/\1/p'; }
# median FILE: the median of its numbers.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One image: NAME PATH VA (a user address of pid 1).
one() {
	name=$1 img=$2 va=$3
	if [ ! -s "$img" ]; then
		echo "| $name | (no $img) | | | | | |"
		return
	fi
	v=$("$PGWALK" read -v --no-cache --pid=1 "$img" "$va" 16 2>&1 >/dev/null)
	mode=$(echo "$v" | sed -n 's/^pgwalk: mode \([^ ]*\) .*/\1/p')
	root=$(echo "$v" | sed -n 's/^pgwalk: root \(0x[0-9a-f]*\) .*/\1/p')
	how=$(echo "$v" | sed -n 's/.*from the task list (\([^)]*\)).*/\1/p')
	rm -rf "$XDG_CACHE_HOME"
	for c in translate read ps; do
		case $c in
		translate) set -- translate --pid=1 "$img" "$va" ;;
		read) set -- read --pid=1 "$img" "$va" 16 ;;
		ps) set -- ps "$img" ;;
		esac
		sub=$1
		shift
		"$PGWALK" "$sub" "$@" >/dev/null 2>&1   # warms the cache
		: >"$TMP/f"; : >"$TMP/a"; : >"$TMP/b"
		r=0
		while [ $r -lt "$ROUNDS" ]; do
			cpu "$PGWALK" read --mode="$mode" --cr3="$root" "$img" \
				"$va" 16 >>"$TMP/f"
			cpu "$PGWALK" "$sub" --no-cache "$@" >>"$TMP/a"
			cpu "$PGWALK" "$sub" "$@" >>"$TMP/b"
			r=$((r + 1))
		done
		awk -v n="$name" -v c="$c" -v h="$how" -v f="$(median "$TMP/f")" \
		    -v a="$(median "$TMP/a")" -v b="$(median "$TMP/b")" 'BEGIN {
			printf "| %s | %s | %s | %.2f | %.2f (%.2f) | %.2f (%.2f) | %.1f %% |\n",
			       n, c, h, f, a, a - f, b, b - f,
			       (a > f ? 100 * (b - f) / (a - f) : 0) }'
	done
}

echo "| image | command | task list | floor CPU ms | first: CPU ms (set-up) | second, cached: CPU ms (set-up) | second / first set-up |"
echo "|---|---|---|---|---|---|---|"
one "x64-4l-a ELF" "$UNPACKED/x64-4l-a/vmcore.elf" 0x400000
one "x64-4l-a kdump -d31" "$SHARED/x64-4l-a/vmcore-d31.kdump" 0x400000
one "arm64-4k-a ELF" "$UNPACKED/arm64-4k-a/vmcore.elf" 0x400000
one "i386-pae-a ELF" "$UNPACKED/i386-pae-a/vmcore.elf" 0x8048000

IMG=$UNPACKED/x64-4l-a/vmcore.elf
if [ -s "$IMG" ]; then
	i=0
	while [ $i -lt 100 ]; do
		printf '0x%x 16\n' $((0x400000 + i * 64))
		i=$((i + 1))
	done >"$TMP/req"
	: >"$TMP/one"; : >"$TMP/many"; : >"$TMP/f"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		cpu "$PGWALK" read --mode=x86-64 --cr3=0x2862000 "$IMG" \
			0x400000 16 >>"$TMP/f"
		cpu "$PGWALK" read --no-cache --pid=1 "$IMG" 0x400000 16 >>"$TMP/one"
		"$T" -n "$RUNS" -i "$TMP/req" "$PGWALK" read --no-cache --pid=1 \
			"$IMG" - | sed -n 's/.*cpu_ms=\([0-9.]*\).*/\1/p' >>"$TMP/many"
		r=$((r + 1))
	done
	awk -v o="$(median "$TMP/one")" -v m="$(median "$TMP/many")" \
	    -v f="$(median "$TMP/f")" 'BEGIN {
		printf "100 reads of pid 1 in one command (x64-4l-a ELF, --no-cache): %.2f ms CPU; one read %.2f, its set-up %.2f: the 100 reads cost %.2fx one read'"'"'s set-up\n",
		       m, o, o - f, (o > f ? (m - f) / (o - f) : 0) }'
fi
