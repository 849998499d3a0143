/*
 * pgw_diff_spaces: two address spaces compared in address order.  Each
 * is walked once into a list of its leaves; the lists are then merged:
 * every stretch where both sides are one leaf each (or one side has
 * none) is a segment, classified (added, removed, changed and how, or
 * alike), and segments join into ranges by dump's rule (same kind and
 * changes, and on each side the same page size, permissions and
 * attributes with contiguous frames).
 */
#include "../lib/err.h"
#include "pgwalk.h"
#include "../lib/grow.h"
#include "../lib/names.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_keys[] = {
	[PGW_DIFF_ADDED] = "added", [PGW_DIFF_REMOVED] = "removed",
	[PGW_DIFF_CHANGED] = "changed", [PGW_DIFF_UNCOMPARED] = "uncompared",
};

const char *pgw_diff_kind_key(enum pgw_diff_kind kind)
{
	return PGW_NAME(kind_keys, kind, "unknown");
}

static const char *const change_keys[PGW_NDIFF_CHANGES] = {
	"frame", "permissions", "page_size", "attributes", "data",
};

const char *pgw_diff_change_key(unsigned bit_index)
{
	return PGW_NAME(change_keys, bit_index, "unknown");
}

/* Bits besides the effective permissions that make a mapping differ. */
#define ATTR_MASK (PGW_F_GLOBAL | PGW_F_PCD | PGW_F_PWT | PGW_F_PAT)

/* A leaf, or a shared table's pages that all map one frame. */
struct piece {
	uint64_t va, last;       /* inclusive: a piece may end at 2^64 */
	uint64_t pa, page_size;
	enum pgw_level level;
	uint32_t flags, eff;
	bool same_frame;
	enum pgw_absence absent; /* not a leaf: a table not in the image */
};

struct pieces {
	struct piece *p;
	size_t n;
	struct pgw_err *err;
	enum pgw_status failed;
};

static int on_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct pieces *ps = arg;

	if ((ps->failed = pgw_grow(&ps->p, ps->n, sizeof(*ps->p), ps->err)))
		return 1;
	ps->p[ps->n++] = (struct piece){
		.va = leaf->va, .last = leaf->va + leaf->size * leaf->count - 1,
		.pa = leaf->pa, .page_size = leaf->size, .level = leaf->level,
		.flags = leaf->entry.flags, .eff = leaf->eff_flags,
		.same_frame = leaf->count > 1,
	};
	return 0;
}

/* A table the image lacks: what it maps is unknown, never unmapped. */
static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct pieces *ps = arg;

	if (h->stop != PGW_STOP_TABLE_NOT_IN_IMAGE)
		return 0;
	if ((ps->failed = pgw_grow(&ps->p, ps->n, sizeof(*ps->p), ps->err)))
		return 1;
	ps->p[ps->n++] = (struct piece){
		.va = h->va, .last = h->end - 1, .level = h->level,
		.absent = h->absence ? h->absence : PGW_ABSENT_OUTSIDE,
	};
	return 0;
}

static enum pgw_status collect(const struct pgw_space *space,
			       const struct pgw_walk_opts *wo,
			       struct pieces *ps, struct pgw_walk_stats *stats,
			       struct pgw_err *err)
{
	struct pgw_walk_ops ops = { .leaf = on_leaf, .hole = on_hole };
	enum pgw_status st;

	ps->err = err;
	st = pgw_walk_range(space, wo, &ops, ps, stats, NULL, err);
	if (st == PGW_E_STOPPED && ps->failed)
		st = ps->failed;
	return st;
}

static uint64_t pa_at(const struct piece *p, uint64_t va)
{
	uint64_t off = va - p->va;

	return p->pa + (p->same_frame ? off % p->page_size : off);
}

static struct pgw_diff_side side_at(const struct piece *p, uint64_t va)
{
	if (!p || p->absent)
		return (struct pgw_diff_side){ .mapped = false };
	return (struct pgw_diff_side){
		.mapped = true, .pa = pa_at(p, va), .page_size = p->page_size,
		.level = p->level, .flags = p->flags, .eff_flags = p->eff,
		.same_frame = p->same_frame,
	};
}

struct differ {
	const struct pgw_space *a, *b;
	const struct pgw_diff_opts *opts;
	int (*fn)(void *arg, const struct pgw_diff_range *r);
	void *arg;
	bool open;
	uint64_t open_last;      /* inclusive end of the open range */
	struct pgw_diff_range r;
	struct pgw_diff_stats *stats;
	uint8_t page_a[PGW_PAGE_SIZE], page_b[PGW_PAGE_SIZE];
};

static bool side_joins(const struct pgw_diff_side *o,
		       const struct pgw_diff_side *s, uint64_t delta)
{
	if (o->mapped != s->mapped)
		return false;
	if (!o->mapped)
		return true;
	return !o->same_frame && !s->same_frame &&
	       o->page_size == s->page_size && o->eff_flags == s->eff_flags &&
	       (o->flags & ATTR_MASK) == (s->flags & ATTR_MASK) &&
	       o->pa + delta == s->pa;
}

static int flush(struct differ *d)
{
	if (!d->open)
		return 0;
	d->open = false;
	d->r.end = d->open_last + 1;
	return d->fn(d->arg, &d->r);
}

static uint64_t *kind_bytes(struct pgw_diff_stats *s, enum pgw_diff_kind k)
{
	uint64_t *by[] = { &s->added, &s->removed, &s->changed,
			   &s->uncompared };

	return by[k];
}

/* A segment [va, last] that differs: join the open range or start one. */
static int feed(struct differ *d, const struct pgw_diff_range *s,
		uint64_t last)
{
	*kind_bytes(d->stats, s->kind) += last - s->va + 1;
	if (s->table_absent)
		d->stats->table_absent += last - s->va + 1;
	if (d->open && d->r.kind == s->kind && d->r.changes == s->changes &&
	    d->r.table_absent == s->table_absent &&
	    d->open_last + 1 == s->va && d->r.absence_a == s->absence_a &&
	    d->r.absence_b == s->absence_b &&
	    side_joins(&d->r.a, &s->a, s->va - d->r.va) &&
	    side_joins(&d->r.b, &s->b, s->va - d->r.va)) {
		d->open_last = last;
		return 0;
	}
	int r = flush(d);
	d->r = *s;
	d->open = true;
	d->open_last = last;
	return r;
}

/* The bytes of one page on each side: equal (0), different (1), or not
 * comparable (-1: a page not in an image, never read as zeros).  A frame
 * outside both images is no RAM (MMIO, firmware) that neither could
 * hold: alike, with no bytes to compare (NO_DATA), not partial
 * evidence. */
#define NO_DATA 2
static int compare_page(struct differ *d, uint64_t pa_a, uint64_t pa_b,
			struct pgw_diff_range *s)
{
	struct pgw_err e = { 0 };

	s->absence_a = s->absence_b = PGW_ABSENT_NONE;
	/* One frame of one image is itself, but only bytes the image holds
	 * were compared: a frame it lacks is uncompared whichever way the
	 * two spaces were given (two roots, or the image twice). */
	if (d->a->img == d->b->img && pa_a == pa_b &&
	    pgw_image_page_state(d->a->img, pa_a >> PGW_PAGE_SHIFT) ==
	    PGW_ABSENT_NONE)
		return 0;
	if (pgw_image_read_page(d->a->img, pa_a >> PGW_PAGE_SHIFT, d->page_a,
				&e) != PGW_OK)
		s->absence_a = e.absence ? e.absence : PGW_ABSENT_CORRUPT;
	if (pgw_image_read_page(d->b->img, pa_b >> PGW_PAGE_SHIFT, d->page_b,
				&e) != PGW_OK)
		s->absence_b = e.absence ? e.absence : PGW_ABSENT_CORRUPT;
	if (s->absence_a == PGW_ABSENT_OUTSIDE &&
	    s->absence_b == PGW_ABSENT_OUTSIDE) {
		s->absence_a = s->absence_b = PGW_ABSENT_NONE;
		return NO_DATA;
	}
	if (s->absence_a || s->absence_b)
		return -1;
	return memcmp(d->page_a, d->page_b, PGW_PAGE_SIZE) != 0;
}

/* A segment mapped alike on both sides: with data, its pages compared
 * one by one; where both sides map one frame again and again, the first
 * page stands for them all. */
static int alike(struct differ *d, const struct piece *pa,
		 const struct piece *pb, uint64_t va, uint64_t last)
{
	bool once = pa->same_frame && pb->same_frame;
	int cmp = 0, r;

	if (!d->opts->data) {
		d->stats->same += last - va + 1;
		return flush(d);
	}
	for (uint64_t p = va & ~(PGW_PAGE_SIZE - 1);; p += PGW_PAGE_SIZE) {
		uint64_t lo = p > va ? p : va, hi = p + PGW_PAGE_SIZE - 1;
		struct pgw_diff_range s = {
			.va = lo, .a = side_at(pa, lo), .b = side_at(pb, lo),
		};
		if (hi > last || once)
			hi = last;
		cmp = compare_page(d, s.a.pa & ~(PGW_PAGE_SIZE - 1),
				   s.b.pa & ~(PGW_PAGE_SIZE - 1), &s);
		if (cmp == 0 || cmp == 1)
			d->stats->data_compared += hi - lo + 1;
		if (cmp == 0 || cmp == NO_DATA) {
			d->stats->same += hi - lo + 1;
			r = flush(d);
		} else {
			s.kind = cmp > 0 ? PGW_DIFF_CHANGED :
					   PGW_DIFF_UNCOMPARED;
			s.changes = cmp > 0 ? PGW_DC_DATA : 0;
			r = feed(d, &s, hi);
		}
		if (r || hi == last)
			return r;
	}
}

static int segment(struct differ *d, const struct piece *pa,
		   const struct piece *pb, uint64_t va, uint64_t last)
{
	struct pgw_diff_range s = {
		.va = va, .a = side_at(pa, va), .b = side_at(pb, va),
	};

	if ((pa && pa->absent) || (pb && pb->absent)) {
		s.kind = PGW_DIFF_UNCOMPARED;
		s.table_absent = true;
		s.absence_a = pa ? pa->absent : PGW_ABSENT_NONE;
		s.absence_b = pb ? pb->absent : PGW_ABSENT_NONE;
		return feed(d, &s, last);
	}
	if (!pb) {
		s.kind = PGW_DIFF_REMOVED;
		return feed(d, &s, last);
	}
	if (!pa) {
		s.kind = PGW_DIFF_ADDED;
		return feed(d, &s, last);
	}
	s.changes = (s.a.pa != s.b.pa ? PGW_DC_FRAME : 0) |
		    (s.a.eff_flags != s.b.eff_flags ? PGW_DC_PERMS : 0) |
		    (s.a.page_size != s.b.page_size ? PGW_DC_PAGE_SIZE : 0) |
		    ((s.a.flags ^ s.b.flags) & ATTR_MASK ? PGW_DC_ATTRS : 0);
	if (!s.changes)
		return alike(d, pa, pb, va, last);
	s.kind = PGW_DIFF_CHANGED;
	return feed(d, &s, last);
}

/* The first piece from *i that does not end before va, if it holds va. */
static const struct piece *at(const struct pieces *ps, size_t *i,
			      uint64_t va)
{
	while (*i < ps->n && ps->p[*i].last < va)
		(*i)++;
	return *i < ps->n && ps->p[*i].va <= va ? &ps->p[*i] : NULL;
}

/* Pieces are whole leaves and tables, which may reach outside the walk's
 * window [start, end): only the window is compared and counted. */
static int merge(struct differ *d, const struct pieces *a,
		 const struct pieces *b)
{
	const struct pgw_walk_opts *w = &d->opts->walk;
	uint64_t top = w->end ? w->end - 1 : UINT64_MAX;
	size_t i = 0, j = 0;
	uint64_t va = w->start;
	int r;

	if (w->end && w->end <= w->start)
		return flush(d);

	for (;;) {
		const struct piece *pa = at(a, &i, va), *pb = at(b, &j, va);
		if (!pa && !pb) {
			/* Nothing here: on to the next piece of either. */
			if (i == a->n && j == b->n)
				break;
			uint64_t na = i < a->n ? a->p[i].va : UINT64_MAX;
			uint64_t nb = j < b->n ? b->p[j].va : UINT64_MAX;
			va = na < nb ? na : nb;
			if ((r = flush(d)))
				return r;
			if (va > top)
				break;
			continue;
		}
		uint64_t last = top;
		if (pa && pa->last < last)
			last = pa->last;
		if (pb && pb->last < last)
			last = pb->last;
		if (!pa && i < a->n && a->p[i].va - 1 < last)
			last = a->p[i].va - 1;
		if (!pb && j < b->n && b->p[j].va - 1 < last)
			last = b->p[j].va - 1;
		if ((r = segment(d, pa, pb, va, last)))
			return r;
		if (last == top)
			break;
		va = last + 1;
	}
	return flush(d);
}

enum pgw_status pgw_diff_spaces(const struct pgw_space *a,
				const struct pgw_space *b,
				const struct pgw_diff_opts *opts,
				int (*fn)(void *arg,
					  const struct pgw_diff_range *r),
				void *arg, struct pgw_diff_stats *stats_ret,
				struct pgw_err *err)
{
	struct pieces pa = { 0 }, pb = { 0 };
	struct pgw_diff_stats stats = { 0 };
	struct differ *d = NULL;
	enum pgw_status st;

	if ((st = collect(a, &opts->walk, &pa, &stats.a, err)) ||
	    (st = collect(b, &opts->walk, &pb, &stats.b, err)))
		goto out;
	if (!(d = calloc(1, sizeof(*d)))) {
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		goto out;
	}
	*d = (struct differ){ .a = a, .b = b, .opts = opts, .fn = fn,
			      .arg = arg, .stats = &stats };
	if (merge(d, &pa, &pb))
		st = pgw_err_set(err, PGW_E_STOPPED, "diff stopped by caller");
out:
	if (stats_ret)
		*stats_ret = stats;
	free(d);
	free(pa.p);
	free(pb.p);
	return st;
}
