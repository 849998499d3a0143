/*
 * The open-addressing table pgwalk's keyed lookups share: 2^bits slots
 * of a uint64_t key (any) and a nonzero uint32_t value (0 marks an empty
 * slot, so calloc'ed slots are an empty table), probed linearly from
 * pgw_hash_slot.  The owner allocates the slots and keeps the table at
 * most half full, which keeps probes short; removal shifts the rest of
 * a cluster back, so no tombstones build up.  A key may be added more
 * than once (a memo by a hash that can collide walks every match with
 * pgw_table_next).  Inline: the page cache looks pages up with it on
 * every read.
 */
#ifndef PGW_LIB_TABLE_H
#define PGW_LIB_TABLE_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pgw_table_slot {
	uint64_t key;
	uint32_t value;     /* 0: empty */
};

struct pgw_table {
	struct pgw_table_slot *slot;
	unsigned bits;      /* 2^bits slots */
};

static inline size_t pgw_table_mask(const struct pgw_table *t)
{
	return ((size_t)1 << t->bits) - 1;
}

static inline void pgw_table_clear(struct pgw_table *t)
{
	memset(t->slot, 0, (pgw_table_mask(t) + 1) * sizeof(*t->slot));
}

/* From slot h on, the first slot holding key, else the empty slot that
 * ends the cluster. */
static inline struct pgw_table_slot *
pgw_table_scan(struct pgw_table *t, uint64_t key, size_t h)
{
	size_t mask = pgw_table_mask(t);

	while (t->slot[h].value && t->slot[h].key != key)
		h = (h + 1) & mask;
	return &t->slot[h];
}

/* key's first slot, else the empty slot where it would go. */
static inline struct pgw_table_slot *pgw_table_find(struct pgw_table *t,
						    uint64_t key)
{
	return pgw_table_scan(t, key, t->bits ? pgw_hash_slot(key, t->bits)
					      : 0);
}

/* The slot after s (one holding key) holding key, else the empty slot
 * where another would go. */
static inline struct pgw_table_slot *
pgw_table_next(struct pgw_table *t, uint64_t key,
	       const struct pgw_table_slot *s)
{
	return pgw_table_scan(t, key,
			      ((size_t)(s - t->slot) + 1) & pgw_table_mask(t));
}

/* key's (first) value, else 0. */
static inline uint32_t pgw_table_get(struct pgw_table *t, uint64_t key)
{
	return pgw_table_find(t, key)->value;
}

/* One more slot for key, holding value (nonzero; the table must have
 * an empty slot). */
static inline void pgw_table_add(struct pgw_table *t, uint64_t key,
				 uint32_t value)
{
	struct pgw_table_slot *s = pgw_table_find(t, key);

	while (s->value)
		s = pgw_table_next(t, key, s);
	s->key = key;
	s->value = value;
}

/* The slot s is emptied; the rest of its cluster is put back so that
 * probes from their own first slots still reach them. */
static inline void pgw_table_remove(struct pgw_table *t,
				    struct pgw_table_slot *s)
{
	size_t mask = pgw_table_mask(t);
	size_t h = (size_t)(s - t->slot);

	s->value = 0;
	for (h = (h + 1) & mask; t->slot[h].value; h = (h + 1) & mask) {
		struct pgw_table_slot moved = t->slot[h];
		t->slot[h].value = 0;
		pgw_table_add(t, moved.key, moved.value);
	}
}

#endif
