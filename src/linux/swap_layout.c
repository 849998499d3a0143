/*
 * Linux's swap entries on arm64 (arch/arm64/include/asm/pgtable.h,
 * __SWP_TYPE_SHIFT and __SWP_OFFSET_SHIFT) across the eras that moved
 * them, with the special types' numbering of the same kernels
 * (include/linux/swap.h): Debian's configuration, MIGRATION,
 * MEMORY_FAILURE and DEVICE_PRIVATE on, as x86's decoder assumes.
 *   5.14  type 2..7, offset 8..57, bit 58 PTE_PROT_NONE clear; device
 *         exclusive entries make SWP_DEVICE_NUM 4: 25 swap files.
 *   5.19  PG_anon_exclusive in bit 2, type 3..7 (arm64's
 *         __HAVE_ARCH_PTE_SWP_EXCLUSIVE); three migration types and the
 *         PTE marker: 23 swap files.
 *   6.10  uffd-wp in bit 3, type 6..10, bit 11 (PTE_PRESENT_INVALID)
 *         clear, offset 12..61 (PTE_PROT_NONE removed).
 * Older kernels number the special types otherwise: no layout.
 */
#include "swap_layout.h"

#include "layout.h"
#include "../arch/arm64.h"
#include "../lib/names.h"

#define BIT(n) (UINT64_C(1) << (n))
#define BITS(lo, hi) ((BIT(hi) - 1) & ~(BIT(lo) - 1))   /* [lo, hi), hi < 64 */
#define TOP(lo) (~(BIT(lo) - 1))                         /* [lo, 64) */

static const struct era {
	unsigned elf_machine;
	uint32_t from, until;     /* [from, until); until 0: open */
	struct pgw_swap_layout layout;
} eras[] = {
	{ EM_AARCH64_ID, KV(5, 14, 0), KV(5, 19, 0),
	  { "arm64-5.14", BITS(0, 2) | TOP(58), 2, 6, 8, 50, 25, 1, 2, 4 } },
	{ EM_AARCH64_ID, KV(5, 19, 0), KV(6, 10, 0),
	  { "arm64-5.19", BITS(0, 2) | TOP(58), 3, 5, 8, 50, 23, 1, 3, 4 } },
	{ EM_AARCH64_ID, KV(6, 10, 0), 0,
	  { "arm64-6.10", BITS(0, 2) | BITS(4, 6) | BIT(11) | TOP(62),
	    6, 5, 12, 50, 23, 1, 3, 4 } },
};

const struct pgw_swap_layout *linux_swap_layout_for(unsigned elf_machine,
						    uint32_t version)
{
	for (size_t i = 0; version && i < PGW_NELEMS(eras); i++)
		if (eras[i].elf_machine == elf_machine &&
		    version >= eras[i].from &&
		    (eras[i].until == 0 || version < eras[i].until))
			return &eras[i].layout;
	return NULL;
}

const struct pgw_swap_layout *linux_swap_layout(struct pgw_image *img,
						const struct pgw_mode *mode)
{
	const char *release = pgw_vmcoreinfo_get(img, "OSRELEASE");

	return release ? linux_swap_layout_for(mode->hints.elf_machine,
					       layout_release_version(release))
		       : NULL;
}
