/* A swap entry's type, named by its era's layout. */
#ifndef PGW_SWAP_KIND_H
#define PGW_SWAP_KIND_H

#include "pgwalk.h"

/* What type means in layout: swap, hwpoison, migration, device, else
 * other (PTE markers; types the layout has no room for). */
enum pgw_np_kind pgw_swap_kind(const struct pgw_swap_layout *layout,
			       unsigned type);

#endif
