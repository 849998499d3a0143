/*
 * Leaves in bulk, for pgwalk's own dump --leaves: not in pgwalk.h, so
 * that the public walk of runs keeps one callback per run.  Private to
 * src/walk, the CLI and the tests.
 */
#ifndef PGW_RUNS_BULK_H
#define PGW_RUNS_BULK_H

#include "pgwalk.h"

/* n >= 2 one-leaf map runs in a row of one table and region, the k-th
 * being first with va, end and pa advanced by k * page_size. */
typedef int (*pgw_leaf_runs_fn)(void *arg, const struct pgw_run *first,
				uint64_t n);

/*
 * pgw_walk_runs, with opts->leaves' leaves that follow one another frame
 * after frame given to leaf_runs in one call (NULL: ops->run for each).
 * dump --leaves spells the first's record once and copies it for the
 * rest (src/cli/stencil.c): 8 Mi leaf PTEs in 137 ms of CPU, against
 * 675 ms a record at a time.
 */
enum pgw_status pgw_walk_runs_bulk(const struct pgw_space *space,
				   const struct pgw_run_opts *opts,
				   const struct pgw_run_ops *ops,
				   pgw_leaf_runs_fn leaf_runs, void *arg,
				   struct pgw_walk_stats *stats_ret,
				   int *stopped_ret, struct pgw_err *err);

#endif
