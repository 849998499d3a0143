/*
 * The two ways the paging-structure cache answers, of which
 * pgw_translate_many (xlat_many.c) makes a batch's answers: briefly,
 * without a walk, while it can, and else by a walk through the cache
 * that copies only the step that answers.  Private to src/walk, and to
 * the tests that hold each to pgw_translate (tests/unit/xlat_cache.c,
 * tests/tools/pgw-xlatcmp.c).
 */
#ifndef PGW_XLAT_PARTS_H
#define PGW_XLAT_PARTS_H

#include "pgwalk.h"

/*
 * pgw_translate through a cache for a caller that wants the answer and the step
 * that gave it, not the levels above: when the cache holds the walk down
 * to the last level, the remembered steps are not copied, and
 * *first_ret says which steps are filled in (at least the last,
 * step[nsteps - 1]; nsteps still counts them all).  Every other field is
 * pgw_translate's.
 */
enum pgw_stop pgw_translate_last(const struct pgw_space *space,
				 struct pgw_xlat_cache *cache, uint64_t va,
				 struct pgw_xlat *out, unsigned *first_ret);

/*
 * The answers of va[0..n-1] through cache (not NULL), in order, while
 * the cache gives each from one entry read below a table it remembers
 * and that entry is a leaf of the last level of a kind decoded before, or
 * empty (all zero: no non-present details), or from a walk it remembers
 * that ended at a large leaf or an empty entry: how many (a[i] is
 * pgw_xlat_answer's of va[i]'s walk).  The next address needs a walk
 * (pgw_translate_last), which fills the cache, so that the addresses
 * after it are answered briefly again.
 */
size_t pgw_translate_brief(const struct pgw_space *space,
			   struct pgw_xlat_cache *cache, const uint64_t *va,
			   size_t n, struct pgw_answer *a);

#endif
