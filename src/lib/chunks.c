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

struct stream {
	const struct pgw_chunks_stream *c;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool *done;                  /* per slot: its piece run */
	size_t fed;                  /* pieces made so far */
	size_t next;                 /* the next piece to claim */
	bool end;                    /* no piece after fed */
	bool stop;
};

struct stream_worker {
	struct stream *s;
	unsigned index;
	pthread_t thread;
};

static void *stream_work(void *arg)
{
	struct stream_worker *w = arg;
	struct stream *s = w->s;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (!s->stop && !s->end && s->next >= s->fed)
			pthread_cond_wait(&s->cv, &s->mu);
		if (s->stop || s->next >= s->fed)
			break;
		size_t i = s->next++;
		pthread_mutex_unlock(&s->mu);
		s->c->run(s->c->arg, w->index, i);
		pthread_mutex_lock(&s->mu);
		s->done[i % s->c->slots] = true;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

enum pgw_status pgw_chunks_stream_run(const struct pgw_chunks_stream *c,
				      struct pgw_err *err)
{
	struct stream s = {
		.c = c, .mu = PTHREAD_MUTEX_INITIALIZER,
		.cv = PTHREAD_COND_INITIALIZER,
	};
	struct stream_worker *w = calloc(c->workers, sizeof(*w));
	unsigned started = 0;
	size_t merged = 0;
	bool end = false;

	s.done = calloc(c->slots, sizeof(*s.done));
	if (!w || !s.done) {
		free(w);
		free(s.done);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	for (unsigned t = 0; t < c->workers; t++) {
		w[t].s = &s;
		w[t].index = t;
		if (pthread_create(&w[t].thread, NULL, stream_work, &w[t]))
			break;
		started++;
	}
	for (size_t fed = 0; started;) {
		/* As many pieces as there are slots free, each handed out as
		 * soon as it is made. */
		while (!end && fed < merged + c->slots) {
			end = !c->feed(c->arg, fed);
			pthread_mutex_lock(&s.mu);
			if (end)
				s.end = true;
			else
				s.fed = ++fed;
			pthread_cond_broadcast(&s.cv);
			pthread_mutex_unlock(&s.mu);
		}
		if (merged == fed)
			break;
		bool *done = &s.done[merged % c->slots];
		pthread_mutex_lock(&s.mu);
		while (!*done)
			pthread_cond_wait(&s.cv, &s.mu);
		*done = false;
		pthread_mutex_unlock(&s.mu);
		if (c->merge(c->arg, merged++))
			break;
	}
	pthread_mutex_lock(&s.mu);
	s.stop = true;
	pthread_cond_broadcast(&s.cv);
	pthread_mutex_unlock(&s.mu);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].thread, NULL);
	free(w);
	free(s.done);
	/* No thread: the calling thread alone. */
	for (size_t i = 0; !started && c->feed(c->arg, i); i++) {
		c->run(c->arg, 0, i);
		if (c->merge(c->arg, i))
			break;
	}
	return PGW_OK;
}
