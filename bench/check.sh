#!/bin/sh
# pgwalk check --all-roots and pgwalk diff on the real dumps, with the
# commands they build on as peers measured in the same run: `roots` (the
# scan and the task list check --all-roots starts with) and `dump` (one
# walk of an address space; diff walks two).  Targets (issue 14): check
# --all-roots on x64-4l-a under 100 ms, a diff of two whole address spaces
# under 50 ms.  Wall times are the best of RUNS after a warming run,
# process start included; CPU is the process's, which the other jobs of a
# shared machine disturb less.
. "$(dirname "$0")/lib/measure.sh"
RUNS=${RUNS:-5}

# row WHAT ARGS...: "| WHAT | wall ms | CPU ms |" for pgwalk ARGS; sets
# WALL.
row() {
	_what=$1
	shift
	"$PGWALK" "$@" >/dev/null 2>&1
	WALL=$(best_ms "$RUNS" "$PGWALK" "$@")
	# shellcheck disable=SC2046  # three numbers
	set -- $(best_of "$RUNS" /dev/null "$PGWALK" "$@")
	printf '| %s | %s | %.1f |' "$_what" "$WALL" \
		"$(awk -v c="$1" 'BEGIN { print c * 1000 }')"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf " %.2f |\n", a / b }'; }

echo "| command | wall ms | CPU ms | ratio to its peer (wall) |"
echo "|---|---|---|---|"
for d in x64-4l-a x64-5l-a i386-pae-a i386-2l-a; do
	for f in vmcore.elf mem.raw; do
		img=$UNPACKED/$d/$f
		[ -f "$img" ] || continue
		row "$d/$f roots (peer)" roots "$img"; echo " - |"
		peer=$WALL
		row "$d/$f check --all-roots (target on x64-4l-a: < 100 ms)" \
			check --all-roots "$img"
		ratio "$WALL" "$peer"
		row "$d/$f dump --cpu=1 (peer)" dump --cpu=1 "$img"; echo " - |"
		peer=$WALL
		# Two whole spaces: the kernel's and CPU 1's process's.
		root=$("$PGWALK" info --format=json "$img" 2>/dev/null |
			sed -n 's/.*"root":"\(0x[0-9a-f]*\)".*/\1/p')
		row "$d/$f diff kernel root vs CPU 1 (target: < 50 ms)" \
			diff --root="$root" --cpu=1 "$img"
		ratio "$WALL" "$peer"
	done
done
