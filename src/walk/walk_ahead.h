/*
 * Walks run ahead of their turn on worker threads, for turns that spend
 * one entry budget in order on the calling thread (roots' user halves,
 * src/linux/roots_jobs.c; check's and ptov's --all-roots walks,
 * src/cli/budget_jobs.c).  The answer is one thread's only if a turn
 * takes a walk run ahead just where it is the walk the turn would make.
 *
 * The rule: a walk run within `cap` entries (pgw_walk_opts' max_entries)
 * is the walk its turn would make within `due` when cap >= due, it ended
 * on its own (not at cap) and it examined fewer than due entries: the
 * walker's steps do not depend on its cap until it meets it, so within
 * due it takes the same steps to the same end.  Any other is walked
 * again at its turn, within due.  Turns only spend, so a worker that
 * runs with the largest cap a later turn can give (what was left when
 * it began, or the first turn's cap) loses only walks the budget cuts.
 */
#ifndef PGW_WALK_AHEAD_H
#define PGW_WALK_AHEAD_H

#include "pgwalk.h"

struct pgw_walk_ahead {
	uint64_t cap;       /* the max_entries it ran with; 0: not run */
	uint64_t entries;   /* the entries it examined */
	bool cut;           /* it stopped at cap (PGW_E_LIMIT) */
};

/* The walk `ran` stands for its turn's, within due entries. */
static inline bool pgw_walk_ahead_fits(const struct pgw_walk_ahead *ran,
				       uint64_t due)
{
	return ran->cap >= due && !ran->cut && ran->entries < due;
}

#endif
