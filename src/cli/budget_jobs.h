/*
 * Walks of many spaces on the image's threads (pgw_space_jobs_run) that
 * draw on one entry budget, the command's, spent in order: what they
 * give, where the budget stops them and the exit status are the same on
 * one thread or many.  A worker runs job i ahead of its turn with what
 * was left when it began.  At its turn, in the calling thread, a run is
 * taken by the rule of src/walk/walk_ahead.h with what is left then (as
 * nearly all are); any other (the budget cut it, or it failed: the turn
 * has no use for its error) is done again, in turn, with the budget as
 * it is then.
 */
#ifndef PGW_BUDGET_JOBS_H
#define PGW_BUDGET_JOBS_H

#include "pgwalk.h"

struct budget_jobs {
	const struct pgw_space *spaces;   /* n of them, on one image */
	size_t n;
	/* The budget left; the turns spend it (only they write it). */
	const uint64_t *left;
	/* In a worker: job i on space within max_entries (> 0), keeping
	 * what it found for its turn; *spent_ret: the entries it
	 * examined. */
	enum pgw_status
	(*ahead)(void *arg, size_t i, const struct pgw_space *space,
		 uint64_t max_entries, uint64_t *spent_ret,
		 struct pgw_err *err);
	/* In the calling thread, in order: job i's turn.  taken: keep what
	 * ahead found (spent entries of the budget); else do the job now
	 * on spaces[i], within *left.  Either way spend from *left what it
	 * used.  Non-zero stops: later jobs are dropped. */
	int (*turn)(void *arg, size_t i, bool taken, uint64_t spent);
	void *arg;
};

/* PGW_OK (every turn taken, or one stopped) or PGW_E_NOMEM. */
enum pgw_status budget_jobs_run(const struct budget_jobs *bj,
				struct pgw_err *err);

#endif
