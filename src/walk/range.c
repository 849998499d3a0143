/*
 * Walk a virtual range in address order and report every leaf and every
 * hole.  Tables are read once per visit into a per-level buffer (as drgn
 * does: a 4 KiB read costs about what one entry costs); a table already on
 * the current path is a cycle and is not descended; an entry budget bounds
 * hostile images.
 *
 * The walk runs in "linear" VA space [0, 2^va_bits); for canonical modes
 * the upper half is mapped back to the sign-extended addresses only when
 * calling back, and the gap between the halves is one NONCANONICAL hole.
 */
#include "entry_read.h"
#include "uniform.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TABLE_ENTRIES 1024

struct range_walk {
	const struct pgw_space *space;
	const struct pgw_walk_ops *ops;
	void *arg;
	struct pgw_walk_stats stats;
	uint64_t budget;
	uint64_t upper_off;     /* added to linear VAs of the upper half */
	uint64_t half;          /* 2^(va_bits-1) for canonical modes, else 0 */
	uint64_t mem_top;       /* end of the image's highest physical range */
	uint64_t path[PGW_NLEVELS];
	unsigned depth;
	int stopped;
	struct pgw_err *err;
	struct pgw_uniform_memo *memo;  /* NULL with expand_shared */
	uint64_t buf[PGW_NLEVELS][MAX_TABLE_ENTRIES];   /* last: see malloc */
};

/* Linear VA to the real (sign-extended) VA; end 2^64 comes back as 0. */
static uint64_t real_va(const struct range_walk *w, uint64_t lin)
{
	if (w->half && lin >= w->half)
		return lin + w->upper_off;
	return lin;
}

static int report_hole(struct range_walk *w, uint64_t lin, uint64_t lin_end,
		       enum pgw_level lvl, enum pgw_stop stop,
		       uint64_t entry_pa, const struct pgw_entry *e)
{
	if (!w->ops->hole)
		return 0;   /* before building it: detection walks skip holes */
	struct pgw_hole h = {
		.va = real_va(w, lin),
		.end = real_va(w, lin_end),
		.level = lvl,
		.stop = stop,
		.entry_pa = entry_pa,
	};
	/* The end of the lower half is the start of the gap, not upper. */
	if (w->half && lin_end == w->half)
		h.end = w->half;
	if (e)
		h.entry = *e;
	return w->ops->hole(w->arg, &h);
}

static enum pgw_level next_level(const struct pgw_mode *mode,
				 enum pgw_level lvl)
{
	while (lvl < PGW_NLEVELS && mode->level[lvl].bits == 0)
		lvl++;
	return lvl;
}

/* A shared uniform table met again: its part of [lo, hi) in one leaf. */
static int report_repeat(struct range_walk *w, const struct pgw_uniform *u,
			 uint64_t lo, uint64_t hi, uint32_t eff)
{
	uint64_t size = pgw_level_span(w->space->mode, u->level);
	uint64_t first = lo & ~(size - 1);
	struct pgw_leaf leaf = {
		.va = real_va(w, first),
		.pa = u->leaf.addr,
		.size = size,
		.level = u->level,
		.entry = u->leaf,
		.eff_flags = pgw_eff_apply(eff, u->perm),
		.count = (hi - first + size - 1) / size,
	};

	w->stats.leaves++;
	w->stats.shared++;
	return w->ops->leaf ? w->ops->leaf(w->arg, &leaf) : 0;
}

/* After a whole table was read: remember it if it maps one frame
 * everywhere (every entry the same leaf, or the same pointer to a table
 * already known uniform). */
static void note_uniform(struct range_walk *w, enum pgw_level lvl,
			 uint64_t table, const uint64_t *ent, unsigned n)
{
	const struct pgw_mode *mode = w->space->mode;
	struct pgw_uniform u;
	struct pgw_entry e;

	for (unsigned i = 1; i < n; i++)
		if (ent[i] != ent[0])
			return;
	mode->decode(mode, lvl, ent[0], &e);
	if (e.reserved)
		return;
	if (e.kind == PGW_ENT_LEAF) {
		u.leaf = e;
		u.level = lvl;
		u.perm = e.perm;
	} else if (e.kind == PGW_ENT_TABLE) {
		enum pgw_level child = next_level(mode, lvl + 1);
		const struct pgw_uniform *c =
			child < PGW_NLEVELS ?
				pgw_uniform_find(w->memo, e.addr, child) : NULL;
		if (!c)
			return;
		u = *c;
		u.perm = pgw_eff_apply(e.perm, c->perm);
	} else {
		return;
	}
	pgw_uniform_add(w->memo, table, lvl, &u);
}

/* Walk the table at `table` for level lvl, covering linear VAs
 * [base, base + entries*span) clipped to [start, end). */
static enum pgw_status walk_table(struct range_walk *w, enum pgw_level lvl,
				  uint64_t table, uint64_t base,
				  uint64_t start, uint64_t end, uint32_t eff)
{
	const struct pgw_mode *mode = w->space->mode;
	const struct pgw_level_desc *d = &mode->level[lvl];
	unsigned n = 1u << d->bits;
	uint64_t span = UINT64_C(1) << d->shift;
	unsigned esize = mode->entry_size;
	const uint8_t *page;
	enum pgw_status st;

	st = pgw_image_page(w->space->img, table >> PGW_PAGE_SHIFT, &page,
			    w->err);
	if (st != PGW_OK)
		return st;
	/* Copy: the cache may evict this page while children are read. */
	uint64_t *ent = w->buf[w->depth];
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = 0;
		memcpy(&v, page + (table & (PGW_PAGE_SIZE - 1)) + i * esize,
		       esize);
		ent[i] = v;
	}
	w->stats.tables++;
	if (w->ops->table) {
		int r = w->ops->table(w->arg, lvl, table, real_va(w, base));
		if (r) {
			w->stopped = r;
			return pgw_err_set(w->err, PGW_E_STOPPED,
					   "walk stopped by caller");
		}
	}
	w->path[w->depth++] = table;

	unsigned first = (unsigned)((start - base) / span);
	for (unsigned i = first; i < n; i++) {
		uint64_t va = base + (uint64_t)i * span;
		uint64_t va_end = va + span;
		uint64_t entry_pa = table + (uint64_t)i * esize;
		const struct pgw_uniform *u;
		struct pgw_entry e;
		int r = 0;

		if (va >= end)
			break;
		if (++w->stats.entries > w->budget) {
			w->depth--;
			return pgw_err_set(w->err, PGW_E_LIMIT,
					   "entry budget of %llu exhausted at "
					   "va 0x%llx (raise --max-entries)",
					   (unsigned long long)w->budget,
					   (unsigned long long)real_va(w, va));
		}
		uint64_t lo = va < start ? start : va;
		uint64_t hi = va_end > end ? end : va_end;
		mode->decode(mode, lvl, ent[i], &e);
		if (e.kind == PGW_ENT_NOT_PRESENT) {
			r = report_hole(w, lo, hi, lvl, PGW_STOP_NOT_PRESENT,
					entry_pa, &e);
		} else if (e.reserved) {
			r = report_hole(w, lo, hi, lvl, PGW_STOP_RESERVED,
					entry_pa, &e);
		} else if (e.kind == PGW_ENT_LEAF) {
			struct pgw_leaf leaf = {
				.va = real_va(w, va),
				.pa = e.addr,
				.size = span,
				.level = lvl,
				.entry = e,
				.eff_flags = pgw_eff_apply(eff, e.perm),
				.count = 1,
			};
			w->stats.leaves++;
			if (w->ops->leaf)
				r = w->ops->leaf(w->arg, &leaf);
		} else {
			bool cycle = false;
			for (unsigned k = 0; k < w->depth; k++)
				cycle |= w->path[k] == e.addr;
			enum pgw_level child = next_level(mode, lvl + 1);
			if (cycle || child >= PGW_NLEVELS) {
				w->stats.cycles += cycle;
				r = report_hole(w, lo, hi, lvl,
						cycle ? PGW_STOP_CYCLE :
							PGW_STOP_BAD_LEAF,
						entry_pa, &e);
			} else if (w->memo &&
				   (u = pgw_uniform_find(w->memo, e.addr,
							 child)) != NULL) {
				r = report_repeat(w, u, lo, hi,
						  pgw_eff_apply(eff, e.perm));
			} else {
				st = walk_table(w, child, e.addr, va, lo, hi,
						pgw_eff_apply(eff, e.perm));
				if (st == PGW_E_NODATA)
					r = report_hole(w, lo, hi, lvl,
							pgw_table_stop(
								w->mem_top,
								e.addr, st),
							entry_pa, &e);
				else if (st != PGW_OK) {
					w->depth--;
					return st;
				}
			}
		}
		if (r) {
			w->stopped = r;
			w->depth--;
			return pgw_err_set(w->err, PGW_E_STOPPED,
					   "walk stopped by caller");
		}
	}
	w->depth--;
	if (w->memo)
		note_uniform(w, lvl, table, ent, n);
	return PGW_OK;
}

static enum pgw_status walk_part(struct range_walk *w, uint64_t start,
				 uint64_t end)
{
	const struct pgw_mode *mode = w->space->mode;
	enum pgw_level top = next_level(mode, PGW_PGD);
	uint64_t top_base = 0;
	uint64_t root = pgw_root_table(mode, w->space->root);
	enum pgw_status st;

	if (start >= end)
		return PGW_OK;
	st = walk_table(w, top, root, top_base, start, end, PGW_EFF_START);
	if (st == PGW_E_NODATA) {
		/* The root itself is missing: one hole over the part. */
		pgw_err_prefix(w->err, "root table 0x%llx",
			       (unsigned long long)root);
		int r = report_hole(w, start, end, top,
				    pgw_table_stop(w->mem_top, root, st),
				    root, NULL);
		if (r) {
			w->stopped = r;
			return pgw_err_set(w->err, PGW_E_STOPPED,
					   "walk stopped by caller");
		}
		return PGW_OK;
	}
	return st;
}

uint64_t pgw_default_budget(struct pgw_image *img)
{
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(img, &ranges);
	uint64_t pages = 0;

	for (size_t i = 0; i < nr; i++)
		pages += ranges[i].size >> PGW_PAGE_SHIFT;
	/* A walk that reads each page of the image as a table at most once
	 * examines at most this many entries: only re-walked shared tables
	 * (or a hostile image) go past it. */
	uint64_t per_image = pages <= UINT64_MAX / PGW_BUDGET_ENTRIES_PER_PAGE ?
				     pages * PGW_BUDGET_ENTRIES_PER_PAGE :
				     UINT64_MAX;
	return per_image > PGW_DEFAULT_MAX_ENTRIES ? per_image :
						      PGW_DEFAULT_MAX_ENTRIES;
}

enum pgw_status pgw_walk_range(const struct pgw_space *space,
			       const struct pgw_walk_opts *opts,
			       const struct pgw_walk_ops *ops, void *arg,
			       struct pgw_walk_stats *stats_ret, int *stopped_ret,
			       struct pgw_err *err)
{
	const struct pgw_mode *mode = space->mode;
	struct range_walk *w;
	uint64_t top = UINT64_C(1) << mode->va_bits;  /* linear size */
	uint64_t start = opts->start, end = opts->end;
	enum pgw_status st = PGW_OK;

	/* The table buffers are written before they are read: only the
	 * header needs zeroing (walks of small windows are frequent). */
	w = malloc(sizeof(*w));
	if (!w)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	memset(w, 0, offsetof(struct range_walk, buf));
	w->space = space;
	w->ops = ops;
	w->arg = arg;
	w->err = err;
	w->budget = opts->max_entries ? opts->max_entries :
					pgw_default_budget(space->img);
	w->mem_top = pgw_mem_top(space->img);
	if (!opts->expand_shared) {
		w->memo = pgw_uniform_memo_new();
		if (!w->memo) {
			free(w);
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		}
	}

	if (!(mode->quirks & PGW_Q_CANONICAL)) {
		if (end == 0 || end > top)
			end = top;
		if (start < end)
			st = walk_part(w, start, end);
	} else {
		uint64_t half = top / 2;
		uint64_t high = ~(half - 1);   /* first upper-half VA */
		w->half = half;
		w->upper_off = high - half;
		/* Lower half, in linear = real VA. */
		if (start < half)
			st = walk_part(w, start, end && end < half ? end : half);
		/* The canonical gap, reported once. */
		uint64_t gs = start > half ? start : half;
		uint64_t ge = end && end < high ? end : high;
		if (st == PGW_OK && gs < ge && ops->hole) {
			struct pgw_hole h = {
				.va = gs, .end = ge, .level = next_level(mode, 0),
				.stop = PGW_STOP_NONCANONICAL,
			};
			int r = ops->hole(arg, &h);
			if (r) {
				w->stopped = r;
				st = pgw_err_set(err, PGW_E_STOPPED,
						 "walk stopped by caller");
			}
		}
		/* Upper half, shifted into linear space. */
		uint64_t us = start > high ? start : high;
		if (st == PGW_OK && (end == 0 || end > us))
			st = walk_part(w, us - w->upper_off,
				       end == 0 ? top : end - w->upper_off);
	}
	if (stats_ret)
		*stats_ret = w->stats;
	if (stopped_ret)
		*stopped_ret = w->stopped;
	pgw_uniform_memo_free(w->memo);
	free(w);
	return st;
}
