/*
 * A swap entry's type, named by the era's layout: the numbering Linux
 * gives its special types above the swap files (swap.h's MAX_SWAPFILES
 * and swapops.h's SWP_HWPOISON, SWP_MIGRATION_*, SWP_DEVICE_*).
 */
#include "swap_kind.h"

enum pgw_np_kind pgw_swap_kind(const struct pgw_swap_layout *layout,
			       unsigned type)
{
	static const enum pgw_np_kind order[] = {
		PGW_NP_HWPOISON, PGW_NP_MIGRATION, PGW_NP_DEVICE,
	};
	const unsigned count[] = {
		layout->hwpoison, layout->migration, layout->device,
	};
	unsigned first = layout->swapfiles;

	if (type < first)
		return PGW_NP_SWAP;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (type < first + count[i])
			return order[i];
		first += count[i];
	}
	return PGW_NP_OTHER;
}
