# Assertions on the output of the last run (lib.sh's run): source after
# lib.sh.
# like PATTERN DESC: $out matches the extended regular expression.
like() {
	if printf '%s\n' "$out" | grep -Eq -- "$1"; then ok 0 "$2"; else
		ok 1 "$2"; echo "#   no match for /$1/ in:"
		printf '%s\n' "$out" | head -12 | sed 's/^/#   /'; fi
}
unlike() {
	if printf '%s\n' "$out" | grep -Eq -- "$1"; then ok 1 "$2"
		echo "#   unexpected match for /$1/"; else ok 0 "$2"; fi
}

# one_error DESC RC: the last run failed with exit RC and one stderr line.
one_error() {
	_lines=$(printf '%s' "$err" | grep -c '')
	if [ "$rc" = "$2" ] && [ "$_lines" = 1 ] &&
	   printf '%s' "$err" | grep -q '^pgwalk'; then
		ok 0 "$1 (exit $rc: $err)"
	else
		ok 1 "$1"; echo "#   rc=$rc (want $2), $_lines stderr lines:"
		printf '%s\n' "$err" | head -5 | sed 's/^/#   /'
	fi
}
