#!/bin/bash
# completion/pgwalk.bash, called as bash calls it (COMP_WORDS, COMP_CWORD,
# then COMPREPLY): commands, each command's own options, the values of
# --format, --image-format, --mode and --layout in every word split bash
# may hand over, files for IMAGE and nothing for addresses.  The lists come
# from the binary, so each one is checked against the binary too: every
# mode and format offered is accepted, every layout is one --layout=list
# names.
. "$(dirname "$0")/lib.sh"
. "$REPO/completion/pgwalk.bash"

IMG=$REPO/testdata/x64-4l-a.elf

# comp WORD...: complete the last word; $got is COMPREPLY, sorted, one line.
comp() {
	COMP_WORDS=("$PGWALK" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_pgwalk
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	got=${got% }
}
# sorted WORD...: the words sorted, one line (what comp's $got looks like).
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' ' | sed 's/ $//'; }

# Commands: exactly the ones `pgwalk --help` lists.
commands=$("$PGWALK" --help | awk '/^Commands:/ { on = 1; next }
	on && NF == 0 { exit } on { print $1 }')
# One test a command (its options), and 63: the plan follows the list.
plan $((63 + $(echo $commands | wc -w)))

is "$(complete -p pgwalk)" "complete -F _pgwalk pgwalk" \
	"sourcing the file registers _pgwalk for pgwalk"
comp ""
is "$got" "$(sorted $commands)" "first word: every command --help lists"
like_got() { if [[ $got =~ $1 ]]; then ok 0 "$2"; else ok 1 "$2"; echo "#   got: '$got'"; fi; }
unlike_got() { if [[ $got =~ $1 ]]; then ok 1 "$2"; echo "#   got: '$got'"; else ok 0 "$2"; fi; }
like_got "info" "first word: info offered"
comp tr
is "$got" "translate" "tr completes to translate"
comp --
is "$got" "--help --version" "first word -- : --help --version"
comp nosuch --
is "$got" "" "an unknown command completes nothing"

# Options are per command, as each command's --help says.
comp dump --
like_got "(^| )--leaves( |$)" "dump --: --leaves"
like_got "(^| )--layout=( |$)" "dump --: --layout= (takes a value)"
like_got "(^| )--wx( |$)" "dump --: --wx"
comp info --
unlike_got "--leaves" "info --: no --leaves (a dump option)"
like_got "(^| )--mode=( |$)" "info --: --mode="
comp translate --ver
is "$got" "--verbose" "translate --ver completes to --verbose"
comp dump --ra
is "$got" "--range=" "dump --ra completes to --range="
comp read --sk
is "$got" "--skip-unreadable" "read --sk completes to --skip-unreadable"
comp read --p
is "$got" "--phys --pid=" "read --p: --phys and --pid="
comp ptov --al
is "$got" "--all-roots" "ptov --al completes to --all-roots"
comp re
is "$got" "read regions" "re: read and regions"
comp regions --sh
is "$got" "--shared-mask=" "regions --sh completes to --shared-mask= (shared options)"
for c in $commands; do
	comp "$c" --
	want=$("$PGWALK" "$c" --help |
		grep -oE '^ +(-[^-], )?--[a-z0-9-]+' | sed 's/.*--/--/' | sort -u)
	have=$(printf '%s\n' $got | sed 's/=$//' | sort -u)
	is "$have" "$want" "$c --: exactly the long options of '$c --help'"
done

# --mode values, however bash split the word.
modes="arm64-16k-36 arm64-16k-47 arm64-16k-48 arm64-16k-52 arm64-4k-39 arm64-4k-48 arm64-4k-52 arm64-64k-42 arm64-64k-48 arm64-64k-52 i386 la57 pae x86-64"
comp translate --mode =
is "$got" "$modes" "--mode= (split at '='): every mode"
comp translate --mode = l
is "$got" "la57" "--mode=l (split): la57"
comp translate --mode=p
is "$got" "--mode=pae" "--mode=p (one word): --mode=pae"
comp translate --mode ""
is "$got" "$modes" "--mode VALUE (separate word): every mode"
comp translate --mode = ""
for m in $got; do
	run "$PGWALK" translate --mode="$m" "$IMG" 0
	[ "$rc" != 64 ]
	ok $? "--mode=$m offered and accepted (exit $rc)"
done

# --format: the output formats only (images have --image-format); -f too.
formats="csv json text tsv"
comp dump --format = ""
is "$got" "$formats" "--format=: the output formats"
comp dump -f ""
is "$got" "$formats" "-f VALUE: the same"
comp info --format = j
is "$got" "json" "--format=j: json"
comp translate --format = ""
for f in $got; do
	run "$PGWALK" translate --format="$f" "$IMG" 0
	[ "$rc" != 64 ]
	ok $? "--format=$f offered and accepted (exit $rc)"
done
comp info --image-format = ""
is "$got" "avml elf kdump lime raw" "--image-format=: image formats"
for f in $got; do
	run "$PGWALK" info --image-format="$f" "$IMG"
	[ "$rc" != 64 ]
	ok $? "--image-format=$f offered and accepted (exit $rc)"
done

# --layout: the names --layout=list prints, and list itself.
comp dump --layout = ""
is "$got" "$(sorted $("$PGWALK" dump --layout=list | awk '{ print $1 }') list)" \
	"--layout=: every layout --layout=list names, and list"
comp regions --layout = la57
is "$got" "la57-4.14 la57-4.20" "regions --layout=la57: the 5-level eras"

# After help: the commands; nothing more after one.
comp help ""
is "$got" "$(sorted $commands)" "help: every command"
comp help d
is "$got" "diff dump" "help d: diff and dump"
comp help dump ""
is "$got" "" "help dump: nothing after it"
# info has no CSV or TSV: its --format offers what info takes.
comp info --format = ""
is "$got" "json text" "info --format=: text and json only (a list named for info wins)"
# --pid and --comm: the processes roots names in the IMAGE on the line.
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf" || bail "pgw-mkkernel failed"
comp dump "$TMP/k.elf" --pid = ""
is "$got" "1 10" "--pid= after IMAGE: the pids of the task list (pgw-mkkernel's 1 and 10)"
comp dump "$TMP/k.elf" --comm=
is "$got" "--comm=init" "--comm=: the comms a shell can give back (init; not the one with an escape sequence)"
comp dump --pid ""
is "$got" "" "--pid before any IMAGE: nothing"

# Options without a list of values complete nothing.
comp translate --cr3 = ""
is "$got" "" "--cr3=: nothing (an address)"
comp dump --max-entries = ""
is "$got" "" "--max-entries=: nothing (a number)"

# IMAGE is a file; what follows it is an address.
cd "$REPO" || exit 1
comp info testdata/x64-4l-a.e
is "$got" "testdata/x64-4l-a.elf" "IMAGE: file names"
comp translate --cpu = 1 -f tsv testdata/x64-4l
is "$got" "testdata/x64-4l-a testdata/x64-4l-a.elf" \
	"IMAGE after --cpu=1 and -f tsv: file names"
comp translate --cpu = 1 testdata/x64-4l-a.elf ""
is "$got" "" "after IMAGE (an address): nothing"

done_testing
