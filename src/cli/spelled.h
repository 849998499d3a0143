/*
 * Words remembered by key: a batch of translations prints the same few
 * dozen record tails (page size, level, flags, effective permissions,
 * whether the data is in the image; or why there is no answer) a million
 * times, so each formatter spells a tail once into a small direct-mapped
 * table and copies it after that.  Each thread keeps its own tables
 * (_Thread_local): translate's batch formats on the image's threads.
 */
#ifndef PGW_SPELLED_H
#define PGW_SPELLED_H

#include "output.h"
#include "../lib/hash.h"

#define SPELLED_SLOTS_LOG2 6
#define SPELLED_SLOTS (1u << SPELLED_SLOTS_LOG2)

/* What a compact translate record says after its pa, as a key of two
 * words (answer_tail_key): records with equal keys say the same words. */
struct tail_key {
	uint64_t lo, hi;   /* hi's top bit set: never an empty slot's */
};

/* Two ways per set (a new tail takes the set's empty way, else the
 * first), so that two kinds a batch meets all the time do not evict one
 * another when they hash alike; not a pgw_table. */
struct spelled {
	struct tail_key key;          /* zeros: empty */
	const struct pgw_mode *mode;  /* the words name its levels */
	uint16_t len;
	char s[256];
};

/* The first way of key's set. */
static inline struct spelled *spelled_slot(struct spelled *t,
					   struct tail_key key)
{
	return &t[pgw_hash_slot(key.lo ^ key.hi, SPELLED_SLOTS_LOG2 - 1) * 2];
}

/* Whether m holds key's words. */
static inline bool spelled_has(const struct spelled *m, struct tail_key key,
			       const struct pgw_mode *mode)
{
	return m->key.lo == key.lo && m->key.hi == key.hi && m->mode == mode;
}

/* key's words at the end of l, when m holds them.  Where l has room
 * for all of m->s, copied in whole chunks past their end: the first
 * FIRST bytes (most tails) in a few fixed moves, where memcpy's call
 * cost a batch 3 % of its instructions. */
static inline bool spelled_copy(const struct spelled *m, struct tail_key key,
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
static inline void spelled_keep(struct spelled *m, struct tail_key key,
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

/* a's key, with a formatter's own byte: records with equal keys say the
 * same words (the np details of a non-present entry are not in it:
 * JSON spells those each time).  The answer's stop, level, absence,
 * flags, effective permissions and protection key, whatever the stop (a
 * tail without an answer spells few of them: such answers that differ
 * only there are spelled once each, and still alike).  Each field whole
 * in bits of its own, those that lie side by side in pgw_answer read as
 * one word: a third fewer instructions than a key put together field by
 * field, which a batch pays per address. */
static inline struct tail_key answer_tail_key(const struct pgw_answer *a,
					      uint8_t own)
{
	_Static_assert(PGW_NSTOPS <= 256 && PGW_NLEVELS <= 256 &&
			       PGW_NABSENCES <= 256 && PGW_NFLAGS <= 16,
		       "stop, level and absence fit a byte, flags 16 bits");
	/* lo: stop 0-7, effective permissions 8-23, level 32-39, pkey
	 * 40-47; hi: absence 0-7, own 8-15, flags 32-47. */
	uint64_t lo = ((uint64_t)a->level << 32 | a->stop) |
		      ((uint64_t)a->pkey << 32 | (a->eff_flags & 0xffff)) << 8;
	uint64_t hi = ((uint64_t)a->flags << 32 | a->absence) |
		      (uint64_t)own << 8 | UINT64_C(1) << 63;

	return (struct tail_key){ lo, hi };
}

/* Spell an answer's tail at the end of l (ctx: the formatter's own). */
typedef void (*tail_spell_fn)(struct line *l, const struct out *o,
			      const void *ctx, const struct pgw_answer *a);

/* a's tail at the end of l: copied from t when spelled before (its key
 * with `own`, a formatter's own byte), else spelled and kept.  Always
 * inlined, so that spell is a direct call. */
static inline __attribute__((always_inline)) void
spelled_tail(struct spelled *t, uint8_t own, const struct out *o,
	     const void *ctx, const struct pgw_answer *a, struct line *l,
	     tail_spell_fn spell)
{
	struct tail_key key = answer_tail_key(a, own);
	struct spelled *m = spelled_slot(t, key);

	if (spelled_copy(m, key, o->mode, l) ||
	    spelled_copy(m + 1, key, o->mode, l))
		return;
	if (m->key.hi && !m[1].key.hi)
		m++;
	size_t at = l->len;
	spell(l, o, ctx, a);
	spelled_keep(m, key, o->mode, l, at);
}

#endif
