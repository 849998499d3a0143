#!/bin/sh
# Docs and habits a new user meets: the man page's SYNOPSIS one command a
# line as man renders it; no help heading without options under it (help
# dump and help regions printed an empty "Address space:"); sizes spelled
# one way in every command's text (the largest unit that divides them,
# ptdump's style: "4K", "1752K"), never "4 KiB", "(4.0 MiB)" or "1.7M"
# (roots' "1752K" is README's example, which examples.t runs).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/assert.sh"
plan 11

if command -v groff >/dev/null 2>&1; then
	groff -man -Tascii -P-cbou "$REPO/man/pgwalk.1" 2>/dev/null |
		sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' >"$TMP/syn"
	n=$(grep -c 'pgwalk' "$TMP/syn")
	bad=$(grep 'pgwalk' "$TMP/syn" | grep -v '^ *pgwalk' ; grep -c 'pgwalk.*pgwalk' "$TMP/syn" | grep -v '^0$')
	[ "$n" = "$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$REPO/man/pgwalk.1" | grep -c '^\.B pgwalk')" ] && [ -z "$bad" ]
	ok $? "man SYNOPSIS as rendered: each of its $n commands on a line of its own${bad:+: $bad}"
else
	skip "groff not installed (scripts/install-deps.sh installs groff-base)"
fi

commands=$("$PGWALK" --help | awk '/^Commands:/ { on = 1; next }
	on && NF == 0 { exit } on { print $1 }')
empty=
for c in $commands; do
	e=$("$PGWALK" help "$c" | awk '/^ [A-Z][^:]*:$/ { if (h != "" && !n) print h; h = $0; n = 0; next }
		/^  +-/ && h != "" { n++ }
		END { if (h != "" && !n) print h }')
	[ -n "$e" ] && empty="$empty $c:$e"
done
is "$empty" "" "no empty help heading in any of: $(echo $commands)"
run "$PGWALK" help dump
like '^ Memory map:$' "help dump: the memory-map options under their own heading"

# Sizes in text, every command, on the bundled sample and a kernel.
S=$REPO/testdata/x64-4l-a.elf
"$PGW_TOOLS/pgw-mkkernel" "$TMP/k.elf" || bail "pgw-mkkernel failed"
nosize() {
	_what=$1
	shift
	"$@" >"$TMP/o" 2>/dev/null
	# The other spellings sizes had: "4 KiB page", "(4.0 MiB)", "1.7M"
	# (prose may still say "a 1 GiB boundary").
	if grep -nE '[0-9] [KMGT]iB page|\([0-9.]+ [KMGT]iB\)|[0-9]\.[0-9][KMGTPE]\b' "$TMP/o" >"$TMP/bad"; then
		ok 1 "$_what: sizes as everywhere"; sed 's/^/#   /' "$TMP/bad" | head -3
	else
		ok 0 "$_what: sizes as everywhere ($(grep -coE '[0-9]+[KMGTE]\b' "$TMP/o") sizes)"
	fi
}
nosize info "$PGWALK" info "$S"
nosize "translate (one ADDR: the walk)" "$PGWALK" translate --cpu=1 "$S" 0x403390
nosize dump "$PGWALK" dump --cpu=1 "$S"
nosize regions "$PGWALK" regions --cpu=1 "$S"
nosize check "$PGWALK" check --all-roots --severity=info "$TMP/k.elf"
nosize diff "$PGWALK" diff --pid=1 --pid=10 "$TMP/k.elf"
run "$PGWALK" info "$S"
like '^physical: +[0-9]+ ranges?, 643072 bytes \(628K\)$' "info: physical bytes and their size (628K)"
run "$PGWALK" translate --cpu=1 "$S" 0x403390
like '^VIRTUAL 0x403390 -> PHYSICAL 0x7177390 \(4K page at pte\)$' "translate: 4K page"
done_testing
