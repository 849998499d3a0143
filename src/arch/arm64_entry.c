/*
 * The AArch64 descriptor decoder, for every granule and level count: what
 * a stage 1 descriptor means at a level, given the mode's granule (its
 * last level's shift), which levels may hold blocks (leaf_ok) and its
 * 52-bit form (quirks).  Pure arithmetic on the raw value.
 */
#include "arm64.h"
#include "swap_kind.h"

#define BIT(n) (UINT64_C(1) << (n))

/* Descriptor bits (D8.3). */
enum {
	B_VALID = 0, B_TABLE = 1,          /* bit 1: table (levels above the
					      last) or page (the last) */
	B_AP1 = 6,                         /* AP[1]: EL0 may access */
	B_AP2 = 7,                         /* AP[2]: read-only */
	B_AF = 10, B_NG = 11,
	B_DBM = 51, B_CONT = 52, B_PXN = 53, B_UXN = 54,
	/* table descriptors: restrictions on every level below */
	B_PXNTABLE = 59, B_UXNTABLE = 60, B_APTABLE0 = 61, B_APTABLE1 = 62,
};

/* Bits [lo, hi) set. */
static uint64_t bits(unsigned lo, unsigned hi)
{
	return (hi >= 64 ? ~UINT64_C(0) : BIT(hi) - 1) & ~(BIT(lo) - 1);
}

/* The output (or next-table) address a descriptor holds, aligned to the
 * granule; the 52-bit forms move the top bits elsewhere (D8.3.1). */
static uint64_t output_address(const struct pgw_mode *mode, uint64_t raw)
{
	unsigned g = pgw_arm64_granule_shift(mode);

	if (mode->quirks & PGW_Q_LPA2)
		return (raw & bits(g, 50)) | ((raw >> 8) & 3) << 50;
	if (mode->quirks & PGW_Q_LPA64K)
		return (raw & bits(g, 48)) | ((raw >> 12) & 0xf) << 48;
	return raw & bits(g, 48);
}

/* Address bits a 48-bit form has no room for: RES0 there (bits 48..49;
 * 50 is GP and 51 DBM in a leaf, ignored in a table). */
static uint64_t res0(const struct pgw_mode *mode)
{
	return mode->quirks & (PGW_Q_LPA2 | PGW_Q_LPA64K) ? 0 : bits(48, 50);
}

static void decode_table(uint64_t raw, struct pgw_entry *out)
{
	out->kind = PGW_ENT_TABLE;
	out->flags = PGW_F_PRESENT;
	/* APTable, UXNTable, PXNTable limit every level below, as x86's
	 * RW/US/NX do (D8.4.2); HPD is off in Linux. */
	out->perm = (raw & BIT(B_APTABLE1) ? 0 : PGW_F_RW) |
		    (raw & BIT(B_APTABLE0) ? 0 : PGW_F_USER) |
		    (raw & BIT(B_UXNTABLE) ? PGW_F_UXN : 0) |
		    (raw & BIT(B_PXNTABLE) ? PGW_F_PXN : 0);
}

static void decode_leaf(uint64_t raw, bool block, struct pgw_entry *out)
{
	uint32_t f = PGW_F_PRESENT;

	out->kind = PGW_ENT_LEAF;
	f |= block ? PGW_F_PS : 0;
	f |= raw & BIT(B_AP1) ? PGW_F_USER : 0;
	/* With TCR.HD a DBM page is writable: the CPU clears AP[2] on the
	 * first write (D8.4.6), which is its dirty state. */
	f |= !(raw & BIT(B_AP2)) || (raw & BIT(B_DBM)) ? PGW_F_RW : 0;
	f |= (raw & BIT(B_DBM)) && !(raw & BIT(B_AP2)) ? PGW_F_DIRTY : 0;
	f |= raw & BIT(B_AF) ? PGW_F_ACCESSED : 0;
	f |= raw & BIT(B_NG) ? 0 : PGW_F_GLOBAL;
	f |= raw & BIT(B_CONT) ? PGW_F_CONT : 0;
	f |= raw & BIT(B_PXN) ? PGW_F_PXN : 0;
	f |= raw & BIT(B_UXN) ? PGW_F_UXN : 0;
	out->flags = f;
	out->perm = f & (PGW_F_RW | PGW_F_USER | PGW_F_PXN | PGW_F_UXN);
	/* Memory EL0 may write, EL1 may not execute (D8.4.1.1). */
	if ((f & (PGW_F_USER | PGW_F_RW)) == (PGW_F_USER | PGW_F_RW))
		out->perm |= PGW_F_PXN;
}

/*
 * A swap-family entry (swap, migration, hwpoison, device) in the era's
 * layout; without one, said to be one and no more.  Bits 0..1 and
 * 62..63 are clear in every era's; one entry does not say its era.
 */
static void decode_swap(const struct pgw_swap_layout *layout, uint64_t raw,
			struct pgw_entry *out)
{
	if (!layout) {
		if (!(raw & (bits(0, 2) | bits(62, 64))))
			out->np_kind = PGW_NP_SWAP_UNKNOWN;
		return;
	}
	if (raw & layout->zero_bits)
		return;
	out->swap_type = (unsigned)((raw >> layout->type_shift) &
				    (BIT(layout->type_bits) - 1));
	out->swap_offset = (raw >> layout->offset_shift) &
			   (BIT(layout->offset_bits) - 1);
	out->np_kind = pgw_swap_kind(layout, out->swap_type);
}

/*
 * Linux's invalid descriptors.  A PROT_NONE page keeps the valid
 * descriptor's fields with bit 0 cleared (pte_modify with PAGE_NONE):
 * nG set, AP[1] clear, UXN set, and its frame where a page's is.  Up to
 * 6.9 PTE_PROT_NONE (bit 58) marks it too; from 6.10 PTE_PRESENT_INVALID
 * is nG itself, and pte_protnone() is exactly this test, which 6.9's
 * PAGE_NONE also passes.  No swap or migration entry passes it: 6.10's
 * keep nG clear, older ones reach bit 54 only with offsets of 2^46
 * pages.  Swap entries sit where a page or a block would (hugetlb and
 * THP migration entries at the block levels).
 */
static void decode_invalid(const struct pgw_mode *mode, enum pgw_level lvl,
			   uint64_t raw, const struct pgw_enc_bits *enc,
			   struct pgw_entry *out)
{
	const uint64_t protnone = BIT(B_NG) | BIT(B_UXN);
	bool leaf_level = lvl == PGW_PTE || mode->level[lvl].leaf_ok;
	bool leaf = lvl == PGW_PTE ? (raw & BIT(B_TABLE)) != 0 :
		    mode->level[lvl].leaf_ok && !(raw & BIT(B_TABLE));

	out->kind = PGW_ENT_NOT_PRESENT;
	out->np_kind = raw ? PGW_NP_OTHER : PGW_NP_NONE;
	if (!raw || !leaf_level)
		return;
	if (!leaf || (raw & (protnone | BIT(B_AP1))) != protnone) {
		decode_swap(enc ? enc->swap : NULL, raw, out);
		return;
	}
	out->np_kind = PGW_NP_PROTNONE;
	out->np_pfn = (output_address(mode, raw) &
		       ~(BIT(mode->level[lvl].shift) - 1)) >> PGW_PAGE_SHIFT;
}

void pgw_arm64_decode(const struct pgw_mode *mode, enum pgw_level lvl,
		      uint64_t raw, const struct pgw_enc_bits *enc,
		      struct pgw_entry *out)
{
	bool last = lvl == PGW_PTE;

	/* No memory-encryption bits on AArch64: enc only brings the swap
	 * layout. */
	*out = (struct pgw_entry){ .raw = raw };
	if (!(raw & BIT(B_VALID))) {
		decode_invalid(mode, lvl, raw, enc, out);
		return;
	}
	uint64_t oa = output_address(mode, raw);

	if (raw & BIT(B_TABLE)) {
		if (last)
			decode_leaf(raw, false, out);
		else
			decode_table(raw, out);
		out->addr = oa;
		out->reserved = raw & res0(mode);
		return;
	}
	/* A block: only where the granule allows one; elsewhere (and at
	 * the last level) bits 1..0 = 01 is a translation fault, said as
	 * the reserved encoding it is. */
	decode_leaf(raw, true, out);
	out->addr = oa & ~(BIT(mode->level[lvl].shift) - 1);
	out->reserved = raw & res0(mode);
	if (last || !mode->level[lvl].leaf_ok)
		out->reserved |= BIT(B_TABLE);
}
