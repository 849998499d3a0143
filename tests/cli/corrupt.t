#!/bin/sh
# The corrupt-dump corpus (tests/tools/mkcorrupt.c, generated here): every
# image gets its documented exit status and, when it fails, exactly one
# line on stderr naming the file and what is wrong.  No crash (a signal is
# an exit status above 128), no hang (timeout), and no allocation in
# proportion to a size the file only claims (run under a 256 MiB address
# space limit where the build allows it).
. "$(dirname "$0")/lib.sh"

C=$TMP/corrupt
if ! "$PGW_TOOLS/mkcorrupt" "$C"; then
	echo "Bail out! mkcorrupt failed"
	exit 1
fi
# Sanitizers and valgrind reserve huge address spaces: no limit there.
LIMIT=
[ -z "${PGW_SAN:-}" ] && [ -z "${PGW_VALGRIND:-}" ] && LIMIT="ulimit -v 262144;"
T=${PGW_TIMEOUT:-10}
# A 2 MiB page whose tables lie in the first PT_LOAD (frames 1-3).
ADDR=0xffff888000200000

tab=$(printf '\t')
while IFS=$tab read -r name code text; do
	for cmd in info translate; do
		set -- "$cmd" "$C/$name"
		[ "$cmd" = translate ] && set -- "$@" "$ADDR"
		# sh -c so that the ulimit applies to pgwalk alone.
		run timeout "$T" sh -c "$LIMIT exec \"\$0\" \"\$@\"" "$PGWALK" "$@"
		is "$rc" "$code" "$cmd $name: exit status $code"
		[ "$code" = 0 ] && continue
		lines=$(printf '%s\n' "$err" | wc -l)
		is "$lines" 1 "$cmd $name: one line on stderr"
		case $err in
		"pgwalk: $C/$name: "*"$text"*) ok 0 "$cmd $name: names the file, says '$text'" ;;
		*) ok 1 "$cmd $name: names the file, says '$text'"; echo "#   got: $err" ;;
		esac
		is "$out" "" "$cmd $name: nothing on stdout"
	done
done <"$C/MANIFEST"

# A raw image must be page aligned where it starts.
run "$PGWALK" info --format=raw --base=0x123 "$C/valid.elf"
is "$rc" 64 "raw: unaligned --base is a usage error"
case $err in *"not page aligned"*) ok 0 "raw: says the base is not page aligned" ;;
*) ok 1 "raw: says the base is not page aligned"; echo "#   got: $err" ;; esac

done_testing
