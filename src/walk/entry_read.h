/* Reading one page-table entry from an image: the walker's only I/O. */
#ifndef PGW_ENTRY_READ_H
#define PGW_ENTRY_READ_H

#include "pgwalk.h"

#include <string.h>

static inline enum pgw_status pgw_read_entry(struct pgw_image *img,
					     uint64_t pa, unsigned size,
					     uint64_t *raw_ret,
					     struct pgw_err *err)
{
	const uint8_t *page;
	enum pgw_status st = pgw_image_page(img, pa >> PGW_PAGE_SHIFT, &page,
					    err);
	uint64_t v = 0;

	if (st != PGW_OK)
		return st;
	/* Entries are naturally aligned, so never straddle a page. */
	memcpy(&v, page + (pa & (PGW_PAGE_SIZE - 1)), size);
	*raw_ret = v;
	return PGW_OK;
}

/* Effective permissions: USER and RW ANDed down the levels, NX ORed. */
static inline uint32_t pgw_eff_apply(uint32_t eff, uint32_t perm)
{
	return (eff & perm & (PGW_F_RW | PGW_F_USER)) |
	       ((eff | perm) & PGW_F_NX);
}
#define PGW_EFF_START (PGW_F_RW | PGW_F_USER)

#endif
