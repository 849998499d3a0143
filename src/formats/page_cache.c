#include "page_cache.h"
#include "../lib/hash.h"

#include <stdlib.h>

#define NO_PFN UINT64_MAX

struct pgw_page_cache {
	unsigned slots;
	unsigned next;         /* FIFO hand */
	unsigned hash_mask;
	uint64_t evicted;      /* pages given up so far (the epoch) */
	uint64_t *pfn;         /* per slot; NO_PFN when empty or uncommitted */
	int32_t *hash;         /* open addressing: slot index or -1 */
	uint8_t *data;         /* slots * PGW_PAGE_SIZE */
};

/* The first bucket of pfn among mask + 1 (a power of two). */
static unsigned hash_pfn(uint64_t pfn, unsigned mask)
{
	return mask ? (unsigned)pgw_hash_slot(pfn,
					      (unsigned)__builtin_ctz(mask + 1))
		    : 0;
}

struct pgw_page_cache *pgw_page_cache_new(unsigned slots)
{
	struct pgw_page_cache *c = calloc(1, sizeof(*c));
	unsigned hsize = 1;

	if (!c)
		return NULL;
	while (hsize < slots * 2)
		hsize <<= 1;
	c->slots = slots;
	c->hash_mask = hsize - 1;
	c->pfn = malloc(slots * sizeof(*c->pfn));
	c->hash = malloc(hsize * sizeof(*c->hash));
	c->data = malloc((size_t)slots * PGW_PAGE_SIZE);
	if (!c->pfn || !c->hash || !c->data) {
		pgw_page_cache_free(c);
		return NULL;
	}
	for (unsigned i = 0; i < slots; i++)
		c->pfn[i] = NO_PFN;
	for (unsigned i = 0; i < hsize; i++)
		c->hash[i] = -1;
	return c;
}

void pgw_page_cache_free(struct pgw_page_cache *c)
{
	if (!c)
		return;
	free(c->pfn);
	free(c->hash);
	free(c->data);
	free(c);
}

static int32_t *find_bucket(struct pgw_page_cache *c, uint64_t pfn)
{
	unsigned h = hash_pfn(pfn, c->hash_mask);

	for (;;) {
		int32_t s = c->hash[h];
		if (s < 0 || c->pfn[s] == pfn)
			return &c->hash[h];
		h = (h + 1) & c->hash_mask;
	}
}

const uint8_t *pgw_page_cache_get(struct pgw_page_cache *c, uint64_t pfn)
{
	int32_t s = *find_bucket(c, pfn);

	return s < 0 ? NULL : c->data + (size_t)s * PGW_PAGE_SIZE;
}

/* Remove slot s from the hash, re-inserting the rest of its cluster. */
static void unhash(struct pgw_page_cache *c, unsigned s)
{
	unsigned h = hash_pfn(c->pfn[s], c->hash_mask);

	while (c->hash[h] != (int32_t)s)
		h = (h + 1) & c->hash_mask;
	c->hash[h] = -1;
	for (h = (h + 1) & c->hash_mask; c->hash[h] >= 0;
	     h = (h + 1) & c->hash_mask) {
		int32_t moved = c->hash[h];
		c->hash[h] = -1;
		*find_bucket(c, c->pfn[moved]) = moved;
	}
}

uint8_t *pgw_page_cache_slot(struct pgw_page_cache *c, uint64_t pfn)
{
	unsigned s = c->next;

	(void)pfn;
	c->next = (c->next + 1) % c->slots;
	if (c->pfn[s] != NO_PFN) {
		unhash(c, s);
		c->pfn[s] = NO_PFN;
		c->evicted++;
	}
	return c->data + (size_t)s * PGW_PAGE_SIZE;
}

void pgw_page_cache_commit(struct pgw_page_cache *c, uint64_t pfn)
{
	unsigned s = (c->next + c->slots - 1) % c->slots;
	int32_t *b;

	if (pgw_page_cache_get(c, pfn))
		return;
	c->pfn[s] = pfn;
	b = find_bucket(c, pfn);
	*b = (int32_t)s;
}

void pgw_page_cache_unslot(struct pgw_page_cache *c)
{
	/* slot() emptied it already: the hand simply comes back to it. */
	c->next = (c->next + c->slots - 1) % c->slots;
}

void pgw_page_cache_reset(struct pgw_page_cache *c)
{
	for (unsigned i = 0; i < c->slots; i++)
		c->pfn[i] = NO_PFN;
	for (unsigned i = 0; i <= c->hash_mask; i++)
		c->hash[i] = -1;
	c->next = 0;
	c->evicted++;
}

const uint64_t *pgw_page_cache_epoch(const struct pgw_page_cache *c)
{
	return &c->evicted;
}
