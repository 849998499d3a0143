/*
 * Brief answers (pgw_translate_brief, xlat_parts.h): the
 * paging-structure cache's usual answers without a pgw_xlat.  Most addresses of a batch find a
 * slot whose table page is kept and need the one entry below it: a leaf
 * of a kind the entry memo holds (its flags and permissions are the
 * kind's, its frame the entry's own bits) or an empty entry (the memo's
 * decoded zero of that level); an address under a slot where the walk
 * ended needs no entry at all (a large leaf, or an empty entry, the
 * slot's last step).  Giving only the answer, without the steps and the
 * entry's copy, and a run at a time, costs two thirds of
 * pgw_translate_last's instructions.  Everything else
 * (no slot, a page not kept, an entry that is a table, non-present with
 * details, or of a kind not decoded yet, a walk that ended otherwise) is
 * left to pgw_translate_last, which fills the cache and the memo for
 * the addresses after it.
 */
#include "descend.h"
#include "frame_bits.h"
#include "step.h"
#include "xlat_parts.h"
#include "xlat_slots.h"

/* The empty entry at lvl, when the memo knows how a walk takes it and it
 * stops there without details. */
static bool brief_empty(const struct pgw_entry_memo *memo, enum pgw_level lvl,
			struct pgw_answer *b)
{
	if (!memo->zero_known[lvl] || memo->zero_why[lvl] == PGW_STOP_OK ||
	    memo->zero[lvl].np_kind != PGW_NP_NONE)
		return false;
	*b = (struct pgw_answer){ .stop = memo->zero_why[lvl], .level = lvl };
	return true;
}

/* raw, the last level's entry for va below slot sl, as a leaf of a kind
 * the memo holds (pgw_xlat_leaf's answer).  *kind: the memo's slot of
 * the last leaf answered so (NULL: none yet), tried before the memo's
 * look-up: most leaves of a batch are of one kind, and a brief run
 * keeps nothing new in the memo, so the slot still holds that kind. */
static bool brief_leaf(const struct pgw_space *space,
		       const struct pgw_xlat_cache *c, const struct slot *sl,
		       uint64_t va, uint64_t raw,
		       const struct pgw_entry_memo_slot **kind,
		       struct pgw_answer *b)
{
	const struct pgw_entry_memo_slot *m = *kind;

	/* The same entry but for frame bits (its level is c->last too). */
	if (!m || ((raw ^ m->raw) & ~m->bits)) {
		m = pgw_entry_memo_find(&c->memo, c->last, raw);
		if (!m || m->e.kind != PGW_ENT_LEAF)
			return false;
		*kind = m;
	}
	uint64_t size = UINT64_C(1) << c->last_shift;
	uint64_t pa = pgw_entry_memo_frame(m, raw) | (va & (size - 1));
	uint64_t pfn = pa >> PGW_PAGE_SHIFT;
	*b = (struct pgw_answer){
		.pa = pa,
		.page_size = size,
		.stop = PGW_STOP_OK,
		.level = c->last,
		.absence = pgw_image_held_last(space->img, pfn) ?
				   PGW_ABSENT_NONE :
				   pgw_image_page_state(space->img, pfn),
		.flags = m->e.flags,
		.eff_flags = pgw_perm_combine(space->mode, sl->eff, m->e.perm),
		.pkey = m->e.pkey,
	};
	return true;
}

/* A slot where the walk ended, its last step the entry it ended at: a
 * large leaf (pgw_xlat_found's answer), or a stop at an empty entry. */
static bool brief_final(const struct pgw_space *space,
			const struct level_slots *ls, const struct slot *sl,
			uint64_t va, struct pgw_answer *b)
{
	const struct pgw_entry *e = &steps_of(ls, sl)[ls->nsteps - 1].entry;

	if (sl->stop != PGW_STOP_OK) {
		if (e->raw != 0 || e->np_kind != PGW_NP_NONE)
			return false;
		*b = (struct pgw_answer){ .stop = (enum pgw_stop)sl->stop,
					 .level = ls->level };
		return true;
	}
	uint64_t size = UINT64_C(1) << space->mode->level[ls->level].shift;
	uint64_t pa = e->addr | (va & (size - 1));
	*b = (struct pgw_answer){
		.pa = pa,
		.page_size = size,
		.stop = PGW_STOP_OK,
		.level = ls->level,
		.absence = pgw_image_page_state(space->img,
						     pa >> PGW_PAGE_SHIFT),
		.flags = e->flags,
		.eff_flags = sl->eff,
		.pkey = e->pkey,
	};
	return true;
}

/* va's answer into b, when brief. */
static inline bool brief(const struct pgw_space *space,
			 const struct pgw_xlat_cache *c, uint64_t va,
			 const struct pgw_entry_memo_slot **kind,
			 struct pgw_answer *b)
{
	/* The finest slot holding va, as pgw_translate_last looks. */
	for (unsigned i = 0; i < c->ncached; i++) {
		const struct level_slots *ls = &c->lv[i];
		const struct slot *sl = probe(c, ls, va >> ls->shift);
		if (!sl)
			continue;
		if (!sl->cont)
			return brief_final(space, ls, sl, va, b);
		const uint8_t *page = kept_page(c, sl);
		/* The entry below (under the finest slots, the last
		 * level's), when it lies in the pages kept: the table's
		 * first, or all of a table mapped in one piece (see
		 * pgw_step_read). */
		/* Its offset from the kept page's start: the table's in
		 * its page and the entry's in the table. */
		uint64_t off = (sl->table & (PGW_PAGE_SIZE - 1)) +
			       (((va >> ls->below_shift) & ls->below_mask)
				<< ls->entry_shift);
		if (!page || off >= kept_span(sl)) {
			/* Past the kept pages of a table the image holds in
			 * part (a 16 KiB one of 4 KiB blocks, one left out):
			 * the entry's page read, or the walk's stop there.
			 * A page given up since goes to the walk, which
			 * keeps it anew. */
			enum pgw_absence why;
			enum pgw_stop stop = page || !sl->page ?
				pgw_table_page(space->img, sl->table,
					       ((sl->table & ~(uint64_t)
						 (PGW_PAGE_SIZE - 1)) + off) >>
						       PGW_PAGE_SHIFT,
					       &page, &why) :
				PGW_STOP_READ_ERROR;
			if (stop == PGW_STOP_READ_ERROR)
				return false;
			if (stop != PGW_STOP_OK) {
				*b = (struct pgw_answer){ .stop = stop,
							 .level = ls->below,
							 .absence = why };
				return true;
			}
			off &= PGW_PAGE_SIZE - 1;
		}
		uint64_t raw = pgw_entry_at(
			page + (off & ~(uint64_t)(PGW_PAGE_SIZE - 1)), off,
			1u << ls->entry_shift);
		if (raw == 0)
			return brief_empty(&c->memo, ls->below, b);
		return i == 0 && brief_leaf(space, c, sl, va, raw, kind, b);
	}
	return false;
}

size_t pgw_translate_brief(const struct pgw_space *space,
			   struct pgw_xlat_cache *c, const uint64_t *va,
			   size_t n, struct pgw_answer *b)
{
	const struct pgw_entry_memo_slot *kind = NULL;
	size_t i;

	aim(c, space);
	for (i = 0; i < n && brief(space, c, va[i], &kind, &b[i]); i++)
		;
	return i;
}
