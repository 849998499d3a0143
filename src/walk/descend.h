/*
 * The walk of one address from a given table down (translate.c), shared
 * by pgw_translate (from the root) and the paging-structure cache
 * (xlat_cache.c: from a remembered last-level table).
 */
#ifndef PGW_DESCEND_H
#define PGW_DESCEND_H

#include "pgwalk.h"
#include "frame_bits.h"

/* out emptied for va: no steps, no answer, no error.  Inline, as
 * pgw_xlat_found: a batch pays for every call. */
static inline void pgw_xlat_reset(struct pgw_xlat *out, uint64_t va)
{
	out->va = va;
	out->pa = 0;
	out->page_size = 0;
	out->data_in_image = false;
	out->data_absence = PGW_ABSENT_NONE;
	out->eff_flags = 0;
	out->table_absence = PGW_ABSENT_NONE;
	out->nsteps = 0;
}

/* The steps from the level-*lvl table at `table` (eff: the permissions
 * the levels above grant; page: the table's page, or NULL) down to a leaf
 * or a stop, appended to out; the level it ended at in *lvl.  memo (NULL:
 * none) as pgw_step_with. */
enum pgw_stop pgw_descend(const struct pgw_space *space, struct pgw_xlat *out,
			  enum pgw_level *lvl, uint64_t table, uint32_t eff,
			  const uint8_t *page, uint64_t span,
			  struct pgw_entry_memo *memo);

/* pgw_translate, decoding through memo (NULL: none). */
enum pgw_stop pgw_translate_with(const struct pgw_space *space, uint64_t va,
				 struct pgw_xlat *out,
				 struct pgw_entry_memo *memo);

/* out->pa and what the image holds of it, for a leaf of `size` bytes. */
static inline void pgw_xlat_leaf(const struct pgw_space *space,
				 struct pgw_xlat *out, uint64_t size,
				 uint64_t frame, uint32_t eff)
{
	out->page_size = size;
	out->pa = frame | (out->va & (size - 1));
	out->eff_flags = eff;
	out->data_absence = pgw_image_page_state(space->img,
						 out->pa >> PGW_PAGE_SHIFT);
	out->data_in_image = out->data_absence == PGW_ABSENT_NONE;
}

/* pgw_xlat_leaf for a leaf at lvl. */
static inline void pgw_xlat_found(const struct pgw_space *space,
				  struct pgw_xlat *out, enum pgw_level lvl,
				  uint64_t frame, uint32_t eff)
{
	pgw_xlat_leaf(space, out, UINT64_C(1) << space->mode->level[lvl].shift,
		      frame, eff);
}

/* Outside the space: x86-64's gap, and the one between two roots'
 * halves, are non-canonical; a 32-bit space simply ends (an address above
 * 4 GiB is not "non-canonical"). */
static inline enum pgw_stop pgw_outside_stop(const struct pgw_mode *mode)
{
	return (mode->quirks & PGW_Q_CANONICAL) || mode->root_select_bit ?
		       PGW_STOP_NONCANONICAL : PGW_STOP_BEYOND_SPACE;
}

#endif
