/*
 * How much of a candidate top table's kernel half is the kernel root's.
 * Every page of an image goes through the quick test, so it compares the
 * kernel root's present entries and gives up as soon as more than half
 * differ; the full comparison, listing each differing entry, is for the
 * few tables that pass.  Half, not all: a process whose kernel half was
 * hooked, or an i386 table that missed a lazy vmalloc sync, must still
 * be found, and its differing entries are the evidence.
 */
#include "../lib/err.h"
#include "../formats/image_page.h"
#include "kernel_half.h"
#include "scan.h"

#include <stdio.h>
#include <string.h>

static void list_present(const uint8_t *table, unsigned esize, unsigned from,
			 unsigned to, uint16_t *present, unsigned *n)
{
	*n = 0;
	for (unsigned i = from; i < to; i++)
		if (pgw_buf_entry(table, esize, i))
			present[(*n)++] = (uint16_t)i;
}

/*
 * PAE's decoder reserves PDPTE bits 1-2 and 52-63: an entry with any of
 * them, or without P, is no directory pointer.  A necessary condition
 * only, cheap enough for every slot of every page; pdpte_table decides.
 */
static bool pdpte_maybe(uint64_t raw)
{
	return (raw & 1) && !(raw & UINT64_C(0xfff0000000000006));
}

/* A PDPTE Linux could have written: present, pointing at a directory,
 * no reserved bits. */
static bool pdpte_table(const struct pgw_khalf *kh, uint64_t raw,
			uint64_t *pa)
{
	struct pgw_entry e;

	if (!pdpte_maybe(raw))
		return false;
	kh->mode->decode(kh->mode, PGW_PGD, raw, &kh->enc, &e);
	*pa = e.addr;
	return e.kind == PGW_ENT_TABLE && e.reserved == 0 && e.addr != 0;
}

enum pgw_status pgw_khalf_init(struct pgw_khalf *kh, struct pgw_image *img,
			       const struct pgw_mode *mode,
			       const struct pgw_enc_bits *enc, uint64_t root,
			       struct pgw_err *err)
{
	memset(kh, 0, sizeof(*kh));
	/* Two roots (AArch64): a process's top table holds no copy of the
	 * kernel's to compare (roots_two.c and check_open.c do without). */
	if (mode->root_select_bit)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "%s: a process's top table holds no kernel "
				   "half (the kernel's is TTBR1's own table) "
				   "to compare", mode->name);
	kh->img = img;
	kh->mode = mode;
	if (enc)
		kh->enc = *enc;
	kh->root = root;
	kh->pae = (mode->quirks & PGW_Q_PDPTE_NOPERM) != 0;
	kh->esize = mode->entry_size;
	kh->nent = pgw_top_entries(mode);
	if (pgw_image_read(img, root, kh->top, (size_t)kh->nent * kh->esize,
			   err) != PGW_OK)
		return pgw_err_prefix(err, "kernel root 0x%llx",
				      (unsigned long long)root);
	if (mode->va_bits > 32) {
		kh->kernel_start = ~((UINT64_C(1) << (mode->va_bits - 1)) - 1);
		kh->first = kh->nent / 2;
		snprintf(kh->why, sizeof(kh->why), "the upper half");
	} else {
		/* 32-bit kernels start at PAGE_OFFSET (VMSPLIT_*), where
		 * the direct map puts physical 0. */
		struct pgw_space sp = { img, mode, root, kh->enc };
		uint64_t base;
		unsigned matches;
		if (pgw_find_direct_map(&sp, &base, &matches)) {
			kh->kernel_start = base;
			snprintf(kh->why, sizeof(kh->why),
				 "PAGE_OFFSET 0x%llx (the direct map)",
				 (unsigned long long)base);
		} else {
			kh->kernel_start = UINT64_C(0xc0000000);
			snprintf(kh->why, sizeof(kh->why),
				 "PAGE_OFFSET 0xc0000000 assumed (the kernel "
				 "root maps no direct map)");
		}
		kh->first = (unsigned)(kh->kernel_start >>
				       mode->level[PGW_PGD].shift);
	}
	list_present(kh->top, kh->esize, kh->first, kh->nent, kh->present,
		     &kh->npresent);
	if (kh->npresent == 0)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "kernel root 0x%llx maps nothing in its "
				   "kernel half (%s): not a kernel root",
				   (unsigned long long)root, kh->why);
	for (unsigned i = kh->first; kh->pae && i < kh->nent; i++) {
		uint64_t pa;
		struct pgw_err ignored;
		if (!pdpte_table(kh, pgw_buf_entry(kh->top, 8, i), &pa) ||
		    pgw_image_read(img, pa, kh->pmd[i].ent, PGW_PAGE_SIZE,
				   &ignored) != PGW_OK)
			continue;
		kh->pmd[i].have = true;
		kh->pmd[i].pa = pa;
		list_present(kh->pmd[i].ent, 8, 0, 512, kh->pmd[i].present,
			     &kh->pmd[i].npresent);
	}
	return PGW_OK;
}

/* How many of the entries at `present` differ; UINT32_MAX as soon as
 * more than half do. */
static unsigned count_differing(const uint8_t *cand, const uint8_t *kern,
				unsigned esize, const uint16_t *present,
				unsigned npresent)
{
	unsigned allowed = npresent / 2, differ = 0;

	for (unsigned i = 0; i < npresent; i++) {
		unsigned k = present[i];
		if (!pgw_same_entry(pgw_buf_entry(cand, esize, k),
				    pgw_buf_entry(kern, esize, k)) &&
		    ++differ > allowed)
			return UINT32_MAX;
	}
	return differ;
}

static bool mostly_same(const uint8_t *cand, const uint8_t *kern,
			unsigned esize, const uint16_t *present,
			unsigned npresent)
{
	return npresent > 0 && count_differing(cand, kern, esize, present,
					       npresent) != UINT32_MAX;
}

bool pgw_khalf_quick(const struct pgw_khalf *kh, const uint8_t *top)
{
	size_t off = (size_t)kh->first * kh->esize;
	size_t len = (size_t)(kh->nent - kh->first) * kh->esize;

	if (memcmp(top + off, kh->top + off, len) == 0)
		return true;
	unsigned differ = count_differing(top, kh->top, kh->esize,
					  kh->present, kh->npresent);
	if (differ == UINT32_MAX)
		return false;
	/* Entries the candidate has where the kernel root has none count
	 * against it too (only tables that got this far pay for this). */
	unsigned extra = 0;
	for (unsigned i = kh->first; i < kh->nent; i++)
		extra += !pgw_buf_entry(kh->top, kh->esize, i) &&
			 pgw_buf_entry(top, kh->esize, i);
	struct pgw_khalf_cmp cmp = {
		.entries = kh->npresent + extra,
		.same = kh->npresent - differ,
	};
	return pgw_khalf_mostly(&cmp);
}

/* The memo slot of directory pa compared as kernel directory i. */
static uint64_t memo_key(uint64_t pa, unsigned i)
{
	return ((pa >> PGW_PAGE_SHIFT) << 2 | i) + 1;
}

/* PAE: is the directory at pa mostly kernel directory i?  Remembered by
 * frame: many slots may point at one directory.  -1 when that needs a
 * read and the caller cannot have one now. */
static int pmd_similar(struct pgw_khalf *kh, unsigned i, uint64_t pa,
		       bool may_read)
{
	uint64_t key = memo_key(pa, i);
	unsigned slot = (unsigned)(key % KH_MEMO);
	const uint8_t *page;
	struct pgw_err ignored;

	if (kh->memo[slot].pfn == key)
		return kh->memo[slot].similar;
	if (!may_read)
		return -1;
	bool similar = kh->pmd[i].have &&
		       pgw_image_page(kh->img, pa >> PGW_PAGE_SHIFT, &page,
				      &ignored) == PGW_OK &&
		       mostly_same(page, kh->pmd[i].ent, 8, kh->pmd[i].present,
				   kh->pmd[i].npresent);
	kh->memo[slot].pfn = key;
	kh->memo[slot].similar = similar;
	return similar;
}

enum pgw_khalf_slot pgw_khalf_quick_pae(struct pgw_khalf *kh,
					const uint8_t *slot, bool may_read)
{
	for (unsigned i = kh->first; i < kh->nent; i++) {
		uint64_t c = pgw_buf_entry(slot, 8, i);
		uint64_t pa;
		if (pgw_same_entry(c, pgw_buf_entry(kh->top, 8, i)))
			continue;
		/* Its own directory (PTI, or a hook): compare that. */
		if (!pdpte_table(kh, c, &pa))
			return KH_SLOT_NO;
		int similar = pmd_similar(kh, i, pa, may_read);
		if (similar < 0)
			return KH_SLOT_READ;
		if (!similar)
			return KH_SLOT_NO;
	}
	/* Live PDPTs have every user PDPTE (pgd_alloc preallocates them);
	 * SLUB overwrites a freed object's middle with its free pointer. */
	for (unsigned i = 0; i < kh->first; i++) {
		uint64_t c = pgw_buf_entry(slot, 8, i), pa;
		if (c && !pdpte_table(kh, c, &pa))
			return KH_SLOT_FREED;
	}
	return KH_SLOT_ROOT;
}

static void add_diff(struct pgw_khalf_cmp *cmp, enum pgw_level lvl,
		     unsigned index, uint64_t entry_pa, uint64_t raw,
		     uint64_t kernel_raw)
{
	cmp->ndiffs++;
	if (cmp->nlisted == PGW_ROOT_MAX_DIFFS)
		return;
	struct pgw_root_diff *d = &cmp->diff[cmp->nlisted++];
	d->level = lvl;
	d->index = index;
	d->entry_pa = entry_pa;
	d->raw = raw;
	d->kernel_raw = kernel_raw;
}

/* Entrywise, over [from, to) of two tables. */
static void compare_entries(struct pgw_khalf_cmp *cmp, enum pgw_level lvl,
			    uint64_t table, const uint8_t *cand,
			    const uint8_t *kern, unsigned esize, unsigned from,
			    unsigned to)
{
	for (unsigned i = from; i < to; i++) {
		uint64_t c = pgw_buf_entry(cand, esize, i);
		uint64_t k = pgw_buf_entry(kern, esize, i);
		if (!c && !k)
			continue;
		cmp->entries++;
		if (pgw_same_entry(c, k))
			cmp->same++;
		else
			add_diff(cmp, lvl, i, table + (uint64_t)i * esize, c,
				 k);
	}
}

void pgw_khalf_compare(struct pgw_khalf *kh, uint64_t table,
		       const uint8_t *top, struct pgw_khalf_cmp *cmp)
{
	memset(cmp, 0, sizeof(*cmp));
	if (!kh->pae) {
		compare_entries(cmp, PGW_PGD, table, top, kh->top, kh->esize,
				kh->first, kh->nent);
		return;
	}
	/* PAE counts the kernel directories' entries: a PDPTE alone is too
	 * few to say "mostly". */
	for (unsigned i = kh->first; i < kh->nent; i++) {
		uint64_t c = pgw_buf_entry(top, 8, i);
		uint64_t k = pgw_buf_entry(kh->top, 8, i);
		uint64_t pa;
		const uint8_t *page;
		struct pgw_err ignored;
		unsigned weight = kh->pmd[i].have ? kh->pmd[i].npresent : 1;
		if (pgw_same_entry(c, k)) {
			cmp->entries += c ? weight : 0;
			cmp->same += c ? weight : 0;
			continue;
		}
		if (!kh->pmd[i].have || !pdpte_table(kh, c, &pa) ||
		    pgw_image_page(kh->img, pa >> PGW_PAGE_SHIFT, &page,
				   &ignored) != PGW_OK) {
			add_diff(cmp, PGW_PGD, i, table + (uint64_t)i * 8, c,
				 k);
			cmp->entries += weight;
			continue;
		}
		/* An own copy of the directory is PTI's normal (and a
		 * hook's way in): the PDPTE is named only when the copy
		 * differs. */
		struct pgw_khalf_cmp sub;
		memset(&sub, 0, sizeof(sub));
		compare_entries(&sub, PGW_PMD, pa, page, kh->pmd[i].ent, 8, 0,
				512);
		if (sub.ndiffs)
			add_diff(cmp, PGW_PGD, i, table + (uint64_t)i * 8, c,
				 k);
		cmp->entries += sub.entries;
		cmp->same += sub.same;
		for (unsigned d = 0; d < sub.nlisted; d++)
			add_diff(cmp, PGW_PMD, sub.diff[d].index,
				 sub.diff[d].entry_pa, sub.diff[d].raw,
				 sub.diff[d].kernel_raw);
		cmp->ndiffs += sub.ndiffs - sub.nlisted;
	}
}
