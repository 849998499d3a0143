/*
 * The kernel root's kernel half, and how much of a candidate's equals it
 * (kernel_half.c).  Linux gives every mm a copy of the kernel's top-level
 * entries from PAGE_OFFSET up (pgd_ctor: clone_pgd_range); PAE points
 * every PDPT at the kernel's one page directory, or, under PTI, at a copy
 * of it (pgd_prepopulate_pmd), so PAE compares the directories.
 */
#ifndef PGW_LINUX_KERNEL_HALF_H
#define PGW_LINUX_KERNEL_HALF_H

#include "pgwalk.h"

#define KH_PAE_PDPTES 4
#define KH_MEMO 1024

struct pgw_khalf {
	struct pgw_image *img;
	const struct pgw_mode *mode;
	struct pgw_enc_bits enc;
	uint64_t root;           /* the kernel root's top table */
	uint64_t kernel_start;   /* first VA of the kernel half */
	unsigned first;          /* its first index in the top table */
	unsigned nent;           /* entries in the top table */
	unsigned esize;
	bool pae;
	/* A copy: the scan reads every page, which may evict the root's. */
	uint8_t top[PGW_PAGE_SIZE];
	unsigned npresent;       /* kernel-half entries the kernel root has */
	uint16_t present[1024];
	/* PAE: the kernel page directory below each kernel PDPTE. */
	struct {
		bool have;
		uint64_t pa;
		uint8_t ent[PGW_PAGE_SIZE];
		unsigned npresent;
		uint16_t present[512];
	} pmd[KH_PAE_PDPTES];
	/* PAE: directories already compared, by frame (direct-mapped). */
	struct {
		uint64_t pfn;        /* + 1; 0: empty */
		bool similar;
	} memo[KH_MEMO];
	char why[160];           /* how the kernel half was bounded */
};

/* What a candidate's kernel half shares with the kernel root's. */
struct pgw_khalf_cmp {
	unsigned entries;        /* compared: present in either */
	unsigned same;
	unsigned ndiffs;
	unsigned nlisted;
	struct pgw_root_diff diff[PGW_ROOT_MAX_DIFFS];
};

/* Read the kernel root (kept copied in kh) and bound its kernel half:
 * the upper half on x86-64, PAGE_OFFSET up on 32-bit (from the direct
 * map the root maps). */
enum pgw_status pgw_khalf_init(struct pgw_khalf *kh, struct pgw_image *img,
			       const struct pgw_mode *mode,
			       const struct pgw_enc_bits *enc, uint64_t root,
			       struct pgw_err *err);

/*
 * The quick test of a top table held in `top` (i386, x86-64, la57): does
 * at least half of the kernel root's kernel half match?  Exits as soon as
 * too many entries differ, so a page that is no top table costs a few
 * compares.
 */
bool pgw_khalf_quick(const struct pgw_khalf *kh, const uint8_t *top);

/* PAE: the 32-byte slot's verdict. */
enum pgw_khalf_slot {
	KH_SLOT_NO = 0,
	KH_SLOT_ROOT,            /* a PDPT that shares the kernel part */
	KH_SLOT_FREED,           /* kernel entry matches, user entries are no
				    PDPTEs: a freed pgd_cache object */
	KH_SLOT_READ,            /* it points at a directory of its own, to be
				    read: ask again with may_read */
};
/*
 * Reading that directory may take the slot's own page out of a
 * decompressing image's cache, so a caller that holds the page from
 * pgw_image_page passes may_read false, and on KH_SLOT_READ copies the
 * page and asks again.
 */
enum pgw_khalf_slot pgw_khalf_quick_pae(struct pgw_khalf *kh,
					const uint8_t *slot, bool may_read);

/* The full comparison of the top table at `table`, whose bytes are in
 * `top` (PAE: the 32-byte slot), listing the entries that differ. */
void pgw_khalf_compare(struct pgw_khalf *kh, uint64_t table,
		       const uint8_t *top, struct pgw_khalf_cmp *cmp);

/* Accepted as a root: at least half of what was compared is the same. */
static inline bool pgw_khalf_mostly(const struct pgw_khalf_cmp *cmp)
{
	return cmp->same > 0 && 2 * (uint64_t)cmp->same >= cmp->entries;
}

#endif
