#include "scan_state.h"

#include <stdlib.h>
#include <string.h>

static size_t held_bytes(size_t carry, size_t npages)
{
	return carry + npages * PGW_PAGE_SIZE;
}

bool scan_state_save(const struct scanner *s, struct scan_state *st)
{
	size_t n = held_bytes(s->carry, s->npages);

	scan_state_free(st);
	st->held = malloc(n ? n : 1);
	st->resume = malloc((s->npat ? s->npat : 1) * sizeof(*st->resume));
	if (!st->held || !st->resume) {
		scan_state_free(st);
		return false;
	}
	memcpy(st->held, s->buf, n);
	memcpy(st->resume, s->resume, s->npat * sizeof(*st->resume));
	memcpy(st->pa, s->pa, sizeof(st->pa));
	st->npat = s->npat;
	st->carry = s->carry;
	st->npages = s->npages;
	st->carry_addr = s->carry_addr;
	st->carry_pa = s->carry_pa;
	st->start = s->start;
	return true;
}

void scan_state_restore(struct scanner *s, const struct scan_state *st)
{
	memcpy(s->buf, st->held, held_bytes(st->carry, st->npages));
	memcpy(s->resume, st->resume, st->npat * sizeof(*s->resume));
	memcpy(s->pa, st->pa, sizeof(s->pa));
	s->carry = st->carry;
	s->npages = st->npages;
	s->carry_addr = st->carry_addr;
	s->carry_pa = st->carry_pa;
	s->start = st->start;
}

/* Where nothing is held the addresses are never read again (scan_slot
 * and report look at them only under a carry or pages). */
bool scan_state_same(const struct scan_state *a, const struct scan_state *b)
{
	if (a->carry != b->carry || a->npages != b->npages ||
	    a->npat != b->npat ||
	    memcmp(a->resume, b->resume, a->npat * sizeof(*a->resume)) ||
	    memcmp(a->held, b->held, held_bytes(a->carry, a->npages)))
		return false;
	if (a->carry && (a->carry_addr != b->carry_addr ||
			 a->carry_pa != b->carry_pa))
		return false;
	return !a->npages || (a->start == b->start &&
			      !memcmp(a->pa, b->pa,
				      a->npages * sizeof(*a->pa)));
}

void scan_state_free(struct scan_state *st)
{
	free(st->held);
	free(st->resume);
	st->held = NULL;
	st->resume = NULL;
}
