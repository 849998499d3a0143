/*
 * Leaves in bulk (src/walk/range.h, runs_bulk.h): a stretch of
 * leaves that follow one another frame after frame is given in one call,
 * and nothing else may change.  One x86-64 space with every way a stretch
 * ends (a flag, a frame jump, a hole, one frame mapped again and again, a
 * table's end) is walked leaf by leaf and in bulk, whole, clipped and
 * under a budget; the leaves expanded from the bulk calls must be the
 * same leaves, in the same order, with the same result.  Then the
 * coalescer: its runs, and --leaves' one-leaf runs with and without
 * leaf_runs across region boundaries inside a stretch.
 */
#include <stdlib.h>

#include "../tools/imgwrite.h"
#include "imgtest.h"
#include "walk/range.h"
#include "walk/runs_bulk.h"

#define PML4 1
#define PDPT 2
#define PD 3
#define PT0 4
#define PT1 5
#define F0 0x100          /* frames of the stretches */
#define G 0x50            /* the frame mapped again and again */
#define VBASE (UINT64_C(1) << 39)    /* PML4 entry 1 */
#define LEAF (IW_P | IW_RW | IW_A | IW_D | IW_NX)

struct rec {
	uint64_t va, pa, size, raw, addr;
	uint32_t flags, eff;
	unsigned level;
};

struct seen {
	struct rec r[2048];
	size_t n;
	unsigned bulk_calls;    /* leaf_run / leaf_runs calls */
	uint64_t bulk_leaves;   /* leaves they carried */
};

static void add(struct seen *s, const struct pgw_leaf *l)
{
	if (s->n < sizeof(s->r) / sizeof(s->r[0]))
		s->r[s->n++] = (struct rec){
			l->va, l->pa, l->size, l->entry.raw, l->entry.addr,
			l->entry.flags, l->eff_flags, l->level,
		};
}

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	add(arg, l);
	return 0;
}

/* The contract of range.h, expanded. */
static int on_bulk(void *arg, const struct pgw_leaf *first, uint64_t n)
{
	struct seen *s = arg;
	struct pgw_leaf l = *first;

	s->bulk_calls++;
	s->bulk_leaves += n;
	for (uint64_t k = 0; k < n; k++) {
		add(s, &l);
		l.va += l.size;
		l.pa += l.size;
		l.entry.addr += l.size;
		l.entry.raw += l.size;
	}
	return n < 2;    /* fewer than two is a broken promise: stop */
}

static void build(struct iw_mem *m)
{
	iw_entry(m, PML4, 1, 8, ((uint64_t)PDPT << 12) | IW_TBL);
	iw_entry(m, PDPT, 0, 8, (PD << 12) | IW_TBL);
	iw_entry(m, PD, 0, 8, (PT0 << 12) | IW_TBL);
	iw_entry(m, PD, 1, 8, (PT1 << 12) | IW_TBL);
	for (unsigned i = 0; i < 512; i++) {
		uint64_t e = ((uint64_t)(F0 + i) << 12) | LEAF;
		if (i >= 100 && i < 120)
			e &= ~IW_RW;                  /* read-only */
		if (i >= 150 && i < 160)
			e += UINT64_C(1000) << 12;    /* a frame jump */
		if (i >= 160 && i < 200)
			e = 0;                        /* a hole */
		if (i >= 200 && i < 300)
			e = ((uint64_t)G << 12) | LEAF;   /* one frame */
		iw_entry(m, PT0, i, 8, e);
		/* The next table carries on where this one ends. */
		iw_entry(m, PT1, i, 8, ((uint64_t)(F0 + 512 + i) << 12) | LEAF);
	}
	iw_frame(m, 0x1000);      /* memory up to 16 MiB */
}

static enum pgw_status walk(const struct pgw_space *sp, uint64_t start,
			    uint64_t end, uint64_t budget, bool bulk,
			    struct seen *s, struct pgw_err *err)
{
	struct pgw_walk_ops ops = { .leaf = on_leaf };
	struct pgw_walk_opts wo = { .start = start, .end = end,
				    .max_entries = budget };

	memset(s, 0, sizeof(*s));
	return pgw_walk_range_bulk(sp, &wo, &ops, bulk ? on_bulk : NULL, s,
				   NULL, NULL, err);
}

static bool same(const struct seen *a, const struct seen *b)
{
	return a->n == b->n && memcmp(a->r, b->r, a->n * sizeof(a->r[0])) == 0;
}

/* ---- the coalescer ---- */

struct runs {
	struct pgw_run r[2048];
	size_t n;
	unsigned bulk_calls;
};

static int on_run(void *arg, const struct pgw_run *run)
{
	struct runs *s = arg;

	if (s->n < sizeof(s->r) / sizeof(s->r[0]))
		s->r[s->n++] = *run;
	return 0;
}

static int on_leaf_runs(void *arg, const struct pgw_run *first, uint64_t n)
{
	struct runs *s = arg;
	struct pgw_run r = *first;

	s->bulk_calls++;
	for (uint64_t k = 0; k < n; k++) {
		on_run(s, &r);
		r.va += r.page_size;
		r.end += r.page_size;
		r.pa += r.page_size;
	}
	return 0;
}

/* Field by field: a struct's padding is whatever its copies left there
 * (clang's copies leave other bytes than gcc's), so no memcmp. */
static bool run_equal(const struct pgw_run *a, const struct pgw_run *b)
{
	return a->kind == b->kind && a->va == b->va && a->end == b->end &&
	       a->level == b->level && a->region == b->region &&
	       a->entries == b->entries && a->pa == b->pa &&
	       a->page_size == b->page_size && a->flags == b->flags &&
	       a->eff_flags == b->eff_flags && a->pkey == b->pkey &&
	       a->same_frame == b->same_frame && a->stop == b->stop &&
	       a->np_kind == b->np_kind && a->np_pfn == b->np_pfn &&
	       a->swap_type == b->swap_type &&
	       a->swap_offset == b->swap_offset &&
	       a->entry_pa == b->entry_pa && a->entry_raw == b->entry_raw &&
	       a->absence == b->absence;
}

static bool runs_equal(const struct runs *a, const struct runs *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!run_equal(&a->r[i], &b->r[i]))
			return false;
	return true;
}

static size_t maps(const struct runs *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->r[i].kind == PGW_RUN_MAP;
	return n;
}

int main(void)
{
	struct iw_mem m = { 0 };
	build(&m);
	struct pgw_image *img = open_raw_bytes(m.b.p, m.b.len);
	struct pgw_space sp = { img, pgw_mode_by_name("x86-64"),
				PML4 << 12 };
	static struct seen one, bulk;
	struct pgw_err e1 = { 0 }, e2 = { 0 };
	enum pgw_status s1, s2;

	/* Whole space. */
	s1 = walk(&sp, 0, 0, 0, false, &one, &e1);
	s2 = walk(&sp, 0, 0, 0, true, &bulk, &e2);
	ok(s1 == PGW_OK && s2 == PGW_OK && one.n == 512 - 40 + 512,
	   "both walks complete, %zu leaves", one.n);
	ok(same(&one, &bulk), "in bulk: the same leaves in the same order");
	/* Stretches: 1-99, 101-119, 121-149, 150-159 (the jump is a frame
	 * change only), 300-511, 1-511 of the next table: a table's first
	 * leaf and one after a flag change come alone, and one frame again
	 * and again is no stretch. */
	ok(bulk.bulk_calls == 6 && bulk.bulk_leaves == 99 + 19 + 29 + 10 +
							   212 + 511,
	   "six stretches, %llu leaves, in %u calls",
	   (unsigned long long)bulk.bulk_leaves, bulk.bulk_calls);

	/* Clipped inside stretches. */
	uint64_t a = VBASE + 10 * 4096, b = VBASE + (512 + 37) * 4096 + 5;
	s1 = walk(&sp, a, b, 0, false, &one, &e1);
	s2 = walk(&sp, a, b, 0, true, &bulk, &e2);
	ok(s1 == PGW_OK && s2 == PGW_OK && same(&one, &bulk) &&
		   one.n > 0 && one.r[0].va == a &&
		   one.r[one.n - 1].va == b - 5,
	   "clipped to [0x%llx, 0x%llx): the same %zu leaves",
	   (unsigned long long)a, (unsigned long long)b, one.n);

	/* A budget running out inside a stretch: the same leaves before it
	 * and the same error. */
	s1 = walk(&sp, 0, 0, 80, false, &one, &e1);
	s2 = walk(&sp, 0, 0, 80, true, &bulk, &e2);
	ok(s1 == PGW_E_LIMIT && s2 == PGW_E_LIMIT && same(&one, &bulk) &&
		   strcmp(e1.msg, e2.msg) == 0,
	   "budget of 80 inside a stretch: %zu leaves either way, \"%s\"",
	   one.n, e2.msg);

	/* Coalesced: A (0-99), B (read-only), C, D (the jump), E (one frame
	 * again and again), F (300-511 and the next table): six maps. */
	static struct runs co, lv, lvb;
	struct pgw_run_opts ro = { .walk = { .start = VBASE,
					     .end = VBASE + (1 << 22) } };
	struct pgw_run_ops rops = { .run = on_run };
	s1 = pgw_walk_runs(&sp, &ro, &rops, &co, NULL, NULL, &e1);
	ok(s1 == PGW_OK && maps(&co) == 6 && co.n == 7 &&
		   co.r[5].kind == PGW_RUN_MAP && co.r[5].same_frame &&
		   co.r[6].entries == 212 + 512 &&
		   co.r[6].end - co.r[6].va == (212 + 512) * 4096,
	   "coalesced: 6 maps and a hole, the last map %llu leaves over two "
	   "tables", (unsigned long long)co.r[co.n - 1].entries);

	/* --leaves across region boundaries that fall inside stretches. */
	static struct pgw_layout lay = { .name = "test", .nregions = 3 };
	lay.region[0] = (struct pgw_region){ "low", "Low", 0, VBASE + 50 * 4096 };
	lay.region[1] = (struct pgw_region){ "mid", "Mid", VBASE + 50 * 4096,
					     VBASE + 700 * 4096 };
	lay.region[2] = (struct pgw_region){ "high", "High", VBASE + 700 * 4096,
					     0 };
	ro.leaves = true;
	ro.layout = &lay;
	s1 = pgw_walk_runs(&sp, &ro, &rops, &lv, NULL, NULL, &e1);
	s2 = pgw_walk_runs_bulk(&sp, &ro, &rops, on_leaf_runs, &lvb, NULL,
				NULL, &e2);
	ok(s1 == PGW_OK && s2 == PGW_OK && runs_equal(&lv, &lvb) &&
		   lvb.bulk_calls > 6,
	   "--leaves with leaf_runs: the same %zu runs, regions and all "
	   "(%u bulk calls)", lvb.n, lvb.bulk_calls);
	bool regions_right = true;
	for (size_t i = 0; i < lvb.n; i++)
		if (lvb.r[i].kind == PGW_RUN_MAP)
			regions_right &= lvb.r[i].region ==
					 pgw_layout_find(&lay, lvb.r[i].va);
	ok(regions_right, "every leaf in the region of its first byte");

	pgw_image_close(img);
	iw_free(&m.b);
	return tap_done();
}
