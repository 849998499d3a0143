#include "page_cache.h"
#include "../lib/table.h"

#include <stdlib.h>
#include <string.h>

#define NO_PFN UINT64_MAX
/* A slot whose page was dropped: no longer found, but its bytes may still
 * be read through a pointer handed out, until the slot is taken. */
#define DROPPED (UINT64_MAX - 1)

struct pgw_page_cache {
	unsigned slots;
	unsigned next;         /* FIFO hand */
	uint64_t evicted;      /* pages given up so far (the epoch) */
	uint64_t *pfn;         /* per slot; NO_PFN when empty or uncommitted,
				  DROPPED */
	struct pgw_table where; /* pfn -> its slot + 1 */
	uint8_t *data;         /* slots * PGW_PAGE_SIZE */
};

struct pgw_page_cache *pgw_page_cache_new(unsigned slots)
{
	struct pgw_page_cache *c = calloc(1, sizeof(*c));
	unsigned bits = 0;

	if (!c)
		return NULL;
	while ((1u << bits) < slots * 2)
		bits++;
	c->slots = slots;
	c->where.bits = bits;
	c->pfn = malloc(slots * sizeof(*c->pfn));
	c->where.slot = calloc((size_t)1 << bits, sizeof(*c->where.slot));
	c->data = malloc((size_t)slots * PGW_PAGE_SIZE);
	if (!c->pfn || !c->where.slot || !c->data) {
		pgw_page_cache_free(c);
		return NULL;
	}
	for (unsigned i = 0; i < slots; i++)
		c->pfn[i] = NO_PFN;
	return c;
}

void pgw_page_cache_free(struct pgw_page_cache *c)
{
	if (!c)
		return;
	free(c->pfn);
	free(c->where.slot);
	free(c->data);
	free(c);
}

const uint8_t *pgw_page_cache_get(struct pgw_page_cache *c, uint64_t pfn)
{
	uint32_t s = pgw_table_get(&c->where, pfn);

	return s ? c->data + (size_t)(s - 1) * PGW_PAGE_SIZE : NULL;
}

uint8_t *pgw_page_cache_slot(struct pgw_page_cache *c, uint64_t pfn)
{
	unsigned s = c->next;

	(void)pfn;
	c->next = (c->next + 1) % c->slots;
	if (c->pfn[s] != NO_PFN) {
		if (c->pfn[s] != DROPPED)
			pgw_table_remove(&c->where,
					 pgw_table_find(&c->where, c->pfn[s]));
		c->pfn[s] = NO_PFN;
		c->evicted++;
	}
	return c->data + (size_t)s * PGW_PAGE_SIZE;
}

void pgw_page_cache_commit(struct pgw_page_cache *c, uint64_t pfn)
{
	unsigned s = (c->next + c->slots - 1) % c->slots;

	if (pgw_page_cache_get(c, pfn))
		return;
	c->pfn[s] = pfn;
	pgw_table_add(&c->where, pfn, s + 1);
}

void pgw_page_cache_unslot(struct pgw_page_cache *c)
{
	/* slot() emptied it already: the hand simply comes back to it. */
	c->next = (c->next + c->slots - 1) % c->slots;
}

void pgw_page_cache_align(struct pgw_page_cache *c, unsigned n)
{
	if (c->next + n > c->slots)
		c->next = 0;
}

void pgw_page_cache_drop(struct pgw_page_cache *c, uint64_t pfn)
{
	struct pgw_table_slot *t = pgw_table_find(&c->where, pfn);

	if (!t->value)
		return;
	c->pfn[t->value - 1] = DROPPED;
	pgw_table_remove(&c->where, t);
}

void pgw_page_cache_seed(struct pgw_page_cache *dst,
			 const struct pgw_page_cache *src)
{
	unsigned n = dst->slots < src->slots ? dst->slots : src->slots;

	/* Whatever dst decoded while its image opened is given up (the
	 * epoch moves): a slot overwritten below must not stay findable
	 * under its old page.  A cache just made gives up nothing. */
	for (unsigned s = 0; s < dst->slots; s++)
		if (dst->pfn[s] != NO_PFN) {
			pgw_page_cache_reset(dst);
			break;
		}
	/* Slot for slot, the hand where src's is: pages src keeps side by
	 * side (a table kept whole) stay so, and are given up in src's
	 * order. */
	for (unsigned s = 0; s < n; s++) {
		if (src->pfn[s] == NO_PFN || src->pfn[s] == DROPPED)
			continue;
		memcpy(dst->data + (size_t)s * PGW_PAGE_SIZE,
		       src->data + (size_t)s * PGW_PAGE_SIZE, PGW_PAGE_SIZE);
		dst->pfn[s] = src->pfn[s];
		pgw_table_add(&dst->where, src->pfn[s], s + 1);
	}
	dst->next = src->next % dst->slots;
}

void pgw_page_cache_reset(struct pgw_page_cache *c)
{
	for (unsigned i = 0; i < c->slots; i++)
		c->pfn[i] = NO_PFN;
	pgw_table_clear(&c->where);
	c->next = 0;
	c->evicted++;
}

const uint64_t *pgw_page_cache_epoch(const struct pgw_page_cache *c)
{
	return &c->evicted;
}
