/*
 * Work on many spaces of one image on its threads (pgw_space_jobs_run):
 * each job on a worker's own image, merged in order by the calling
 * thread (src/lib/chunks.c), so what the merges build is the same on one
 * thread or many.
 */
#include "../formats/image_page.h"
#include "../lib/chunks.h"
#include "../lib/err.h"

#include <stdlib.h>

struct job_result {
	enum pgw_status st;
	struct pgw_err err;
};

struct pool_arg {
	const struct pgw_space_jobs *jobs;
	struct pgw_image *const *images;   /* per worker */
	struct job_result *res;
};

static void run_job(void *arg, unsigned w, size_t i)
{
	struct pool_arg *p = arg;
	struct pgw_space sp = p->jobs->spaces[i];

	sp.img = p->images[w];
	p->res[i].err = (struct pgw_err){ 0 };
	p->res[i].st = p->jobs->run(p->jobs->arg, i, &sp, &p->res[i].err);
}

static int merge_job(void *arg, size_t i)
{
	struct pool_arg *p = arg;

	return p->jobs->merge(p->jobs->arg, i, p->res[i].st, &p->res[i].err);
}

static void alone(const struct pgw_space_jobs *jobs)
{
	for (size_t i = 0; i < jobs->n; i++) {
		struct pgw_err err = { 0 };
		enum pgw_status st = jobs->run(jobs->arg, i, &jobs->spaces[i],
					       &err);
		if (jobs->merge(jobs->arg, i, st, &err))
			return;
	}
}

enum pgw_status pgw_space_jobs_run(const struct pgw_space_jobs *jobs,
				   struct pgw_err *err)
{
	struct pgw_image *img = jobs->n ? jobs->spaces[0].img : NULL;
	unsigned threads = img ? pgw_image_threads(img) : 1;
	struct pool_arg p = { .jobs = jobs };
	struct pgw_err ignored;

	if (threads > jobs->n)
		threads = (unsigned)jobs->n;
	if (threads < 2 ||
	    pgw_image_workers(img, threads, &p.images, &ignored) != PGW_OK) {
		alone(jobs);
		return PGW_OK;
	}
	if (!(p.res = calloc(jobs->n, sizeof(*p.res))))
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	struct pgw_chunks c = {
		.n = jobs->n, .workers = threads, .run = run_job,
		.merge = merge_job, .arg = &p,
	};
	enum pgw_status st = pgw_chunks_run(&c, err);
	free(p.res);
	/* No worker started: nothing was run or merged. */
	if (st == PGW_E_UNSUPPORTED) {
		alone(jobs);
		return PGW_OK;
	}
	return st;
}
