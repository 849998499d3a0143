/*
 * pgw_search one hit at a time (pull.h).  The pull buffers a few dozen
 * items, so each carries its own bytes: the hit, then its context (the
 * match lies inside it); _next points the hit it gives at them.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/err.h"
#include "../lib/pull.h"

struct pgw_search_iter {
	struct pgw_pull *pull;   /* first: pull.h's iterators */
	const struct pgw_patterns *pat;
	struct pgw_image *img;
	struct pgw_space space;
	bool phys;
	struct pgw_search_opts opts;
	struct pgw_search_stats stats;
	struct search_item *staged;   /* the walk's item being put */
	struct pgw_search_hit given;  /* the reader's */
};

struct search_item {
	struct pgw_search_hit hit;
	uint8_t context[];
};

static int put_hit(void *arg, const struct pgw_search_hit *h)
{
	struct pgw_search_iter *it = arg;

	it->staged->hit = *h;
	memcpy(it->staged->context, h->context, h->context_len);
	return pgw_pull_put(it->pull, it->staged);
}

static enum pgw_status search_body(struct pgw_pull *p, void *ctx,
				   struct pgw_err *err)
{
	struct pgw_search_iter *it = ctx;

	(void)p;
	return pgw_search(it->pat, it->img, it->phys ? NULL : &it->space,
			  &it->opts, put_hit, it, &it->stats, err);
}

enum pgw_status pgw_search_iter_new(const struct pgw_patterns *pat,
				    struct pgw_image *img,
				    const struct pgw_space *space,
				    const struct pgw_search_opts *opts,
				    struct pgw_search_iter **it_ret,
				    struct pgw_err *err)
{
	*it_ret = NULL;
	if (opts->context > PGW_SEARCH_CONTEXT_MAX)
		return pgw_err_set(err, PGW_E_ARG, "context of %zu bytes: at "
				   "most %d", opts->context,
				   PGW_SEARCH_CONTEXT_MAX);
	/* The most context a hit has: the match and both sides. */
	size_t size = sizeof(struct search_item) + 2 * opts->context +
		      PGW_PATTERN_MAX;
	size = (size + 15) & ~(size_t)15;
	struct pgw_search_iter *it = pgw_pull_iter_new(sizeof(*it), size,
						       search_body, err);
	if (!it)
		return err->status;
	if (!(it->staged = malloc(size))) {
		pgw_pull_iter_free(it);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	it->pat = pat;
	it->img = img;
	if (space)
		it->space = *space;
	it->phys = space == NULL;
	it->opts = *opts;
	*it_ret = it;
	return PGW_OK;
}

enum pgw_status pgw_search_iter_next(struct pgw_search_iter *it,
				     const struct pgw_search_hit **hit_ret,
				     struct pgw_err *err)
{
	const void *item;
	enum pgw_status st = pgw_pull_iter_next(it, &item, err);

	*hit_ret = NULL;
	if (!item)
		return st;
	const struct search_item *si = item;
	it->given = si->hit;
	it->given.context = si->context;
	it->given.match = si->context + si->hit.before;
	*hit_ret = &it->given;
	return st;
}

void pgw_search_iter_stats(const struct pgw_search_iter *it,
			   struct pgw_search_stats *stats_ret)
{
	*stats_ret = it->stats;
}

void pgw_search_iter_free(struct pgw_search_iter *it)
{
	if (!it)
		return;
	void *staged = it->staged;
	pgw_pull_iter_free(it);
	free(staged);
}
