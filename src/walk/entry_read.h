/* Reading one page-table entry from an image: the walker's only I/O. */
#ifndef PGW_ENTRY_READ_H
#define PGW_ENTRY_READ_H

#include "pgwalk.h"
#include "../formats/image_page.h"

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

/* End of the image's highest physical range; UINT64_MAX when memory
 * reaches 2^64 (0 for an image without memory). */
static inline uint64_t pgw_mem_top(struct pgw_image *img)
{
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(img, &ranges);
	uint64_t top = nr ? ranges[nr - 1].start + ranges[nr - 1].size : 0;

	return nr && top == 0 ? UINT64_MAX : top;
}

/* Why the table at `table` could not be read (st, from pgw_image_page): a
 * page the image lacks is a stop of the walk, any other failure is a read
 * error. */
static inline enum pgw_stop pgw_table_stop(uint64_t mem_top, uint64_t table,
					   enum pgw_status st)
{
	if (st != PGW_E_NODATA)
		return PGW_STOP_READ_ERROR;
	return table >= mem_top ? PGW_STOP_TABLE_BEYOND_MEMORY :
				  PGW_STOP_TABLE_NOT_IN_IMAGE;
}

/*
 * The top table a root names.  The CPU ignores CR3's low bits (PCID, PWT,
 * PCD); a root that is not aligned to its table's size is read the same
 * way, so no table read can straddle a page.
 */
static inline uint64_t pgw_root_table(const struct pgw_mode *mode,
				      uint64_t root)
{
	for (unsigned l = 0; l < PGW_NLEVELS; l++)
		if (mode->level[l].bits) {
			uint64_t bytes = (UINT64_C(1) << mode->level[l].bits) *
					 mode->entry_size;
			return root & ~(bytes - 1);
		}
	return root;
}

/* Effective permissions: USER and RW ANDed down the levels, NX ORed. */
static inline uint32_t pgw_eff_apply(uint32_t eff, uint32_t perm)
{
	return (eff & perm & (PGW_F_RW | PGW_F_USER)) |
	       ((eff | perm) & PGW_F_NX);
}
#define PGW_EFF_START (PGW_F_RW | PGW_F_USER)

#endif
