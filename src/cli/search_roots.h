/*
 * search --all-roots (and --phys --map): physical memory is searched once
 * and each hit kept; then every root is walked once (owned_roots.h) and
 * each hit named by every (root, pid, comm, va) that maps its frame, the
 * kernel's direct map included, PROT_NONE pages too.
 */
#ifndef PGW_SEARCH_ROOTS_H
#define PGW_SEARCH_ROOTS_H

#include "search_out.h"
#include "session.h"

/* The hits of the scan, their bytes copied. */
struct hit_store {
	struct search_hit *hit;
	size_t n, cap;
};

/* Keep a copy of h; false: out of memory. */
bool hit_store_add(struct hit_store *st, const struct search_hit *h);
void hit_store_free(struct hit_store *st);

/* Walk every root of s's image, then print each kept hit once per
 * mapping of its frame (or once, unmapped: va null).  0 or an exit
 * status (message said); sum gets the tables the walks could not read. */
int search_map_roots(struct session *s, struct out *out,
		     const struct hit_store *st, struct search_summary *sum,
		     int *names_rc);

#endif
