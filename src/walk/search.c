/*
 * pgw_search: physical memory a frame at a time, or one address space in
 * address order through its page tables (PROT_NONE pages too: Linux
 * still knows their frames), fed to the scanner (search_scan.c) page by
 * page.  Each hit is given with the bytes it matched and its context,
 * read again through the same space; a page the image lacks is counted
 * by reason, never searched as zeros.
 */
#include <stdlib.h>
#include <string.h>

#include "patterns.h"
#include "search_chunks.h"
#include "search_feed.h"
#include "search_scan.h"
#include "../lib/err.h"

struct searcher {
	struct pgw_image *img;
	const struct pgw_space *space;    /* NULL: physical memory */
	const struct pgw_patterns *pat;
	const struct pgw_search_opts *opts;
	pgw_search_fn fn;
	void *arg;
	int stopped;                      /* fn's non-zero answer */
	uint64_t same_frame_pages;        /* the leaf being searched: a
					     shared table maps it this many
					     times */
	uint64_t page_size;
	struct pgw_search_stats *stats;
	struct scanner sc;
	uint8_t page[PGW_PAGE_SIZE];
	uint8_t ctx[2 * PGW_SEARCH_CONTEXT_MAX + PGW_PATTERN_MAX];
};

/* The frame behind addr (a va, or a pa in physical memory), PROT_NONE
 * pages' too; false when there is none. */
static bool frame_of(struct searcher *se, uint64_t addr, uint64_t *pa)
{
	struct pgw_xlat x;

	if (!se->space) {
		*pa = addr;
		return true;
	}
	if (pgw_translate(se->space, NULL, addr, &x) == PGW_STOP_OK) {
		*pa = x.pa;
		return true;
	}
	if (x.stop != PGW_STOP_NOT_PRESENT || x.nsteps == 0)
		return false;
	const struct pgw_step *st = &x.step[x.nsteps - 1];
	if (!st->read_ok || st->entry.np_kind != PGW_NP_PROTNONE)
		return false;
	uint64_t span = UINT64_C(1) << se->space->mode->level[st->level].shift;
	*pa = (st->entry.np_pfn << PGW_PAGE_SHIFT) + (addr & (span - 1));
	return true;
}

/* Up to n bytes at addr, as far as they can be read. */
static size_t fetch(struct searcher *se, uint64_t addr, uint8_t *out,
		    size_t n)
{
	size_t got = 0;
	struct pgw_err err = { 0 };

	while (got < n) {
		uint64_t pa;
		size_t off = (size_t)(addr & (PGW_PAGE_SIZE - 1));
		size_t take = PGW_PAGE_SIZE - off;
		if (take > n - got)
			take = n - got;
		if (!frame_of(se, addr, &pa) ||
		    pgw_image_read_page(se->img, pa >> PGW_PAGE_SHIFT,
					se->page, &err) != PGW_OK)
			break;
		memcpy(out + got, se->page + (pa & (PGW_PAGE_SIZE - 1)),
		       take);
		got += take;
		addr += take;
	}
	return got;
}

/* The context before addr: the bytes nearest it that can be read. */
static size_t fetch_before(struct searcher *se, uint64_t addr, uint8_t *out,
			   size_t n)
{
	if (n > addr)
		n = (size_t)addr;
	size_t got = 0;
	while (got < n) {
		/* The piece just before what is already fetched, within one
		 * page. */
		uint64_t end = addr - got;
		size_t take = (size_t)(((end - 1) & (PGW_PAGE_SIZE - 1)) + 1);
		if (take > n - got)
			take = n - got;
		if (fetch(se, end - take, out + n - got - take, take) != take)
			break;
		got += take;
	}
	memmove(out, out + n - got, got);
	return got;
}

static void on_hit(void *arg, const struct scan_hit *sh)
{
	struct searcher *se = arg;
	const struct pattern *p = se->pat->p[sh->pattern];
	size_t context = se->opts->context;
	uint8_t *ctx = se->ctx;

	se->stats->hits++;
	if (se->stopped || (se->opts->max_hits &&
			    se->stats->given == se->opts->max_hits))
		return;
	se->stats->given++;
	size_t before = fetch_before(se, sh->addr, ctx, context);
	size_t got = fetch(se, sh->addr, ctx + before, sh->len);
	size_t after = got == sh->len ?
		fetch(se, sh->addr + sh->len, ctx + before + sh->len,
		      context) : 0;
	struct pgw_search_hit h = {
		.addr = sh->addr, .pa = sh->pa, .pattern = sh->pattern,
		.kind = p->kind, .text = p->text,
		.rule = sh->rule, .rule_string = sh->string,
		.match = ctx + before, .size = got,
		.context_start = sh->addr - before, .context = ctx,
		.context_len = before + got + after, .before = before,
		.same_frame_pages = se->same_frame_pages,
		.page_size = se->page_size,
	};
	se->stopped = se->fn(se->arg, &h);
}

/* The page at addr, frame pa, into the scanner, or counted as not in
 * the image. */
static void feed(struct searcher *se, uint64_t addr, uint64_t pa)
{
	struct search_feed f = {
		.img = se->img, .sc = &se->sc,
		.not_in_image = se->stats->not_in_image,
	};

	search_feed_page(&f, addr, pa);
}

/* ---- physical memory ---- */

static int cmp_range(const void *a, const void *b)
{
	const struct pgw_phys_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every frame the image describes, once (ranges may overlap). */
static enum pgw_status search_phys(struct searcher *se, struct pgw_err *err)
{
	const struct pgw_phys_range *r0;
	size_t n = pgw_image_ranges(se->img, &r0);
	struct pgw_phys_range *r = malloc((n ? n : 1) * sizeof(*r));
	uint64_t done = 0;   /* frames below this were searched */

	if (!r)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	if (search_phys_threads(se->img, r0, n, &se->sc,
				se->stats->not_in_image, &se->stopped)) {
		free(r);
		return PGW_OK;
	}
	if (n) {
		memcpy(r, r0, n * sizeof(*r));
		qsort(r, n, sizeof(*r), cmp_range);
	}
	struct search_feed f;
	search_feed_init(&f, se->img, &se->sc, se->stats->not_in_image);
	f.stopped = &se->stopped;
	for (size_t i = 0; i < n && !se->stopped; i++) {
		/* Frames below done were fed (ranges may overlap); frames
		 * count to 2^52, so a range at the top cannot wrap. */
		uint64_t pfn = r[i].start >> PGW_PAGE_SHIFT;
		uint64_t end = r[i].start + r[i].size;
		if (end < r[i].start)
			continue;
		uint64_t efn = (end >> PGW_PAGE_SHIFT) +
			       ((end & (PGW_PAGE_SIZE - 1)) != 0);
		if (pfn < done)
			pfn = done;
		search_feed_frames(&f, pfn, efn);
		if (efn > done)
			done = efn;
	}
	scan_break(&se->sc);
	free(r);
	return PGW_OK;
}

/* ---- an address space ---- */

static int on_leaf(void *arg, const struct pgw_leaf *lf)
{
	struct searcher *se = arg;

	/* A shared table that maps one frame everywhere: its first page
	 * searched once, the hits naming how often it repeats. */
	if (lf->count > 1) {
		scan_break(&se->sc);
		se->same_frame_pages = lf->count;
		se->page_size = lf->size;
	}
	for (uint64_t off = 0; off < lf->size && !se->stopped;
	     off += PGW_PAGE_SIZE)
		feed(se, lf->va + off, lf->pa + off);
	if (lf->count > 1) {
		scan_break(&se->sc);
		se->same_frame_pages = 0;
	}
	return se->stopped;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct searcher *se = arg;

	if (h->stop == PGW_STOP_TABLE_NOT_IN_IMAGE)
		se->stats->tables_not_in_image++;
	if (h->stop != PGW_STOP_NOT_PRESENT ||
	    h->entry.np_kind != PGW_NP_PROTNONE)
		return 0;
	/* PROT_NONE: not present to the CPU, but the frame is the
	 * process's memory all the same. */
	uint64_t pa = h->entry.np_pfn << PGW_PAGE_SHIFT;
	for (uint64_t va = h->va; va != h->end && !se->stopped;
	     va += PGW_PAGE_SIZE)
		feed(se, va, pa + (va - h->va));
	return se->stopped;
}

static enum pgw_status search_virt(struct searcher *se, struct pgw_err *err)
{
	struct pgw_walk_ops ops = { .leaf = on_leaf, .hole = on_hole };
	struct pgw_walk_opts wo = { .start = se->opts->start,
				    .end = se->opts->end,
				    .max_entries = se->opts->max_entries };
	int stopped = 0;
	enum pgw_status st = pgw_walk_range(se->space, &wo, &ops, se, NULL,
					    &stopped, err);

	/* What the scanner holds is searched even when the walk was cut. */
	scan_break(&se->sc);
	return st;
}

enum pgw_status pgw_search(const struct pgw_patterns *pat,
			   struct pgw_image *img,
			   const struct pgw_space *space,
			   const struct pgw_search_opts *opts,
			   pgw_search_fn fn, void *arg,
			   struct pgw_search_stats *stats_ret,
			   struct pgw_err *err)
{
	struct pgw_search_stats stats = { 0 };
	struct searcher *se;
	enum pgw_status st;

	if (stats_ret)
		*stats_ret = stats;
	if (opts->context > PGW_SEARCH_CONTEXT_MAX)
		return pgw_err_set(err, PGW_E_ARG, "context of %zu bytes: at "
				   "most %d", opts->context,
				   PGW_SEARCH_CONTEXT_MAX);
	if (!(se = calloc(1, sizeof(*se))) ||
	    !scan_init(&se->sc, pat->p, pat->n, on_hit, se)) {
		if (se)
			scan_free(&se->sc);
		free(se);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	se->img = img;
	se->space = space;
	se->pat = pat;
	se->opts = opts;
	se->fn = fn;
	se->arg = arg;
	se->stats = &stats;
	st = space ? search_virt(se, err) : search_phys(se, err);
	stats.bytes_searched = se->sc.bytes;
	if (st == PGW_OK && se->sc.failed)
		st = pgw_err_set(err, PGW_E_UNSUPPORTED, "%s", se->sc.failed);
	else if (st == PGW_OK && se->sc.oom)
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory: matches "
				 "were lost");
	else if ((st == PGW_OK || st == PGW_E_STOPPED) && se->stopped)
		st = pgw_err_set(err, PGW_E_STOPPED, "stopped by the caller");
	scan_free(&se->sc);
	free(se);
	if (stats_ret)
		*stats_ret = stats;
	return st;
}
