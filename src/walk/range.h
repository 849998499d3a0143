/*
 * The range walk with one more callback, for consumers inside the library
 * that take leaves in bulk (the coalescer): most of a large address space
 * is 4 KiB pages whose entries follow one another frame after frame, and
 * one call for a whole stretch of a table costs what one leaf did.
 */
#ifndef PGW_WALK_RANGE_H
#define PGW_WALK_RANGE_H

#include "pgwalk.h"

/*
 * n >= 2 leaves in a row of one table: the k-th (k < n) is first with va,
 * pa, entry.addr and entry.raw advanced by k * first->size (everything
 * else the same).  Non-zero stops the walk, as a leaf callback's does.
 */
typedef int (*pgw_leaf_run_fn)(void *arg, const struct pgw_leaf *first,
			       uint64_t n);

/* pgw_walk_range, with runs of such leaves given to leaf_run (NULL: one
 * leaf at a time, as pgw_walk_range does). */
enum pgw_status pgw_walk_range_bulk(const struct pgw_space *space,
				    const struct pgw_walk_opts *opts,
				    const struct pgw_walk_ops *ops,
				    pgw_leaf_run_fn leaf_run, void *arg,
				    struct pgw_walk_stats *stats_ret,
				    int *stopped_ret, struct pgw_err *err);

#endif
