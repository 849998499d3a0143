/*
 * The paging-structure cache's slots (xlat_cache.c), shared with its
 * brief answers (xlat_brief.c): what a slot holds, the tables of them per
 * level, and the look-ups both make per address.  Private to src/walk.
 */
#ifndef PGW_XLAT_SLOTS_H
#define PGW_XLAT_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pgwalk.h"
#include "../formats/format.h"
#include "frame_bits.h"
#include "slot_hash.h"

/* A slot's head: what a walk that goes on needs, in 32 bytes, two to a
 * cache line.  Its check word (the span it holds) and its steps (the walk
 * down to its level) lie apart, in tables of their own, so that the
 * heads and checks a batch looks at stay in the CPU's caches. */
struct slot {
	uint64_t table;        /* cont: the next level's table */
	const uint8_t *page;   /* cont: its page (NULL: read it) */
	uint64_t epoch;        /* page is valid while the image's page
				  epoch is this */
	uint32_t eff;          /* cont: what the levels down to this one
				  grant; final leaf: the leaf's effective
				  permissions */
	bool cont;             /* the walk goes on below */
	uint8_t stop;          /* final: how the walk ended (enum pgw_stop) */
	uint16_t pages;        /* cont: 4 KiB pages of the table in memory
				  one after another from page (a 16 or 64
				  KiB granule's table, mapped or laid out in
				  one piece: all of them; else 1) */
};
_Static_assert(sizeof(struct slot) == 32, "a slot's head is half a line");

/* Direct-mapped, as the CPU's cache: a walk overwrites its span's slot,
 * so not a pgw_table (lib/table.h). */
struct level_slots {
	enum pgw_level level;  /* the level whose entries are remembered */
	unsigned shift;        /* of that level's index */
	enum pgw_level below;  /* the next level down, its index's shift
				  and mask */
	unsigned below_shift, below_mask;
	unsigned entry_shift;  /* log2 of the mode's entry size */
	unsigned nsteps;       /* steps a slot holds (the level's depth) */
	unsigned table_pages;  /* 4 KiB pages a table of `below` spans */
	unsigned bits;         /* log2 of the slot count */
	uint64_t *check;       /* 2^bits: the generation and tag a slot
				  holds (pgw_slot_check), probed before its
				  head, so that an address no slot of a level
				  holds (most holes, at the finer levels)
				  costs a look into 8 KiB or less, not into
				  a head the CPU's first cache seldom has */
	struct slot *head;     /* 2^bits heads */
	struct pgw_step *steps;  /* nsteps per slot, slot by slot */
};

struct pgw_xlat_cache {
	/* What the slots were filled for: the image by its serial (another
	 * may be opened where a closed one was). */
	uint64_t img_serial;
	const struct pgw_mode *mode;
	uint64_t root, root_upper;
	struct pgw_enc_bits enc;  /* bits taken out of every frame */
	uint16_t gen;
	const uint64_t *epoch;   /* the image's (pgw_image_page_epoch) */
	unsigned ncached;        /* levels with slots in this mode (0: the
				    mode has one level; every walk is from
				    the root) */
	/* lv[0] is the level above the last, lv[ncached - 1] the top. */
	struct level_slots lv[PGW_SLOT_LEVELS];
	enum pgw_level last;     /* the level below lv[0]'s */
	unsigned last_shift;     /* its index, and its pages' size */
	unsigned last_mask;
	struct pgw_entry_memo memo;  /* entries of this mode and these bits */
	unsigned char *store;        /* every level's slots, from a cache
					line's start in base */
	void *base;
	size_t store_size;
	const struct pgw_mode *laid_out;  /* the mode the store is laid
					     out for (NULL: none yet) */
	size_t extent;               /* bytes of the store that layout uses */
};

/* Start over for space: a new generation empties every slot, and the
 * store is laid out for the mode's levels. */
void pgw_xlat_cache_retarget(struct pgw_xlat_cache *c,
			     const struct pgw_space *space);

/* The cache made ready for space. */
static inline void aim(struct pgw_xlat_cache *c,
		       const struct pgw_space *space)
{
	/* One test of all six, not six branches: it is asked per
	 * address. */
	if ((c->img_serial ^ space->img->serial) |
	    ((uintptr_t)c->mode ^ (uintptr_t)space->mode) |
	    (c->root ^ space->root) | (c->root_upper ^ space->root_upper) |
	    (c->enc.enc ^ space->enc.enc) |
	    (c->enc.shared ^ space->enc.shared))
		pgw_xlat_cache_retarget(c, space);
}

/* The slot of ls holding tag in this generation, or NULL. */
static inline struct slot *probe(const struct pgw_xlat_cache *c,
				 const struct level_slots *ls, uint64_t tag)
{
	size_t i = pgw_slot_index(tag, ls->bits);

	return ls->check[i] == pgw_slot_check(tag, c->gen) ? &ls->head[i]
							   : NULL;
}

/* The steps of slot sl of ls. */
static inline struct pgw_step *steps_of(const struct level_slots *ls,
					const struct slot *sl)
{
	return ls->steps + (size_t)(sl - ls->head) * ls->nsteps;
}

/* The table page slot sl keeps, while the image still holds it there
 * (NULL: none, or given up since). */
static inline const uint8_t *kept_page(const struct pgw_xlat_cache *c,
				       const struct slot *sl)
{
	return sl->epoch == *c->epoch ? sl->page : NULL;
}

/* Bytes of the table in memory from the kept page's start. */
static inline uint64_t kept_span(const struct slot *sl)
{
	return (uint64_t)sl->pages << PGW_PAGE_SHIFT;
}

#endif
