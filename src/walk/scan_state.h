/*
 * What a scanner (search_scan.h) carries from one page to the next: the
 * bytes held (the carry and the pages of an unsearched chunk), where
 * they lie, and where each regular expression's search goes on.  Two
 * scanners in the same state find the same matches in what follows, so
 * a piece of memory searched from a state taken for granted is the one
 * scanner's search when the state before it turns out to be that one
 * (search_stream.c).
 */
#ifndef PGW_SCAN_STATE_H
#define PGW_SCAN_STATE_H

#include "search_scan.h"

struct scan_state {
	uint8_t *held;               /* carry, then npages pages */
	size_t carry, npages;
	uint64_t carry_addr, carry_pa, start;
	uint64_t pa[SCAN_PAGES];
	size_t *resume;              /* npat of them */
	size_t npat;
};

/* Copy s's state into st (st's own memory): false, out of memory. */
bool scan_state_save(const struct scanner *s, struct scan_state *st);
/* Put st back into s (made for the same patterns). */
void scan_state_restore(struct scanner *s, const struct scan_state *st);
/* Alike in all that decides what the scanner finds next. */
bool scan_state_same(const struct scan_state *a, const struct scan_state *b);
void scan_state_free(struct scan_state *st);

#endif
