/*
 * One entry budget for walks on threads, spent in order (budget_jobs.h
 * says how); pgw_space_jobs_run runs them.
 */
#include "budget_jobs.h"
#include "exit_codes.h"
#include "../walk/walk_ahead.h"

#include <stdlib.h>

struct run {
	const struct budget_jobs *bj;
	uint64_t left;           /* *bj->left as the workers may read it */
	struct pgw_walk_ahead *ran;   /* each job's run ahead */
};

static enum pgw_status run_ahead(void *arg, size_t i,
				 const struct pgw_space *space,
				 struct pgw_err *err)
{
	struct run *r = arg;
	uint64_t left = __atomic_load_n(&r->left, __ATOMIC_RELAXED);
	uint64_t spent = 0;

	r->ran[i] = (struct pgw_walk_ahead){ 0 };
	if (left == 0)
		return PGW_E_LIMIT;   /* none: not run, done in turn */
	enum pgw_status st = r->bj->ahead(r->bj->arg, i, space, left, &spent,
					  err);
	r->ran[i] = (struct pgw_walk_ahead){
		.cap = left, .entries = spent, .cut = st == PGW_E_LIMIT,
	};
	return st;
}

static int take_turn(void *arg, size_t i, enum pgw_status st,
		     const struct pgw_err *err)
{
	struct run *r = arg;
	const struct budget_jobs *bj = r->bj;

	(void)err;   /* a failed run is done again, and fails in turn */
	bool taken = st == PGW_OK && pgw_walk_ahead_fits(&r->ran[i], *bj->left);
	int stop = bj->turn(bj->arg, i, taken, r->ran[i].entries);
	__atomic_store_n(&r->left, *bj->left, __ATOMIC_RELAXED);
	return stop;
}

enum pgw_status budget_jobs_run(const struct budget_jobs *bj,
				struct pgw_err *err)
{
	struct run r = { .bj = bj, .left = *bj->left };

	if (bj->n == 0)
		return PGW_OK;
	if (!(r.ran = calloc(bj->n, sizeof(*r.ran))))
		return pgw_cli_out_of_memory(err);
	struct pgw_space_jobs jobs = {
		.spaces = bj->spaces, .n = bj->n, .run = run_ahead,
		.merge = take_turn, .arg = &r,
	};
	enum pgw_status st = pgw_space_jobs_run(&jobs, err);
	free(r.ran);
	return st;
}
