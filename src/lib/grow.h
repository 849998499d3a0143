/* Arrays that grow by doubling, for the few lists an image keeps. */
#ifndef PGW_GROW_H
#define PGW_GROW_H

#include "pgwalk.h"

/*
 * Make room for element n of *arrp (elements of elem bytes, n already in
 * use).  The capacity is implicit in n: none before the first element,
 * then 4, 8, 16, ...  On failure *arrp is unchanged.
 */
enum pgw_status pgw_grow(void *arrp, size_t n, size_t elem,
			 struct pgw_err *err);

#endif
