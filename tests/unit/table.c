/*
 * The shared open-addressing table (src/lib/table.h) against a plain
 * list of (key, value) pairs: 200 000 random adds, removals and lookups
 * on a table of 64 slots kept at most half full, over 12 keys (so that
 * keys repeat and share clusters) with 0 and UINT64_MAX among them.
 * After each step every key's values, walked with find and next, are
 * the list's (one lost in a removal's shift, or a probe stopped short,
 * fails); entries added without removals come back in the order added.
 */
#include <stdlib.h>

#include "tap.h"
#include "lib/table.h"

#define BITS 6
#define MAXN 32
#define NKEYS 12

static const uint64_t keys[NKEYS] = {
	0, UINT64_MAX, 1, 2, 64, 0x1000, 0x9e3779b97f4a7c15, 42,
	0xffffffff, 0x100000000, 7, 0x8000000000000000,
};

struct pair {
	uint64_t key;
	uint32_t value;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Whether key's values in t are those in ref (sorted unless ordered). */
static bool same_values(struct pgw_table *t, const struct pair *ref,
			size_t n, uint64_t key, bool ordered)
{
	uint32_t got[MAXN + 1], want[MAXN];
	size_t ng = 0, nw = 0;

	for (size_t i = 0; i < n; i++)
		if (ref[i].key == key)
			want[nw++] = ref[i].value;
	for (struct pgw_table_slot *s = pgw_table_find(t, key); s->value;
	     s = pgw_table_next(t, key, s)) {
		if (ng == MAXN)
			return false;
		got[ng++] = s->value;
	}
	if (ng != nw)
		return false;
	if (!ordered) {
		qsort(got, ng, sizeof(*got), cmp_u32);
		qsort(want, nw, sizeof(*want), cmp_u32);
	}
	return memcmp(got, want, nw * sizeof(*want)) == 0 &&
	       pgw_table_get(t, key) == (nw ? got[0] : 0);
}

int main(void)
{
	struct pgw_table_slot slots[1u << BITS];
	struct pgw_table t = { slots, BITS };
	struct pair ref[MAXN];
	size_t n = 0, bad = 0, removed = 0;
	uint32_t next_value = 1;

	pgw_table_clear(&t);
	for (size_t k = 0; k < NKEYS; k++)
		is_u64(pgw_table_get(&t, keys[k]), 0,
		       "key 0x%" PRIx64 " is not in the empty table", keys[k]);

	/* In the order added, with no removal yet. */
	for (size_t i = 0; i < MAXN; i++) {
		ref[n] = (struct pair){ keys[i % 3], next_value++ };
		pgw_table_add(&t, ref[n].key, ref[n].value);
		n++;
	}
	ok(same_values(&t, ref, n, keys[0], true) &&
	   same_values(&t, ref, n, keys[1], true) &&
	   same_values(&t, ref, n, keys[2], true),
	   "32 entries under 3 keys come back in the order added");
	pgw_table_clear(&t);
	n = 0;

	srand(33);
	for (int step = 0; step < 200000; step++) {
		int op = rand() % 3;
		if (op == 0 && n < MAXN) {
			ref[n] = (struct pair){ keys[rand() % NKEYS],
						next_value++ };
			pgw_table_add(&t, ref[n].key, ref[n].value);
			n++;
		} else if (op == 1 && n) {
			size_t i = (size_t)rand() % n;
			struct pgw_table_slot *s =
				pgw_table_find(&t, ref[i].key);
			while (s->value && s->value != ref[i].value)
				s = pgw_table_next(&t, ref[i].key, s);
			if (!s->value) {
				bad++;
				break;
			}
			pgw_table_remove(&t, s);
			ref[i] = ref[--n];
			removed++;
		}
		for (size_t k = 0; k < NKEYS; k++)
			if (!same_values(&t, ref, n, keys[k], false))
				bad++;
	}
	is_u64(bad, 0, "200000 random steps: every key's values as the list's");
	ok(removed > 10000, "the random steps removed (%zu)", removed);
	return tap_done();
}
