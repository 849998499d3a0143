/*
 * Frames of physical memory into a search's scanner, in address order,
 * the way both the one-thread search and its pieces on threads feed
 * them.  A run of frames the image holds nothing of (a kdump's excluded
 * pages, a segment's missing part, a gap) is counted by reason and
 * passed in one step; a run that reads as zeros without being read (a
 * hole of a sparse file, excluded pages read as zeros) is searched as
 * zeros without touching the file, and, when no pattern matches zeros
 * alone, only at its two ends: a match that touches its inside lies
 * wholly in zeros, so there is none, and a match that runs into or out
 * of it (at most PGW_PATTERN_MAX bytes, one page) is found whole at its
 * ends.  The hits are those of reading every frame.
 */
#ifndef PGW_SEARCH_FEED_H
#define PGW_SEARCH_FEED_H

#include "pgwalk.h"
#include "search_scan.h"

struct search_feed {
	struct pgw_image *img;
	struct scanner *sc;
	uint64_t *not_in_image;      /* bytes by reason; NULL: not counted */
	/* Only strings and hex, none of which matches zeros alone: the
	 * inside of a run of zeros is stepped over (regular expressions
	 * and YARA rules see windows, which a step would move). */
	bool skip_zeros;
	const int *stopped;          /* non-zero: feed no more; NULL */
};

void search_feed_init(struct search_feed *f, struct pgw_image *img,
		      struct scanner *sc, uint64_t *not_in_image);

/* The page at addr (a va, or pa itself), frame pa, into the scanner, or
 * counted as not in the image; true when it was read. */
bool search_feed_page(struct search_feed *f, uint64_t addr, uint64_t pa);

/* Frame pfn into the scanner, or counted as not in the image; true when
 * it was read. */
bool search_feed_frame(struct search_feed *f, uint64_t pfn);

/* Frames [pfn, end), in order, each run in one step, until *stopped. */
void search_feed_frames(struct search_feed *f, uint64_t pfn, uint64_t end);

/* The frames from pfn on that search_feed_frames passes in one step
 * (a run held nothing of, or read as zeros); 0 when pfn is data. */
uint64_t search_feed_run(struct pgw_image *img, uint64_t pfn);

#endif
