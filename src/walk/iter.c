/*
 * The walker's callback walks read one item at a time (pull.h): runs
 * (pgw_walk_runs) and the ranges of a diff (pgw_diff_spaces).  Each
 * iterator keeps its own copy of what its walk is given.
 */
#include "../lib/err.h"
#include "../lib/pull.h"

struct pgw_runs_iter {
	struct pgw_pull *pull;   /* first: pull.h's iterators */
	struct pgw_space space;
	struct pgw_run_opts opts;
	struct pgw_walk_stats stats;
};

static int put_run(void *arg, const struct pgw_run *run)
{
	return pgw_pull_put(arg, run);
}

static enum pgw_status runs_body(struct pgw_pull *p, void *ctx,
				 struct pgw_err *err)
{
	struct pgw_runs_iter *it = ctx;
	struct pgw_run_ops ops = { .run = put_run };

	return pgw_walk_runs(&it->space, &it->opts, &ops, p, &it->stats, NULL,
			     err);
}

enum pgw_status pgw_runs_iter_new(const struct pgw_space *space,
				  const struct pgw_run_opts *opts,
				  struct pgw_runs_iter **it_ret,
				  struct pgw_err *err)
{
	struct pgw_runs_iter *it = pgw_pull_iter_new(
		sizeof(*it), sizeof(struct pgw_run), runs_body, err);

	if ((*it_ret = it) == NULL)
		return err->status;
	it->space = *space;
	it->opts = *opts;
	return PGW_OK;
}

enum pgw_status pgw_runs_iter_next(struct pgw_runs_iter *it,
				   const struct pgw_run **run_ret,
				   struct pgw_err *err)
{
	const void *item;
	enum pgw_status st = pgw_pull_iter_next(it, &item, err);

	*run_ret = item;
	return st;
}

void pgw_runs_iter_stats(const struct pgw_runs_iter *it,
			 struct pgw_walk_stats *stats_ret)
{
	*stats_ret = it->stats;
}

void pgw_runs_iter_free(struct pgw_runs_iter *it)
{
	pgw_pull_iter_free(it);
}

struct pgw_diff_iter {
	struct pgw_pull *pull;   /* first: pull.h's iterators */
	struct pgw_space a, b;
	struct pgw_diff_opts opts;
	struct pgw_diff_stats stats;
};

static int put_range(void *arg, const struct pgw_diff_range *r)
{
	return pgw_pull_put(arg, r);
}

static enum pgw_status diff_body(struct pgw_pull *p, void *ctx,
				 struct pgw_err *err)
{
	struct pgw_diff_iter *it = ctx;

	return pgw_diff_spaces(&it->a, &it->b, &it->opts, put_range, p,
			       &it->stats, err);
}

enum pgw_status pgw_diff_iter_new(const struct pgw_space *a,
				  const struct pgw_space *b,
				  const struct pgw_diff_opts *opts,
				  struct pgw_diff_iter **it_ret,
				  struct pgw_err *err)
{
	struct pgw_diff_iter *it = pgw_pull_iter_new(
		sizeof(*it), sizeof(struct pgw_diff_range), diff_body, err);

	if ((*it_ret = it) == NULL)
		return err->status;
	it->a = *a;
	it->b = *b;
	it->opts = *opts;
	return PGW_OK;
}

enum pgw_status pgw_diff_iter_next(struct pgw_diff_iter *it,
				   const struct pgw_diff_range **range_ret,
				   struct pgw_err *err)
{
	const void *item;
	enum pgw_status st = pgw_pull_iter_next(it, &item, err);

	*range_ret = item;
	return st;
}

void pgw_diff_iter_stats(const struct pgw_diff_iter *it,
			 struct pgw_diff_stats *stats_ret)
{
	*stats_ret = it->stats;
}

void pgw_diff_iter_free(struct pgw_diff_iter *it)
{
	pgw_pull_iter_free(it);
}
