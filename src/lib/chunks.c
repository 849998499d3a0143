#include "chunks.h"
#include "err.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

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
	size_t merged;               /* pieces merged so far */
	bool feeding, merging;       /* a thread is at it */
	bool end;                    /* no piece after fed */
	bool stop;                   /* a merge said so */
	atomic_uint changes;         /* counts the changes above (under mu),
					for a thread spinning without it */
};

/* How long a thread that waits for another to make the next piece spins
 * before it sleeps: making one (a read of 64 KiB) takes some 10 us, and
 * a sleeping thread's CPU may take far longer to wake (a virtual CPU
 * halted: 20-200 us a wait, measured, 1M addresses on 2 threads losing
 * 1-2 ms to a dozen of them).  Other waits are longer (a piece to run)
 * and sleep at once: spinning 100 us in them cost 2 threads 15 % more CPU
 * and wall time. */
#define SPIN_NS 30000

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Something changed (under s->mu): to the threads asleep or spinning. */
static void changed(struct stream *s)
{
	atomic_fetch_add_explicit(&s->changes, 1, memory_order_release);
	pthread_cond_broadcast(&s->cv);
}

/* With s->mu held and nothing to do: wait for a change, spinning first
 * (without the lock, SPIN_NS at most) while another thread makes a
 * piece. */
static void await_change(struct stream *s)
{
	unsigned seen = atomic_load_explicit(&s->changes,
					     memory_order_relaxed);

	if (!s->feeding) {
		pthread_cond_wait(&s->cv, &s->mu);
		return;
	}
	pthread_mutex_unlock(&s->mu);
	int64_t until = now_ns() + SPIN_NS;
	for (unsigned k = 1;; k++) {
		if (atomic_load_explicit(&s->changes, memory_order_acquire) !=
		    seen)
			break;
		cpu_relax();
		if (k % 64 == 0 && now_ns() > until)
			break;
	}
	pthread_mutex_lock(&s->mu);
	/* A change made while the lock was free is seen here, under it;
	 * any later one is made under it, after the wait below starts. */
	if (atomic_load_explicit(&s->changes, memory_order_relaxed) == seen)
		pthread_cond_wait(&s->cv, &s->mu);
}

struct stream_worker {
	struct stream *s;
	unsigned index;
	pthread_t thread;
};

/*
 * Every thread, the calling one too, does what there is to do, under
 * s->mu: merges the pieces that are next in order and run (one thread
 * at a time), else makes the next piece (one at a time) and runs it
 * itself, else waits.  The piece a thread made is still in its cache
 * when it runs it, and no thread only reads or writes.
 */
static void stream_loop(struct stream *s, unsigned w, size_t until)
{
	const struct pgw_chunks_stream *c = s->c;

	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		if (!s->merging && s->merged < s->fed &&
		    s->done[s->merged % c->slots]) {
			size_t i = s->merged;
			s->merging = true;
			pthread_mutex_unlock(&s->mu);
			int stop = c->merge(c->arg, i);
			pthread_mutex_lock(&s->mu);
			s->done[i % c->slots] = false;
			s->merged = i + 1;
			s->merging = false;
			s->stop = stop != 0;
			changed(s);
			continue;
		}
		if (!s->feeding && !s->end && s->fed < s->merged + c->slots) {
			size_t i = s->fed;
			if (i >= until)
				break;
			s->feeding = true;
			pthread_mutex_unlock(&s->mu);
			bool more = c->feed(c->arg, i);
			pthread_mutex_lock(&s->mu);
			s->feeding = false;
			if (more)
				s->fed = i + 1;
			else
				s->end = true;
			changed(s);
			if (!more)
				continue;
			pthread_mutex_unlock(&s->mu);
			c->run(c->arg, w, i);
			pthread_mutex_lock(&s->mu);
			s->done[i % c->slots] = true;
			changed(s);
			continue;   /* it may be the next to merge */
		}
		if (s->end && s->merged == s->fed)
			break;
		await_change(s);
	}
	/* Whoever waits for this one's piece, or for the end. */
	changed(s);
	pthread_mutex_unlock(&s->mu);
}

static void *stream_work(void *arg)
{
	struct stream_worker *w = arg;

	stream_loop(w->s, w->index, SIZE_MAX);
	return NULL;
}

enum pgw_status pgw_chunks_stream_run(const struct pgw_chunks_stream *c,
				      struct pgw_err *err)
{
	struct stream s = {
		.c = c, .mu = PTHREAD_MUTEX_INITIALIZER,
		.cv = PTHREAD_COND_INITIALIZER,
	};
	unsigned others = c->workers > 1 ? c->workers - 1 : 0;
	struct stream_worker *w = calloc(others ? others : 1, sizeof(*w));
	unsigned started = 0;

	s.done = calloc(c->slots, sizeof(*s.done));
	if (!w || !s.done) {
		free(w);
		free(s.done);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	/* The first pieces alone; then, when there are more, the others
	 * (threads that do not start leave the work to those that do). */
	stream_loop(&s, 0, c->alone);
	bool more = !s.stop && !s.end;
	if (more && others && c->start && !c->start(c->arg))
		others = 0;
	for (unsigned t = 0; more && t < others; t++) {
		w[started].s = &s;
		w[started].index = started + 1;
		if (pthread_create(&w[started].thread, NULL, stream_work,
				   &w[started]) == 0)
			started++;
	}
	if (more)
		stream_loop(&s, 0, SIZE_MAX);
	for (unsigned t = 0; t < started; t++)
		pthread_join(w[t].thread, NULL);
	free(w);
	free(s.done);
	return PGW_OK;
}
