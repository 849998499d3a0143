/*
 * Numbered pieces of work on worker threads, merged in order: each
 * worker takes the next piece from a counter, a few pieces ahead of the
 * merge at most; the calling thread merges piece 0, 1, ... as each is
 * done.  The lock is taken twice a piece, never inside one, so pieces
 * share nothing while they run.  Used by the scans of physical memory
 * (src/linux/phys_scan.c) and search --phys (src/cli/search_chunks.c).
 */
#ifndef PGW_CHUNKS_H
#define PGW_CHUNKS_H

#include "pgwalk.h"

struct pgw_chunks {
	size_t n;                    /* pieces */
	unsigned workers;            /* threads to start (>= 1) */
	/* In worker w (0 .. workers - 1): piece i. */
	void (*run)(void *arg, unsigned w, size_t i);
	/* In the calling thread, in order, once piece i is run; non-zero
	 * stops (the pieces after it are dropped). */
	int (*merge)(void *arg, size_t i);
	void *arg;
};

/*
 * Run and merge every piece.  PGW_OK when every piece was merged or a
 * merge stopped; PGW_E_NOMEM; PGW_E_UNSUPPORTED when no thread could
 * start (nothing was run: the caller does the work alone).  Threads
 * that do start share the pieces.
 */
enum pgw_status pgw_chunks_run(const struct pgw_chunks *c,
			       struct pgw_err *err);

/*
 * The same for pieces made as the work goes (a stream read a piece at a
 * time), on the calling thread and workers - 1 more: each thread makes
 * the next piece (feed, one thread at a time, in order) and runs it,
 * and whichever thread finds the next piece in order run merges it (one
 * thread at a time, in order), so no thread only reads or writes.  Piece
 * i is made in slot i % slots once piece i - slots is merged.
 */
struct pgw_chunks_stream {
	unsigned workers;            /* threads, the calling one among them
					(>= 1) */
	size_t slots;                /* pieces held at once (>= 1) */
	/* Pieces the calling thread makes and runs alone before the other
	 * threads start: a stream shorter is not worth them. */
	size_t alone;
	/* In the calling thread, before the others start (NULL: nothing to
	 * do): false, they do not (the calling thread goes on alone). */
	bool (*start)(void *arg);
	/* Make piece i; false: there is no more. */
	bool (*feed)(void *arg, size_t i);
	/* In thread w (0: the calling one; w < workers): run piece i. */
	void (*run)(void *arg, unsigned w, size_t i);
	/* Merge piece i; non-zero stops (the pieces after it are dropped). */
	int (*merge)(void *arg, size_t i);
	void *arg;
};

/* Feed, run and merge every piece: PGW_OK; PGW_E_NOMEM (nothing fed).
 * Threads that cannot start leave the work to the others. */
enum pgw_status pgw_chunks_stream_run(const struct pgw_chunks_stream *c,
				      struct pgw_err *err);

#endif
