#!/bin/sh
# The committed fuzz corpus (seeds and every input that once found a bug)
# replayed through each fuzz target's harness, built without libFuzzer
# (mk/fuzz.mk): the harness checks the library's invariants and aborts on
# a broken one; under `make SAN=1 check` ASan and UBSan watch too.
. "$(dirname "$0")/lib.sh"

# Two tests a target (mk/fuzz.mk builds a driver for each), and one.
set -- "$PGW_TOOLS"/fuzz-replay-*
plan $((2 * $# + 1))
found=0
for bin in "$PGW_TOOLS"/fuzz-replay-*; do
	[ -x "$bin" ] || continue
	found=1
	t=${bin##*/fuzz-replay-}
	dirs=$REPO/fuzz/corpus/$t
	[ -d "$dirs" ] || dirs=$(ls -d "$REPO"/fuzz/corpus/image_*)
	run "$bin" $dirs
	is "$rc" 0 "$t: corpus replays cleanly"
	case $err in
	*" inputs replayed") ok 0 "$t: ${err##*: }" ;;
	*) ok 1 "$t: replay summary"; printf '%s\n' "$err" | tail -20 | sed 's/^/#   /' ;;
	esac
done
[ "$found" = 1 ] && ok 0 "replay drivers built" || ok 1 "replay drivers built (make check builds them)"
done_testing
