/*
 * The paging modes as data.  Every mode runs the same five logical levels;
 * a level with bits == 0 is folded and passes straight through, as Linux's
 * pgtable-nop4d.h/-nopud.h/-nopmd.h fold them.  Adding a mode is adding a
 * table here (and listing it in all_modes).
 */
#include "arm64.h"
#include "x86.h"
#include "../lib/names.h"

#include <string.h>

#define FOLDED(n) { .name = n, .hw_name = NULL, .shift = 0, .bits = 0 }
/* SDM 4.6: a page is writable or user-accessible only if every level
 * says so, and not executable if any level says NX. */
#define X86_PERM { .and_bits = PGW_F_RW | PGW_F_USER, .or_bits = PGW_F_NX }

const struct pgw_mode pgw_mode_i386 = {
	.name = "i386",
	.desc = "i386 2-level (4 KiB and 4 MiB pages, PSE-36)",
	.entry_size = 4, .va_bits = 32, .phys_bits = 40,
	.root_mask = UINT64_C(0xfffff000),
	.quirks = PGW_Q_PSE36,
	.level = {
		[PGW_PGD] = { "pgd", "PD", 22, 10, true },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = FOLDED("pmd"),
		[PGW_PTE] = { "pte", "PT", 12, 10, true },
	},
	.perm = X86_PERM,
	.hints = { .cr4_clear = X86_CR4_PAE, .elf_machine = EM_386_ID },
	.decode = pgw_x86_decode,
};

const struct pgw_mode pgw_mode_pae = {
	.name = "pae",
	.desc = "i386 PAE 3-level (4 KiB and 2 MiB pages, NX)",
	.entry_size = 8, .va_bits = 32, .phys_bits = 52,
	.root_mask = UINT64_C(0xffffffe0),
	.quirks = PGW_Q_NX | PGW_Q_PDPTE_NOPERM,
	.level = {
		[PGW_PGD] = { "pgd", "PDPT", 30, 2, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = { "pmd", "PD", 21, 9, true },
		[PGW_PTE] = { "pte", "PT", 12, 9, true },
	},
	.perm = X86_PERM,
	.hints = { .cr4_set = X86_CR4_PAE, .elf_machine = EM_386_ID },
	.decode = pgw_x86_decode,
};

const struct pgw_mode pgw_mode_x86_64 = {
	.name = "x86-64",
	.desc = "x86-64 4-level (4 KiB, 2 MiB and 1 GiB pages)",
	.entry_size = 8, .va_bits = 48, .phys_bits = 52,
	.root_mask = UINT64_C(0x000ffffffffff000),
	.quirks = PGW_Q_NX | PGW_Q_CANONICAL,
	.level = {
		[PGW_PGD] = { "pgd", "PML4", 39, 9, false },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = { "pud", "PDPT", 30, 9, true },
		[PGW_PMD] = { "pmd", "PD", 21, 9, true },
		[PGW_PTE] = { "pte", "PT", 12, 9, true },
	},
	.perm = X86_PERM,
	.hints = { .cr4_clear = X86_CR4_LA57, .long_mode = true,
		   .elf_machine = EM_X86_64_ID },
	.decode = pgw_x86_decode,
};

const struct pgw_mode pgw_mode_la57 = {
	.name = "la57",
	.desc = "x86-64 5-level, LA57 (4 KiB, 2 MiB and 1 GiB pages)",
	.entry_size = 8, .va_bits = 57, .phys_bits = 52,
	.root_mask = UINT64_C(0x000ffffffffff000),
	.quirks = PGW_Q_NX | PGW_Q_CANONICAL,
	.level = {
		[PGW_PGD] = { "pgd", "PML5", 48, 9, false },
		[PGW_P4D] = { "p4d", "PML4", 39, 9, false },
		[PGW_PUD] = { "pud", "PDPT", 30, 9, true },
		[PGW_PMD] = { "pmd", "PD", 21, 9, true },
		[PGW_PTE] = { "pte", "PT", 12, 9, true },
	},
	.perm = X86_PERM,
	.hints = { .cr4_set = X86_CR4_LA57, .long_mode = true,
		   .elf_machine = EM_X86_64_ID },
	.decode = pgw_x86_decode,
};

/* x86 first (detection's fallbacks keep their order); each machine's
 * modes shallowest first. */
static const struct pgw_mode *const all_modes[] = {
	&pgw_mode_i386, &pgw_mode_pae, &pgw_mode_x86_64, &pgw_mode_la57,
	&pgw_mode_arm64_16k_36, &pgw_mode_arm64_64k_42,
	&pgw_mode_arm64_4k_39, &pgw_mode_arm64_16k_47, &pgw_mode_arm64_64k_48,
	&pgw_mode_arm64_64k_52, &pgw_mode_arm64_4k_48, &pgw_mode_arm64_16k_48,
	&pgw_mode_arm64_16k_52, &pgw_mode_arm64_4k_52, NULL,
};

const struct pgw_mode *const *pgw_modes(void)
{
	return all_modes;
}

const struct pgw_mode *pgw_mode_by_name(const char *name)
{
	for (size_t i = 0; all_modes[i]; i++)
		if (strcmp(all_modes[i]->name, name) == 0)
			return all_modes[i];
	/* Accepted spellings users bring from other tools. */
	if (strcmp(name, "x86_64") == 0 || strcmp(name, "4level") == 0)
		return &pgw_mode_x86_64;
	if (strcmp(name, "5level") == 0)
		return &pgw_mode_la57;
	if (strcmp(name, "2level") == 0 || strcmp(name, "ia32") == 0)
		return &pgw_mode_i386;
	return NULL;
}

unsigned pgw_mode_depth(const struct pgw_mode *mode)
{
	unsigned n = 0;

	for (unsigned l = 0; l < PGW_NLEVELS; l++)
		n += mode->level[l].bits != 0;
	return n;
}

const char *pgw_machine_name(unsigned elf_machine)
{
	static const char *const names[] = {
		[0] = "none", [EM_386_ID] = "i386", [EM_X86_64_ID] = "x86-64",
		[EM_AARCH64_ID] = "arm64",
	};
	return PGW_NAME(names, elf_machine, "other");
}

uint64_t pgw_level_span(const struct pgw_mode *mode, enum pgw_level lvl)
{
	return UINT64_C(1) << mode->level[lvl].shift;
}

/* The VA the MMU looks at: with the top byte ignored, bit 55 copied
 * over it. */
static uint64_t untagged(const struct pgw_mode *mode, uint64_t va)
{
	if (!(mode->quirks & PGW_Q_TBI))
		return va;
	return (uint64_t)((int64_t)(va << 8) >> 8);
}

bool pgw_mode_canonical(const struct pgw_mode *mode, uint64_t va)
{
	if (mode->root_select_bit) {
		/* Each root's half: bits va_bits..63 all clear or all set. */
		uint64_t top = untagged(mode, va) >> mode->va_bits;
		return top == 0 || top == (~UINT64_C(0) >> mode->va_bits);
	}
	if (!(mode->quirks & PGW_Q_CANONICAL))
		return mode->va_bits >= 64 || va < (UINT64_C(1) << mode->va_bits);
	/* Bits va_bits-1 .. 63 must all be equal. */
	int64_t s = (int64_t)(va << (64 - mode->va_bits)) >> (64 - mode->va_bits);
	return (uint64_t)s == va;
}

uint64_t pgw_cr3_table(const struct pgw_mode *mode, uint64_t cr3,
		       const struct pgw_enc_bits *enc)
{
	/* Linux's build_cr3 sets the C-bit too (__sme_pa). */
	uint64_t attr = enc ? enc->enc | enc->shared : 0;
	uint64_t table = cr3 & mode->root_mask & ~attr;

	/* AArch64's 52-bit TTBR form: BADDR[51:48] in bits 5..2. */
	if (mode->quirks & (PGW_Q_LPA2 | PGW_Q_LPA64K))
		table |= (cr3 >> 2 & 0xf) << 48;
	return table;
}
