/*
 * A small bounded cache of decoded 4 KiB pages for formats that must copy or
 * decompress (kdump, flattened records that split a page).  FIFO eviction:
 * a page handed out stays valid for the next (slots - 1) lookups, which is
 * what pgw_image_page() promises.  Memory is fixed at creation, so peak RSS
 * does not grow with the dump.
 */
#ifndef PGW_PAGE_CACHE_H
#define PGW_PAGE_CACHE_H

#include "pgwalk.h"

struct pgw_page_cache;

struct pgw_page_cache *pgw_page_cache_new(unsigned slots);
void pgw_page_cache_free(struct pgw_page_cache *cache);
/* Cached data of pfn, or NULL. */
const uint8_t *pgw_page_cache_get(struct pgw_page_cache *cache, uint64_t pfn);
/* A slot to fill for pfn (evicting the oldest); commit makes it findable. */
uint8_t *pgw_page_cache_slot(struct pgw_page_cache *cache, uint64_t pfn);
void pgw_page_cache_commit(struct pgw_page_cache *cache, uint64_t pfn);
/*
 * The slot just handed out was not used (the page came straight from the
 * map, or was not there): give it back, so pages that need no slot do not
 * push decoded ones out of the cache.
 */
void pgw_page_cache_unslot(struct pgw_page_cache *cache);

/*
 * A run of n slots to be handed out one after another from here on, so
 * that the pages filled into them lie one after another in memory (a
 * 16 or 64 KiB table kept whole): the hand goes back to the first slot
 * when fewer than n are left before the end.  n is at most slots / 2,
 * so a page handed out is still given up no sooner than it was.
 */
void pgw_page_cache_align(struct pgw_page_cache *cache, unsigned n);
/* pfn's page no longer found (when held): its slot is given up, and the
 * epoch moves, when the slot is taken for another. */
void pgw_page_cache_drop(struct pgw_page_cache *cache, uint64_t pfn);

/*
 * dst gives up what it holds and holds a copy of each page src holds,
 * as far as its slots go: a worker image starts with what its image
 * decoded already.  Nothing is shared: either may drop, reset or refill
 * its slots after, and the other does not see it.
 */
void pgw_page_cache_seed(struct pgw_page_cache *dst,
			 const struct pgw_page_cache *src);

/* Give every page up (the epoch moves): what is found next is decoded
 * again, as by a cache just made. */
void pgw_page_cache_reset(struct pgw_page_cache *cache);

/*
 * A count that grows whenever a page the cache handed out is given up
 * (its slot taken for another): a pointer from the cache stays valid for
 * as long as the count is what it was when the pointer was handed out.
 * The address of the count is fixed for the cache's life.
 */
const uint64_t *pgw_page_cache_epoch(const struct pgw_page_cache *cache);

#endif
