/*
 * The one hash every table of pgwalk looks its keys up with (pgw_table
 * in table.h, the paging-structure cache's slots, the entry kinds'
 * memos, the shared tables' memo, the CLI's spelled record tails).
 */
#ifndef PGW_LIB_HASH_H
#define PGW_LIB_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The slot of key among 2^bits (1 to 64): the top bits of a
 * multiplicative (Fibonacci) hash, which spreads keys that differ in any
 * of their bits, as neighbouring spans and kinds of entries do. */
static inline size_t pgw_hash_slot(uint64_t key, unsigned bits)
{
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - bits));
}

#endif
