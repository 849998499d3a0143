/*
 * The paging-structure cache (pgwalk.h): the steps above the last level,
 * remembered per span one last-level table maps, in a direct-mapped
 * table.  A slot either goes on (the last-level table to read, and the
 * permissions the levels above grant) or is final (the walk ended at or
 * above that level: a large page, or a not-present, reserved or bad
 * entry).  Stops that carry an I/O error (a table not in the image, a
 * read error) are not remembered: their message is per walk.
 *
 * The last level's step of a slot that goes on reads its entry from the
 * table's page (kept in the slot when the image's pages stay where they
 * are), and every step takes an entry of a kind decoded before from the
 * entry memo (frame_bits.h) instead of decoding it again.
 */
#include <stdlib.h>

#include "descend.h"
#include "frame_bits.h"
#include "step.h"

#define NSLOTS 1024   /* 2 MiB spans: 2 GiB of nearby addresses */

struct slot {
	uint64_t tag;          /* va >> key_shift */
	uint32_t gen;          /* valid when the cache's gen */
	bool cont;             /* the walk goes on at the last level */
	uint8_t nsteps;
	enum pgw_stop stop;    /* final: how the walk ended */
	enum pgw_level level;  /* final: where */
	uint32_t eff;          /* cont: what the levels above grant; final
				  leaf: the leaf's effective permissions */
	uint64_t table;        /* cont: the last-level table */
	const uint8_t *page;   /* cont: its page, when pages stay put */
	struct pgw_step step[PGW_NLEVELS - 1];
};

struct pgw_xlat_cache {
	/* What the slots were filled for. */
	const struct pgw_image *img;
	const struct pgw_mode *mode;
	uint64_t root;
	struct pgw_enc_bits enc;  /* bits taken out of every frame */
	uint32_t gen;
	bool usable;             /* the mode has two levels or more */
	bool stable;             /* the image's pages stay put */
	unsigned key_shift;      /* shift of the level above the last */
	unsigned key_steps;      /* unfolded levels down to that one */
	enum pgw_level last;     /* the last unfolded level */
	struct slot slot[NSLOTS];
	struct pgw_entry_memo memo;  /* entries of this mode and these bits */
};

struct pgw_xlat_cache *pgw_xlat_cache_new(void)
{
	/* calloc: slots of generation 0 are empty, and untouched pages
	 * cost no memory. */
	struct pgw_xlat_cache *c = calloc(1, sizeof(*c));

	return c;
}

void pgw_xlat_cache_free(struct pgw_xlat_cache *cache)
{
	free(cache);
}

/* Start over for this space: a new generation empties every slot. */
static void retarget(struct pgw_xlat_cache *c, const struct pgw_space *space)
{
	const struct pgw_mode *mode = space->mode;
	enum pgw_level above = PGW_NLEVELS, last = PGW_NLEVELS;
	unsigned n = 0;

	c->img = space->img;
	c->mode = mode;
	c->root = space->root;
	c->enc = space->enc;
	c->stable = pgw_image_pages_stable(space->img);
	pgw_entry_memo_clear(&c->memo);
	if (++c->gen == 0) {   /* wrapped: old slots could look valid */
		memset(c->slot, 0, sizeof(c->slot));
		c->gen = 1;
	}
	for (enum pgw_level l = pgw_next_level(mode, PGW_PGD); l < PGW_NLEVELS;
	     l = pgw_next_level(mode, l + 1)) {
		above = last;
		last = l;
		n++;
	}
	c->usable = n >= 2;
	c->last = last;
	c->key_steps = n - 1;
	c->key_shift = c->usable ? mode->level[above].shift : 0;
}

static struct slot *slot_of(struct pgw_xlat_cache *c, uint64_t tag)
{
	return &c->slot[(tag * UINT64_C(0x9e3779b97f4a7c15)) >> 54 &
			(NSLOTS - 1)];
}

/* Remember the walk out just made, when the slot's rule allows. */
static void fill(struct pgw_xlat_cache *c, struct pgw_image *img,
		 struct slot *sl, uint64_t tag, const struct pgw_xlat *out)
{
	const struct pgw_mode *mode = c->mode;
	unsigned k = c->key_steps;

	if (out->nsteps > k) {
		uint32_t eff = pgw_perm_start(mode);
		for (unsigned i = 0; i < k; i++)
			eff = pgw_perm_combine(mode, eff,
					       out->step[i].entry.perm);
		sl->cont = true;
		sl->nsteps = (uint8_t)k;
		sl->eff = eff;
		sl->table = out->step[k - 1].entry.addr;
		sl->page = NULL;
		if (c->stable && out->step[k].read_ok) {
			struct pgw_err err;
			const uint8_t *page;
			if (pgw_image_page(img, sl->table >> PGW_PAGE_SHIFT,
					   &page, &err) == PGW_OK)
				sl->page = page;
		}
	} else if (out->stop == PGW_STOP_OK ||
		   out->stop == PGW_STOP_NOT_PRESENT ||
		   out->stop == PGW_STOP_RESERVED ||
		   out->stop == PGW_STOP_BAD_LEAF) {
		sl->cont = false;
		sl->nsteps = (uint8_t)out->nsteps;
		sl->stop = out->stop;
		sl->level = out->level;
		sl->eff = out->eff_flags;
	} else {
		return;
	}
	memcpy(sl->step, out->step, sl->nsteps * sizeof(sl->step[0]));
	sl->tag = tag;
	sl->gen = c->gen;
}

enum pgw_stop pgw_translate_cached(const struct pgw_space *space,
				   struct pgw_xlat_cache *c, uint64_t va,
				   struct pgw_xlat *out)
{
	const struct pgw_mode *mode = space->mode;

	if (!c)
		return pgw_translate(space, va, out);
	if (c->img != space->img || c->mode != mode ||
	    c->root != space->root || c->enc.enc != space->enc.enc ||
	    c->enc.shared != space->enc.shared)
		retarget(c, space);
	if (!c->usable || !pgw_mode_canonical(mode, va))
		return pgw_translate_with(space, va, out, &c->memo);

	uint64_t tag = va >> c->key_shift;
	struct slot *sl = slot_of(c, tag);
	if (sl->gen != c->gen || sl->tag != tag) {
		pgw_translate_with(space, va, out, &c->memo);
		fill(c, space->img, sl, tag, out);
		return out->stop;
	}
	enum pgw_level lvl;
	enum pgw_stop why;
	pgw_xlat_reset(out, va);
	memcpy(out->step, sl->step, sl->nsteps * sizeof(sl->step[0]));
	out->nsteps = sl->nsteps;
	if (sl->cont) {
		lvl = c->last;
		why = pgw_descend(space, out, &lvl, sl->table, sl->eff,
				  sl->page, &c->memo);
	} else {
		lvl = sl->level;
		why = sl->stop;
		if (why == PGW_STOP_OK)
			pgw_xlat_found(space, out, lvl,
				       sl->step[sl->nsteps - 1].entry.addr,
				       sl->eff);
	}
	out->level = lvl;
	out->stop = why;
	return why;
}
