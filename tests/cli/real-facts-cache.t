#!/bin/sh
# The facts cache's task-list facts on the real x86-64 dumps' ELF cores:
# each process of crash's process-roots.txt through translate --pid, the
# first command (which writes the entry) and the second (which reads the
# list and the VMA layout from it, kallsyms and BTF not parsed, and says
# so on -v) both giving crash's root and --no-cache's output, names and
# all; an entry whose VMA layout says a field lies past the reader's
# buffers is not used for it (the layout read from BTF again, the same
# output).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 10

for dm in $DUMPS; do
	d=${dm%%:*}
	case $d in x64*) ;; *) continue ;; esac
	elf=$UNPACKED/$d/vmcore.elf
	export XDG_CACHE_HOME=$TMP/cache-$d
	# The first process crash lists with an mm, and its root.
	set -- $(sed -n 's/^pid=\([0-9]*\) .* pgd_phys=\(0x[0-9a-f]*\) .*/\1 \2/p' \
		"$SHARED/$d/process-roots.txt" | head -n 1)
	pid=$1 want_root=$2
	"$PGWALK" translate --no-cache --pid="$pid" "$elf" 0x400000 \
		>"$TMP/want" 2>/dev/null
	wrc=$?
	run "$PGWALK" translate -v --pid="$pid" "$elf" 0x400000
	is "$rc:$out" "$wrc:$(cat "$TMP/want")" "$d: first --pid=$pid: --no-cache's output"
	case $err in *"root $want_root (pid $pid "*) ok 0 "$d: ... crash's root $want_root" ;;
	*) ok 1 "$d: ... crash's root $want_root" ;; esac
	entry=$(ls "$XDG_CACHE_HOME/pgwalk/"*)
	run "$PGWALK" translate -v --pid="$pid" "$elf" 0x400000
	is "$rc:$out" "$wrc:$(cat "$TMP/want")" "$d: second --pid=$pid: the same output"
	case $err in *"root $want_root (pid $pid "*"cache: the task list's init_task and layout"*|\
	*"cache: the task list's init_task and layout"*"root $want_root (pid $pid "*)
		ok 0 "$d: ... crash's root, the list from the cache's facts" ;;
	*) ok 1 "$d: ... crash's root, the list from the cache's facts" ;; esac
	# vm_end's offset (the vma-layout line's 11th word) past the buffer.
	awk '$1 == "vma-layout" { $12 = "0x1000" } { print }' "$entry" \
		>"$TMP/e" && cp "$TMP/e" "$entry"
	run "$PGWALK" translate --pid="$pid" "$elf" 0x400000
	is "$rc:$out" "$wrc:$(cat "$TMP/want")" "$d: a VMA layout past the buffers: --no-cache's output"
done
done_testing
