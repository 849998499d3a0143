/*
 * Words remembered by key: a batch of translations prints the same few
 * dozen record tails (page size, level, flags, effective permissions,
 * whether the data is in the image; or why there is no answer) a million
 * times, so each formatter spells a tail once into a small direct-mapped
 * table and copies it after that.
 */
#ifndef PGW_SPELLED_H
#define PGW_SPELLED_H

#include "output.h"

#define SPELLED_SLOTS 64

struct spelled {
	uint64_t key;                 /* 0: empty */
	const struct pgw_mode *mode;  /* the words name its levels */
	uint16_t len;
	char s[240];
};

/* The slot for key; it holds key's words when spelled_hit says so. */
static inline struct spelled *spelled_slot(struct spelled *t, uint64_t key)
{
	return &t[(key * UINT64_C(0x9e3779b97f4a7c15)) >> 58];
}

static inline bool spelled_hit(const struct spelled *m, uint64_t key,
			       const struct pgw_mode *mode)
{
	return m->key == key && m->mode == mode;
}

/* Remember what tmp holds as key's words (a tail too long is not kept:
 * it is spelled each time). */
static inline void spelled_keep(struct spelled *m, uint64_t key,
				const struct pgw_mode *mode,
				const struct line *tmp)
{
	if (tmp->len > sizeof(m->s))
		return;
	memcpy(m->s, tmp->buf, tmp->len);
	m->len = (uint16_t)tmp->len;
	m->key = key;
	m->mode = mode;
}

/* What a compact translate record says after its pa, as a key: records
 * with equal keys say the same words (the np details of a non-present
 * entry are not in it: JSON spells those each time). */
static inline uint64_t xlat_tail_key(const struct pgw_xlat *x)
{
	uint64_t k = UINT64_C(1) << 63 | (uint64_t)x->stop << 48 |
		     (uint64_t)x->level << 44;

	if (x->stop == PGW_STOP_OK)
		k |= (uint64_t)x->data_absence << 36 |
		     (uint64_t)(x->step[x->nsteps - 1].entry.pkey & 0xf)
			     << 32 |
		     (uint64_t)(x->step[x->nsteps - 1].entry.flags & 0xffff)
			     << 16 |
		     (x->eff_flags & 0xffff);
	else if (x->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		 x->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		k |= (uint64_t)x->io.absence << 36;
	return k;
}

#endif
