#!/bin/sh
# Bad input: every case fails with exactly one line on stderr starting
# "pgwalk", the documented exit status (src/cli/exit_codes.h: 3 no root or
# mode, 64 usage, 65 bad image, 66 cannot open, 69 unsupported), and
# never a crash or a hang.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/synth.sh"
plan 81

# bad DESC RC ARGS...: run pgwalk ARGS (10 s limit), expect one error line.
bad() {
	_d=$1 _rc=$2
	shift 2
	if command -v timeout >/dev/null 2>&1; then
		run timeout 10 "$PGWALK" "$@"
	else
		run "$PGWALK" "$@"
	fi
	one_error "$_d" "$_rc"
}
# poke FILE OFFSET BYTES...: overwrite bytes (octal escapes for printf).
poke() {
	_f=$1 _o=$2
	shift 2
	printf "$@" | dd of="$_f" bs=1 seek="$_o" conv=notrunc 2>/dev/null
}
# le64 N: N as 8 little-endian bytes, in printf octal escapes.
le64() {
	_v=$1 _s=
	for _i in 0 1 2 3 4 5 6 7; do
		_s="$_s\\$(printf '%03o' $(( (_v >> (8 * _i)) & 255 )))"
	done
	printf '%s' "$_s"
}

mkimg x "$SPECS/x86-64.spec"
good=$TMP/x.elf
: >"$TMP/empty"
# Random bytes, no ELF magic, not a whole number of pages (a whole number
# of magic-less pages is taken as a raw image).
head -c 70000 /dev/urandom | tr -d '\177' | head -c 5001 >"$TMP/garbage"
head -c 70000 /dev/urandom | tr -d '\177' | head -c 8192 >"$TMP/garbage-pages"
mkdir "$TMP/dir"
mkfifo "$TMP/fifo" 2>/dev/null

bad "empty file" 65 translate "$TMP/empty" 0x1000
bad "empty file, --image-format=raw" 65 translate --image-format=raw --cr3=0 "$TMP/empty" 0
bad "garbage (no magic)" 65 translate "$TMP/garbage" 0x1000
bad "garbage, info" 65 info "$TMP/garbage"
bad "garbage of whole pages: raw, but no mode to walk with" 3 \
	translate "$TMP/garbage-pages" 0x1000
bad "a directory" 66 translate "$TMP/dir" 0x1000
bad "a missing file" 66 info "$TMP/no-such-file"
if [ -p "$TMP/fifo" ]; then
	bad "a FIFO (no writer: must not block)" 66 translate "$TMP/fifo" 0x1000
else
	skip "mkfifo failed"
fi

# Truncated ELF: in the identification, the header, the program headers
# nothing can be read (65).  Cut in the notes or the first segment, what
# is there opens (tests/cli/truncated.t), and the root it lost is said
# to be truncated (3).
phoff=64 phnum=$(( $(grep -c '^ram' "$SPECS/x86-64.spec") + 1 ))
noteoff=$(( phoff + phnum * 56 ))
loadoff=4096
for cut in 10:identification:65 40:header:65 \
	   $((phoff + 30)):"program headers":65 $((noteoff + 20)):notes:3 \
	   $((loadoff + 12345)):"first segment":3; do
	n=${cut%%:*} what=${cut#*:} want=${cut##*:}
	what=${what%:*}
	head -c "$n" "$good" >"$TMP/trunc.elf"
	bad "ELF truncated in the $what (at $n bytes)" "$want" \
		translate "$TMP/trunc.elf" 0x400000
	case $what in
	program*) out=$err
		like 'truncated\?$' "... and the message says truncated" ;;
	first*) out=$err
		like 'root table 0x100000 .* is not in the image \(truncated\)$' \
			"... and the message says the root is truncated" ;;
	esac
done

# ELF with no PT_LOAD: notes only.
printf 'mode x86-64\ncpu 0x80050033 0x1000 0x20 long\n' |
	"$MKIMAGE" -e "$TMP/noload.elf"
bad "ELF with no PT_LOAD" 65 translate "$TMP/noload.elf" 0x1000
# Not a core file.
cp "$good" "$TMP/exec.elf"; poke "$TMP/exec.elf" 16 '\002\000'
bad "ELF executable, not a core" 65 info "$TMP/exec.elf"
cp "$good" "$TMP/class.elf"; poke "$TMP/class.elf" 4 '\003'
bad "unknown ELF class" 65 info "$TMP/class.elf"
cp "$good" "$TMP/be.elf"; poke "$TMP/be.elf" 5 '\002'
bad "big-endian ELF" 69 info "$TMP/be.elf"
cp "$good" "$TMP/phoff.elf"; poke "$TMP/phoff.elf" 32 "$(le64 $((1 << 40)))"
bad "e_phoff far past the end" 65 info "$TMP/phoff.elf"
cp "$good" "$TMP/bignote.elf"; poke "$TMP/bignote.elf" $((phoff + 32)) \
	"$(le64 $((1 << 40)))"
bad "PT_NOTE size past the end" 65 info "$TMP/bignote.elf"
cp "$good" "$TMP/bigload.elf"; poke "$TMP/bigload.elf" $((phoff + 56 + 32)) \
	"$(le64 $((1 << 50)))"
bad "PT_LOAD size past the end" 65 info "$TMP/bigload.elf"
cp "$good" "$TMP/wrap.elf"; poke "$TMP/wrap.elf" $((phoff + 56 + 24)) \
	"$(le64 -4096)"
bad "PT_LOAD wrapping the address space" 65 info "$TMP/wrap.elf"
# Overlapping PT_LOADs are no error: compared when read (truncated.t).
printf 'mode x86-64\nram 0 2M\nram 1M 2M\nroot 0x1000\nmap 0x400000 0 4K\n' |
	"$MKIMAGE" -e "$TMP/overlap.elf"
bad "overlapping PT_LOADs, no CPU to find a root with" 3 \
	translate "$TMP/overlap.elf" 0x400000
cp "$good" "$TMP/note.elf"; poke "$TMP/note.elf" "$noteoff" '\377\377\377\177'
bad "a note whose name runs past the notes" 65 info "$TMP/note.elf"
printf 'mode x86-64\nram 0 1M\ncpu 0x80050033 0x1000 0x20 long size=100\n' |
	"$MKIMAGE" -e "$TMP/qnote.elf"
bad "--cpu of a QEMU CPU note smaller than its registers" 3 translate --cpu=0 "$TMP/qnote.elf" 0x1000
# The unreadable note is skipped, the memory still usable with --cr3.
run "$PGWALK" info "$TMP/qnote.elf"
case $out in *"cpu_note_skipped: CPU 0: QEMU CPU note claims 100 bytes"*) ok 0 "info says why the short CPU note was skipped" ;;
*) ok 1 "info says why the short CPU note was skipped"; echo "# $out" ;; esac
run "$PGWALK" translate --format=tsv --cr3=0x1000 "$TMP/qnote.elf" 0x1000
is "$rc" 1 "an image with a skipped CPU note still translates with --cr3"
printf 'mode x86-64\nram 0 1M\ncpu 0x80050033 0x1000 0x20 long version=2\n' |
	"$MKIMAGE" -e "$TMP/qnote.elf"
bad "--cpu of a QEMU CPU note of an unknown version" 3 translate --cpu=0 "$TMP/qnote.elf" 0x1000
run "$PGWALK" info "$TMP/qnote.elf"
case $out in *"cpu_note_skipped: CPU 0: QEMU CPU note version 2"*) ok 0 "info says why the version-2 CPU note was skipped" ;;
*) ok 1 "info says why the version-2 CPU note was skipped"; echo "# $out" ;; esac

# Arguments.
bad "an address that is not a number" 64 translate "$good" 0x400000 xyz
bad "an address beyond 64 bits" 64 translate "$good" 0x1ffffffffffffffff
bad "an empty address" 64 translate "$good" ""
bad "--cr3 not a number" 64 translate --cr3=zz "$good" 0x1000
bad "--cpu not a number" 64 translate --cpu=one "$good" 0x1000
bad "--cpu negative" 64 translate --cpu=-1 "$good" 0x1000
bad "--cpu beyond the CPUs" 3 translate --cpu=2 "$good" 0x1000
bad "--cpu on a raw image (no CPUs)" 3 translate --image-format=raw --cpu=0 \
	"$TMP/x.raw" 0x1000
bad "--cr3 outside the image" 3 translate --cr3=0x40000000 "$good" 0x1000
bad "--cr3 and --cpu together" 64 translate --cr3=0x1000 --cpu=0 "$good" 0
bad "--mode unknown" 64 translate --mode=arm64 "$good" 0x1000
bad "--format unknown" 64 translate --format=xml "$good" 0x1000
bad "--base not page aligned" 64 translate --image-format=raw --base=0x123 \
	"$TMP/x.raw" 0x1000
bad "--max-entries zero" 64 translate --max-entries=0 "$good" 0x1000
bad "no address" 64 translate "$good"
bad "no image" 64 info
bad "two images to info" 64 info "$good" "$good"
bad "info in TSV" 64 info --format=tsv "$good"
bad "an image format given as --format" 64 translate --format=raw "$good" 0x1000
bad "an unknown option (argp's own error, one line)" 64 translate --frobnicate "$good" 0x1000
bad "an option missing its value (argp's own error, one line)" 64 translate "$good" 0x1000 --cr3
bad "a bare hex word without --hex" 64 translate "$good" bad1
bad "--max-entries past 64 bits" 64 dump --max-entries=18446744073709551616 "$good"
bad "--cpu not a number" 64 translate --cpu=one "$good" 0x1000
bad "help for an unknown command" 64 help frobnicate

# stdin: bad lines are reported (at most 10, then a count) and skipped.
run sh -c "printf '0x400000\nnope\n\n# comment\n0x401000\n' |
	'$PGWALK' translate --format=tsv --cpu=0 '$good' -"
is "$rc" 1 "stdin with a bad line: exit 1"
is "$err" "pgwalk: stdin line 2: 'nope' is not an address" \
	"... one line on stderr naming it"
is "$(printf '%s\n' "$out" | sed 1d | cut -f1 | tr '\n' ' ')" "0x400000 - 0x401000 " \
	"... blank and comment lines skipped, the bad one marked"
run sh -c "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo nope\$i; done |
	'$PGWALK' translate --format=tsv --cpu=0 '$good' -"
is "$(printf '%s\n' "$err" | grep -c '')" 11 \
	"12 bad stdin lines: 10 named, then one count"
like_err() { out=$err; like "$@"; }
like_err '^pgwalk: 12 lines on stdin were not addresses$' "... the count"

# argp's own errors read like pgwalk's: one line, with the hint.
run "$PGWALK" translate --frobnicate "$good" 0x1000
is "$err" "pgwalk translate: unrecognized option '--frobnicate' (see 'pgwalk translate --help')" \
	"an unknown option: one line, pointing at --help"
run "$PGWALK" translate --format=raw "$good" 0x1000
like_err "'raw' is an image format: give --image-format=raw \\(--format is the output: text, json, tsv or csv\\)" \
	"--format=raw points at --image-format and lists the output formats"
run "$PGWALK" translate --format=xml "$good" 0x1000
like_err "no output format 'xml' \\(text, json, tsv or csv\\)" \
	"an unknown output format lists the valid ones"

# help, --usage.
run "$PGWALK" help translate
is "$rc" 0 "pgwalk help translate: exit 0"
like '^Usage: pgwalk translate \[OPTION...\] IMAGE ADDR...' "... prints translate's usage"
like '--levels' "... with its options"
run "$PGWALK" --usage
is "$rc" 0 "pgwalk --usage: exit 0"
is "$out" "Usage: pgwalk {info|translate|dump|regions|roots|ps|read|ptov|check|diff|maps|search} [OPTION...] IMAGE [ARG...]" \
	"... one line naming the commands"

# Output that cannot be written: the reason, exit 74.
run sh -c "'$PGWALK' dump '$good' >/dev/full"
is "$rc" 74 "dump to a full disk: exit 74"
is "$err" "pgwalk: cannot write output: No space left on device" \
	"... and the reason"
run sh -c "'$PGWALK' translate --format=json '$good' 0x400000 >&-"
is "$rc" 74 "a closed stdout: exit 74"
is "$err" "pgwalk: cannot write output: Bad file descriptor" \
	"... and the reason"
# A batch's records and dump's maps go out many lines at a time,
# straight to the descriptor (src/cli/rows.c), not through stdio: a
# refusal there is said the same way, once.
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "0x%x\n", 4194304 + 8 * i }' \
	>"$TMP/batch"
run sh -c "'$PGWALK' translate --format=tsv '$good' - <'$TMP/batch' >/dev/full"
is "$rc" 74 "a batch of 20 000 to a full disk: exit 74"
is "$err" "pgwalk: cannot write output: No space left on device" \
	"... and the reason, once"
run sh -c "'$PGWALK' translate --format=json '$good' - <'$TMP/batch' >&-"
is "$rc" 74 "a batch of 20 000 to a closed stdout: exit 74"
is "$err" "pgwalk: cannot write output: Bad file descriptor" \
	"... and the reason, once"
printf '%s\n' 'mode x86-64' 'ram 0 64M' 'root 0x100000' 'alloc 0x200000' \
	'map 0x400000 0x1000000 16M rw user' 'cpu 0x80050033 0x100000 0 long' \
	>"$TMP/leaves.spec"
mkimg leaves "$TMP/leaves.spec"
run sh -c "'$PGWALK' dump --leaves '$TMP/leaves.elf' | wc -c"
[ "$out" -gt 200000 ]
ok $? "dump --leaves of 4096 pages: more than 200 000 bytes, many lines' worth ($out)"
run sh -c "'$PGWALK' dump --leaves '$TMP/leaves.elf' >/dev/full"
is "$rc" 74 "dump --leaves of 4096 pages to a full disk: exit 74"
is "$err" "pgwalk: cannot write output: No space left on device" \
	"... and the reason, once"
run sh -c "'$PGWALK' info '$good' >/dev/full"
is "$rc" 74 "info to a full disk: exit 74, one line"
one_error "... and one stderr line" 74

done_testing
