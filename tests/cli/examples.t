#!/bin/sh
# Every example of README.md and man/pgwalk.1 runs.  An example block is
# marked: a `<!-- example: ... -->` line before an indented block of the
# README, a `.\" example: ...` line before a `.nf` block of the man page.
# In a block, a line starting with `pgwalk` starts a command, `#` lines are
# comments and further-indented lines continue the command above; in a
# block whose commands start with `$ `, every other line but `...` is
# output one of the block's commands must print (on the full dump when
# the command needs it).  Each command runs from the top of the
# tree with `vmcore` (README) and `vmcore.elf` (man page) naming the
# bundled sample testdata/x64-4l-a.elf and, with ../shared, the full dump
# too; the man page's kdump, flattened and raw files are the full dump's
# (those run only with ../shared).  Every pgwalk of a command, pipelines
# included, and the command as a whole must exit 0, or N when the command
# says "# exit N" (a documented status: info on a filtered dump is 2;
# every pgwalk must exit N, the command N or, ending in a filter, 0).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"

# blocks FILE: "cmd<TAB>command" and "out<TAB>line" records of the marked
# blocks, one block after another ("end" between blocks).
blocks() {
	awk '
	function flush() { if (cmd != "") print "cmd\t" cmd; cmd = "" }
	function line(l) {
		if (l == "") return
		if (dollar) {
			if (substr(l, 1, 2) == "$ ") { flush(); cmd = substr(l, 3) }
			else if (l != "...") print "out\t" l
		} else if (l ~ /^pgwalk /) { flush(); cmd = l }
		else if (l ~ /^#/) { }
		else if (l ~ /^[ \t]/ && cmd != "") { sub(/^[ \t]+/, "", l); cmd = cmd " " l }
		else { print "bad\t" l }
	}
	function endblock() { flush(); if (inblock) print "end"; inblock = 0; armed = 0 }
	# README: a marker, then an indented block (blank lines inside).
	/^<!-- example/ { endblock(); armed = 1; md = 1; next }
	md && armed && /^    / {
		if (!inblock) { inblock = 1; dollar = 0; n = 0 }
		l = substr($0, 5); lines[++n] = l
		if (substr(l, 1, 2) == "$ ") dollar = 1
		next
	}
	md && armed && /^$/ { if (inblock) lines[++n] = ""; next }
	md && armed && inblock {
		for (i = 1; i <= n; i++) line(lines[i])
		endblock(); next
	}
	# man page: a marker comment, then .nf ... .fi (roff escapes undone).
	/^\.\\" example/ { armed = 1; man = 1; next }
	man && armed && /^\.nf/ { inblock = 1; dollar = 0; next }
	man && armed && /^\.fi/ { endblock(); next }
	man && inblock {
		l = $0; gsub(/\\-/, "-", l); gsub(/\\e/, "\\", l); line(l); next
	}
	END { if (inblock && md) { for (i = 1; i <= n; i++) line(lines[i]) } endblock() }
	' "$1"
}

# A few addresses for the examples that read them from a file: user text of
# CPU 1's process and a direct-map address of the x64-4l-a kernel.
printf '%s\n' 0x403390 0xffff8bc2c0001000 >"$TMP/addrs.txt"

SAMPLE=$REPO/testdata/x64-4l-a.elf
FULL=$UNPACKED/x64-4l-a
have_full=false
if [ -d "$SHARED/x64-4l-a" ]; then
	unpack_shared || bail "cannot unpack the real dumps into $UNPACKED"
	have_full=true
fi

# example SOURCE COMMAND ELF: run it; pgwalk is a function recording every
# exit status; stdout in $TMP/out.
example() {
	_cmd=$(printf '%s\n' "$2" | sed "s#\([ ]\)vmcore\.elf\([ |]\|\$\)#\1$3\2#g
		s#\([ ]\)vmcore\([ |]\|\$\)#\1$3\2#g
		s#\([ ]\)vmcore-d31\.kdump\([ |]\|\$\)#\1$SHARED/x64-4l-a/vmcore-d31.kdump\2#g
		s#\([ ]\)vmcore-d31-zlib\.flat\([ |]\|\$\)#\1$SHARED/x64-4l-a/vmcore-d31-zlib.flat\2#g
		s#\([ ]\)mem\.raw\([ |]\|\$\)#\1$FULL/mem.raw\2#g
		s#< addrs\.txt#< $TMP/addrs.txt#g")
	: >"$TMP/status"
	(cd "$REPO" && PGWALK="$PGWALK" STATUS="$TMP/status" sh -c '
		pgwalk() { "$PGWALK" "$@"; _s=$?; echo "$_s" >>"$STATUS"; return $_s; }
		'"$_cmd") </dev/null >"$TMP/out" 2>"$TMP/err"
	_rc=$?
	_want=$(printf '%s\n' "$2" | sed -n 's/.*# exit \([0-9]*\).*/\1/p')
	_want=${_want:-0}
	_bad=$(grep -cvx "$_want" "$TMP/status")
	_runs=$(grep -c '' "$TMP/status")
	# What it prints: a command that succeeds prints its answer on
	# stdout, one with a documented status prints an answer or says why
	# on stderr (a binary that prints nothing fails every example).
	_said=$TMP/out
	[ "$_want" = 0 ] || [ -s "$TMP/out" ] || _said=$TMP/err
	if { [ "$_rc" = "$_want" ] || [ "$_rc" = 0 ]; } && [ "$_bad" = 0 ] &&
	   [ "$_runs" -gt 0 ] && [ -s "$_said" ]; then
		ok 0 "$1: $2"
	else
		ok 1 "$1: $2"
		echo "#   ran: $_cmd"
		echo "#   exit $_rc, pgwalk statuses: $(tr '\n' ' ' <"$TMP/status"), $(wc -c <"$_said") bytes on ${_said##*/}"
		head -3 "$TMP/err" | sed 's/^/#   /'
	fi
}

# The plan: per source 2, per command one run on the sample (unless it
# needs the full dump) and one on the full dump (or a skip) when it names
# the dump, per block that shows output 1.
for src in README.md man/pgwalk.1; do
	blocks "$REPO/$src" >"$TMP/blocks.${src##*/}"
done
plan $(cat "$TMP"/blocks.* | awk -F'\t' -v full="$have_full" '
	$1 == "cmd" {
		needs = $2 ~ /vmcore-d31|mem\.raw/
		n += !needs
		if (needs || (full == "true" && $2 ~ /vmcore/)) n++
	}
	$1 == "out" { shown = 1 }
	$1 == "end" { n += shown; shown = 0 }
	END { print n + 4 }')

for src in README.md man/pgwalk.1; do
	cp "$TMP/blocks.${src##*/}" "$TMP/blocks"
	nb=$(grep -c '^end$' "$TMP/blocks")
	nc=$(grep -c '^cmd	' "$TMP/blocks")
	[ "$nb" -ge 3 ] && [ "$nc" -ge 5 ]
	ok $? "$src: $nb marked example blocks, $nc commands"
	grep '^bad	' "$TMP/blocks" | sed 's/^bad	/# not a command, comment or continuation: /'
	is "$(grep -c '^bad	' "$TMP/blocks")" 0 "$src: every line of an example block is understood"
	: >"$TMP/want" >"$TMP/shown.out"
	unshown=false
	while IFS='	' read -r kind text; do
		case $kind in
		cmd)
			needs_full=false
			case $text in *vmcore-d31*|*mem.raw*) needs_full=true ;; esac
			if ! $needs_full; then
				example "$src (sample)" "$text" "$SAMPLE"
				cat "$TMP/out" >>"$TMP/shown.out"
			fi
			if $have_full && { $needs_full || [ "$text" != "${text#*vmcore}" ]; }; then
				example "$src (full dump)" "$text" "$FULL/vmcore.elf"
				# What a full-dump example shows is the full dump's.
				! $needs_full || cat "$TMP/out" >>"$TMP/shown.out"
			elif $needs_full; then
				skip "$src: $text: needs ../shared/testdata"
				unshown=true
			fi ;;
		out)	printf '%s\n' "$text" >>"$TMP/want" ;;
		end)
			if [ -s "$TMP/want" ] && $unshown; then
				skip "$src: the output shown needs ../shared/testdata"
			elif [ -s "$TMP/want" ]; then
				# Shown output: every line is printed, on the sample.
				missing=$(grep -cvxF -f "$TMP/shown.out" "$TMP/want")
				is "$missing" 0 "$src: the $(grep -c '' "$TMP/want") output lines shown are what the example prints"
			fi
			: >"$TMP/want" >"$TMP/shown.out"
			unshown=false ;;
		esac
	done <"$TMP/blocks"
done

done_testing
