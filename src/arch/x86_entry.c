/*
 * One decoder for every x86 paging mode: what an entry at a level means,
 * given the mode's entry width and quirks.  Pure arithmetic on the raw
 * value; the walker does the reading.
 */
#include "x86.h"

#include <string.h>

/* Hardware bit positions. */
enum {
	B_P = 0, B_RW = 1, B_US = 2, B_PWT = 3, B_PCD = 4, B_A = 5, B_D = 6,
	B_PS = 7, B_G = 8, B_PAT_LARGE = 12, B_NX = 63,
	B_PROTNONE = 8,    /* Linux: _PAGE_PROTNONE reuses GLOBAL */
};

#define BIT(n) (UINT64_C(1) << (n))

/* Bits [lo, hi) set. */
static uint64_t bits(unsigned lo, unsigned hi)
{
	if (hi <= lo)
		return 0;
	uint64_t top = hi >= 64 ? ~UINT64_C(0) : BIT(hi) - 1;
	return top & ~(BIT(lo) - 1);
}

/* Swap types as Linux 5.19+ numbers the special ones (5 type bits):
 * 0..22 real swap files, 23 hwpoison, 24..26 migration, 27..30 device
 * private/exclusive, 31 PTE marker. */
static enum pgw_np_kind swap_kind(unsigned type)
{
	if (type < 23)
		return PGW_NP_SWAP;
	if (type == 23)
		return PGW_NP_HWPOISON;
	if (type <= 26)
		return PGW_NP_MIGRATION;
	if (type <= 30)
		return PGW_NP_DEVICE;
	return PGW_NP_OTHER;
}

static void decode_not_present(const struct pgw_mode *mode, uint64_t raw,
			       uint64_t attr, struct pgw_entry *out)
{
	out->kind = PGW_ENT_NOT_PRESENT;
	if (raw == 0) {
		out->np_kind = PGW_NP_NONE;
		return;
	}
	if (raw & BIT(B_PROTNONE)) {
		out->np_kind = PGW_NP_PROTNONE;
		/*
		 * 64-bit entries store a non-present frame inverted over the
		 * kernel's physical mask (L1TF mitigation, Linux 4.19+; the
		 * mask is 44, 46 or 52 bits by version).  An inverted frame
		 * has every bit up to the mask's top set, so a top bit at 40
		 * or above marks inversion and tells the width; 32-bit
		 * entries are never inverted.  The physical mask leaves out
		 * the encryption bits (pfn_pte ANDs PTE_PFN_MASK, then ORs in
		 * the protection's C-bit), so they are no frame bits here
		 * either, inverted or not.
		 */
		uint64_t frame = raw & bits(PGW_PAGE_SHIFT, 52) & ~attr;
		if (mode->entry_size == 8 && frame) {
			unsigned top = 63u - (unsigned)__builtin_clzll(frame);
			if (top >= 40)
				frame = ~raw & bits(PGW_PAGE_SHIFT, top + 1) &
					~attr;
		}
		out->np_pfn = frame >> PGW_PAGE_SHIFT;
		return;
	}
	if (mode->entry_size == 4) {
		/* pgtable-2level.h: type in bits 1..5, offset from bit 9. */
		out->swap_type = (unsigned)((raw >> 1) & 0x1f);
		out->swap_offset = raw >> 9;
	} else {
		/* pgtable_64.h / pgtable-3level.h: type in the top 5 bits,
		 * offset inverted in bits 9..58. */
		out->swap_type = (unsigned)(raw >> 59);
		out->swap_offset = (~raw << 5) >> 14;
	}
	out->np_kind = swap_kind(out->swap_type);
}

static void decode32(const struct pgw_mode *mode, enum pgw_level lvl,
		     uint64_t raw, struct pgw_entry *out)
{
	bool large = lvl != PGW_PTE && (raw & BIT(B_PS));

	if (large && !mode->level[lvl].leaf_ok) {
		out->kind = PGW_ENT_TABLE;
		out->reserved |= BIT(B_PS);
	} else if (large) {
		out->kind = PGW_ENT_LEAF;
		out->flags |= PGW_F_PS;
		if (raw & BIT(B_PAT_LARGE))
			out->flags |= PGW_F_PAT;
		out->addr = raw & bits(22, 32);
		if (mode->quirks & PGW_Q_PSE36) {
			/* PSE-36: PA bits 32..39 live in entry bits 13..20,
			 * bit 21 is reserved. */
			out->addr |= ((raw >> 13) & 0xff) << 32;
			out->reserved |= raw & bits(21, 22);
		} else {
			out->reserved |= raw & bits(13, 22);
		}
	} else {
		out->kind = lvl == PGW_PTE ? PGW_ENT_LEAF : PGW_ENT_TABLE;
		out->addr = raw & bits(12, 32);
		if (lvl == PGW_PTE && (raw & BIT(B_PS)))
			out->flags |= PGW_F_PAT;
	}
}

/* attr: encryption bits, inside the address field: never frame bits,
 * never reserved (the CPU that sets them implements them). */
static void decode64(const struct pgw_mode *mode, enum pgw_level lvl,
		     uint64_t raw, uint64_t attr, struct pgw_entry *out)
{
	uint64_t addr_mask = bits(12, mode->phys_bits) & ~attr;
	/* pgw_level_span, inline: a call here costs the hot path its
	 * registers. */
	uint64_t span = UINT64_C(1) << mode->level[lvl].shift;
	bool large = lvl != PGW_PTE && (raw & BIT(B_PS));

	/* Physical bits the CPU does not implement must be zero. */
	out->reserved |= raw & bits(mode->phys_bits, 52) & ~attr;
	if (mode->quirks & PGW_Q_NX) {
		if (raw & BIT(B_NX))
			out->flags |= PGW_F_NX;
	} else {
		out->reserved |= raw & BIT(B_NX);
	}
	if (large && !mode->level[lvl].leaf_ok) {
		/* PS in a PML4E/PML5E (or a PAE PDPTE) is reserved. */
		out->kind = PGW_ENT_TABLE;
		out->reserved |= BIT(B_PS);
		out->addr = raw & addr_mask;
	} else if (large) {
		out->kind = PGW_ENT_LEAF;
		out->flags |= PGW_F_PS;
		if (raw & BIT(B_PAT_LARGE))
			out->flags |= PGW_F_PAT;
		/* Between PAT (bit 12) and the frame's alignment: reserved. */
		out->reserved |= raw & bits(13, (unsigned)__builtin_ctzll(span));
		out->addr = raw & addr_mask & ~(span - 1);
	} else {
		out->kind = lvl == PGW_PTE ? PGW_ENT_LEAF : PGW_ENT_TABLE;
		out->addr = raw & addr_mask;
		if (lvl == PGW_PTE && (raw & BIT(B_PS)))
			out->flags |= PGW_F_PAT;
	}
	if (out->kind == PGW_ENT_LEAF && mode->va_bits > 32)
		out->pkey = (uint8_t)((raw >> 59) & 0xf);
}

/* PGW_F_ENC and PGW_F_SHARED for the encryption bits raw has set. */
static inline uint32_t enc_flags(uint64_t raw, uint64_t attr,
				 const struct pgw_enc_bits *enc)
{
	if (!(raw & attr))
		return 0;
	return ((raw & enc->enc) ? PGW_F_ENC : 0) |
	       ((raw & enc->shared) ? PGW_F_SHARED : 0);
}

void pgw_x86_decode(const struct pgw_mode *mode, enum pgw_level lvl,
		    uint64_t raw, const struct pgw_enc_bits *enc,
		    struct pgw_entry *out)
{
	static const struct { unsigned bit; uint32_t flag; } common[] = {
		{ B_P, PGW_F_PRESENT }, { B_RW, PGW_F_RW },
		{ B_US, PGW_F_USER }, { B_PWT, PGW_F_PWT },
		{ B_PCD, PGW_F_PCD }, { B_A, PGW_F_ACCESSED },
	};
	static const struct { unsigned bit; uint32_t flag; } leaf_only[] = {
		{ B_D, PGW_F_DIRTY }, { B_G, PGW_F_GLOBAL },
	};

	uint64_t attr = enc ? enc->enc | enc->shared : 0;

	memset(out, 0, sizeof(*out));
	out->raw = raw;
	if (!(raw & BIT(B_P))) {
		/* 32-bit entries have no bits to spare for encryption. */
		decode_not_present(mode, raw,
				   mode->entry_size == 8 ? attr : 0, out);
		return;
	}
	bool pdpte = lvl == PGW_PGD && (mode->quirks & PGW_Q_PDPTE_NOPERM);
	if (pdpte) {
		/* PAE PDPTE: only P, PWT, PCD.  RW/US and NX are reserved.
		 * The SDM also reserves bits 5..8, but Linux leaves A set
		 * there and CPUs (and QEMU) load such PDPTEs, so those are
		 * not counted against the entry. */
		out->kind = PGW_ENT_TABLE;
		out->flags = PGW_F_PRESENT;
		if (raw & BIT(B_PWT))
			out->flags |= PGW_F_PWT;
		if (raw & BIT(B_PCD))
			out->flags |= PGW_F_PCD;
		out->reserved = raw & (bits(1, 3) | bits(mode->phys_bits, 64)) &
				~attr;
		out->addr = raw & bits(12, mode->phys_bits) & ~attr;
		out->flags |= enc_flags(raw, attr, enc);
		out->perm = PGW_F_RW | PGW_F_USER;
		return;
	}
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (raw & BIT(common[i].bit))
			out->flags |= common[i].flag;
	if (mode->entry_size == 4) {
		decode32(mode, lvl, raw, out);
	} else {
		decode64(mode, lvl, raw, attr, out);
		out->flags |= enc_flags(raw, attr, enc);
	}
	if (out->kind == PGW_ENT_LEAF)
		for (size_t i = 0; i < sizeof(leaf_only) / sizeof(leaf_only[0]);
		     i++)
			if (raw & BIT(leaf_only[i].bit))
				out->flags |= leaf_only[i].flag;
	out->perm = out->flags & (PGW_F_RW | PGW_F_USER | PGW_F_NX);
}
