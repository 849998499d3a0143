#!/bin/sh
# The source's layers only point down: lib <- formats, arch <- walk <- linux
# <- cli.  Every pgw_ function a file calls is defined in its own layer or
# one it may use (src/arch: hardware only, no image and no walker), only
# src/cli prints, and no layer includes a header from above it.
. "$(dirname "$0")/lib.sh"
plan 8
SRC=$REPO/src

# may LAYER: the layers its files may use.
may() {
	case $1 in
	lib) echo "lib" ;;
	formats) echo "lib formats" ;;
	arch) echo "lib arch" ;;
	walk) echo "lib formats arch walk" ;;
	linux) echo "lib formats arch walk linux" ;;
	cli) echo "lib formats arch walk linux cli" ;;
	esac
}

# Where each pgw_ function is defined: "name layer" lines.
for d in lib formats arch walk linux; do
	grep -hoE '^[a-z][a-z0-9_ ]*[ *](pgw_[a-z0-9_]+)\(' \
		"$SRC/$d"/*.c "$SRC/$d"/*.h 2>/dev/null |
		sed -E "s/.*(pgw_[a-z0-9_]+)\\(/\\1 $d/"
done | sort -u >"$TMP/defs"
[ "$(wc -l <"$TMP/defs")" -gt 100 ]
ok $? "found the library's definitions ($(wc -l <"$TMP/defs"))"

for d in lib formats arch walk linux cli; do
	allowed=" $(may $d) "
	bad=
	for f in "$SRC/$d"/*.c "$SRC/$d"/*.h; do
		[ -f "$f" ] || continue
		for name in $(grep -oE '\bpgw_[a-z0-9_]+\(' "$f" | tr -d '(' |
			      sort -u); do
			layer=$(awk -v n="$name" '$1 == n { print $2; exit }' \
				"$TMP/defs")
			[ -n "$layer" ] || continue   # the CLI's own, or a macro
			case $allowed in
			*" $layer "*) ;;
			*) bad="$bad ${f#"$SRC"/}:$name($layer)" ;;
			esac
		done
		for inc in $(sed -n 's|^#include "\.\./\([a-z]*\)/.*|\1|p' "$f"); do
			case $allowed in
			*" $inc "*) ;;
			*) bad="$bad ${f#"$SRC"/}:include($inc)" ;;
			esac
		done
	done
	is "${bad# }" "" "src/$d uses only: $(may $d)"
done

# Only src/cli prints (stdout, stderr or any stream).
prints=$(grep -rnE '\b(v?f?printf|puts|fputs|putchar|fputc|fwrite|perror)[[:space:]]*\(' \
	"$SRC" --include='*.c' --include='*.h' | grep -v "^$SRC/cli/" |
	sed "s|^$SRC/||")
is "$prints" "" "nothing outside src/cli prints"

done_testing
