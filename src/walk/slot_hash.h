/*
 * Where the paging-structure cache (xlat_cache.c) puts a span's slot,
 * and what the slot's check word holds: here, apart, so that a unit test
 * can find two spans that share a slot.
 */
#ifndef PGW_SLOT_HASH_H
#define PGW_SLOT_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "pgwalk.h"
#include "../lib/hash.h"

#define PGW_SLOT_LEVELS (PGW_NLEVELS - 1)   /* levels with slots */

/* Slots per level, finest first: addresses cluster in the finest spans,
 * and a coarse level has few entries to remember (512 per table). */
static const unsigned pgw_slots_log2[PGW_SLOT_LEVELS] = { 10, 9, 9, 8 };

/* The slot of tag among 2^bits (the neighbouring spans a batch asks
 * for, spread). */
static inline size_t pgw_slot_index(uint64_t tag, unsigned bits)
{
	return pgw_hash_slot(tag, bits);
}

/* The fewest bits of an address below a level with slots: a tag (va >>
 * the level's shift) then fits in the check word's low 48 bits. */
#define PGW_SLOT_MIN_SHIFT 16

/* What a slot filled for tag in generation gen has in its check: both,
 * whole.  Never 0, as calloc's slots have it: gen is not. */
static inline uint64_t pgw_slot_check(uint64_t tag, uint16_t gen)
{
	return (uint64_t)gen << 48 | tag;
}

#endif
