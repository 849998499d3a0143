#!/bin/sh
# The real dumps against QEMU's own answers: for each dump and each CPU,
# every gva2gpa.txt address translates to exactly QEMU's physical address
# (or is unmapped where QEMU says Unmapped), from vmcore.elf with --cpu=N
# and from mem.raw with that CPU's CR3, once with --mode and once with the
# mode detected by the validation walk.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/real.sh"
plan 32   # 4 per CPU, 2 CPUs per dump

for dm in $DUMPS; do
	d=${dm%%:*} mode=${dm#*:}
	elf=$UNPACKED/$d/vmcore.elf raw=$UNPACKED/$d/mem.raw
	for c in $(cpus_of "$SHARED/$d"); do
		qemu_answers "$SHARED/$d" "$c" >"$TMP/want"
		cut -f1 "$TMP/want" >"$TMP/va"
		cr3=$(cr3_of "$SHARED/$d" "$c")
		"$PGWALK" translate --format=tsv --cpu="$c" "$elf" - \
			<"$TMP/va" | sed 1d | cut -f1,2 >"$TMP/got"
		agree "$d cpu$c vmcore.elf --cpu=$c" "$TMP/want" "$TMP/got"
		"$PGWALK" translate --format=tsv --image-format=raw --cr3="$cr3" \
			--mode="$mode" "$raw" - <"$TMP/va" | sed 1d | cut -f1,2 >"$TMP/got"
		agree "$d cpu$c mem.raw --cr3=$cr3 --mode=$mode" "$TMP/want" \
			"$TMP/got"
		"$PGWALK" translate --format=tsv --image-format=raw --cr3="$cr3" -v \
			"$raw" - <"$TMP/va" 2>"$TMP/err" | sed 1d | cut -f1,2 >"$TMP/got"
		agree "$d cpu$c mem.raw --cr3=$cr3, mode detected" \
			"$TMP/want" "$TMP/got"
		out=$(cat "$TMP/err")
		case $out in
		*"pgwalk: mode $mode (validation walk"*)
			ok 0 "... detected as $mode by the validation walk" ;;
		*)	ok 1 "... detected as $mode by the validation walk"
			echo "#   $out" ;;
		esac
	done
done

done_testing
