/*
 * What a virtual read cannot read at an address, and how far that goes:
 * a not-present entry covers its level's span, a table the image lacks
 * the span of that whole table, the x86-64 gap up to the kernel half, a
 * frame the image lacks its 4 KiB page.  Readers that carry on past the
 * unreadable (pgwalk read --skip-unreadable) skip by it in one step.
 */
#include "step.h"

/* End (exclusive; 0 means 2^64) of the aligned block of 2^shift bytes
 * that holds va. */
static uint64_t block_end(uint64_t va, unsigned shift)
{
	if (shift >= 64)
		return 0;
	return (va | ((UINT64_C(1) << shift) - 1)) + 1;
}

bool pgw_read_gap(const struct pgw_space *space, uint64_t va,
		  struct pgw_read_gap *gap)
{
	const struct pgw_mode *mode = space->mode;
	struct pgw_xlat x;
	enum pgw_stop stop = pgw_translate(space, NULL, va, &x);
	const struct pgw_level_desc *d = &mode->level[x.level];

	memset(gap, 0, sizeof(*gap));
	gap->va = va;
	gap->stop = stop;
	gap->level = x.level;
	switch (stop) {
	case PGW_STOP_OK:
		gap->pa = x.pa;
		gap->absence = x.data_absence;
		/* Damage only decoding finds (pgw_image_page_state). */
		if (x.data_in_image) {
			const uint8_t *page;
			struct pgw_err err;
			if (pgw_image_page(space->img, x.pa >> PGW_PAGE_SHIFT,
					   &page, &err) != PGW_E_NODATA)
				return false;
			gap->absence = err.absence;
		}
		gap->end = block_end(va, PGW_PAGE_SHIFT);
		break;
	case PGW_STOP_NONCANONICAL:
		/* The gap ends where the kernel half begins. */
		gap->end = ~((UINT64_C(1) << (mode->va_bits - 1)) - 1);
		break;
	case PGW_STOP_BEYOND_SPACE:
		gap->end = 0;
		break;
	case PGW_STOP_TABLE_NOT_IN_IMAGE:
	case PGW_STOP_TABLE_BEYOND_MEMORY:
	case PGW_STOP_READ_ERROR:
		/* The table of this level: all it would map is unknown. */
		gap->absence = x.table_absence;
		gap->end = block_end(va, (unsigned)d->shift + d->bits);
		break;
	default:
		/* An entry at this level stops every address it covers. */
		gap->end = block_end(va, d->shift);
		break;
	}
	return true;
}
