#!/bin/sh
# Which BTF, when kallsyms has no __start_BTF (pgw-mkkernel --btf-unlisted:
# text symbols only, so neither __start_BTF nor init_task) and a scan of
# the read-only data finds more than one blob describing task_struct: a
# stale copy (--stale-btf, before the live blob or after it: its mm is a
# word every task holds 0), an exact copy (--btf-copy), a forged one
# (--forged-btf: flags where every task holds 0, so the same tasks and
# roots but no kernel thread).  The blob whose task list the image proves
# best is taken and -v and info say which and why; two that fit equally
# and disagree name nothing, and say so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
MK=$PGW_TOOLS/pgw-mkkernel
[ -x "$MK" ] || skip "pgw-mkkernel is not built (run through make check)"
plan 12

mk() { "$MK" "$@" || bail "pgw-mkkernel $* failed"; }
# ksynth.h's processes: pid 1 (init) and pid 10 own roots 0x601000 and
# 0x603000; the live BTF is at 0xffffffff80280010.
named() { awk -F'\t' '$1 == "root" && $4 != "-" { printf "%s:%s ", $2, $4 }' "$1"; }
LIVE=0xffffffff80280010

for where in before after; do
	opt=--stale-btf; other=0xffffffff80260010
	[ "$where" = after ] && opt=--stale-btf=after other=0xffffffff802c0010
	mk --btf-unlisted $opt "$TMP/$where.elf"
	"$PGWALK" roots -v --format=tsv "$TMP/$where.elf" >"$TMP/out.tsv" 2>"$TMP/err"
	is "$(named "$TMP/out.tsv")" "0x601000:1 0x603000:10 " \
		"a stale BTF $where the live one, no __start_BTF: the processes named by the live one"
	out=$(cat "$TMP/err")
	like "\\(BTF: scan of 0x[0-9a-f]+-0x[0-9a-f]+: 2 blobs with task_struct; $LIVE's reads the most roots \\($other's: 6 tasks, 0 with a root\\)\\)" \
		"... -v says which blob, why, and what the stale one ($other) read"
done
run "$PGWALK" info "$TMP/before.elf"
like "^names: .*BTF: scan of .*: 2 blobs with task_struct; $LIVE's reads the most roots" \
	"info says it too"

mk --btf-unlisted --btf-copy "$TMP/copy.elf"
"$PGWALK" roots -v --format=tsv "$TMP/copy.elf" >"$TMP/out.tsv" 2>"$TMP/err"
is "$(named "$TMP/out.tsv")" "0x601000:1 0x603000:10 " \
	"two exact copies: the processes named"
out=$(cat "$TMP/err")
like "2 blobs with task_struct; $LIVE's is the first, the same list read \\(0xffffffff802c0010's: 6 tasks, 3 with a root\\)" \
	"... -v says both read the same list and the first is taken"

mk --btf-unlisted --forged-btf "$TMP/forged.elf"
run "$PGWALK" ps --format=json "$TMP/forged.elf"
is "$rc:$(printf '%s\n' "$out" | jq -c '[.type, .tasks, .complete]')" \
	'65:["summary",0,false]' \
	"a forged blob that reads as well and disagrees: no task named, exit 65"
out=$err
like "those at $LIVE and 0xffffffff802e0010 both read the task list \\(6 tasks, 3 with a root\\) and disagree: which is the kernel's is not known, so neither names anything" \
	"... stderr names both blobs and the conflict"

mk --forged-btf "$TMP/listed.elf"
"$PGWALK" roots -v --format=tsv "$TMP/listed.elf" >"$TMP/out.tsv" 2>"$TMP/err"
out=$(cat "$TMP/err")
is "$(named "$TMP/out.tsv")" "0x601000:1 0x603000:10 " \
	"the same forged blob with __start_BTF in kallsyms: the listed blob names the processes"
like "BTF: kallsyms __start_BTF $LIVE, __stop_BTF " "... read between __start_BTF and __stop_BTF, no scan"

mk --btf-unlisted "$TMP/one.elf"
"$PGWALK" roots -v --format=tsv "$TMP/one.elf" >/dev/null 2>"$TMP/err"
out=$(cat "$TMP/err")
like "BTF: found by scanning 0x[0-9a-f]+-0x[0-9a-f]+ for a BTF header \\(the only blob there describing task_struct\\)" \
	"one blob: taken, and -v says it was the only one"
