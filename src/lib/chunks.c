#include "chunks.h"
#include "err.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

/* Pieces a worker may run ahead of the merge, per worker: enough that no
 * thread waits on another's slow piece, few enough that what the pieces
 * hold for the merge stays small. */
#define AHEAD_PER_WORKER 4

struct pool {
	const struct pgw_chunks *c;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool *done;                  /* per piece: run */
	size_t next;                 /* the next piece to claim */
	size_t merged;               /* pieces merged so far */
	size_t ahead;
	bool stop;
};

struct worker {
	struct pool *pool;
	unsigned index;
	pthread_t thread;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *p = w->pool;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->stop && p->next < p->c->n &&
		       p->next >= p->merged + p->ahead)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->stop || p->next >= p->c->n)
			break;
		size_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		p->c->run(p->c->arg, w->index, i);
		pthread_mutex_lock(&p->mu);
		p->done[i] = true;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

enum pgw_status pgw_chunks_run(const struct pgw_chunks *c,
			       struct pgw_err *err)
{
	struct pool p = {
		.c = c, .ahead = (size_t)c->workers * AHEAD_PER_WORKER,
		.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
	};
	struct worker *w = calloc(c->workers, sizeof(*w));
	unsigned started = 0;

	p.done = calloc(c->n ? c->n : 1, sizeof(*p.done));
	if (!w || !p.done) {
		free(w);
		free(p.done);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	for (unsigned t = 0; t < c->workers; t++) {
		w[t].pool = &p;
		w[t].index = t;
		if (pthread_create(&w[t].thread, NULL, work, &w[t]) != 0)
			break;
		started++;
	}
	for (size_t i = 0; started && i < c->n; i++) {
		pthread_mutex_lock(&p.mu);
		while (!p.done[i])
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
		int stop = c->merge(c->arg, i);
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
	free(w);
	free(p.done);
	if (!started)
		return pgw_err_set(err, PGW_E_UNSUPPORTED, "no worker thread "
				   "could start");
	return PGW_OK;
}
