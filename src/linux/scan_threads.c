/*
 * A scan's chunks on worker threads.  Each worker reads through an image
 * of its own and takes the next chunk from a counter, a few chunks ahead
 * of the merge at most; the calling thread merges the chunks in order as
 * they are done.  The lock is taken twice a chunk (4096 pages), never per
 * page, so the threads share nothing on the way through their pages.
 */
#include "../lib/err.h"
#include "scan_chunks.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Chunks a worker may run ahead of the merge, per worker: enough that no
 * thread waits on another's slow chunk, few enough that the findings
 * held for the merge stay small. */
#define AHEAD_PER_WORKER 4

struct pool {
	const struct scan_job *job;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool *done;                  /* per chunk: its result is written */
	size_t next;                 /* the next chunk to claim */
	size_t merged;               /* chunks merged so far */
	size_t ahead;
	bool stop;
};

struct worker {
	struct pool *pool;
	struct pgw_image *img;
	void *scratch;
	pthread_t thread;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->stop && p->next < p->job->nplan &&
		       p->next >= p->merged + p->ahead)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop || p->next >= p->job->nplan)
			break;
		size_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (!p->job->plan[i].unheld)
			scan_run_chunk(p->job, w->img, w->scratch, i,
				       SCAN_NO_BUDGET);
		pthread_mutex_lock(&p->mu);
		p->done[i] = true;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

enum pgw_status scan_threads_run(const struct scan_job *job,
				 struct pgw_image *const *workers,
				 unsigned nworkers,
				 int (*merge)(void *arg, size_t i), void *arg,
				 struct pgw_err *err)
{
	struct pool p = {
		.job = job, .ahead = (size_t)nworkers * AHEAD_PER_WORKER,
		.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
	};
	struct worker *w = calloc(nworkers, sizeof(*w));
	size_t scratch = job->f->scratch_size;
	unsigned started = 0;
	enum pgw_status st = PGW_OK;

	p.done = calloc(job->nplan ? job->nplan : 1, sizeof(*p.done));
	if (!w || !p.done) {
		free(w);
		free(p.done);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	for (unsigned t = 0; t < nworkers && st == PGW_OK; t++) {
		w[t].pool = &p;
		w[t].img = workers[t];
		if (scratch && !(w[t].scratch = malloc(scratch)))
			st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	/* Threads are a speed-up only: those that start do the work, and
	 * when none does the caller scans on its own. */
	for (unsigned t = 0; t < nworkers && st == PGW_OK; t++) {
		if (pthread_create(&w[t].thread, NULL, work, &w[t]) != 0)
			break;
		started++;
	}
	if (st == PGW_OK && !started)
		st = pgw_err_set(err, PGW_E_UNSUPPORTED, "no scan thread "
				 "could start");
	for (size_t i = 0; st == PGW_OK && i < job->nplan; i++) {
		pthread_mutex_lock(&p.mu);
		while (!p.done[i])
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
		int stop = merge(arg, i);
		pthread_mutex_lock(&p.mu);
		p.merged = i + 1;
		p.stop = stop != 0;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		if (stop)
			break;
	}
	pthread_mutex_lock(&p.mu);
	p.stop = true;
	pthread_cond_broadcast(&p.cv);
	pthread_mutex_unlock(&p.mu);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].thread, NULL);
	for (unsigned t = 0; t < nworkers; t++)
		free(w[t].scratch);
	free(w);
	free(p.done);
	return st;
}
