#!/bin/sh
# The corrupt-dump corpus (tests/tools/mkcorrupt.c, generated here): every
# image gets its documented exit status from info and translate.  An
# image that cannot be opened fails with exactly one line on stderr naming
# the file and what is wrong; one that opens (a cut file keeps what it
# holds) says in info's output what is wrong with it.  No crash (a signal
# is an exit status above 128), no hang (timeout), and no allocation in
# proportion to a size the file only claims (run under a 256 MiB address
# space limit where the build allows it).
. "$(dirname "$0")/lib.sh"
plan 451

C=$TMP/corrupt
if ! "$PGW_TOOLS/mkcorrupt" "$C"; then
	echo "Bail out! mkcorrupt failed"
	exit 1
fi
# The 256 MiB limit: an address-space limit for a plain build; ASan
# reserves terabytes of address space, so under SAN its allocator says
# no to any one allocation above 256 MiB (as malloc under the limit
# would) and stops the process past 1 GiB of RSS (its shadow memory
# included).  Valgrind reserves its own: under `make valgrind` the plain
# binary (PGW_PLAIN) runs each case a second time under the limit.
LIMIT=
PLAIN=
[ -z "${PGW_VALGRIND:-}" ] || PLAIN=${PGW_PLAIN:-}
if [ -n "${PGW_SAN:-}" ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=256:hard_rss_limit_mb=1024"
	export ASAN_OPTIONS
elif [ -z "${PGW_VALGRIND:-}" ]; then
	LIMIT="ulimit -v 262144;"
fi
T=${PGW_TIMEOUT:-10}
# A 2 MiB page whose tables lie in the first PT_LOAD (frames 1-3).
ADDR=0xffff888000200000

# has_all TEXT HAYSTACK: every '|'-separated part of TEXT is in HAYSTACK.
has_all() {
	_rest=$1
	while [ -n "$_rest" ]; do
		_part=${_rest%%|*}
		case $2 in *"$_part"*) ;; *) return 1 ;; esac
		[ "$_part" = "$_rest" ] && break
		_rest=${_rest#*|}
	done
	return 0
}

tab=$(printf '\t')
while IFS=$tab read -r name code text tcode targs; do
	for cmd in info translate; do
		want=$code
		set -- "$cmd"
		if [ "$cmd" = translate ]; then
			want=${tcode:-$code}
			# shellcheck disable=SC2086  # options, split on purpose
			set -- "$@" $targs
		fi
		set -- "$@" "$C/$name"
		[ "$cmd" = translate ] && set -- "$@" "$ADDR"
		# sh -c so that the ulimit applies to pgwalk alone.
		run timeout "$T" sh -c "$LIMIT exec \"\$0\" \"\$@\"" "$PGWALK" "$@"
		if [ -n "$PLAIN" ]; then
			timeout "$T" sh -c 'ulimit -v 262144; exec "$0" "$@"' \
				"$PLAIN" "$@" >/dev/null 2>&1
			_prc=$?
			[ "$_prc" = "$want" ] || rc="$rc (plain, 256 MiB: $_prc)"
		fi
		is "$rc" "$want" "$cmd $name: exit status $want"
		case $want in
		0|1|2)
			[ -n "$out" ]
			ok $? "$cmd $name: prints its answer"
			is "$err" "" "$cmd $name: nothing on stderr"
			;;
		3)
			lines=$(printf '%s\n' "$err" | wc -l)
			is "$lines" 1 "$cmd $name: one line on stderr"
			;;
		*)
			lines=$(printf '%s\n' "$err" | wc -l)
			is "$lines" 1 "$cmd $name: one line on stderr"
			case $err in
			"pgwalk: $C/$name: "*) has_all "$text" "$err" ;;
			*) false ;;
			esac
			ok $? "$cmd $name: names the file, says '$text'" ||
				echo "#   got: $err"
			is "$out" "" "$cmd $name: nothing on stdout"
			;;
		esac
		# What is wrong with an image that opens is in info's output.
		if [ "$cmd" = info ] && [ "$want" -lt 64 ] && [ -n "$text" ]; then
			has_all "$text" "$out"
			ok $? "info $name: says '$text'" ||
				printf '%s\n' "$out" | sed -n '1,12s/^/#   /p'
		fi
	done
done <"$C/MANIFEST"

# A raw image must be page aligned where it starts.
run "$PGWALK" info --image-format=raw --base=0x123 "$C/valid.elf"
is "$rc" 64 "raw: unaligned --base is a usage error"
case $err in *"not page aligned"*) ok 0 "raw: says the base is not page aligned" ;;
*) ok 1 "raw: says the base is not page aligned"; echo "#   got: $err" ;; esac

done_testing
