/*
 * The AArch64 modes as data: one per granule and VA size Linux builds
 * (arch/arm64/Kconfig: ARM64_VA_BITS_*), named arm64-<granule>-<VA bits>.
 * Linux folds the levels a short walk lacks from the middle, as on x86:
 * 3 levels are pgd (L1), pmd (L2), pte (L3); 2 are pgd (L2) and pte.
 * Hardware names are the Arm ARM's lookup levels, L-1 to L3.  Blocks
 * (leaf_ok) sit where the granule allows them: 4 KiB at L1 and L2 (L0
 * with 52-bit descriptors), 16 KiB at L2 (L1 with them), 64 KiB at L2
 * (L1 with them).  TTBR0 holds the lower half, TTBR1 the upper, chosen by
 * VA bit 55 with the top byte ignored (Linux sets TBI0, and TBI1 where
 * KASAN tags pointers).
 */
#include "arm64.h"

#define FOLDED(n) { .name = n, .hw_name = NULL, .shift = 0, .bits = 0 }
/* Write and EL0 access only where every level allows them, execute-never
 * where any level says so (APTable, UXNTable, PXNTable). */
#define ARM64_PERM { .and_bits = PGW_F_RW | PGW_F_USER, \
		     .or_bits = PGW_F_PXN | PGW_F_UXN }
/* TTBRn_EL1: ASID in bits 63..48, CnP in bit 0; the 52-bit form keeps
 * BADDR[51:48] in bits 5..2 (pgw_cr3_table moves them). */
#define TTBR_BADDR_48 UINT64_C(0x0000fffffffffffe)
#define TTBR_BADDR_52 UINT64_C(0x0000ffffffffffc0)
#define ARM64_COMMON(g) \
	.entry_size = 8, .perm = ARM64_PERM, .root_select_bit = 55, \
	.hints = { .elf_machine = EM_AARCH64_ID, .granule = (g) }, \
	.decode = pgw_arm64_decode

const struct pgw_mode pgw_mode_arm64_4k_39 = {
	.name = "arm64-4k-39",
	.desc = "AArch64 4 KiB granule, 39-bit VA, 3 levels (2 MiB, 1 GiB "
		"blocks)",
	.va_bits = 39, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L1", 30, 9, true },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = { "pmd", "L2", 21, 9, true },
		[PGW_PTE] = { "pte", "L3", 12, 9, true },
	},
	ARM64_COMMON(4096),
};

const struct pgw_mode pgw_mode_arm64_4k_48 = {
	.name = "arm64-4k-48",
	.desc = "AArch64 4 KiB granule, 48-bit VA, 4 levels (2 MiB, 1 GiB "
		"blocks)",
	.va_bits = 48, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L0", 39, 9, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = { "pud", "L1", 30, 9, true },
		[PGW_PMD] = { "pmd", "L2", 21, 9, true },
		[PGW_PTE] = { "pte", "L3", 12, 9, true },
	},
	ARM64_COMMON(4096),
};

const struct pgw_mode pgw_mode_arm64_4k_52 = {
	.name = "arm64-4k-52",
	.desc = "AArch64 4 KiB granule, 52-bit VA and PA (LPA2), 5 levels",
	.va_bits = 52, .phys_bits = 52, .root_mask = TTBR_BADDR_52,
	.quirks = PGW_Q_TBI | PGW_Q_LPA2,
	.level = {
		[PGW_PGD] = { "pgd", "L-1", 48, 4, false },
		[PGW_P4D] = { "p4d", "L0", 39, 9, true },
		[PGW_PUD] = { "pud", "L1", 30, 9, true },
		[PGW_PMD] = { "pmd", "L2", 21, 9, true },
		[PGW_PTE] = { "pte", "L3", 12, 9, true },
	},
	ARM64_COMMON(4096),
};

const struct pgw_mode pgw_mode_arm64_16k_36 = {
	.name = "arm64-16k-36",
	.desc = "AArch64 16 KiB granule, 36-bit VA, 2 levels (32 MiB blocks)",
	.va_bits = 36, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L2", 25, 11, true },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = FOLDED("pmd"),
		[PGW_PTE] = { "pte", "L3", 14, 11, true },
	},
	ARM64_COMMON(16384),
};

const struct pgw_mode pgw_mode_arm64_16k_47 = {
	.name = "arm64-16k-47",
	.desc = "AArch64 16 KiB granule, 47-bit VA, 3 levels (32 MiB blocks)",
	.va_bits = 47, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L1", 36, 11, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = { "pmd", "L2", 25, 11, true },
		[PGW_PTE] = { "pte", "L3", 14, 11, true },
	},
	ARM64_COMMON(16384),
};

const struct pgw_mode pgw_mode_arm64_16k_48 = {
	.name = "arm64-16k-48",
	.desc = "AArch64 16 KiB granule, 48-bit VA, 4 levels (a 2-entry top "
		"table; 32 MiB blocks)",
	.va_bits = 48, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L0", 47, 1, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = { "pud", "L1", 36, 11, false },
		[PGW_PMD] = { "pmd", "L2", 25, 11, true },
		[PGW_PTE] = { "pte", "L3", 14, 11, true },
	},
	ARM64_COMMON(16384),
};

const struct pgw_mode pgw_mode_arm64_16k_52 = {
	.name = "arm64-16k-52",
	.desc = "AArch64 16 KiB granule, 52-bit VA and PA (LPA2), 4 levels "
		"(a 32-entry top table)",
	.va_bits = 52, .phys_bits = 52, .root_mask = TTBR_BADDR_52,
	.quirks = PGW_Q_TBI | PGW_Q_LPA2,
	.level = {
		[PGW_PGD] = { "pgd", "L0", 47, 5, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = { "pud", "L1", 36, 11, true },
		[PGW_PMD] = { "pmd", "L2", 25, 11, true },
		[PGW_PTE] = { "pte", "L3", 14, 11, true },
	},
	ARM64_COMMON(16384),
};

const struct pgw_mode pgw_mode_arm64_64k_42 = {
	.name = "arm64-64k-42",
	.desc = "AArch64 64 KiB granule, 42-bit VA, 2 levels (512 MiB blocks)",
	.va_bits = 42, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L2", 29, 13, true },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = FOLDED("pmd"),
		[PGW_PTE] = { "pte", "L3", 16, 13, true },
	},
	ARM64_COMMON(65536),
};

const struct pgw_mode pgw_mode_arm64_64k_48 = {
	.name = "arm64-64k-48",
	.desc = "AArch64 64 KiB granule, 48-bit VA, 3 levels (512 MiB blocks)",
	.va_bits = 48, .phys_bits = 48, .root_mask = TTBR_BADDR_48,
	.quirks = PGW_Q_TBI,
	.level = {
		[PGW_PGD] = { "pgd", "L1", 42, 6, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = { "pmd", "L2", 29, 13, true },
		[PGW_PTE] = { "pte", "L3", 16, 13, true },
	},
	ARM64_COMMON(65536),
};

const struct pgw_mode pgw_mode_arm64_64k_52 = {
	.name = "arm64-64k-52",
	.desc = "AArch64 64 KiB granule, 52-bit VA and PA (LVA, LPA), 3 "
		"levels (4 TiB and 512 MiB blocks)",
	.va_bits = 52, .phys_bits = 52, .root_mask = TTBR_BADDR_52,
	.quirks = PGW_Q_TBI | PGW_Q_LPA64K,
	.level = {
		[PGW_PGD] = { "pgd", "L1", 42, 10, true },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = { "pmd", "L2", 29, 13, true },
		[PGW_PTE] = { "pte", "L3", 16, 13, true },
	},
	ARM64_COMMON(65536),
};
