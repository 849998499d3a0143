/*
 * Most leaves look like another one already decoded: the same bits but
 * for the frame.  Decoding costs more than the rest of a step, so a leaf
 * whose entry differs from a decoded one only in bits the decoder copies
 * into the frame address as they are is that leaf with the other frame.
 * Which bits those are the decoder itself says, bit by bit, once per kind
 * of entry: its level and the bits outside 12..51 (flags, PS, NX, pkey),
 * on which x86 makes the meaning of the others depend.  A decoder that
 * masks a bit out of the frame (PSE-36's, a memory-encryption bit) or
 * calls it reserved simply leaves it out of the set.  The same holds of
 * table entries.  The range walk uses the bits against the leaf before
 * (range.c), the paging-structure cache against an entry of the same kind
 * it decoded (xlat_cache.c, through pgw_step_with).
 */
#ifndef PGW_FRAME_BITS_H
#define PGW_FRAME_BITS_H

#include "pgwalk.h"
#include "../lib/hash.h"

#include <string.h>

/* The bits of an entry that say what kind of entry it is. */
#define PGW_FRAME_KEY_MASK (UINT64_C(0xfff) | UINT64_C(0xfff) << 52)

/* Where the kind of raw at lvl starts looking in a table of 2^bits
 * slots: a multiplicative hash, since the kinds met differ in any of
 * their bits (NX, A, D, G, software bits), not only the low ones.  A kind
 * lives in one of PGW_KIND_PROBES slots from there (open addressing: a
 * handful of kinds that hash alike must not evict one another at every
 * turn). */
#define PGW_KIND_PROBES 4
static inline unsigned pgw_kind_hash(enum pgw_level lvl, uint64_t raw,
				     unsigned bits)
{
	uint64_t key = (raw & PGW_FRAME_KEY_MASK) | (uint64_t)lvl << 12;

	return (unsigned)pgw_hash_slot(key, bits);
}

/* Frame bits per kind of entry.  Its user keeps one set of encryption
 * bits (a walk) or clears it.  Not a pgw_table (lib/table.h): a cache
 * that evicts, a new kind overwriting the first of its PGW_KIND_PROBES
 * slots when they are full, keyed by mode, level and bits. */
struct pgw_frame_bits_slot {
	const struct pgw_mode *mode;   /* NULL: empty */
	enum pgw_level lvl;
	uint64_t key;                  /* raw & PGW_FRAME_KEY_MASK */
	uint64_t bits;
};

#define PGW_FRAME_BITS_SLOTS_LOG2 5
struct pgw_frame_bits_memo {
	struct pgw_frame_bits_slot slot[1u << PGW_FRAME_BITS_SLOTS_LOG2];
};

/* The frame bits of entries like e (decoded from raw at lvl). */
uint64_t pgw_frame_bits_of(struct pgw_frame_bits_memo *m,
			   const struct pgw_mode *mode,
			   const struct pgw_enc_bits *enc, enum pgw_level lvl,
			   uint64_t raw, const struct pgw_entry *e);

/* Entries (leaves and tables) decoded once per kind, kept with the
 * kind's frame bits.  Its user keeps one mode and one set of encryption
 * bits, or clears it.  Like the frame bits' memo, a cache that evicts
 * within PGW_KIND_PROBES slots, not a pgw_table. */
#define PGW_ENTRY_MEMO_SLOTS_LOG2 6
struct pgw_entry_memo_slot {
	bool used;
	enum pgw_level lvl;
	uint64_t raw, bits;
	struct pgw_entry e;
};

struct pgw_entry_memo {
	struct pgw_entry_memo_slot slot[1u << PGW_ENTRY_MEMO_SLOTS_LOG2];
	/* The empty entry (0) of each level, decoded once with how a walk
	 * takes it: most entries a walk through holes meets, and not a
	 * kind the slots keep. */
	bool zero_known[PGW_NLEVELS];
	enum pgw_stop zero_why[PGW_NLEVELS];
	struct pgw_entry zero[PGW_NLEVELS];
};

/* The memo's slot of raw's kind at lvl when raw is that slot's entry
 * but for frame bits (its entry is raw's with another frame), else
 * NULL: decode raw. */
static inline const struct pgw_entry_memo_slot *
pgw_entry_memo_find(const struct pgw_entry_memo *m, enum pgw_level lvl,
		    uint64_t raw)
{
	const unsigned mask = (1u << PGW_ENTRY_MEMO_SLOTS_LOG2) - 1;
	unsigned h = pgw_kind_hash(lvl, raw, PGW_ENTRY_MEMO_SLOTS_LOG2);

	for (unsigned k = 0; k < PGW_KIND_PROBES; k++) {
		const struct pgw_entry_memo_slot *s = &m->slot[(h + k) & mask];
		if (!s->used)
			return NULL;
		if (s->lvl != lvl || ((raw ^ s->raw) & PGW_FRAME_KEY_MASK))
			continue;
		/* Its kind: the same entry but for frame bits, or not. */
		return (raw ^ s->raw) & ~s->bits ? NULL : s;
	}
	return NULL;
}

/* The frame (pgw_entry.addr) of raw, an entry of slot s's kind
 * (pgw_entry_memo_find): s's with the frame bits that differ. */
static inline uint64_t pgw_entry_memo_frame(const struct pgw_entry_memo_slot *s,
					    uint64_t raw)
{
	return s->e.addr ^ raw ^ s->raw;
}

/* raw at lvl as the memo's entry of its kind with raw's frame (true), or
 * false: decode it, and keep it if it is a leaf or a table. */
static inline bool pgw_entry_memo_get(const struct pgw_entry_memo *m,
				      enum pgw_level lvl, uint64_t raw,
				      struct pgw_entry *e)
{
	const struct pgw_entry_memo_slot *s = pgw_entry_memo_find(m, lvl, raw);

	if (!s)
		return false;
	*e = s->e;
	e->addr = pgw_entry_memo_frame(s, raw);
	e->raw = raw;
	return true;
}

/* Keep e, a leaf or table entry decoded from raw at lvl with mode and
 * enc. */
void pgw_entry_memo_keep(struct pgw_entry_memo *m, const struct pgw_mode *mode,
			 const struct pgw_enc_bits *enc, enum pgw_level lvl,
			 uint64_t raw, const struct pgw_entry *e);

static inline void pgw_entry_memo_clear(struct pgw_entry_memo *m)
{
	memset(m, 0, sizeof(*m));
}

#endif
