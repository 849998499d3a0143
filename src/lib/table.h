/*
 * The open-addressing table pgwalk's keyed lookups share: 2^bits slots
 * of a uint64_t key and a uint32_t value, probed linearly from
 * pgw_hash_slot, of a fixed capacity the owner chooses (at most half
 * full keeps probes short) and removal by shifting the rest of a
 * cluster back, so no tombstones build up.  The owner allocates the
 * slots; PGW_TABLE_EMPTY is the one key that cannot be stored.
 * Inline: the page cache looks pages up with it on every read.
 */
#ifndef PGW_LIB_TABLE_H
#define PGW_LIB_TABLE_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PGW_TABLE_EMPTY UINT64_MAX

struct pgw_table_slot {
	uint64_t key;
	uint32_t value;
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
	for (size_t i = 0; i <= pgw_table_mask(t); i++)
		t->slot[i].key = PGW_TABLE_EMPTY;
}

/* The slot holding key, or the empty slot where it would go. */
static inline struct pgw_table_slot *pgw_table_probe(struct pgw_table *t,
						     uint64_t key)
{
	size_t mask = pgw_table_mask(t);
	size_t h = t->bits ? pgw_hash_slot(key, t->bits) : 0;

	while (t->slot[h].key != key && t->slot[h].key != PGW_TABLE_EMPTY)
		h = (h + 1) & mask;
	return &t->slot[h];
}

/* key's value in *value; false when key is not there. */
static inline bool pgw_table_get(struct pgw_table *t, uint64_t key,
				 uint32_t *value)
{
	const struct pgw_table_slot *s = pgw_table_probe(t, key);

	if (s->key == PGW_TABLE_EMPTY)
		return false;
	*value = s->value;
	return true;
}

/* key maps to value from now on (the table must have an empty slot). */
static inline void pgw_table_put(struct pgw_table *t, uint64_t key,
				 uint32_t value)
{
	struct pgw_table_slot *s = pgw_table_probe(t, key);

	s->key = key;
	s->value = value;
}

/* key is gone; the rest of its cluster is put back so probes from
 * their own slots still reach them. */
static inline void pgw_table_remove(struct pgw_table *t, uint64_t key)
{
	size_t mask = pgw_table_mask(t);
	struct pgw_table_slot *s = pgw_table_probe(t, key);
	size_t h = (size_t)(s - t->slot);

	if (s->key == PGW_TABLE_EMPTY)
		return;
	s->key = PGW_TABLE_EMPTY;
	for (h = (h + 1) & mask; t->slot[h].key != PGW_TABLE_EMPTY;
	     h = (h + 1) & mask) {
		struct pgw_table_slot moved = t->slot[h];
		t->slot[h].key = PGW_TABLE_EMPTY;
		pgw_table_put(t, moved.key, moved.value);
	}
}

#endif
