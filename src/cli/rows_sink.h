/*
 * Records kept in memory, in order, to be written later in one go:
 * translate's batch on threads formats each piece's records into its
 * slot's sink (o->rows pointed at the sink's lines, so nothing is
 * copied), and whichever thread writes the pieces in input order writes
 * the sink's lines with writev straight from where they were formatted.
 * A slot keeps its lines for its next piece.
 */
#ifndef PGW_ROWS_SINK_H
#define PGW_ROWS_SINK_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/uio.h>

#include "output.h"

struct rows_sink {
	struct line **chunk;    /* ROWS_LINES lines each, kept */
	size_t nchunks;
	size_t used;            /* chunks this piece filled (the last one
				   partly, up to last) */
	struct line *last;
	bool nomem;             /* a chunk could not be had: records were
				   lost, the piece must not be written */
};

/* Point r at s's first lines, s emptied for a new piece: false when out
 * of memory. */
bool rows_sink_take(struct rows_sink *s, struct rows *r);
/* The next lines for r when its are full (out_rows_ship). */
void rows_sink_more(struct rows *r);
/* r filled: s holds its lines until written. */
void rows_sink_done(struct rows_sink *s, const struct rows *r);
/* s's lines out to fd, in order: 0 or the errno of the failed write. */
int rows_sink_write(const struct rows_sink *s, int fd);
void rows_sink_free(struct rows_sink *s);

/* A stream whose bytes go into o->rows, after the rows gathered so far
 * (unbuffered, so that its bytes and the rows keep their order): the
 * o->f of records that bypass the rows (bad lines, --levels walks). */
FILE *rows_sink_stream(struct out *o);

/* v[0 .. n) out to fd whole, however many writes it takes: 0 or errno
 * (EIO when a write made no progress). */
int rows_writev(int fd, struct iovec *v, int n);

#endif
