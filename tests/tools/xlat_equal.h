/*
 * Two translations the same, field by field and step by step (the I/O
 * error's message too): how the tests and the fuzz harness hold the
 * paging-structure cache to the walk from the root.  Written here, not
 * taken from the library, so that a comparator bug in one cannot hide a
 * cache bug in the other.
 */
#ifndef PGW_XLAT_EQUAL_H
#define PGW_XLAT_EQUAL_H

#include <string.h>

#include "pgwalk.h"

static inline bool xe_same_entry(const struct pgw_entry *a,
				 const struct pgw_entry *b)
{
	return a->raw == b->raw && a->kind == b->kind && a->addr == b->addr &&
	       a->flags == b->flags && a->pkey == b->pkey &&
	       a->reserved == b->reserved && a->perm == b->perm &&
	       a->np_kind == b->np_kind && a->np_pfn == b->np_pfn &&
	       a->swap_type == b->swap_type && a->swap_offset == b->swap_offset;
}

/* a and b the same from step `from` on (and in every other field but
 * first_step). */
static inline bool xe_same_from(const struct pgw_xlat *a,
				const struct pgw_xlat *b, unsigned from)
{
	if (a->va != b->va || a->stop != b->stop || a->level != b->level ||
	    a->pa != b->pa || a->page_size != b->page_size ||
	    a->data_in_image != b->data_in_image ||
	    a->data_absence != b->data_absence ||
	    a->eff_flags != b->eff_flags || a->nsteps != b->nsteps ||
	    a->io.status != b->io.status || a->io.absence != b->io.absence ||
	    strcmp(a->io.msg, b->io.msg) != 0)
		return false;
	for (unsigned i = from; i < a->nsteps; i++) {
		const struct pgw_step *s = &a->step[i], *t = &b->step[i];
		if (s->level != t->level || s->table != t->table ||
		    s->index != t->index || s->entry_pa != t->entry_pa ||
		    s->read_ok != t->read_ok ||
		    (s->read_ok && !xe_same_entry(&s->entry, &t->entry)))
			return false;
	}
	return true;
}

static inline bool xe_same_xlat(const struct pgw_xlat *a,
				const struct pgw_xlat *b)
{
	return a->first_step == 0 && b->first_step == 0 && xe_same_from(a, b, 0);
}

/* b (from pgw_translate_last) says what a (every step) says: the same
 * answer, and the same steps from b's first_step on, which leaves the
 * last one in. */
static inline bool xe_same_last(const struct pgw_xlat *a,
				const struct pgw_xlat *b)
{
	if (b->nsteps ? b->first_step >= b->nsteps : b->first_step != 0)
		return false;
	return a->first_step == 0 && xe_same_from(a, b, b->first_step);
}

/* b (from pgw_translate_brief) says what want (every step) says: the
 * answer's fields, the leaf's flags and pkey; a stop only at an empty
 * entry, which has no non-present details, and no I/O error. */
static inline bool xe_same_brief(const struct pgw_xlat *want,
				 const struct pgw_brief *b)
{
	if (b->stop != want->stop || b->level != want->level ||
	    want->nsteps == 0)
		return false;
	const struct pgw_step *s = &want->step[want->nsteps - 1];
	if (!s->read_ok || want->io.status != PGW_OK)
		return false;
	if (b->stop != PGW_STOP_OK)
		return s->entry.raw == 0 && s->entry.np_kind == PGW_NP_NONE &&
		       b->pa == 0 && b->page_size == 0 && b->flags == 0 &&
		       b->eff_flags == 0 && b->pkey == 0 &&
		       b->data_absence == PGW_ABSENT_NONE;
	return b->pa == want->pa && b->page_size == want->page_size &&
	       b->data_absence == want->data_absence &&
	       (b->data_absence == PGW_ABSENT_NONE) == want->data_in_image &&
	       b->flags == s->entry.flags && b->eff_flags == want->eff_flags &&
	       b->pkey == s->entry.pkey;
}

/* va through c briefly into b (pgw_translate_brief, b filled with other
 * bytes before): whether it answered. */
static inline bool xe_brief_ask(const struct pgw_space *sp,
				struct pgw_xlat_cache *c, uint64_t va,
				struct pgw_brief *b)
{
	memset(b, 0x5a, sizeof(*b));
	return pgw_translate_brief(sp, c, &va, 1, b) == 1;
}

/* xe_brief_ask, and *same: its answer agrees with want (true when it
 * gave none). */
static inline bool xe_brief(const struct pgw_space *sp,
			    struct pgw_xlat_cache *c, uint64_t va,
			    const struct pgw_xlat *want, struct pgw_brief *b,
			    bool *same)
{
	bool answered = xe_brief_ask(sp, c, va, b);

	*same = !answered || xe_same_brief(want, b);
	return answered;
}

/* va translated from the root into want, and through c with every step
 * into got and with the last alone into last (asked first when
 * last_first), each answer filled with other bytes before, so that a
 * field one leaves unset differs; whether got and last agree with want. */
static inline void xe_three_ways(const struct pgw_space *sp,
				 struct pgw_xlat_cache *c, uint64_t va,
				 bool last_first, struct pgw_xlat *want,
				 struct pgw_xlat *got, struct pgw_xlat *last,
				 bool *same, bool *same_last)
{
	memset(want, 0xa5, sizeof(*want));
	memset(got, 0x5a, sizeof(*got));
	memset(last, 0x5a, sizeof(*last));
	pgw_translate(sp, va, want);
	if (last_first)
		pgw_translate_last(sp, c, va, last);
	pgw_translate_cached(sp, c, va, got);
	if (!last_first)
		pgw_translate_last(sp, c, va, last);
	*same = xe_same_xlat(want, got);
	*same_last = xe_same_last(want, last);
}

#endif
