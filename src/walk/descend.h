/*
 * The walk of one address from a given table down (translate.c), shared
 * by pgw_translate (from the root) and the paging-structure cache
 * (xlat_cache.c: from a remembered last-level table).
 */
#ifndef PGW_DESCEND_H
#define PGW_DESCEND_H

#include "pgwalk.h"
#include "frame_bits.h"

/* out emptied for va: no steps, no answer, no error. */
void pgw_xlat_reset(struct pgw_xlat *out, uint64_t va);

/* The steps from the level-*lvl table at `table` (eff: the permissions
 * the levels above grant; page: the table's page, or NULL) down to a leaf
 * or a stop, appended to out; the level it ended at in *lvl.  memo (NULL:
 * none) as pgw_step_with. */
enum pgw_stop pgw_descend(const struct pgw_space *space, struct pgw_xlat *out,
			  enum pgw_level *lvl, uint64_t table, uint32_t eff,
			  const uint8_t *page, struct pgw_entry_memo *memo);

/* pgw_translate, decoding through memo (NULL: none). */
enum pgw_stop pgw_translate_with(const struct pgw_space *space, uint64_t va,
				 struct pgw_xlat *out,
				 struct pgw_entry_memo *memo);

/* out->pa and what the image holds of it, for a leaf at lvl. */
void pgw_xlat_found(const struct pgw_space *space, struct pgw_xlat *out,
		    enum pgw_level lvl, uint64_t frame, uint32_t eff);

/* Outside the space: x86-64's gap is non-canonical; a 32-bit space
 * simply ends (an address above 4 GiB is not "non-canonical"). */
static inline enum pgw_stop pgw_outside_stop(const struct pgw_mode *mode)
{
	return mode->quirks & PGW_Q_CANONICAL ? PGW_STOP_NONCANONICAL :
						PGW_STOP_BEYOND_SPACE;
}

#endif
