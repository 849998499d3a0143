/*
 * The paging-structure cache (pgwalk.h), as the CPU keeps one: a
 * direct-mapped table per level above the last, each remembering the
 * walk down to and including its level per span one entry of that level
 * maps (x86-64: 512 GiB, 1 GiB and 2 MiB).  A slot either goes on (the
 * next level's table to read, and the permissions the levels above
 * grant) or is final (the walk ended at that level: a large page, or a
 * not-present, reserved or bad entry).  An address looks in the finest
 * table first and walks on from the finest slot it finds, filling the
 * finer tables as it goes; so a batch of addresses in one hole of any
 * size reads at most one entry after its first, and one among mapped
 * pages reads only its last-level entry.  A walk that stops at the entry
 * right below a slot whose table page is kept fills nothing finer (the
 * next address there reads that one entry again, which costs less than
 * the filling did).  Stops at a table the image lacks, or cannot read,
 * are not remembered: they are rare, and each is walked again.
 *
 * A slot that goes on keeps the next table's page, used while the image
 * has given up no page since (pgw_image_page_epoch: a mapped image never
 * does; a decompressing one gives pages up from its bounded cache, and a
 * batch's table pages mostly stay there; a page given up is read again
 * by the next walk through the slot, and kept anew), and every step takes
 * an entry of a kind decoded before from the entry memo (frame_bits.h)
 * instead of decoding it again.
 * pgw_translate_last answers from the same slots but copies no
 * remembered step above the last into the answer (the last is read now,
 * or copied from a final slot), unless finer slots are filled from it:
 * what a batch of answers needs (xlat_many.c).  pgw_translate_brief
 * (xlat_brief.c, through xlat_slots.h) answers the usual addresses of a
 * batch from the same slots without a pgw_xlat.
 */
#include <stddef.h>
#include <stdlib.h>

#include "../formats/format.h"
#include "descend.h"
#include "frame_bits.h"
#include "slot_hash.h"
#include "step.h"
#include "xlat_parts.h"
#include "xlat_slots.h"

static size_t stride_of(unsigned nsteps)
{
	return sizeof(uint64_t) + sizeof(struct slot) +
	       nsteps * sizeof(struct pgw_step);
}

struct pgw_xlat_cache *pgw_xlat_cache_new(void)
{
	struct pgw_xlat_cache *c = calloc(1, sizeof(*c));
	size_t size = 0;

	if (!c)
		return NULL;
	/* Room for the deepest mode: level i (finest first) of a mode with
	 * PGW_NLEVELS levels holds PGW_SLOT_LEVELS - i steps. */
	for (unsigned i = 0; i < PGW_SLOT_LEVELS; i++)
		size += stride_of(PGW_SLOT_LEVELS - i) << pgw_slots_log2[i];
	/* calloc: slots of generation 0 are empty, and untouched pages
	 * cost no memory. */
	c->base = calloc(1, size + 63);
	if (!c->base) {
		free(c);
		return NULL;
	}
	c->store = (unsigned char *)(((uintptr_t)c->base + 63) &
				     ~(uintptr_t)63);
	c->store_size = size;
	return c;
}

void pgw_xlat_cache_free(struct pgw_xlat_cache *cache)
{
	if (cache)
		free(cache->base);
	free(cache);
}

void pgw_xlat_cache_retarget(struct pgw_xlat_cache *c,
			     const struct pgw_space *space)
{
	const struct pgw_mode *mode = space->mode;
	enum pgw_level unfolded[PGW_NLEVELS];
	unsigned n = 0;

	c->img_serial = space->img->serial;
	c->mode = mode;
	c->root = space->root;
	c->root_upper = space->root_upper;
	c->enc = space->enc;
	c->epoch = pgw_image_page_epoch(space->img);
	pgw_entry_memo_clear(&c->memo);
	if (++c->gen == 0) {   /* wrapped: old slots could look valid */
		memset(c->store, 0, c->store_size);
		c->gen = 1;
	}
	for (enum pgw_level l = pgw_next_level(mode, PGW_PGD); l < PGW_NLEVELS;
	     l = pgw_next_level(mode, l + 1))
		unfolded[n++] = l;
	c->ncached = n >= 2 ? n - 1 : 0;
	/* Tags must fit below the check word's generation (every x86 mode's
	 * do: its finest level with slots maps 2 or 4 MiB). */
	if (c->ncached &&
	    mode->level[unfolded[n - 2]].shift < PGW_SLOT_MIN_SHIFT)
		c->ncached = 0;
	/* An entry's offset is its index shifted (entry_shift): every
	 * mode's entries are 4 or 8 bytes. */
	if (mode->entry_size == 0 ||
	    (mode->entry_size & (mode->entry_size - 1)) != 0)
		c->ncached = 0;
	c->last = n ? unfolded[n - 1] : PGW_NLEVELS;
	if (n) {
		c->last_shift = mode->level[c->last].shift;
		c->last_mask = (1u << mode->level[c->last].bits) - 1;
	}
	if (mode == c->laid_out)
		return;
	/* Another layout: a check word of it may lie over the old one's
	 * heads or steps, whose bytes could pass for a generation and a tag,
	 * so the part the old one used is emptied (a batch keeps one
	 * mode). */
	memset(c->store, 0, c->extent);
	c->laid_out = mode;
	unsigned char *at = c->store;
	for (unsigned i = 0; i < c->ncached; i++) {
		struct level_slots *ls = &c->lv[i];
		unsigned depth = c->ncached - 1 - i;   /* 0: the top */
		ls->level = unfolded[depth];
		ls->shift = mode->level[ls->level].shift;
		ls->below = unfolded[depth + 1];
		ls->below_shift = mode->level[ls->below].shift;
		ls->below_mask = (1u << mode->level[ls->below].bits) - 1;
		ls->entry_shift = (unsigned)__builtin_ctz(mode->entry_size);
		ls->nsteps = depth + 1;
		ls->table_pages = (unsigned)((((uint64_t)1 <<
				   mode->level[ls->below].bits) *
				  mode->entry_size + PGW_PAGE_SIZE - 1) >>
				 PGW_PAGE_SHIFT);
		ls->bits = pgw_slots_log2[i];
		ls->head = (struct slot *)(void *)at;
		at += sizeof(struct slot) << ls->bits;
	}
	for (unsigned i = 0; i < c->ncached; i++) {
		struct level_slots *ls = &c->lv[i];
		ls->steps = (struct pgw_step *)(void *)at;
		at += (ls->nsteps * sizeof(struct pgw_step)) << ls->bits;
	}
	for (unsigned i = 0; i < c->ncached; i++) {
		struct level_slots *ls = &c->lv[i];
		ls->check = (uint64_t *)(void *)at;
		at += sizeof(uint64_t) << ls->bits;
	}
	c->extent = (size_t)(at - c->store);
}

/*
 * Keep the page of sl's table in sl (NULL when the image cannot give
 * it), and of a table of several pages (16 and 64 KiB granules) as many
 * as lie one after another in memory from it (pgw_image_page_run: a
 * zero-copy image's map, a decompressing image's cache, which lays them
 * out so): the table's entries past its first page are then read in
 * place too.
 */
static void keep_table(struct pgw_xlat_cache *c, struct pgw_image *img,
		       const struct level_slots *ls, struct slot *sl)
{
	struct pgw_err err;
	const uint8_t *page;
	unsigned got = pgw_image_page_run(img, sl->table >> PGW_PAGE_SHIFT,
					  ls->table_pages, &page, &err);

	sl->page = got ? page : NULL;
	sl->pages = (uint16_t)(got ? got : 1);
	/* After the reads, which may give a page up. */
	sl->epoch = *c->epoch;
}

/* The slot of ls that tag is filled into. */
static struct slot *slot_of(const struct pgw_xlat_cache *c,
			    const struct level_slots *ls, uint64_t tag)
{
	size_t i = pgw_slot_index(tag, ls->bits);

	ls->check[i] = pgw_slot_check(tag, c->gen);
	return &ls->head[i];
}

/* Whether a walk that ended with `stop` may be remembered: it says the
 * same for every address of the span, every time. */
static bool final_stop(enum pgw_stop stop)
{
	return stop == PGW_STOP_OK || stop == PGW_STOP_NOT_PRESENT ||
	       stop == PGW_STOP_RESERVED || stop == PGW_STOP_BAD_LEAF;
}

/* Remember, in levels `from` down to 0 (finest), what the walk in out
 * says of each level's span. */
static void fill(struct pgw_xlat_cache *c, struct pgw_image *img,
		 unsigned from, const struct pgw_xlat *out)
{
	const struct pgw_mode *mode = c->mode;

	for (unsigned i = from + 1; i-- > 0;) {
		const struct level_slots *ls = &c->lv[i];
		unsigned k = ls->nsteps;
		uint64_t tag = out->va >> ls->shift;
		struct slot *sl;

		if (out->nsteps > k) {
			sl = slot_of(c, ls, tag);
			uint32_t eff = pgw_perm_start(mode);
			for (unsigned j = 0; j < k; j++)
				eff = pgw_perm_combine(mode, eff,
						       out->step[j].entry.perm);
			sl->cont = true;
			sl->eff = eff;
			sl->table = out->step[k - 1].entry.addr;
			sl->page = NULL;
			sl->pages = 1;
			if (out->step[k].read_ok)
				keep_table(c, img, ls, sl);
		} else if (out->nsteps == k && final_stop(out->stop)) {
			sl = slot_of(c, ls, tag);
			sl->cont = false;
			sl->stop = (uint8_t)out->stop;
			sl->eff = out->eff_flags;
		} else {
			/* Ended above this level (a coarser slot has it), or
			 * with an I/O error here. */
			continue;
		}
		memcpy(steps_of(ls, sl), out->step, k * sizeof(out->step[0]));
	}
}

/* The remembered steps of slot sl of ls into out: all of them (every
 * level wanted, or finer slots to fill from out), else the last alone
 * (*first: the first step filled in). */
static inline void steps_from(struct pgw_xlat *out,
			      const struct level_slots *ls,
			      const struct slot *sl, bool all,
			      unsigned *first)
{
	const struct pgw_step *step = steps_of(ls, sl);
	unsigned k = ls->nsteps;

	if (all) {
		memcpy(out->step, step, k * sizeof(step[0]));
	} else {
		out->step[k - 1] = step[k - 1];
		*first = k - 1;
	}
	out->nsteps = k;
}

/* The last level's entry, from the table a slot of lv[0] names (page:
 * kept_page's): a leaf, or a stop (a table entry there leads nowhere). */
static inline __attribute__((always_inline)) enum pgw_stop
last_step(const struct pgw_space *space, struct pgw_xlat_cache *c,
	  const struct slot *sl, const uint8_t *page, struct pgw_xlat *out)
{
	const struct pgw_mode *mode = space->mode;
	struct pgw_step *s = &out->step[out->nsteps++];
	enum pgw_level lvl = c->last;
	unsigned index = (unsigned)(out->va >> c->last_shift) & c->last_mask;
	struct pgw_err err;
	enum pgw_stop why = pgw_step_with(space->img, mode, &space->enc, lvl,
					  sl->table, index, page, kept_span(sl),
					  &c->memo, s, &err);

	if (!s->read_ok)
		out->table_absence = err.absence;
	if (why == PGW_STOP_OK && s->entry.kind != PGW_ENT_LEAF)
		why = PGW_STOP_BAD_LEAF;
	if (why == PGW_STOP_OK)
		pgw_xlat_leaf(space, out, UINT64_C(1) << c->last_shift,
			      s->entry.addr,
			      pgw_perm_combine(mode, sl->eff, s->entry.perm));
	out->level = lvl;
	out->stop = why;
	return why;
}

/*
 * The entry below a coarse slot that goes on, from its kept page: when
 * the walk stops there (most holes under a remembered table), out is the
 * answer and that stop is returned; PGW_STOP_OK when the walk goes on
 * (out half made).  A stop there is not worth a finer slot: asking again
 * costs the same read.
 */
static inline __attribute__((always_inline)) enum pgw_stop
stop_below(const struct pgw_space *space, struct pgw_xlat_cache *c,
	   const struct level_slots *ls, const struct slot *sl,
	   const uint8_t *page, struct pgw_xlat *out, bool all,
	   unsigned *first)
{
	const struct pgw_mode *mode = space->mode;
	struct pgw_step *s = &out->step[ls->nsteps];
	enum pgw_level lvl = ls->below;
	unsigned index = (unsigned)(out->va >> ls->below_shift) &
			 ls->below_mask;
	/* The kept pages are a table's first 4 KiB, or all of a larger
	 * one (16K and 64K granules) the image maps in one piece: an entry
	 * past them is read, and that can fail. */
	struct pgw_err err;
	enum pgw_stop why = pgw_step_with(space->img, mode, &space->enc, lvl,
					  sl->table, index, page, kept_span(sl),
					  &c->memo, s, &err);

	if (why == PGW_STOP_OK)
		return why;
	if (!s->read_ok)
		out->table_absence = err.absence;
	if (all)
		steps_from(out, ls, sl, true, first);
	else
		*first = ls->nsteps;
	out->nsteps = ls->nsteps + 1;
	out->level = lvl;
	out->stop = why;
	return why;
}

/* The table page slot sl (one that goes on) keeps, or, given up by the
 * image since, read again and kept anew, so that the addresses after
 * this one find it (and pgw_translate_brief answers them).  NULL: the
 * slot keeps none (its table could not be read when it was filled) or
 * the image cannot give it now; the step reads it then, and says why. */
static const uint8_t *slot_page(struct pgw_xlat_cache *c,
				struct pgw_image *img,
				const struct level_slots *ls, struct slot *sl)
{
	const uint8_t *page = kept_page(c, sl);

	if (page || !sl->page)
		return page;
	keep_table(c, img, ls, sl);
	return sl->page;
}

/* pgw_translate (all: every step into out) and
 * pgw_translate_last (!all: *first says which steps are filled in), one
 * code inlined twice. */
static inline enum pgw_stop cached(const struct pgw_space *space,
				   struct pgw_xlat_cache *c, uint64_t va,
				   struct pgw_xlat *out, bool all,
				   unsigned *first)
{
	const struct pgw_mode *mode = space->mode;

	*first = 0;
	if (!c)
		return pgw_translate_with(space, va, out, NULL);
	aim(c, space);

	/* A slot is filled for an address in the space, and whether an
	 * address is in it is decided by bits at or above every level's
	 * shift (x86-64: 47..63), so an address that finds a slot is in the
	 * space too. */
	const struct level_slots *ls = NULL;
	struct slot *sl = NULL;
	unsigned i;
	for (i = 0; i < c->ncached; i++) {
		ls = &c->lv[i];
		sl = probe(c, ls, va >> ls->shift);
		if (sl)
			break;
	}
	if (i == c->ncached) {
		pgw_translate_with(space, va, out, &c->memo);
		if (c->ncached && pgw_mode_canonical(mode, va))
			fill(c, space->img, c->ncached - 1, out);
		return out->stop;
	}

	enum pgw_level lvl;
	enum pgw_stop why;
	const uint8_t *page = NULL;
	pgw_xlat_reset(out, va);
	if (sl->cont)
		page = slot_page(c, space->img, ls, sl);
	if (sl->cont && i == 0) {
		/* !all: the last step is the one read now. */
		if (all)
			steps_from(out, ls, sl, true, first);
		else
			out->nsteps = *first = ls->nsteps;
		return last_step(space, c, sl, page, out);
	}
	if (sl->cont && page &&
	    (why = stop_below(space, c, ls, sl, page, out, all, first)) !=
		    PGW_STOP_OK)
		return why;
	if (sl->cont) {
		steps_from(out, ls, sl, true, first);
		lvl = ls->below;
		why = pgw_descend(space, out, &lvl, sl->table, sl->eff, page,
				  kept_span(sl), &c->memo);
		out->level = lvl;
		out->stop = why;
		fill(c, space->img, i - 1, out);
		return why;
	}
	steps_from(out, ls, sl, all, first);
	lvl = ls->level;
	why = (enum pgw_stop)sl->stop;
	if (why == PGW_STOP_OK)
		pgw_xlat_found(space, out, lvl,
			       out->step[ls->nsteps - 1].entry.addr, sl->eff);
	out->level = lvl;
	out->stop = why;
	return why;
}

enum pgw_stop pgw_translate(const struct pgw_space *space,
			    struct pgw_xlat_cache *c, uint64_t va,
			    struct pgw_xlat *out)
{
	unsigned first;

	return cached(space, c, va, out, true, &first);
}

enum pgw_stop pgw_translate_last(const struct pgw_space *space,
				 struct pgw_xlat_cache *c, uint64_t va,
				 struct pgw_xlat *out, unsigned *first_ret)
{
	return cached(space, c, va, out, false, first_ret);
}
