/*
 * Two translations the same, field by field and step by step, and an
 * answer (pgw_answer) what a translation says: how the tests and the
 * fuzz harness hold the paging-structure cache, and the batch's answers,
 * to the walk from the root.  Written here, not
 * taken from the library, so that a comparator bug in one cannot hide a
 * cache bug in the other.
 */
#ifndef PGW_XLAT_EQUAL_H
#define PGW_XLAT_EQUAL_H

#include <string.h>

#include "pgwalk.h"
#include "../../src/walk/xlat_parts.h"

static inline bool xe_same_entry(const struct pgw_entry *a,
				 const struct pgw_entry *b)
{
	return a->raw == b->raw && a->kind == b->kind && a->addr == b->addr &&
	       a->flags == b->flags && a->pkey == b->pkey &&
	       a->reserved == b->reserved && a->perm == b->perm &&
	       a->np_kind == b->np_kind && a->np_pfn == b->np_pfn &&
	       a->swap_type == b->swap_type && a->swap_offset == b->swap_offset;
}

/* a and b the same from step `from` on (and in every other field). */
static inline bool xe_same_from(const struct pgw_xlat *a,
				const struct pgw_xlat *b, unsigned from)
{
	if (a->va != b->va || a->stop != b->stop || a->level != b->level ||
	    a->pa != b->pa || a->page_size != b->page_size ||
	    a->data_in_image != b->data_in_image ||
	    a->data_absence != b->data_absence ||
	    a->table_absence != b->table_absence ||
	    a->eff_flags != b->eff_flags || a->nsteps != b->nsteps)
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
	return xe_same_from(a, b, 0);
}

/* b (from pgw_translate_last, which filled in its steps from `first`
 * on) says what a (every step) says: the same answer, and the same steps
 * from first on, which leaves the last one in. */
static inline bool xe_same_last(const struct pgw_xlat *a,
				const struct pgw_xlat *b, unsigned first)
{
	if (b->nsteps ? first >= b->nsteps : first != 0)
		return false;
	return xe_same_from(a, b, first);
}

/* b (a pgw_answer) is what want (every step) answers: the answer's
 * fields, the leaf's flags and pkey, the non-present details of the
 * entry a walk stopped at; every other field 0. */
static inline bool xe_same_answer(const struct pgw_xlat *want,
				  const struct pgw_answer *b)
{
	if (b->stop != want->stop || b->level != want->level)
		return false;
	const struct pgw_entry *e =
		want->nsteps ? &want->step[want->nsteps - 1].entry : NULL;
	struct pgw_answer z = { .stop = b->stop, .level = b->level };
	switch (want->stop) {
	case PGW_STOP_OK:
		z.pa = want->pa;
		z.page_size = want->page_size;
		z.absence = want->data_absence;
		z.flags = e->flags;
		z.eff_flags = want->eff_flags;
		z.pkey = e->pkey;
		if ((z.absence == PGW_ABSENT_NONE) != want->data_in_image)
			return false;
		break;
	case PGW_STOP_TABLE_NOT_IN_IMAGE:
	case PGW_STOP_TABLE_BEYOND_MEMORY:
		z.absence = want->table_absence;
		break;
	case PGW_STOP_NOT_PRESENT:
		if (!e)
			break;
		z.np_kind = e->np_kind;
		if (e->np_kind == PGW_NP_PROTNONE)
			z.np_pfn = e->np_pfn;
		if (e->np_kind == PGW_NP_SWAP ||
		    e->np_kind == PGW_NP_MIGRATION ||
		    e->np_kind == PGW_NP_DEVICE ||
		    e->np_kind == PGW_NP_HWPOISON) {
			z.swap_type = e->swap_type;
			z.swap_offset = e->swap_offset;
		}
		break;
	default:
		break;
	}
	return b->pa == z.pa && b->page_size == z.page_size &&
	       b->absence == z.absence && b->flags == z.flags &&
	       b->eff_flags == z.eff_flags && b->pkey == z.pkey &&
	       b->np_kind == z.np_kind && b->np_pfn == z.np_pfn &&
	       b->swap_type == z.swap_type && b->swap_offset == z.swap_offset;
}

/* b (from pgw_translate_brief) says what want (every step) says, and is
 * an answer brief gives: a leaf, a stop at an empty entry (no
 * non-present details), or a stop at a table the image lacks. */
static inline bool xe_same_brief(const struct pgw_xlat *want,
				 const struct pgw_answer *b)
{
	if (want->nsteps == 0)
		return false;
	if (!want->step[want->nsteps - 1].read_ok)
		return (want->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
			want->stop == PGW_STOP_TABLE_BEYOND_MEMORY) &&
		       xe_same_answer(want, b);
	if (b->stop != PGW_STOP_OK &&
	    want->step[want->nsteps - 1].entry.raw != 0)
		return false;
	return xe_same_answer(want, b);
}

/* va through c briefly into b (pgw_translate_brief, b filled with other
 * bytes before): whether it answered. */
static inline bool xe_brief_ask(const struct pgw_space *sp,
				struct pgw_xlat_cache *c, uint64_t va,
				struct pgw_answer *b)
{
	memset(b, 0x5a, sizeof(*b));
	return pgw_translate_brief(sp, c, &va, 1, b) == 1;
}

/* xe_brief_ask, and *same: its answer agrees with want (true when it
 * gave none). */
static inline bool xe_brief(const struct pgw_space *sp,
			    struct pgw_xlat_cache *c, uint64_t va,
			    const struct pgw_xlat *want, struct pgw_answer *b,
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
	unsigned first = 99;

	memset(want, 0xa5, sizeof(*want));
	memset(got, 0x5a, sizeof(*got));
	memset(last, 0x5a, sizeof(*last));
	pgw_translate(sp, NULL, va, want);
	if (last_first)
		pgw_translate_last(sp, c, va, last, &first);
	pgw_translate(sp, c, va, got);
	if (!last_first)
		pgw_translate_last(sp, c, va, last, &first);
	*same = xe_same_xlat(want, got);
	*same_last = xe_same_last(want, last, first);
}

#endif
