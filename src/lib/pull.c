/*
 * Callbacks read one item at a time (pull.h): the walk's thread and the
 * reader hand a turn to each other under one mutex; whoever does not
 * have it waits.
 */
#include "err.h"
#include "pull.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Items handed over at each turn: a turn costs two thread switches. */
#define PULL_ITEMS 64

struct pgw_pull {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t thread;
	bool started;          /* the thread was created */
	bool walk_turn;        /* the walk runs (else the reader) */
	bool done;             /* body returned: status, err */
	bool cancel;           /* the reader has gone */
	pgw_pull_body body;
	void *ctx;
	enum pgw_status status;
	struct pgw_err err;
	size_t item_size;
	size_t n, next;        /* items in buf, the next one to read */
	unsigned char *buf;
};

/* Give the turn away (walk: to the reader) and wait for it back. */
static void hand_over(struct pgw_pull *p, bool to_walk)
{
	pthread_mutex_lock(&p->mu);
	p->walk_turn = to_walk;
	pthread_cond_broadcast(&p->cv);
	while (p->walk_turn == to_walk && !(to_walk && p->done))
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

static void *walk_thread(void *arg)
{
	struct pgw_pull *p = arg;

	pthread_mutex_lock(&p->mu);
	while (!p->walk_turn)
		pthread_cond_wait(&p->cv, &p->mu);
	bool cancel = p->cancel;
	pthread_mutex_unlock(&p->mu);
	p->status = cancel ? PGW_E_STOPPED : p->body(p, p->ctx, &p->err);
	pthread_mutex_lock(&p->mu);
	p->done = true;
	p->walk_turn = false;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

enum pgw_status pgw_pull_new(struct pgw_pull **p_ret, size_t item_size,
			     pgw_pull_body body, void *ctx,
			     struct pgw_err *err)
{
	struct pgw_pull *p = calloc(1, sizeof(*p));

	*p_ret = NULL;
	if (!p || !(p->buf = malloc(item_size * PULL_ITEMS))) {
		free(p);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->body = body;
	p->ctx = ctx;
	p->item_size = item_size;
	int rc = pthread_create(&p->thread, NULL, walk_thread, p);
	if (rc != 0) {
		pgw_pull_free(p);
		err->errnum = rc;
		return pgw_err_set(err, rc == EAGAIN ? PGW_E_NOMEM : PGW_E_IO,
				   "cannot start the walk's thread: %s",
				   strerror(rc));
	}
	p->started = true;
	*p_ret = p;
	return PGW_OK;
}

int pgw_pull_put(struct pgw_pull *p, const void *item)
{
	memcpy(p->buf + p->n * p->item_size, item, p->item_size);
	if (++p->n < PULL_ITEMS)
		return 0;
	hand_over(p, false);
	/* The reader took them all, or left. */
	p->n = 0;
	return p->cancel;
}

enum pgw_status pgw_pull_next(struct pgw_pull *p, const void **item_ret,
			      struct pgw_err *err)
{
	if (p->next == p->n && !p->done) {
		p->n = p->next = 0;
		hand_over(p, true);
	}
	if (p->next < p->n) {
		*item_ret = p->buf + p->next++ * p->item_size;
		return PGW_OK;
	}
	*item_ret = NULL;
	if (p->status != PGW_OK)
		*err = p->err;
	return p->status;
}

void pgw_pull_free(struct pgw_pull *p)
{
	if (!p)
		return;
	if (p->started) {
		pthread_mutex_lock(&p->mu);
		p->cancel = true;
		pthread_mutex_unlock(&p->mu);
		while (!p->done)
			hand_over(p, true);
		pthread_join(p->thread, NULL);
	}
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->buf);
	free(p);
}

void *pgw_pull_iter_new(size_t size, size_t item_size, pgw_pull_body body,
			struct pgw_err *err)
{
	struct pgw_pull **it = calloc(1, size);

	if (!it) {
		pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		return NULL;
	}
	if (pgw_pull_new(it, item_size, body, it, err) != PGW_OK) {
		free(it);
		return NULL;
	}
	return it;
}

enum pgw_status pgw_pull_iter_next(void *it, const void **item_ret,
				   struct pgw_err *err)
{
	return pgw_pull_next(*(struct pgw_pull **)it, item_ret, err);
}

void pgw_pull_iter_free(void *it)
{
	if (!it)
		return;
	pgw_pull_free(*(struct pgw_pull **)it);
	free(it);
}
