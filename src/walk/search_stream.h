/*
 * search --phys for regular expressions and YARA rules on threads
 * (search_stream.c): the same hits, in the same order, with the same
 * counts as one scanner fed every frame in order.
 */
#ifndef PGW_SEARCH_STREAM_H
#define PGW_SEARCH_STREAM_H

#include "pgwalk.h"
#include "search_scan.h"

/* Frames [first, end) that follow one another: one stream to a scanner. */
struct search_stream {
	uint64_t first, end;
};

struct search_frames {
	struct search_stream *stream;    /* by address, apart */
	size_t nstreams;
};

/*
 * search_phys_threads (search_chunks.h) for patterns of any kind, on up
 * to threads threads (the pieces and libyara may allow fewer).  False,
 * having searched nothing, when that is not possible: the caller
 * searches alone.
 */
bool search_stream_threads(struct pgw_image *img,
			   const struct search_frames *frames,
			   unsigned threads, struct scanner *sc,
			   uint64_t not_in_image[PGW_NABSENCES],
			   const int *stopped);

#endif
