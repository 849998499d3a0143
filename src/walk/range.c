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
 * A mode with two roots walks each root's [0, 2^va_bits) in turn, the
 * upper one's mapped back to the top of the address space likewise.
 */
#include "../lib/err.h"
#include "frame_bits.h"
#include "range.h"
#include "step.h"
#include "uniform.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A mode's tables: at most this many entries (AArch64's 64 KiB granule:
 * 8192 in 64 KiB, several of the image's pages). */
#define MAX_TABLE_ENTRIES 8192

/* The previous entry of the table, when it was a leaf. */
struct prev_leaf {
	bool ok;
	uint64_t raw;
	uint64_t frame_bits;
	uint32_t eff;
	struct pgw_entry e;
};

struct range_walk {
	const struct pgw_space *space;
	const struct pgw_walk_ops *ops;
	pgw_leaf_run_fn leaf_run;   /* NULL: leaves one at a time */
	void *arg;
	struct pgw_walk_stats stats;
	uint64_t budget;
	uint64_t upper_off;     /* added to linear VAs of the upper half */
	bool upper;             /* the upper half is being walked */
	uint64_t mem_top;       /* end of the image's highest physical range */
	uint32_t eff_start;     /* effective permissions before any level */
	uint64_t path[PGW_NLEVELS];
	unsigned depth;
	/* Per depth: the pages of a table of several (16 and 64 KiB
	 * granules) the image lacks, bit k the k-th from the table's start,
	 * and why (their entries read as zero and are holes). */
	uint32_t missing[PGW_NLEVELS];
	enum pgw_absence missing_why[PGW_NLEVELS];
	int stopped;
	struct pgw_err *err;
	struct pgw_uniform_memo *memo;  /* NULL with expand_shared */
	struct pgw_frame_bits_memo frame_bits;
	size_t stride;          /* entries per level in buf: the mode's most */
	uint64_t buf[];         /* PGW_NLEVELS * stride; last: see malloc */
};

/* Linear VA to the real (sign-extended) VA; end 2^64 comes back as 0. */
static uint64_t real_va(const struct range_walk *w, uint64_t lin)
{
	return w->upper ? lin + w->upper_off : lin;
}

/* A callback's answer: non-zero stops the walk. */
static inline enum pgw_status go_on(struct range_walk *w, int r)
{
	if (r == 0)
		return PGW_OK;
	w->stopped = r;
	return pgw_err_set(w->err, PGW_E_STOPPED, "walk stopped by caller");
}

static enum pgw_status report_hole(struct range_walk *w, uint64_t lin,
				   uint64_t lin_end, enum pgw_level lvl,
				   enum pgw_stop stop, uint64_t entry_pa,
				   const struct pgw_entry *e)
{
	if (!w->ops->hole)
		return PGW_OK;  /* before building it: probes skip holes */
	struct pgw_hole h = {
		.va = real_va(w, lin),
		.end = real_va(w, lin_end),
		.level = lvl,
		.stop = stop,
		.entry_pa = entry_pa,
	};
	/* A table that could not be read: why, from the failed read. */
	if (stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		h.absence = w->err->absence;
	if (e)
		h.entry = *e;
	return go_on(w, w->ops->hole(w->arg, &h));
}

/* The leaf e (count pages of size from linear VA lin, all mapping e's
 * frame when count > 1). */
static inline enum pgw_status report_leaf(struct range_walk *w, uint64_t lin,
					  uint64_t size, enum pgw_level lvl,
					  const struct pgw_entry *e,
					  uint32_t eff, uint64_t count)
{
	struct pgw_leaf leaf = {
		.va = real_va(w, lin),
		.pa = e->addr,
		.size = size,
		.level = lvl,
		.entry = *e,
		.eff_flags = eff,
		.count = count,
	};

	w->stats.leaves++;
	return w->ops->leaf ? go_on(w, w->ops->leaf(w->arg, &leaf)) : PGW_OK;
}

/* A shared uniform table met again: its part of [lo, hi) in one leaf. */
static enum pgw_status report_repeat(struct range_walk *w,
				     const struct pgw_uniform *u, uint64_t lo,
				     uint64_t hi, uint32_t eff)
{
	const struct pgw_mode *mode = w->space->mode;
	uint64_t size = pgw_level_span(mode, u->level);
	uint64_t first = lo & ~(size - 1);

	w->stats.shared++;
	return report_leaf(w, first, size, u->level, &u->leaf,
			   pgw_perm_combine(mode, eff, u->perm),
			   (hi - first + size - 1) / size);
}

/* After a whole table was walked: remember it if it maps one frame
 * everywhere (every entry the same leaf, or the same pointer to a table
 * already known uniform). */
static void note_uniform(struct range_walk *w, enum pgw_level lvl,
			 uint64_t table, const uint64_t *ent, unsigned n)
{
	const struct pgw_mode *mode = w->space->mode;
	const struct pgw_uniform *child;
	struct pgw_uniform u;
	struct pgw_entry e;
	enum pgw_level below;

	for (unsigned i = 1; i < n; i++)
		if (ent[i] != ent[0])
			return;
	if (pgw_classify(mode, &w->space->enc, lvl, ent[0], &e) != PGW_STOP_OK)
		return;
	if (e.kind == PGW_ENT_LEAF) {
		u.leaf = e;
		u.level = lvl;
		u.perm = e.perm;
	} else {
		if (pgw_child_level(mode, lvl, &below) != PGW_STOP_OK ||
		    !(child = pgw_uniform_find(w->memo, e.addr, below)))
			return;
		u = *child;
		u.perm = pgw_perm_combine(mode, e.perm, child->perm);
	}
	pgw_uniform_add(w->memo, table, lvl, &u);
}

/*
 * A table of several pages (16 and 64 KiB granules), page by page into
 * dst: a page the image lacks leaves its entries zero and its bit in
 * w->missing (their holes are that page's, as translate finds them);
 * PGW_E_NODATA when none is there, as for a table of one page.
 */
static enum pgw_status read_pages(struct range_walk *w, uint64_t table,
				  size_t bytes, uint8_t *dst)
{
	uint32_t missing = 0;
	unsigned k = 0;

	for (size_t done = 0; done < bytes; k++) {
		uint64_t pa = table + done;
		size_t part = PGW_PAGE_SIZE - (pa & (PGW_PAGE_SIZE - 1));
		const uint8_t *page;
		if (part > bytes - done)
			part = bytes - done;
		enum pgw_status st = pgw_image_page(w->space->img,
						    pa >> PGW_PAGE_SHIFT,
						    &page, w->err);
		if (st == PGW_OK) {
			memcpy(dst + done, page + (pa & (PGW_PAGE_SIZE - 1)),
			       part);
		} else if (st == PGW_E_NODATA) {
			memset(dst + done, 0, part);
			missing |= UINT32_C(1) << k;
			w->missing_why[w->depth] = w->err->absence;
		} else {
			return st;
		}
		done += part;
	}
	if (missing == (UINT32_C(1) << k) - 1)
		return PGW_E_NODATA;   /* w->err says why */
	w->missing[w->depth] = missing;
	return PGW_OK;
}

/* Is entry i of the table v (at depth d) in one of its missing pages? */
static inline bool entry_missing(const struct range_walk *w, unsigned d,
				 uint64_t table, unsigned i, unsigned esize)
{
	unsigned k = (unsigned)(((table & (PGW_PAGE_SIZE - 1)) +
				 (uint64_t)i * esize) >> PGW_PAGE_SHIFT);

	return w->missing[d] >> k & 1;
}

/* Read the level-lvl table at `table` into the buffer of this depth, and
 * tell the table callback (base: the first VA it covers). */
static enum pgw_status read_table(struct range_walk *w, enum pgw_level lvl,
				  uint64_t table, uint64_t base)
{
	const struct pgw_mode *mode = w->space->mode;
	unsigned n = 1u << mode->level[lvl].bits, esize = mode->entry_size;
	uint64_t *ent = w->buf + w->depth * w->stride;
	const uint8_t *page;
	enum pgw_status st;

	size_t bytes = (size_t)n * esize;

	w->missing[w->depth] = 0;
	if (bytes > PGW_PAGE_SIZE - (table & (PGW_PAGE_SIZE - 1))) {
		st = read_pages(w, table, bytes, (uint8_t *)ent);
		if (st != PGW_OK)
			return st;
		w->stats.tables++;
		return w->ops->table ?
			go_on(w, w->ops->table(w->arg, lvl, table,
					       real_va(w, base))) : PGW_OK;
	}
	st = pgw_image_page(w->space->img, table >> PGW_PAGE_SHIFT, &page,
			    w->err);
	if (st != PGW_OK)
		return st;
	/* Copy: the cache may evict this page while children are read.
	 * The common widths get fixed-size copies (a variable-length memcpy
	 * per entry costs more than the rest of the walk's step). */
	page += table & (PGW_PAGE_SIZE - 1);
	if (esize == sizeof(uint64_t)) {
		memcpy(ent, page, (size_t)n * sizeof(uint64_t));
	} else if (esize == sizeof(uint32_t)) {
		for (unsigned i = 0; i < n; i++) {
			uint32_t v;
			memcpy(&v, page + i * sizeof(v), sizeof(v));
			ent[i] = v;
		}
	} else {
		for (unsigned i = 0; i < n; i++) {
			uint64_t v = 0;
			memcpy(&v, page + i * esize, esize);
			ent[i] = v;
		}
	}
	w->stats.tables++;
	if (!w->ops->table)
		return PGW_OK;
	return go_on(w, w->ops->table(w->arg, lvl, table, real_va(w, base)));
}

static enum pgw_status walk_table(struct range_walk *w, enum pgw_level lvl,
				  uint64_t table, uint64_t base,
				  uint64_t start, uint64_t end, uint32_t eff);

/* Whether `table` is already on the path from the root. */
static bool on_path(const struct range_walk *w, uint64_t table)
{
	bool cycle = false;

	for (unsigned k = 0; k < w->depth; k++)
		cycle |= w->path[k] == table;
	return cycle;
}

/* The table entry e (at entry_pa) points to, for linear VAs [va, va +
 * span) clipped to [lo, hi): walked, reported at once if known uniform,
 * or a hole when there is no level below, or it is on the path, or it
 * cannot be read. */
static enum pgw_status descend(struct range_walk *w, enum pgw_level lvl,
			       uint64_t entry_pa, const struct pgw_entry *e,
			       uint64_t va, uint64_t lo, uint64_t hi,
			       uint32_t eff)
{
	enum pgw_level child;
	const struct pgw_uniform *u;
	enum pgw_status st;
	enum pgw_stop why = pgw_child_level(w->space->mode, lvl, &child);

	if (why != PGW_STOP_OK)
		return report_hole(w, lo, hi, lvl, why, entry_pa, e);
	if (on_path(w, e->addr)) {
		w->stats.cycles++;
		return report_hole(w, lo, hi, lvl, PGW_STOP_CYCLE, entry_pa,
				   e);
	}
	if (w->memo && (u = pgw_uniform_find(w->memo, e->addr, child)))
		return report_repeat(w, u, lo, hi, eff);
	st = walk_table(w, child, e->addr, va, lo, hi, eff);
	if (st == PGW_E_NODATA)
		st = report_hole(w, lo, hi, lvl,
				 pgw_table_stop(w->mem_top, e->addr, st),
				 entry_pa, e);
	return st;
}

/* One table being walked: its mode and level, address, the linear VAs its
 * entries cover from base (span each) clipped to [start, end), and the
 * effective permissions of the path down to it. */
struct visit {
	const struct pgw_mode *mode;
	const struct pgw_enc_bits *enc;
	enum pgw_level lvl;
	uint64_t table, base, span, start, end;
	uint32_t eff;
};

static uint64_t frame_bits_of(struct range_walk *w, enum pgw_level lvl,
			      uint64_t raw, const struct pgw_entry *e)
{
	/* The encryption bits are the walk's, so they need no key. */
	return pgw_frame_bits_of(&w->frame_bits, w->space->mode,
				 &w->space->enc, lvl, raw, e);
}

static enum pgw_status budget_spent(struct range_walk *w, uint64_t va)
{
	return pgw_err_set(w->err, PGW_E_LIMIT,
			   "entry budget of %llu exhausted at va 0x%llx "
			   "(raise --max-entries)",
			   (unsigned long long)w->budget,
			   (unsigned long long)real_va(w, va));
}

/* Entry i (raw) of v, which differs from the previous leaf p only in its
 * frame bits: that leaf with this frame, undecoded. */
static enum pgw_status next_leaf(struct range_walk *w, const struct visit *v,
				 unsigned i, uint64_t raw, struct prev_leaf *p)
{
	uint64_t va = v->base + (uint64_t)i * v->span;

	if (++w->stats.entries > w->budget)
		return budget_spent(w, va);
	p->e.addr ^= raw ^ p->raw;
	p->e.raw = raw;
	p->raw = raw;
	return report_leaf(w, va, v->span, v->lvl, &p->e, p->eff, 1);
}

/*
 * Entries i.. of v from ent, when entry i differs from the previous leaf p
 * only in its frame bits and the next follow it frame after frame: the
 * leaves up to the first that does not (at most lim - i, the entries of
 * [start, end) left, and the budget left), in one call.  Returns how many.
 */
static unsigned leaf_stretch(const struct range_walk *w, const struct visit *v,
			     const uint64_t *ent, unsigned i, unsigned lim,
			     const struct prev_leaf *p)
{
	uint64_t left = w->budget - w->stats.entries;
	unsigned j = i + 1;

	if (left < lim - i)
		lim = i + (unsigned)left;
	/* Each differs from p in frame bits only, so its frame is p's with
	 * those bits, and one span on from the entry before it. */
	while (j < lim && ent[j] == ent[j - 1] + v->span &&
	       !((ent[j] ^ p->raw) & ~p->frame_bits))
		j++;
	return j - i;
}

static enum pgw_status next_leaves(struct range_walk *w, const struct visit *v,
				   unsigned i, unsigned n, const uint64_t *ent,
				   struct prev_leaf *p)
{
	uint64_t va = v->base + (uint64_t)i * v->span;

	p->e.addr ^= ent[i] ^ p->raw;
	p->e.raw = ent[i];
	struct pgw_leaf first = {
		.va = real_va(w, va), .pa = p->e.addr, .size = v->span,
		.level = v->lvl, .entry = p->e, .eff_flags = p->eff,
		.count = 1,
	};
	uint64_t step = (uint64_t)(n - 1) * v->span;
	p->e.addr += step;
	p->e.raw = ent[i + n - 1];
	p->raw = p->e.raw;
	w->stats.entries += n;
	w->stats.leaves += n;
	return go_on(w, w->leaf_run(w->arg, &first, n));
}

/* Entry i of the table v (at depth d), in a page the image lacks: a
 * hole there, as translate stops reading that page. */
static enum pgw_status missing_entry(struct range_walk *w,
				     const struct visit *v, unsigned i,
				     unsigned d)
{
	uint64_t va = v->base + (uint64_t)i * v->span;
	uint64_t entry_pa = v->table + (uint64_t)i * v->mode->entry_size;
	uint64_t lo = va < v->start ? v->start : va;
	uint64_t hi = va + v->span > v->end ? v->end : va + v->span;

	if (++w->stats.entries > w->budget)
		return budget_spent(w, va);
	w->err->absence = w->missing_why[d];
	return report_hole(w, lo, hi, v->lvl,
			   pgw_table_stop(w->mem_top, v->table, PGW_E_NODATA),
			   entry_pa, NULL);
}

/* Entry i (raw) of the table v: one step of the walk; p says whether it
 * was a leaf, for next_leaf. */
static enum pgw_status walk_entry(struct range_walk *w, const struct visit *v,
				  unsigned i, uint64_t raw, struct prev_leaf *p)
{
	const struct pgw_mode *mode = v->mode;
	uint64_t va = v->base + (uint64_t)i * v->span;
	uint64_t entry_pa = v->table + (uint64_t)i * mode->entry_size;
	uint64_t lo = va < v->start ? v->start : va;
	uint64_t hi = va + v->span > v->end ? v->end : va + v->span;
	struct pgw_entry e;
	enum pgw_stop why;

	p->ok = false;
	if (++w->stats.entries > w->budget)
		return budget_spent(w, va);
	why = pgw_classify(mode, v->enc, v->lvl, raw, &e);
	if (why != PGW_STOP_OK)
		return report_hole(w, lo, hi, v->lvl, why, entry_pa, &e);
	uint32_t eff = pgw_perm_combine(mode, v->eff, e.perm);
	if (e.kind == PGW_ENT_LEAF) {
		p->ok = true;
		p->raw = raw;
		p->eff = eff;
		p->e = e;
		p->frame_bits = frame_bits_of(w, v->lvl, raw, &e);
		return report_leaf(w, va, v->span, v->lvl, &e, eff, 1);
	}
	return descend(w, v->lvl, entry_pa, &e, va, lo, hi, eff);
}

/* Walk the table at `table` for level lvl, covering linear VAs
 * [base, base + entries * span) clipped to [start, end).  PGW_E_NODATA:
 * the table itself is not in the image (the caller reports the hole). */
static enum pgw_status walk_table(struct range_walk *w, enum pgw_level lvl,
				  uint64_t table, uint64_t base,
				  uint64_t start, uint64_t end, uint32_t eff)
{
	const struct pgw_mode *mode = w->space->mode;
	const struct visit v = {
		.mode = mode, .enc = &w->space->enc, .lvl = lvl,
		.table = table, .base = base,
		.span = pgw_level_span(mode, lvl),
		.start = start, .end = end, .eff = eff,
	};
	unsigned n = 1u << mode->level[lvl].bits;
	const uint64_t *ent = w->buf + w->depth * w->stride;
	enum pgw_status st = read_table(w, lvl, table, base);

	if (st != PGW_OK)
		return st;
	struct prev_leaf prev = { .ok = false };
	w->path[w->depth++] = table;
	/* Entries of [start, end): end - base may pass 2^64 - 1 (then all). */
	unsigned lim = n;
	if (end - base <= (uint64_t)(n - 1) * v.span)
		lim = (unsigned)((end - base + v.span - 1) / v.span);
	unsigned d = w->depth - 1;
	for (unsigned i = (unsigned)((start - base) / v.span);
	     i < lim && st == PGW_OK; i++) {
		unsigned k;
		if (w->missing[d] &&
		    entry_missing(w, d, table, i, mode->entry_size)) {
			st = missing_entry(w, &v, i, d);
			prev.ok = false;
		} else if (!prev.ok || ((ent[i] ^ prev.raw) & ~prev.frame_bits))
			st = walk_entry(w, &v, i, ent[i], &prev);
		else if (w->leaf_run &&
			 (k = leaf_stretch(w, &v, ent, i, lim, &prev)) > 1) {
			st = next_leaves(w, &v, i, k, ent, &prev);
			i += k - 1;
		} else {
			st = next_leaf(w, &v, i, ent[i], &prev);
		}
	}
	w->depth--;
	if (st == PGW_OK && w->memo && !w->missing[w->depth])
		note_uniform(w, lvl, table, ent, n);
	return st;
}

/* [start, end) of one half (linear VAs) from root (the space's own, or
 * in a mode with two the half's: 0 is none there). */
static enum pgw_status walk_part(struct range_walk *w, uint64_t root,
				 uint64_t start, uint64_t end)
{
	const struct pgw_mode *mode = w->space->mode;
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	enum pgw_status st = PGW_OK;

	if (mode->root_select_bit && root == 0)
		return start < end ? report_hole(w, start, end, top,
						 PGW_STOP_NOT_PRESENT, 0,
						 NULL) : PGW_OK;
	root = pgw_root_table(mode, root, &w->space->enc);
	if (start < end)
		st = walk_table(w, top, root, 0, start, end, w->eff_start);
	if (st == PGW_E_NODATA) {
		/* The root itself is missing: one hole over the part. */
		pgw_err_prefix(w->err, "root table 0x%llx",
			       (unsigned long long)root);
		st = report_hole(w, start, end, top,
				 pgw_table_stop(w->mem_top, root, st), root,
				 NULL);
	}
	return st;
}

uint64_t pgw_default_budget(struct pgw_image *img)
{
	/* What the file holds, not what its headers claim: a sparse file or
	 * a header claiming terabytes buys a hostile table chain nothing. */
	uint64_t pages = pgw_image_held_pages(img);
	/* A walk that reads each page of the image as a table at most once
	 * examines at most this many entries: only re-walked shared tables
	 * (or a hostile image) go past it. */
	uint64_t per_image = pages <= UINT64_MAX / PGW_BUDGET_ENTRIES_PER_PAGE ?
				     pages * PGW_BUDGET_ENTRIES_PER_PAGE :
				     UINT64_MAX;
	return per_image > PGW_DEFAULT_MAX_ENTRIES ? per_image :
						      PGW_DEFAULT_MAX_ENTRIES;
}

/* The range walk's own limits on a mode: the per-level buffers; the
 * most entries a table of the mode has in *stride. */
static bool mode_fits(const struct pgw_mode *mode, size_t *stride)
{
	*stride = 1;
	for (unsigned l = 0; l < PGW_NLEVELS; l++) {
		uint64_t n = UINT64_C(1) << mode->level[l].bits;
		/* Tables past a page are read as 8-byte entries only. */
		if (mode->level[l].bits &&
		    (n > MAX_TABLE_ENTRIES ||
		     (n * mode->entry_size > PGW_PAGE_SIZE &&
		      mode->entry_size != sizeof(uint64_t))))
			return false;
		if (mode->level[l].bits && n > *stride)
			*stride = (size_t)n;
	}
	return pgw_next_level(mode, PGW_PGD) < PGW_NLEVELS &&
	       mode->va_bits < 64;
}

/*
 * [start, end) (real VAs, end 0 = 2^64) of a space in two halves: the
 * lower one's [0, lo_end) from the space's root, the gap up to hi_start
 * as one non-canonical hole, and [hi_start, 2^64) from upper_root,
 * shifted down into linear VAs by upper_off.  A canonical mode's halves
 * are one table's (x86-64: lo_end = 2^(va_bits-1), upper_off brings the
 * upper half right after it); a mode with two roots has a table for each
 * (lo_end = 2^va_bits = -hi_start = upper_off).
 */
static enum pgw_status walk_halves(struct range_walk *w, uint64_t start,
				   uint64_t end, uint64_t lo_end,
				   uint64_t hi_start, uint64_t upper_root,
				   uint64_t upper_off)
{
	const struct pgw_mode *mode = w->space->mode;
	uint64_t gs = start > lo_end ? start : lo_end;
	uint64_t ge = end && end < hi_start ? end : hi_start;
	uint64_t us = start > hi_start ? start : hi_start;
	enum pgw_status st = PGW_OK;

	if (start < lo_end)
		st = walk_part(w, w->space->root, start,
			       end && end < lo_end ? end : lo_end);
	if (st == PGW_OK && gs < ge && w->ops->hole) {
		/* Real VAs already: not through report_hole. */
		struct pgw_hole h = {
			.va = gs, .end = ge,
			.level = pgw_next_level(mode, PGW_PGD),
			.stop = PGW_STOP_NONCANONICAL,
		};
		st = go_on(w, w->ops->hole(w->arg, &h));
	}
	w->upper = true;
	w->upper_off = upper_off;
	if (st == PGW_OK && (end == 0 || end > us))
		st = walk_part(w, upper_root, us - upper_off, end - upper_off);
	return st;
}

enum pgw_status pgw_walk_range_bulk(const struct pgw_space *space,
				    const struct pgw_walk_opts *opts,
				    const struct pgw_walk_ops *ops,
				    pgw_leaf_run_fn leaf_run, void *arg,
				    struct pgw_walk_stats *stats_ret,
				    int *stopped_ret, struct pgw_err *err)
{
	const struct pgw_mode *mode = space->mode;
	struct range_walk *w;
	uint64_t top, end = opts->end;
	size_t stride;
	enum pgw_status st;

	/* Said even when nothing is walked. */
	if (stats_ret)
		memset(stats_ret, 0, sizeof(*stats_ret));
	if (stopped_ret)
		*stopped_ret = 0;
	if (!mode_fits(mode, &stride))
		return pgw_err_set(err, PGW_E_ARG,
				   "mode %s: a table of more than %u entries, "
				   "or no level", mode->name,
				   MAX_TABLE_ENTRIES);
	top = UINT64_C(1) << mode->va_bits;   /* linear size */
	/* A range that begins past a 32-bit space's top would list nothing:
	 * that is a mistake to say, not an empty answer. */
	if (!(mode->quirks & PGW_Q_CANONICAL) && !mode->root_select_bit &&
	    opts->start >= top)
		return pgw_err_set(err, PGW_E_ARG,
				   "range start 0x%llx is beyond the %u-bit "
				   "address space of %s paging (its top is "
				   "0x%llx)", (unsigned long long)opts->start,
				   mode->va_bits, mode->name,
				   (unsigned long long)top);
	/* The table buffers are written before they are read: only the
	 * header needs zeroing (walks of small windows are frequent). */
	w = malloc(sizeof(*w) + PGW_NLEVELS * stride * sizeof(uint64_t));
	if (!w)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	memset(w, 0, offsetof(struct range_walk, buf));
	w->stride = stride;
	w->space = space;
	w->ops = ops;
	w->leaf_run = ops->leaf ? leaf_run : NULL;
	w->arg = arg;
	w->err = err;
	w->budget = opts->max_entries ? opts->max_entries :
					pgw_default_budget(space->img);
	w->mem_top = pgw_mem_top(space->img);
	w->eff_start = pgw_perm_start(mode);
	if (!opts->expand_shared && !(w->memo = pgw_uniform_memo_new())) {
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	} else if (mode->root_select_bit) {
		st = walk_halves(w, opts->start, end, top, 0 - top,
				 space->root_upper, 0 - top);
	} else if (mode->quirks & PGW_Q_CANONICAL) {
		st = walk_halves(w, opts->start, end, top / 2, 0 - top / 2,
				 space->root, 0 - top);
	} else {
		if (end == 0 || end > top)
			end = top;
		st = walk_part(w, space->root, opts->start, end);
	}
	if (stats_ret)
		*stats_ret = w->stats;
	if (stopped_ret)
		*stopped_ret = w->stopped;
	pgw_uniform_memo_free(w->memo);
	free(w);
	return st;
}

enum pgw_status pgw_walk_range(const struct pgw_space *space,
			       const struct pgw_walk_opts *opts,
			       const struct pgw_walk_ops *ops, void *arg,
			       struct pgw_walk_stats *stats_ret, int *stopped_ret,
			       struct pgw_err *err)
{
	return pgw_walk_range_bulk(space, opts, ops, NULL, arg, stats_ret,
				   stopped_ret, err);
}
