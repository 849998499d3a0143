/*
 * Coalescing a range walk into runs, the rule the kernel's ptdump uses
 * (arch/x86/mm/dump_pagetables.c: one open run, closed when the next page
 * differs), plus physical contiguity: a run is something one can read as
 * "these VAs are those PAs".  Holes arrive per entry from the walker and
 * are merged the same way.  Exactly one run is open at any time, so the
 * memory used does not depend on the size of the address space.
 */
#include "../lib/err.h"
#include "range.h"
#include "runs_bulk.h"

#include <string.h>

/* Leaf bits besides the effective permissions that split a run: a run
 * that mixed encrypted and shared pages, or two protection keys, would
 * misstate some of them. */
#define ATTR_MASK (PGW_F_GLOBAL | PGW_F_PCD | PGW_F_PWT | PGW_F_PAT | \
		   PGW_F_ENC | PGW_F_SHARED)
#define ATTR_PKEY_SHIFT 24   /* above every enum pgw_flag bit */

static inline uint32_t leaf_attrs(const struct pgw_entry *e)
{
	return (e->flags & ATTR_MASK) | (uint32_t)e->pkey << ATTR_PKEY_SHIFT;
}

struct merger {
	const struct pgw_run_opts *opts;
	const struct pgw_run_ops *ops;
	pgw_leaf_runs_fn leaf_runs;   /* NULL: each leaf its own run */
	void *arg;
	const struct pgw_layout *layout;
	const struct pgw_mode *mode;
	bool started;           /* a region has been entered */
	size_t region;
	uint64_t region_end;    /* 0 = 2^64 */
	bool open;
	uint32_t attrs;         /* ATTR_MASK bits of the open map run */
	struct pgw_run run;
	/* opts.patterns: the plain hole after an open one-page map run, held
	 * back until the next map says whether a pattern goes on. */
	bool held;
	struct pgw_run hole;
};

/* A region map is plain data, filled in above (src/linux/layout.c): the
 * lookup lives here with the lowest layer that uses it, the coalescer. */
size_t pgw_layout_find(const struct pgw_layout *layout, uint64_t va)
{
	size_t lo = 0, hi = layout->nregions;

	if (hi == 0)
		return 0;
	/* Largest i with region[i].start <= va; region 0 starts at 0. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (layout->region[mid].start <= va)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void enter_region(struct merger *m, size_t idx)
{
	m->region = idx;
	m->region_end = m->layout ? m->layout->region[idx].end : 0;
}

/* Report the open run; a hole held after it (patterns) becomes the open
 * run. */
static int flush_run(struct merger *m)
{
	int r = 0;

	if (!m->open)
		return 0;
	m->open = false;
	if (m->ops->run)
		r = m->ops->run(m->arg, &m->run);
	if (m->held && !r) {
		m->run = m->hole;
		m->open = true;
	}
	m->held = false;
	return r;
}

/* Report everything open. */
static int flush(struct merger *m)
{
	int r = flush_run(m);

	return r ? r : flush_run(m);
}

/* Move the stream into the region holding va, announcing every region
 * entered on the way (a --range may start inside one). */
static int reach(struct merger *m, uint64_t va)
{
	int r;

	if (!m->layout) {
		if (!m->started) {
			m->started = true;
			enter_region(m, 0);
		}
		return 0;
	}
	if (!m->started) {
		m->started = true;
		enter_region(m, pgw_layout_find(m->layout, va));
		return m->ops->region ? m->ops->region(m->arg, m->region) : 0;
	}
	while (m->region_end != 0 && va >= m->region_end &&
	       m->region + 1 < m->layout->nregions) {
		if ((r = flush(m)) != 0)
			return r;
		enter_region(m, m->region + 1);
		if (m->ops->region && (r = m->ops->region(m->arg, m->region)))
			return r;
	}
	return 0;
}

/* One page, or pages that all map one frame: such runs join into a run
 * that maps pa again and again. */
static bool one_frame(const struct pgw_run *r)
{
	return r->same_frame || r->end - r->va == r->page_size;
}

static bool same_frame_joins(const struct pgw_run *o, const struct pgw_run *p)
{
	return o->pa == p->pa && one_frame(o) && one_frame(p);
}

static bool map_joins(const struct merger *m, const struct pgw_run *p,
		      uint32_t attrs)
{
	const struct pgw_run *o = &m->run;

	if (!m->open || o->kind != PGW_RUN_MAP || m->opts->leaves ||
	    o->stride || o->end != p->va || o->level != p->level ||
	    o->eff_flags != p->eff_flags || m->attrs != attrs)
		return false;
	if (!o->same_frame && !p->same_frame &&
	    o->pa + (o->end - o->va) == p->pa)
		return true;   /* linear: physical follows virtual */
	return same_frame_joins(o, p);
}

static bool hole_joins(const struct merger *m, const struct pgw_run *p)
{
	const struct pgw_run *o = &m->run;
	uint64_t pages = (o->end - o->va) >> PGW_PAGE_SHIFT;

	if (!m->open || o->kind != PGW_RUN_HOLE || o->end != p->va ||
	    o->stop != p->stop || o->np_kind != p->np_kind ||
	    o->absence != p->absence)
		return false;
	switch (p->np_kind) {
	case PGW_NP_NONE:
		return true;
	case PGW_NP_PROTNONE:
		return o->level == p->level && o->np_pfn + pages == p->np_pfn;
	case PGW_NP_OTHER:
	case PGW_NP_SWAP_UNKNOWN:
		return false;
	default:  /* swap family: one type, consecutive offsets */
		return o->level == p->level && o->swap_type == p->swap_type &&
		       o->swap_offset + pages == p->swap_offset;
	}
}

/* A run that can begin or go on a pattern: one page, or a pattern. */
static bool pattern_piece(const struct pgw_run *r)
{
	return r->kind == PGW_RUN_MAP &&
	       (r->stride || r->end - r->va == r->page_size);
}

static bool plain_hole(const struct pgw_run *p)
{
	return p->kind == PGW_RUN_HOLE && p->stop == PGW_STOP_NOT_PRESENT &&
	       p->np_kind == PGW_NP_NONE;
}

/*
 * opts.patterns: a plain hole after a one-page map (or a pattern) is held;
 * a one-page map of the same frame and kind after it goes on the pattern
 * when it comes one stride after the page before (the first such sets
 * the stride).  True when p was taken.
 */
static bool pattern_takes(struct merger *m, const struct pgw_run *p,
			  uint32_t attrs)
{
	struct pgw_run *o = &m->run;

	if (!m->opts->patterns || m->opts->leaves || !m->open ||
	    !pattern_piece(o))
		return false;
	if (plain_hole(p)) {
		if (!m->held && o->end == p->va) {
			m->hole = *p;
			m->hole.region = m->region;
			m->held = true;
			return true;
		}
		if (m->held && m->hole.end == p->va && p->end != 0) {
			m->hole.end = p->end;
			m->hole.entries += p->entries;
			if (p->level < m->hole.level)
				m->hole.level = p->level;
			return true;
		}
		return false;
	}
	uint64_t last = o->stride ? o->end - o->page_size : o->va;
	if (!m->held || p->kind != PGW_RUN_MAP || p->same_frame ||
	    p->end - p->va != p->page_size || m->hole.end != p->va ||
	    p->pa != o->pa || p->page_size != o->page_size ||
	    p->level != o->level || p->eff_flags != o->eff_flags ||
	    attrs != m->attrs || (o->stride && p->va - last != o->stride))
		return false;
	o->stride = p->va - last;
	o->same_frame = true;
	o->end = p->end;
	o->entries += m->hole.entries + p->entries;
	o->flags &= p->flags;
	m->held = false;
	return true;
}

/* One piece that lies inside the current region. */
static int add(struct merger *m, const struct pgw_run *p, uint32_t attrs)
{
	int r;

	if (pattern_takes(m, p, attrs))
		return 0;
	if (m->held) {
		/* The pattern ends: its hole is a run of its own, which p
		 * may go on. */
		if ((r = flush_run(m)) != 0)
			return r;
	}

	if (p->kind == PGW_RUN_MAP && map_joins(m, p, attrs)) {
		if (same_frame_joins(&m->run, p))
			m->run.same_frame = true;
		m->run.end = p->end;
		m->run.entries += p->entries;
		m->run.flags &= p->flags;
		return 0;
	}
	if (p->kind == PGW_RUN_HOLE && hole_joins(m, p)) {
		m->run.end = p->end;
		m->run.entries += p->entries;
		if (p->level < m->run.level)
			m->run.level = p->level;
		return 0;
	}
	if ((r = flush(m)) != 0)
		return r;
	m->run = *p;
	m->run.region = m->region;
	m->attrs = attrs;
	m->open = true;
	return 0;
}

/* Feed a piece, cut where it crosses region boundaries.  In --leaves mode
 * a leaf stays whole (one record per leaf) and belongs to the region of
 * its first byte. */
static int feed(struct merger *m, struct pgw_run *p, uint32_t attrs)
{
	int r;

	for (;;) {
		if ((r = reach(m, p->va)) != 0)
			return r;
		uint64_t re = m->region_end;
		bool crosses = re != 0 && (p->end == 0 || p->end > re);
		if (!crosses || (p->kind == PGW_RUN_MAP && m->opts->leaves))
			return add(m, p, attrs);
		struct pgw_run head = *p;
		uint64_t cut = re - p->va;
		head.end = re;
		/* A repeated leaf's pages divide between the pieces. */
		if (p->kind == PGW_RUN_MAP && p->same_frame) {
			uint64_t n = (cut + p->page_size - 1) / p->page_size;
			head.entries = n;
			p->entries -= n < p->entries ? n : p->entries - 1;
		}
		if ((r = add(m, &head, attrs)) != 0)
			return r;
		p->va = re;
		if (p->kind == PGW_RUN_MAP && !p->same_frame)
			p->pa += cut;
		else if (p->np_kind == PGW_NP_PROTNONE)
			p->np_pfn += cut >> PGW_PAGE_SHIFT;
	}
}

static int on_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct merger *m = arg;
	uint32_t attrs = leaf_attrs(&leaf->entry);
	uint64_t end = leaf->va + leaf->size * leaf->count;

	/* Fast path: the common 4 KiB page continuing the open run. */
	if (leaf->count == 1 && !m->run.same_frame &&
	    m->open && (m->region_end == 0 || end <= m->region_end) &&
	    end != 0 && m->run.kind == PGW_RUN_MAP && !m->opts->leaves &&
	    m->run.end == leaf->va &&
	    m->run.pa + (m->run.end - m->run.va) == leaf->pa &&
	    m->run.level == leaf->level &&
	    m->run.eff_flags == leaf->eff_flags && m->attrs == attrs) {
		m->run.end = end;
		m->run.entries++;
		m->run.flags &= leaf->entry.flags;
		return 0;
	}
	struct pgw_run p = {
		.kind = PGW_RUN_MAP,
		.va = leaf->va,
		.end = end,
		.level = leaf->level,
		.entries = leaf->count,
		.same_frame = leaf->count > 1,
		.pa = leaf->pa,
		.page_size = leaf->size,
		.flags = leaf->entry.flags,
		.eff_flags = leaf->eff_flags,
		.pkey = leaf->entry.pkey,
	};
	return feed(m, &p, attrs);
}

/* --leaves: n leaves frame after frame (range.h) as one-leaf runs, in
 * bulk as far as each region goes (a leaf belongs to the region of its
 * first byte). */
static int leaves_in_bulk(struct merger *m, const struct pgw_leaf *first,
			  uint64_t n)
{
	uint64_t size = first->size;
	struct pgw_run p = {
		.kind = PGW_RUN_MAP,
		.va = first->va,
		.end = first->va + size,
		.level = first->level,
		.entries = 1,
		.pa = first->pa,
		.page_size = size,
		.flags = first->entry.flags,
		.eff_flags = first->eff_flags,
		.pkey = first->entry.pkey,
	};
	int r;

	while (n) {
		if ((r = reach(m, p.va)) != 0 || (r = flush(m)) != 0)
			return r;
		uint64_t k = n;
		if (m->region_end != 0 && m->region_end - p.va < k * size)
			k = (m->region_end - p.va + size - 1) / size;
		p.region = m->region;
		r = k > 1 ? m->leaf_runs(m->arg, &p, k)
			  : (m->ops->run ? m->ops->run(m->arg, &p) : 0);
		if (r)
			return r;
		p.va += k * size;
		p.end += k * size;
		p.pa += k * size;
		n -= k;
	}
	return 0;
}

/* n leaves frame after frame (range.h): the open run grows by all of them
 * at once when the first joins it and none crosses a region's end;
 * otherwise each goes its own way. */
static int on_leaf_run(void *arg, const struct pgw_leaf *first, uint64_t n)
{
	struct merger *m = arg;
	uint64_t size = first->size, len = size * n;
	uint64_t end = first->va + len;
	struct pgw_leaf leaf = *first;
	int r;

	if (m->opts->leaves && m->leaf_runs && end > first->va)
		return leaves_in_bulk(m, first, n);

	if (end > first->va && !m->opts->leaves && m->open &&
	    !m->run.same_frame && m->run.kind == PGW_RUN_MAP &&
	    (m->region_end == 0 || end <= m->region_end) &&
	    m->run.end == first->va &&
	    m->run.pa + (m->run.end - m->run.va) == first->pa &&
	    m->run.level == first->level &&
	    m->run.eff_flags == first->eff_flags &&
	    m->attrs == leaf_attrs(&first->entry)) {
		m->run.end = end;
		m->run.entries += n;
		m->run.flags &= first->entry.flags;
		return 0;
	}
	for (uint64_t k = 0; k < n; k++) {
		if ((r = on_leaf(m, &leaf)) != 0)
			return r;
		leaf.va += size;
		leaf.pa += size;
		leaf.entry.addr += size;
		leaf.entry.raw += size;
	}
	return 0;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct merger *m = arg;
	const struct pgw_entry *e = &h->entry;
	bool plain = h->stop == PGW_STOP_NOT_PRESENT &&
		     (!m->opts->non_present || e->np_kind == PGW_NP_NONE);

	/* Fast path: an empty entry continuing the open plain hole (most
	 * entries of a sparse address space are these). */
	if (plain && m->open && m->run.kind == PGW_RUN_HOLE &&
	    m->run.stop == PGW_STOP_NOT_PRESENT &&
	    m->run.np_kind == PGW_NP_NONE && m->run.end == h->va &&
	    h->end != 0 && (m->region_end == 0 || h->end <= m->region_end)) {
		m->run.end = h->end;
		m->run.entries++;
		if (h->level < m->run.level)
			m->run.level = h->level;
		return 0;
	}
	struct pgw_run p = {
		.kind = PGW_RUN_HOLE,
		.va = h->va,
		.end = h->end,
		.level = h->level,
		.entries = 1,
		.stop = h->stop,
		.np_kind = PGW_NP_NONE,
		.entry_pa = h->entry_pa,
		.entry_raw = e->raw,
		.absence = h->absence,
	};

	if (!plain && h->stop == PGW_STOP_NOT_PRESENT) {
		p.np_kind = e->np_kind;
		p.np_pfn = e->np_pfn;
		p.swap_type = e->swap_type;
		p.swap_offset = e->swap_offset;
		/* A walk clipped by --range may start inside the entry. */
		if (e->np_kind == PGW_NP_PROTNONE) {
			uint64_t span = pgw_level_span(m->mode, h->level);
			p.np_pfn += (h->va & (span - 1)) >> PGW_PAGE_SHIFT;
		}
	} else if (h->stop == PGW_STOP_NOT_PRESENT) {
		/* Plain holes carry no entry: their size is the evidence. */
		p.entry_pa = 0;
		p.entry_raw = 0;
	}
	return feed(m, &p, 0);
}

static int on_table(void *arg, enum pgw_level lvl, uint64_t table_pa,
		    uint64_t va)
{
	struct merger *m = arg;

	return m->ops->table(m->arg, lvl, table_pa, va);
}

enum pgw_status pgw_walk_runs(const struct pgw_space *space,
			      const struct pgw_run_opts *opts,
			      const struct pgw_run_ops *ops, void *arg,
			      struct pgw_walk_stats *stats_ret,
			      int *stopped_ret, struct pgw_err *err)
{
	return pgw_walk_runs_bulk(space, opts, ops, NULL, arg, stats_ret,
				  stopped_ret, err);
}

enum pgw_status pgw_walk_runs_bulk(const struct pgw_space *space,
				   const struct pgw_run_opts *opts,
				   const struct pgw_run_ops *ops,
				   pgw_leaf_runs_fn leaf_runs, void *arg,
				   struct pgw_walk_stats *stats_ret,
				   int *stopped_ret, struct pgw_err *err)
{
	struct merger m = {
		.opts = opts,
		.ops = ops,
		.leaf_runs = leaf_runs,
		.arg = arg,
		.mode = space->mode,
		.layout = opts->layout && opts->layout->nregions ?
				  opts->layout : NULL,
	};
	struct pgw_walk_ops wops = { .leaf = on_leaf, .hole = on_hole,
				     .table = ops->table ? on_table : NULL };
	int stopped = 0;
	enum pgw_status st;

	/* --leaves promises one record per leaf entry, shared or not. */
	struct pgw_walk_opts wopts = opts->walk;
	wopts.expand_shared |= opts->leaves;
	st = pgw_walk_range_bulk(space, &wopts, &wops, on_leaf_run, &m,
				 stats_ret, &stopped, err);
	/* What was seen before a budget stop is still true: report it. */
	if (st == PGW_OK || st == PGW_E_LIMIT) {
		int r = flush(&m);
		if (r && st == PGW_OK) {
			stopped = r;
			st = pgw_err_set(err, PGW_E_STOPPED, "walk stopped by caller");
		}
	}
	if (stopped_ret)
		*stopped_ret = stopped;
	return st;
}
