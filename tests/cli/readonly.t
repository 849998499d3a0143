#!/bin/sh
# pgwalk never writes to an image: after every command (as `pgwalk --help`
# lists them, so new commands are covered without editing this file), with
# and without an address argument and in every output format, the image's
# bytes and modification time are what they were.
. "$(dirname "$0")/lib.sh"

"$PGW_TOOLS/mkseeds" "$TMP/img" >/dev/null || { echo "Bail out! mkseeds failed"; exit 1; }
ELF=$TMP/img/image_elf/x86-64-qemu.elf
RAW=$TMP/img/image_raw/x86-64.raw
# Old mtimes make any write visible even within the same second.
touch -d '2001-02-03 04:05:06' "$ELF" "$RAW"

commands=$("$PGWALK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
# Two tests a command, and four: the plan follows the command list.
plan $((2 * $(echo $commands | wc -w) + 4))
[ -n "$commands" ] && ok 0 "commands listed: $(echo $commands)" || ok 1 "commands listed"

state() { echo "$(cksum <"$1") $(stat -c '%Y %s' "$1")"; }
elf0=$(state "$ELF")
raw0=$(state "$RAW")

# Every run must read the image: each command gets the arguments its usage
# line asks for, and must exit 0; the only runs allowed to stop early are
# an output format the command does not offer (one documented message),
# and maps finding no kallsyms or BTF in these images (exit 3, saying so).
reads=0 refused=0 bad=0
for cmd in $commands; do
	# The arguments after IMAGE its usage line names: a physical address
	# the image's direct map maps, a virtual one (and a length).
	twice=false
	case $("$PGWALK" "$cmd" --help | head -1) in
	*" PADDR"*) addr=0x1000 ;;
	*" ADDR LEN"*) addr="0xffff888000001000 16" ;;
	*ADDR*) addr=0xffff888000001000 ;;
	*) addr= ;;
	esac
	# search: a pattern (the seeds hold the printable ASCII in a row).
	[ "$cmd" = search ] && addr=--string=0123456789
	# diff: the image against itself (IMAGE2), which is alike: exit 0.
	"$PGWALK" "$cmd" --help | head -1 | grep -q IMAGE2 && twice=true
	for fmt in text json tsv csv; do
		for img in elf raw; do
			if [ $img = elf ]; then
				set -- "$ELF"
			else
				set -- --image-format=raw --mode=x86-64 --cr3=0x1000 "$RAW"
			fi
			if $twice; then
				eval "_last=\${$#}"
				set -- "$@" "$_last"
			fi
			"$PGWALK" "$cmd" --format="$fmt" "$@" $addr >/dev/null 2>"$TMP/err"
			rc=$?
			if [ $rc = 0 ]; then
				reads=$((reads + 1))
			elif [ $rc = 64 ] && grep -q "^pgwalk $cmd: --format: $cmd prints " "$TMP/err"; then
				refused=$((refused + 1))
			elif [ $cmd = maps ] && [ $rc = 3 ] &&
			     grep -q "^pgwalk: .*: no VMAs: " "$TMP/err"; then
				# maps reads the kernel's own structures, which
				# these images do not hold: it said so.
				reads=$((reads + 1))
			else
				bad=$((bad + 1))
				echo "# pgwalk $cmd --format=$fmt $* $addr: exit $rc: $(head -1 "$TMP/err")"
			fi
		done
	done
	is "$(state "$ELF")" "$elf0" "$cmd: ELF image bytes and mtime unchanged"
	is "$(state "$RAW")" "$raw0" "$cmd: raw image bytes and mtime unchanged"
done
is "$bad" 0 "$reads runs read the images and exited 0 ($refused refused an output format the command does not offer)"
[ "$reads" -ge $(( $(echo $commands | wc -w) * 4 )) ]
ok $? "... at least two formats of every command read both images"
# The image really was read: translate found the page.
run "$PGWALK" translate --format=tsv "$ELF" 0xffff888000001000
is "$rc" 0 "translate read the image it left unchanged"

done_testing
