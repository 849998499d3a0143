/*
 * A walk that reports through callbacks, read instead one item at a
 * time (drgn's iterators): the walk runs in a thread of its own, and the
 * two take turns, so that only one of them ever runs: the walk fills a
 * buffer of items and waits; the reader takes them and, once they are
 * gone, lets the walk go on.  The items and the order are the callbacks'
 * exactly, memory stays the buffer's however long the walk, and nothing
 * the walk touches (the image's page cache) is ever used by two threads
 * at once.  Freed early, the walk is stopped (its callback returns
 * non-zero) and waited for.
 */
#ifndef PGW_LIB_PULL_H
#define PGW_LIB_PULL_H

#include <stddef.h>

#include "pgwalk.h"

struct pgw_pull;

/* The walk: reports each item with pgw_pull_put(p, item) and returns
 * its status, err filled when not PGW_OK. */
typedef enum pgw_status (*pgw_pull_body)(struct pgw_pull *p, void *ctx,
					 struct pgw_err *err);

/* A reader of body's items of item_size bytes each; body starts at the
 * first pgw_pull_next. */
enum pgw_status pgw_pull_new(struct pgw_pull **p_ret, size_t item_size,
			     pgw_pull_body body, void *ctx,
			     struct pgw_err *err);
/* From body: item copied for the reader.  0: go on; non-zero: the reader
 * has gone, stop (return it from the walk's callback). */
int pgw_pull_put(struct pgw_pull *p, const void *item);
/* The next item in *item_ret (valid until the next call), NULL after the
 * last: PGW_OK, or at the end body's status when it was not PGW_OK (err
 * filled), every call after the last item. */
enum pgw_status pgw_pull_next(struct pgw_pull *p, const void **item_ret,
			      struct pgw_err *err);
/* Stop the walk if it still runs, wait for it, free p (NULL: nothing). */
void pgw_pull_free(struct pgw_pull *p);

/*
 * The iterators of pgwalk.h, built on one: an iterator is a struct whose
 * first member is its struct pgw_pull *, followed by its own copy of what
 * the walk takes (filled in after this, before the first _next).
 * pgw_pull_iter_new allocates size bytes (zeroed) and the reader, with
 * the iterator as body's ctx; NULL with err filled when out of memory.
 */
void *pgw_pull_iter_new(size_t size, size_t item_size, pgw_pull_body body,
			struct pgw_err *err);
/* The next item of iterator it (pgw_pull_next). */
enum pgw_status pgw_pull_iter_next(void *it, const void **item_ret,
				   struct pgw_err *err);
/* Stop its walk and free it (NULL: nothing). */
void pgw_pull_iter_free(void *it);

#endif
