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

/* The slot for key; it holds key's words when spelled_copy finds them. */
static inline struct spelled *spelled_slot(struct spelled *t, uint64_t key)
{
	return &t[(key * UINT64_C(0x9e3779b97f4a7c15)) >> 58];
}

/* Whether m holds key's words. */
static inline bool spelled_has(const struct spelled *m, uint64_t key,
			       const struct pgw_mode *mode)
{
	return m->key == key && m->mode == mode;
}

/* m's words at the end of l. */
static inline void spelled_put(const struct spelled *m, struct line *l)
{
	/* A short tail (a delimited row's, text's) as 64 bytes at once, a
	 * few moves and not a call: the bytes past it are overwritten
	 * next. */
	if (m->len <= 64 && sizeof(l->buf) - l->len >= 64) {
		memcpy(l->buf + l->len, m->s, 64);
		l->len += m->len;
	} else {
		emit_mem(l, m->s, m->len);
	}
}

/* key's words at the end of l, when m holds them. */
static inline bool spelled_copy(const struct spelled *m, uint64_t key,
				const struct pgw_mode *mode, struct line *l)
{
	if (!spelled_has(m, key, mode))
		return false;
	spelled_put(m, l);
	return true;
}

/* Remember l's bytes from `at` on, just spelled, as key's words (a tail
 * too long is not kept: it is spelled each time). */
static inline void spelled_keep(struct spelled *m, uint64_t key,
				const struct pgw_mode *mode,
				const struct line *l, size_t at)
{
	if (l->len - at > sizeof(m->s))
		return;
	memcpy(m->s, l->buf + at, l->len - at);
	m->len = (uint16_t)(l->len - at);
	m->key = key;
	m->mode = mode;
}

/* What a compact translate record says after its pa, as a key: records
 * with equal keys say the same words (the np details of a non-present
 * entry are not in it: JSON spells those each time).  absence: the
 * data's for an answer, the table's for a stop at a table the image
 * lacks. */
static inline uint64_t tail_key(enum pgw_stop stop, enum pgw_level level,
				enum pgw_absence absence, unsigned pkey,
				uint32_t flags, uint32_t eff)
{
	uint64_t k = UINT64_C(1) << 63 | (uint64_t)stop << 48 |
		     (uint64_t)level << 44;

	if (stop == PGW_STOP_OK)
		k |= (uint64_t)absence << 36 | (uint64_t)(pkey & 0xf) << 32 |
		     (uint64_t)(flags & 0xffff) << 16 | (eff & 0xffff);
	else if (stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		 stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		k |= (uint64_t)absence << 36;
	return k;
}

static inline uint64_t xlat_tail_key(const struct pgw_xlat *x)
{
	if (x->stop != PGW_STOP_OK)
		return tail_key(x->stop, x->level, x->io.absence, 0, 0, 0);
	const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
	return tail_key(x->stop, x->level, x->data_absence, e->pkey, e->flags,
			x->eff_flags);
}

/* The same key of a brief answer: equal to xlat_tail_key's of the
 * answer in full, so that one spelled tail serves both. */
static inline uint64_t brief_tail_key(const struct pgw_brief *b)
{
	return tail_key(b->stop, b->level, b->data_absence, b->pkey, b->flags,
			b->eff_flags);
}

/* The slot of t holding b's tail (its key ORed with extra, a formatter's
 * own bits), or NULL when it was not spelled yet. */
static inline const struct spelled *spelled_brief(struct spelled *t,
						  uint64_t extra,
						  const struct pgw_mode *mode,
						  const struct pgw_brief *b)
{
	uint64_t key = brief_tail_key(b) | extra;
	const struct spelled *m = spelled_slot(t, key);

	return spelled_has(m, key, mode) ? m : NULL;
}

#endif
