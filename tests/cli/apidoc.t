#!/bin/sh
# man/pgwalk.3 documents exactly the API include/pgwalk.h declares: every
# public function (between the visibility push and pop) has its prototype,
# as the header spells it, in a block marked `.\" api: prototypes`, in the
# header's order, and an entry of its own (a .TP or .TQ tag naming it);
# every function the page names exists; its example is examples/vtop.c
# as shipped.  A function added to the header without a page entry, one
# whose parameters changed, or one removed from the header but not from
# the page fails here, by name.  tests/cli/apidoc.pl does the parsing; it
# is first shown to find each kind of problem in doctored copies, so this
# file cannot pass by finding nothing.
. "$(dirname "$0")/lib.sh"

plan 11

H=$REPO/include/pgwalk.h
M=$REPO/man/pgwalk.3
X=$REPO/examples/vtop.c
apidoc() { perl "$TESTDIR/apidoc.pl" "$@"; }

# ---- the parser finds what the library exports -------------------------
apidoc header "$H" | sed -n 's/^proto \([^	]*\)	.*/\1/p' | sort >"$TMP/declared"
n=$(grep -c '' "$TMP/declared")
VERSION=$(cat "$REPO/VERSION")
SO=$(dirname "$PGW_BIN")/libpgwalk.so.$VERSION
if command -v nm >/dev/null 2>&1 && [ -f "$SO" ]; then
	nm -D --defined-only "$SO" | awk '$2 == "T" { print $3 }' | sort \
		>"$TMP/exported"
	is "$(comm -3 "$TMP/declared" "$TMP/exported" | tr -d '\t' | tr '\n' ' ')" "" \
		"the $n functions parsed from pgwalk.h are the functions libpgwalk.so exports"
else
	skip "no nm or no $SO to check the header's parse against"
fi

# ---- the real page --------------------------------------------------------
apidoc check "$H" "$M" "$X" >"$TMP/problems"
is "$?" 0 "apidoc.pl check runs"
# problems KIND: the names (or line) of that kind, on one line.
problems() { sed -n "s/^$1 //p" "$TMP/problems" | tr '\n' ' '; }
is "$(problems undocumented)" "" \
	"every function of pgwalk.h has a prototype and an entry in pgwalk(3)"
is "$(problems differs)" "" "every prototype in pgwalk(3) is the header's"
is "$(problems stale)" "" "every function pgwalk(3) names is in pgwalk.h"
is "$(problems twice)$(problems order)" "" \
	"pgwalk(3) lists each prototype once, in the header's order"
is "$(problems example)" "" "pgwalk(3)'s EXAMPLE is examples/vtop.c as shipped"

# ---- doctored copies: each kind of problem is found ---------------------
# A function added to the header (over two lines, as the header wraps), a
# parameter changed; in the page an entry renamed, a prototype moved up, one
# listed twice and a line of the example changed.
sed -e 's/^void pgw_roots_view_free(struct pgw_roots_view \*view);$/&\
enum pgw_status pgw_added_later(struct pgw_image *img,\
				struct pgw_err *err);/' \
    -e 's/^size_t pgw_kallsyms_count(const struct pgw_kallsyms \*ks);$/size_t pgw_kallsyms_count(struct pgw_kallsyms *ks);/' \
    "$H" >"$TMP/h.h"
sed -e 's/^\.BR pgw_translate ()$/.BR pgw_translated ()/' \
    -e '/^const char \*pgw_status_name(enum pgw_status status);$/d' \
    -e 's/^const char \*pgw_absence_key(enum pgw_absence why);$/const char *pgw_status_name(enum pgw_status status);\
&/' \
    -e 's/^size_t pgw_layout_find(const struct pgw_layout \*layout, uint64_t va);$/&\
&/' \
    -e 's/^	int status = 0;$/	int status = 1;/' "$M" >"$TMP/m.3"
apidoc check "$TMP/h.h" "$TMP/m.3" "$X" >"$TMP/problems"
line=$(grep -n '^	int status = 0;$' "$X" | cut -d: -f1)
is "$(problems undocumented)" "pgw_translate pgw_added_later " \
	"a function added to the header, and one whose entry is gone: undocumented"
is "$(problems differs)" "pgw_kallsyms_count " \
	"a changed parameter: the page's prototype differs"
is "$(problems stale)$(problems example)" \
	"pgw_translated $line: 	int status = 1; " \
	"a function the header lacks: stale; a changed example line: found"
is "$(problems twice)$(problems order)" "pgw_layout_find pgw_absence_key " \
	"a prototype listed twice, and one out of the header's order: found"

done_testing
