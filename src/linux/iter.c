/*
 * Linux's results read one item at a time: a root's check findings
 * (pgw_check_root, through pull.h) and the roots a scan found (an array
 * already: the iterator walks it).
 */
#include "../lib/err.h"
#include "../lib/pull.h"

#include <stdlib.h>

struct pgw_findings_iter {
	struct pgw_pull *pull;   /* first: pull.h's iterators */
	struct pgw_check *ck;
	struct pgw_space space;
	struct pgw_check_root_opts opts;
	struct pgw_check_stats stats;
};

static int put_finding(void *arg, const struct pgw_finding *f)
{
	return pgw_pull_put(arg, f);
}

static enum pgw_status findings_body(struct pgw_pull *p, void *ctx,
				     struct pgw_err *err)
{
	struct pgw_findings_iter *it = ctx;

	return pgw_check_root(it->ck, &it->space, &it->opts, put_finding, p,
			      &it->stats, err);
}

enum pgw_status pgw_findings_iter_new(struct pgw_check *ck,
				      const struct pgw_space *space,
				      const struct pgw_check_root_opts *opts,
				      struct pgw_findings_iter **it_ret,
				      struct pgw_err *err)
{
	struct pgw_findings_iter *it = pgw_pull_iter_new(
		sizeof(*it), sizeof(struct pgw_finding), findings_body, err);

	if ((*it_ret = it) == NULL)
		return err->status;
	it->ck = ck;
	it->space = *space;
	it->opts = *opts;
	return PGW_OK;
}

enum pgw_status pgw_findings_iter_next(struct pgw_findings_iter *it,
				       const struct pgw_finding **f_ret,
				       struct pgw_err *err)
{
	const void *item;
	enum pgw_status st = pgw_pull_iter_next(it, &item, err);

	*f_ret = item;
	return st;
}

void pgw_findings_iter_stats(const struct pgw_findings_iter *it,
			     struct pgw_check_stats *stats_ret)
{
	*stats_ret = it->stats;
}

void pgw_findings_iter_free(struct pgw_findings_iter *it)
{
	pgw_pull_iter_free(it);
}

struct pgw_roots_iter {
	const struct pgw_roots *roots;
	size_t next;
};

enum pgw_status pgw_roots_iter_new(const struct pgw_roots *roots,
				   struct pgw_roots_iter **it_ret,
				   struct pgw_err *err)
{
	struct pgw_roots_iter *it = calloc(1, sizeof(*it));

	*it_ret = NULL;
	if (!it)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	it->roots = roots;
	*it_ret = it;
	return PGW_OK;
}

enum pgw_status pgw_roots_iter_next(struct pgw_roots_iter *it,
				    const struct pgw_root_found **root_ret,
				    const struct pgw_root_diff **diffs_ret)
{
	const struct pgw_roots *r = it->roots;
	const struct pgw_root_found *f =
		it->next < r->n ? &r->root[it->next++] : NULL;

	*root_ret = f;
	if (diffs_ret)
		*diffs_ret = f && f->ndiffs_listed ? &r->diffs[f->diff] : NULL;
	return PGW_OK;
}

void pgw_roots_iter_free(struct pgw_roots_iter *it)
{
	free(it);
}
