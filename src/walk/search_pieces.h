/*
 * What search --phys's two ways of cutting physical memory into pieces
 * on threads share (search_chunks.c for strings and hex, search_stream.c
 * for regular expressions and YARA rules): the findings a worker's
 * scanner keeps for a piece, the workers, and a piece's findings handed
 * to the caller's scanner in order.  Where the pieces are cut and where
 * each one's search starts from is each file's own.
 */
#ifndef PGW_SEARCH_PIECES_H
#define PGW_SEARCH_PIECES_H

#include "pgwalk.h"
#include "search_scan.h"

/* A piece of one stream of frames, and what its search found. */
struct search_piece {
	uint64_t first, end;         /* frames [first, end) */
	bool more;                   /* the stream goes on at end */
	struct scan_hit *hits;
	size_t nhits, cap;
	uint64_t bytes;
	uint64_t not_in_image[PGW_NABSENCES];
	bool oom;                    /* hits were lost */
};

/* A worker: its image, its patterns, its scanner, the piece the scanner
 * fills. */
struct search_worker {
	struct pgw_image *img;
	struct pattern **pat;        /* its own regular expressions: glibc's
					regexec locks each one while it runs */
	struct scanner sc;
	bool ready;                  /* sc could start */
	struct search_piece *piece;
};

/* A worker's scanner's hit (arg: the worker) kept for its piece. */
void search_worker_hit(void *arg, const struct scan_hit *h);

/* The workers of a threaded search of n pieces with sc's patterns:
 * *threads capped at n, each with an image of its own and a scanner
 * whose hits go to hit (arg: the worker); one whose scanner could not
 * start is not ready.  NULL when fewer than two would run, or on
 * failure: the search then runs on one thread. */
struct search_worker *search_workers_open(struct pgw_image *img,
					  unsigned *threads, size_t n,
					  const struct scanner *sc,
					  void (*hit)(void *,
						      const struct scan_hit *));
void search_workers_close(struct search_worker *w, unsigned threads,
			  const struct scanner *sc);

/* The piece's findings into the caller's scanner sc, as one scanner
 * would have reported them there: its hits (until *stopped), its bytes,
 * its lost hits, and into not_in_image its bytes not in the image. */
void search_piece_take(const struct search_piece *p, struct scanner *sc,
		       uint64_t not_in_image[PGW_NABSENCES],
		       const int *stopped);

#endif
