/*
 * A batch of translations (pgwalk translate's addresses, on stdin or
 * given): what cmd_translate.c's line callbacks answer into, shared with
 * translate_threads.c, which runs a batch on stdin on the image's
 * threads.
 */
#ifndef PGW_TRANSLATE_BATCH_H
#define PGW_TRANSLATE_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "session.h"

struct kept_sink;   /* translate_threads.c's */

/* A batch line that is not an address, kept by a worker for the calling
 * thread to say (its number counted from its piece's first line). */
struct bad_said {
	unsigned long lineno;
	unsigned char n;
	bool nul;
	char text[80];
};

/* A piece of a batch on threads: whole lines of the input, and what a
 * thread made of them. */
struct piece {
	char *in;               /* a piece's bytes + LINES_AFTER */
	size_t len;             /* bytes of lines: whole ones, the last
				   without its newline only at the end of
				   the input */
	bool overlong;          /* after them, a line too long: its start */
	char overlong_start[80];
	/* The thread's that ran it: */
	struct kept_sink *out;  /* the records, in that thread's lines */
	int rc;                 /* -1: out of memory for the records */
	unsigned long lines;    /* lines in it (an overlong one counts) */
	unsigned long nbad;     /* lines not addresses; the first ten: */
	struct bad_said bad[10];
};

struct batch {
	struct session *s;
	const struct pgw_space *space;   /* s's, or a worker image's */
	struct piece *piece;    /* on a worker: bad lines kept here */
	struct out *out;
	struct pgw_xlat_cache *cache;   /* NULL: every walk from the root */
	int rc;                 /* the worst of 0, 1 and 2 so far */
	unsigned long bad_lines;
	unsigned hints;
};

/* The line reader's callbacks (lines.h) for a batch, arg a struct
 * batch: a line, a run of usual lines parsed, a line too long. */
void translate_line(void *arg, char *line, size_t n, unsigned long lineno);
void translate_addrs(void *arg, const uint64_t *va, size_t n);
void translate_overlong(void *arg, const char *start, size_t n,
			unsigned long lineno);

/* The batch on stdin on n threads, as stdin_lines would give it to b
 * alone: 0, PGW_EXIT_NOINPUT (said), or -1 when out of memory before
 * anything was read (b does it alone). */
int translate_threaded(struct batch *b, unsigned n);

#endif
