/*
 * The reverse map: physical address -> every virtual address that maps
 * it.  Each address space added is walked once (pgw_walk_range); its
 * leaves, coalesced while VA and PA run on together with the same page
 * size, level and flags, become pa ranges.  pgw_rmap_finish sorts them by
 * pa and lays an implicit interval tree over the sorted array (each
 * middle element keeps the largest end of its half), so a lookup costs a
 * binary descent plus one step per hit however the ranges overlap (the
 * direct map spans every page the other ranges hold).
 *
 * A PROT_NONE entry (a pte, or a huge pmd) maps too: it is not present to
 * the CPU, but it holds its frame, and the kernel's pte_present(), rmap
 * and RSS count it; such ranges are marked protnone.
 */
#include "../lib/err.h"
#include "../lib/grow.h"

#include <stdlib.h>
#include <string.h>

struct rmap_range {
	uint64_t pa, end;        /* [pa, end) physical; end 0: 2^64 */
	uint64_t va;             /* virtual address of pa */
	uint64_t page_size;
	uint64_t pages;          /* > 1: pages from va all mapping [pa, end) */
	uint64_t max_end;        /* the tree: largest end in this subtree */
	uint32_t flags, eff_flags;
	uint32_t owner;
	uint8_t level;
	bool protnone;
};

struct pgw_rmap {
	struct rmap_range *r;
	size_t n;
	bool sorted;
	/* While a space is added. */
	const struct pgw_space *space;
	uint32_t owner;
	bool open;               /* r[n - 1] may still grow */
	enum pgw_status st;
	struct pgw_err *err;
	struct pgw_rmap_stats stats;
};

enum pgw_status pgw_rmap_new(struct pgw_rmap **rm_ret, struct pgw_err *err)
{
	*rm_ret = calloc(1, sizeof(**rm_ret));
	return *rm_ret ? PGW_OK :
			 pgw_err_set(err, PGW_E_NOMEM, "reverse map: out of "
				     "memory");
}

void pgw_rmap_free(struct pgw_rmap *rm)
{
	if (rm)
		free(rm->r);
	free(rm);
}

/* A range's end, 2^64 as the largest value. */
static uint64_t end_key(uint64_t end)
{
	return end ? end : UINT64_MAX;
}

static bool extends(const struct rmap_range *p, const struct pgw_leaf *l)
{
	return !p->protnone && l->count == 1 && p->pages == 1 &&
	       p->page_size == l->size &&
	       p->level == l->level && p->flags == l->entry.flags &&
	       p->eff_flags == l->eff_flags && p->end == l->pa &&
	       p->va + (p->end - p->pa) == l->va;
}

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	struct pgw_rmap *rm = arg;

	if (rm->open && extends(&rm->r[rm->n - 1], l)) {
		rm->r[rm->n - 1].end = l->pa + l->size;
		return 0;
	}
	if ((rm->st = pgw_grow(&rm->r, rm->n, sizeof(*rm->r), rm->err)))
		return 1;
	rm->r[rm->n++] = (struct rmap_range){
		.pa = l->pa, .end = l->pa + l->size, .va = l->va,
		.page_size = l->size, .pages = l->count,
		.flags = l->entry.flags, .eff_flags = l->eff_flags,
		.owner = rm->owner, .level = (uint8_t)l->level,
	};
	rm->open = true;
	rm->sorted = false;
	return 0;
}

/* A PROT_NONE pte or huge pmd: its frame, as a range of its own (the
 * kernel makes no PROT_NONE entry at a higher level). */
static int protnone(struct pgw_rmap *rm, const struct pgw_hole *h)
{
	uint64_t span = pgw_level_span(rm->space->mode, h->level);
	uint64_t pa = (h->entry.np_pfn << PGW_PAGE_SHIFT) + (h->va & (span - 1));

	if ((rm->st = pgw_grow(&rm->r, rm->n, sizeof(*rm->r), rm->err)))
		return 1;
	rm->r[rm->n++] = (struct rmap_range){
		.pa = pa, .end = pa + (h->end - h->va), .va = h->va,
		.page_size = span, .pages = 1, .owner = rm->owner,
		.level = (uint8_t)h->level, .protnone = true,
	};
	rm->sorted = false;
	return 0;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct pgw_rmap *rm = arg;

	rm->open = false;
	if (h->stop == PGW_STOP_NOT_PRESENT &&
	    h->entry.np_kind == PGW_NP_PROTNONE &&
	    (h->level == PGW_PTE || h->level == PGW_PMD))
		return protnone(rm, h);
	if (h->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    h->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		rm->stats.tables_not_in_image++;
	return 0;
}

enum pgw_status pgw_rmap_add(struct pgw_rmap *rm,
			     const struct pgw_space *space,
			     const struct pgw_walk_opts *opts, uint32_t owner,
			     struct pgw_walk_stats *stats_ret,
			     struct pgw_err *err)
{
	static const struct pgw_walk_ops ops = { on_leaf, on_hole, NULL };
	int stopped = 0;

	rm->space = space;
	rm->owner = owner;
	rm->open = false;
	rm->st = PGW_OK;
	rm->err = err;
	enum pgw_status st = pgw_walk_range(space, opts, &ops, rm, stats_ret,
					    &stopped, err);
	rm->open = false;
	if (st == PGW_E_STOPPED)
		return rm->st;
	if (st == PGW_E_LIMIT)
		rm->stats.budget_stops++;
	return st;
}

enum pgw_status pgw_rmap_take(struct pgw_rmap *rm, struct pgw_rmap *from,
			      struct pgw_err *err)
{
	if (from->n) {
		/* The room pgw_grow counts on for that many. */
		size_t cap = 4;
		while (cap < rm->n + from->n)
			cap *= 2;
		struct rmap_range *r = realloc(rm->r, cap * sizeof(*r));
		if (!r)
			return pgw_err_set(err, PGW_E_NOMEM, "reverse map: "
					   "out of memory");
		memcpy(r + rm->n, from->r, from->n * sizeof(*r));
		rm->r = r;
		rm->n += from->n;
		rm->sorted = false;
	}
	rm->open = false;
	rm->stats.tables_not_in_image += from->stats.tables_not_in_image;
	rm->stats.budget_stops += from->stats.budget_stops;
	from->n = 0;
	from->stats = (struct pgw_rmap_stats){ 0 };
	return PGW_OK;
}

static int by_pa(const void *a, const void *b)
{
	const struct rmap_range *x = a, *y = b;

	if (x->pa != y->pa)
		return x->pa < y->pa ? -1 : 1;
	if (x->owner != y->owner)
		return x->owner < y->owner ? -1 : 1;
	return x->va < y->va ? -1 : x->va > y->va;
}

/* max_end of the subtree over [lo, hi): its middle element holds it. */
static uint64_t build(struct rmap_range *r, size_t lo, size_t hi)
{
	if (lo >= hi)
		return 0;
	size_t mid = lo + (hi - lo) / 2;
	uint64_t m = end_key(r[mid].end);
	uint64_t a = build(r, lo, mid), b = build(r, mid + 1, hi);

	m = a > m ? a : m;
	m = b > m ? b : m;
	r[mid].max_end = m;
	return m;
}

void pgw_rmap_finish(struct pgw_rmap *rm)
{
	if (rm->sorted)
		return;
	/* A space that maps nothing left no array: qsort wants one. */
	if (rm->n)
		qsort(rm->r, rm->n, sizeof(*rm->r), by_pa);
	build(rm->r, 0, rm->n);
	rm->sorted = true;
}

struct query {
	uint64_t pa;
	struct pgw_rmap_hit *hits;
	size_t max, n;
};

static void hit(struct query *q, const struct rmap_range *r)
{
	if (q->n < q->max)
		q->hits[q->n] = (struct pgw_rmap_hit){
			.owner = r->owner, .pa = q->pa,
			.va = r->va + (q->pa - r->pa),
			.page_size = r->page_size, .pages = r->pages,
			.level = (enum pgw_level)r->level,
			.flags = r->flags, .eff_flags = r->eff_flags,
			.protnone = r->protnone,
		};
	q->n++;
}

/* The ranges of [lo, hi) that hold q->pa, in pa order. */
static void find(const struct rmap_range *r, size_t lo, size_t hi,
		 struct query *q)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].max_end <= q->pa)
			return;
		find(r, lo, mid, q);
		if (r[mid].pa > q->pa)
			return;
		if (end_key(r[mid].end) > q->pa)
			hit(q, &r[mid]);
		lo = mid + 1;
	}
}

static bool before(const struct pgw_rmap_hit *x, const struct pgw_rmap_hit *y)
{
	return x->owner != y->owner ? x->owner < y->owner : x->va < y->va;
}

size_t pgw_rmap_lookup(const struct pgw_rmap *rm, uint64_t pa,
		       struct pgw_rmap_hit *hits, size_t max)
{
	struct query q = { pa, hits, max, 0 };

	find(rm->r, 0, rm->n, &q);
	if (q.n > max)
		return q.n;
	/* Insertion sort: a frame has a few mappings, where qsort's calls
	 * cost more than the sort. */
	for (size_t i = 1; i < q.n; i++) {
		struct pgw_rmap_hit h = hits[i];
		size_t j = i;
		for (; j > 0 && before(&h, &hits[j - 1]); j--)
			hits[j] = hits[j - 1];
		hits[j] = h;
	}
	return q.n;
}

void pgw_rmap_stats(const struct pgw_rmap *rm,
		    struct pgw_rmap_stats *stats_ret)
{
	*stats_ret = rm->stats;
	stats_ret->ranges = rm->n;
}
