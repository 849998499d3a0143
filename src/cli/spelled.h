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
#include "../lib/hash.h"

#define SPELLED_SLOTS_LOG2 6
#define SPELLED_SLOTS (1u << SPELLED_SLOTS_LOG2)

/* Direct-mapped (a new tail overwrites its slot), so not a pgw_table. */
struct spelled {
	uint64_t key;                 /* 0: empty */
	const struct pgw_mode *mode;  /* the words name its levels */
	uint16_t len;
	char s[256];
};

/* The slot for key; it holds key's words when spelled_copy finds them. */
static inline struct spelled *spelled_slot(struct spelled *t, uint64_t key)
{
	return &t[pgw_hash_slot(key, SPELLED_SLOTS_LOG2)];
}

/* Whether m holds key's words. */
static inline bool spelled_has(const struct spelled *m, uint64_t key,
			       const struct pgw_mode *mode)
{
	return m->key == key && m->mode == mode;
}

/* key's words at the end of l, when m holds them.  Where l has room
 * for all of m->s, copied in whole chunks past their end: the first
 * FIRST bytes (most tails) in a few fixed moves, where memcpy's call
 * cost a batch 3 % of its instructions. */
static inline bool spelled_copy(const struct spelled *m, uint64_t key,
				const struct pgw_mode *mode, struct line *l)
{
	enum { FIRST = 96, CHUNK = 32 };
	_Static_assert(sizeof(m->s) % CHUNK == 0 && FIRST % CHUNK == 0,
		       "whole chunks of s");

	if (!spelled_has(m, key, mode))
		return false;
	size_t n = m->len;
	if (sizeof(m->s) > sizeof(l->buf) - l->len) {
		emit_mem(l, m->s, n);
		return true;
	}
	char *to = l->buf + l->len;
	memcpy(to, m->s, FIRST);
	for (size_t i = FIRST; i < n; i += CHUNK)
		memcpy(to + i, m->s + i, CHUNK);
	l->len += n;
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
 * lacks (pgw_answer.absence). */
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

/* The key of an answer's tail. */
static inline uint64_t answer_tail_key(const struct pgw_answer *a)
{
	return tail_key(a->stop, a->level, a->absence, a->pkey, a->flags,
			a->eff_flags);
}

/* The same key of a translation's answer, read from it in place. */
static inline uint64_t xlat_tail_key(const struct pgw_xlat *x)
{
	if (x->stop != PGW_STOP_OK)
		return tail_key(x->stop, x->level, x->table_absence, 0, 0, 0);
	const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
	return tail_key(x->stop, x->level, x->data_absence, e->pkey, e->flags,
			x->eff_flags);
}

/* Spell an answer's tail at the end of l (ctx: the formatter's own). */
typedef void (*tail_spell_fn)(struct line *l, const struct out *o,
			      const void *ctx, const struct pgw_answer *a);

/* a's tail at the end of l: copied from t when spelled before (its key
 * ORed with extra, a formatter's own bits), else spelled and kept.
 * Always inlined, so that spell is a direct call. */
static inline __attribute__((always_inline)) void
spelled_tail(struct spelled *t, uint64_t extra, const struct out *o,
	     const void *ctx, const struct pgw_answer *a, struct line *l,
	     tail_spell_fn spell)
{
	uint64_t key = answer_tail_key(a) | extra;
	struct spelled *m = spelled_slot(t, key);

	if (spelled_copy(m, key, o->mode, l))
		return;
	size_t at = l->len;
	spell(l, o, ctx, a);
	spelled_keep(m, key, o->mode, l, at);
}

#endif
