/*
 * The one idiom for enum -> string tables: an array indexed by the enum,
 * read through PGW_NAME so that a value outside the table, or a gap in
 * it, gives the caller's fallback instead of a read past the end.
 */
#ifndef PGW_NAMES_H
#define PGW_NAMES_H

#include <stddef.h>

#define PGW_NELEMS(a) (sizeof(a) / sizeof((a)[0]))

static inline const char *pgw_name_at(const char *const *table, size_t n,
				      unsigned long i, const char *fallback)
{
	return i < n && table[i] ? table[i] : fallback;
}

#define PGW_NAME(table, i, fallback) \
	pgw_name_at(table, PGW_NELEMS(table), (unsigned long)(i), fallback)

#endif
