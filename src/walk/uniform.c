#include "uniform.h"
#include "../lib/hash.h"

#include <stdlib.h>

/* Enough for every table of a large machine; past it, walks just repeat. */
#define MEMO_CAP (1u << 20)

struct slot {
	uint64_t key;            /* (table << 3 | level) + 1; 0 = empty */
	struct pgw_uniform u;
};

struct pgw_uniform_memo {
	struct slot *slots;
	size_t size;             /* power of two */
	size_t used;
};

static uint64_t key_of(uint64_t table, enum pgw_level lvl)
{
	return ((table << 3) | (uint64_t)lvl) + 1;
}

/* The first slot of key among size (a power of two). */
static size_t hash(uint64_t key, size_t size)
{
	return pgw_hash_slot(key, (unsigned)__builtin_ctzll(size));
}

struct pgw_uniform_memo *pgw_uniform_memo_new(void)
{
	return calloc(1, sizeof(struct pgw_uniform_memo));
}

void pgw_uniform_memo_free(struct pgw_uniform_memo *memo)
{
	if (memo)
		free(memo->slots);
	free(memo);
}

const struct pgw_uniform *pgw_uniform_find(const struct pgw_uniform_memo *memo,
					   uint64_t table, enum pgw_level lvl)
{
	uint64_t key = key_of(table, lvl);

	if (!memo->size)
		return NULL;
	for (size_t i = hash(key, memo->size);;
	     i = (i + 1) & (memo->size - 1)) {
		if (memo->slots[i].key == key)
			return &memo->slots[i].u;
		if (memo->slots[i].key == 0)
			return NULL;
	}
}

static void insert(struct slot *slots, size_t size, uint64_t key,
		   const struct pgw_uniform *u)
{
	size_t i = hash(key, size);

	while (slots[i].key != 0 && slots[i].key != key)
		i = (i + 1) & (size - 1);
	slots[i].key = key;
	slots[i].u = *u;
}

void pgw_uniform_add(struct pgw_uniform_memo *memo, uint64_t table,
		     enum pgw_level lvl, const struct pgw_uniform *u)
{
	if (memo->used >= MEMO_CAP)
		return;
	/* Keep the load under a half. */
	if ((memo->used + 1) * 2 > memo->size) {
		size_t size = memo->size ? memo->size * 2 : 64;
		struct slot *s = calloc(size, sizeof(*s));
		if (!s)
			return;   /* a memo is an optimisation: walk on */
		for (size_t i = 0; i < memo->size; i++)
			if (memo->slots[i].key)
				insert(s, size, memo->slots[i].key,
				       &memo->slots[i].u);
		free(memo->slots);
		memo->slots = s;
		memo->size = size;
	}
	if (!pgw_uniform_find(memo, table, lvl))
		memo->used++;
	insert(memo->slots, memo->size, key_of(table, lvl), u);
}
