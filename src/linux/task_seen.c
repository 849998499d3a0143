/*
 * The task addresses a walk has seen (tasks.c, threads.c): an
 * open-addressing set, so a list that loops is caught when it first
 * repeats.
 */
#include "linux.h"

#include <stdlib.h>

static uint64_t mix(uint64_t v)
{
	v ^= v >> 33;
	v *= UINT64_C(0xff51afd7ed558ccd);
	return v ^ (v >> 33);
}

static void seen_put(uint64_t *slot, size_t mask, uint64_t va)
{
	size_t j = mix(va) & mask;

	while (slot[j] && slot[j] != va)
		j = (j + 1) & mask;
	slot[j] = va;
}

bool linux_seen_add(struct linux_seen *s, uint64_t va, bool *nomem)
{
	if (2 * (s->used + 1) > s->mask + 1) {
		size_t n = s->mask ? 2 * (s->mask + 1) : 256;
		uint64_t *slot = calloc(n, sizeof(*slot));
		if (!slot) {
			*nomem = true;
			return false;
		}
		for (size_t i = 0; s->slot && i <= s->mask; i++)
			if (s->slot[i])
				seen_put(slot, n - 1, s->slot[i]);
		free(s->slot);
		s->slot = slot;
		s->mask = n - 1;
	}
	size_t j = mix(va) & s->mask;
	while (s->slot[j] && s->slot[j] != va)
		j = (j + 1) & s->mask;
	if (s->slot[j])
		return false;
	s->slot[j] = va;
	s->used++;
	return true;
}
