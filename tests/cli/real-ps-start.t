#!/bin/sh
# ps's start time (task_struct.start_time: ns since boot, monotonic) on
# the real dumps.  No crash `ps -t` was recorded, so the oracles are the
# guests' consoles and the order of creation: every task of the BTF
# kernels has one, init_task's is 0, no task started before its parent
# (pid 0 aside; a task is forked after the one forking it began), init
# (forked in rest_init) started before the kernel's "Run /init as init
# process" line and every workload process console.log lists (spawned by
# /init) after it: the console's printk clock is not the monotonic one,
# but seconds apart either way.  The text column is the same value in
# seconds.  Without BTF (i386: the layout inferred) there is no start
# time: null in JSON, - in text.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
BTF_DUMPS="x64-4l-a x64-5l-a arm64-4k-a arm64-16k-a"
plan 16

for d in $BTF_DUMPS; do
	S=$SHARED/$d img=$UNPACKED/$d/vmcore.elf
	[ -s "$img" ] || bail "$img is missing"
	"$PGWALK" ps --format=json "$img" >"$TMP/ps.json" 2>/dev/null ||
		bail "$d: ps failed"
	jq -r 'select(.type == "task") | "\(.pid) \(.ppid) \(.start_time)"' \
		"$TMP/ps.json" >"$TMP/start"
	tasks=$(jq -r 'select(.type == "summary") | .tasks' "$TMP/ps.json")
	is "$(awk '$3 ~ /^[0-9]+$/' "$TMP/start" | wc -l | tr -d ' '):$(awk '$1 == 0 { print $3 }' "$TMP/start")" \
		"$tasks:0" "$d: all $tasks tasks have a start time, init_task's 0"
	is "$(awk 'NR == FNR { s[$1] = $3; next }
		$1 != 0 && ($2 in s) && $3 < s[$2] { print $1 }' "$TMP/start" "$TMP/start" |
		tr '\n' ' ')" "" "$d: no task started before its parent"
	run_init=$(sed -n 's/^\[ *\([0-9.]*\)\] Run \/init as init process.*/\1/p' "$S/console.log")
	procs=$(sed -n 's/^PGWALK-PROC pid=\([0-9]*\) .*/\1/p' "$S/console.log" | grep -vx 1 | tr '\n' ' ')
	[ -n "$run_init" ] && [ -n "$procs" ] ||
		bail "$d: no \"Run /init\" or no PGWALK-PROC line in console.log"
	bad=$(awk -v t="$run_init" -v procs=" $procs" '
		$1 == 1 && $3 / 1e9 >= t { print "init", $3 }
		index(procs, " " $1 " ") && $3 / 1e9 <= t { print $1, $3 }' "$TMP/start")
	is "$bad" "" "$d: init started before \"Run /init\" (${run_init}s), pids $procs after it"
done

# The text column: seconds and microseconds of the same value.
img=$UNPACKED/x64-4l-a/vmcore.elf
ns=$("$PGWALK" ps --format=json "$img" | jq -r 'select(.type == "task" and .pid == 1) | .start_time')
text=$("$PGWALK" ps "$img" | awk '$1 == 1 { print $6 }')
is "$text" "$(awk -v n="$ns" 'BEGIN { printf "%d.%06d", n / 1e9, (n % 1e9) / 1e3 }')" \
	"x64-4l-a: init's START in text is its start_time ($ns ns) in seconds"

for d in i386-2l-a i386-pae-a; do
	img=$UNPACKED/$d/vmcore.elf
	"$PGWALK" ps --format=json "$img" >"$TMP/ps.json" 2>/dev/null
	is "$(jq -r 'select(.type == "task") | .start_time' "$TMP/ps.json" | sort -u):$(jq -r 'select(.type == "summary") | .method' "$TMP/ps.json")" \
		"null:inferred-layout" "$d: no BTF, the layout inferred: no start time (null)"
done
run "$PGWALK" ps "$UNPACKED/i386-2l-a/vmcore.elf"
is "$(printf '%s\n' "$out" | awk '$1 == 1 { print $6 }')" "-" "i386-2l-a: text START is -"
