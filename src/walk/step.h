/*
 * The step every walk takes, as addrxlat's next_step serves translation
 * and scans alike: read an entry, decode it with the mode, and say where
 * the walk goes next: down into a table, onto a leaf (both PGW_STOP_OK),
 * or nowhere, and why.  translate takes it level by level, range walks
 * classify the entries of a table they read whole, and probes above the
 * walker (PTI pairing) read single entries through it.  Reading table
 * pages here is the walker's only I/O.
 */
#ifndef PGW_STEP_H
#define PGW_STEP_H

#include "pgwalk.h"
#include "frame_bits.h"
#include "../formats/image_page.h"

#include <string.h>

/* The first level at or below lvl that is not folded (PGW_NLEVELS: none). */
static inline enum pgw_level pgw_next_level(const struct pgw_mode *mode,
					    enum pgw_level lvl)
{
	while (lvl < PGW_NLEVELS && mode->level[lvl].bits == 0)
		lvl++;
	return lvl;
}

/* Index of va's entry in a table of level lvl. */
static inline unsigned pgw_level_index(const struct pgw_mode *mode,
				       enum pgw_level lvl, uint64_t va)
{
	const struct pgw_level_desc *d = &mode->level[lvl];

	return (unsigned)((va >> d->shift) & ((UINT64_C(1) << d->bits) - 1));
}

/*
 * Decode raw at lvl into e and classify it: PGW_STOP_OK for a leaf or a
 * table (e->kind says which; pgw_child_level says where a table leads),
 * else why a walk stops at this entry.
 */
static inline enum pgw_stop pgw_classify(const struct pgw_mode *mode,
					 const struct pgw_enc_bits *enc,
					 enum pgw_level lvl, uint64_t raw,
					 struct pgw_entry *e)
{
	mode->decode(mode, lvl, raw, enc, e);
	if (e->kind == PGW_ENT_NOT_PRESENT)
		return PGW_STOP_NOT_PRESENT;
	return e->reserved ? PGW_STOP_RESERVED : PGW_STOP_OK;
}

/* The level a table entry at lvl leads to, in *child; PGW_STOP_BAD_LEAF
 * when the mode has no level below lvl. */
static inline enum pgw_stop pgw_child_level(const struct pgw_mode *mode,
					    enum pgw_level lvl,
					    enum pgw_level *child)
{
	*child = pgw_next_level(mode, lvl + 1);
	return *child == PGW_NLEVELS ? PGW_STOP_BAD_LEAF : PGW_STOP_OK;
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
 * page the image lacks stops the walk there, any other failure is a read
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
 * Page pfn of the table at `table`, read, into *page_ret (PGW_STOP_OK),
 * or the stop a walk meets there, *why_ret saying why: a page the image
 * lacks is asked of it once, then known (pgw_image_page_absent), so that
 * a batch stopping there costs no message each time.
 */
static inline enum pgw_stop pgw_table_page(struct pgw_image *img,
					   uint64_t table, uint64_t pfn,
					   const uint8_t **page_ret,
					   enum pgw_absence *why_ret)
{
	struct pgw_err err;
	enum pgw_status st = PGW_E_NODATA;

	*why_ret = pgw_image_page_absent(img, pfn);
	if (*why_ret == PGW_ABSENT_NONE) {
		st = pgw_image_page(img, pfn, page_ret, &err);
		if (st == PGW_OK)
			return PGW_STOP_OK;
		*why_ret = err.absence;
	}
	return pgw_table_stop(pgw_mem_top(img), table, st);
}

/* The entry at entry_pa (size bytes) of its table's page.  Tables are
 * aligned to their size (pgw_root_table, and the decoders' frame masks),
 * so an entry never straddles a page. */
static inline uint64_t pgw_entry_at(const uint8_t *page, uint64_t entry_pa,
				    unsigned size)
{
	uint64_t raw = 0;

	page += entry_pa & (PGW_PAGE_SIZE - 1);
	if (size == sizeof(uint64_t)) {
		memcpy(&raw, page, sizeof(uint64_t));
	} else if (size == sizeof(uint32_t)) {
		uint32_t v;
		memcpy(&v, page, sizeof(v));
		raw = v;
	} else {
		memcpy(&raw, page, size);
	}
	return raw;
}

/*
 * The read half of a step: entry `index` of the level-lvl table at
 * `table` in img, from `page` (the table's page, NULL: read it here),
 * into *raw_ret, and s filled but for its entry.  PGW_STOP_OK, or why the
 * table could not be read (err says more).
 */
static inline enum pgw_stop pgw_step_read(struct pgw_image *img,
					  const struct pgw_mode *mode,
					  enum pgw_level lvl, uint64_t table,
					  unsigned index, const uint8_t *page,
					  uint64_t span, struct pgw_step *s,
					  uint64_t *raw_ret,
					  struct pgw_err *err)
{
	unsigned size = mode->entry_size;

	s->level = lvl;
	s->table = table;
	s->index = index;
	s->entry_pa = table + (uint64_t)index * size;
	/* A page given is the table's first, its bytes in memory for span
	 * bytes from that page's start (a table of several pages, 16 and
	 * 64 KiB granules, mapped in one piece); an entry past them is
	 * read. */
	uint64_t off = s->entry_pa - (table & ~(uint64_t)(PGW_PAGE_SIZE - 1));
	if (page && off < span) {
		page += off & ~(uint64_t)(PGW_PAGE_SIZE - 1);
	} else {
		enum pgw_status st = pgw_image_page(img,
						    s->entry_pa >> PGW_PAGE_SHIFT,
						    &page, err);
		if (st != PGW_OK) {
			s->read_ok = false;
			return pgw_table_stop(pgw_mem_top(img), table, st);
		}
	}
	s->read_ok = true;
	*raw_ret = pgw_entry_at(page, s->entry_pa, size);
	return PGW_STOP_OK;
}

/* pgw_step with the table's page given (NULL: read it; span: as
 * pgw_step_read) and the entry
 * taken from memo when it holds one of its kind (NULL: none; entries
 * decoded are kept there).  The memo must be for this mode and enc.
 * Always inlined: a batch takes it once per address or more, and the
 * compiler would otherwise call it where the cache takes it thrice. */
static inline __attribute__((always_inline)) enum pgw_stop
pgw_step_with(struct pgw_image *img, const struct pgw_mode *mode,
	      const struct pgw_enc_bits *enc, enum pgw_level lvl,
	      uint64_t table, unsigned index, const uint8_t *page,
	      uint64_t span, struct pgw_entry_memo *memo, struct pgw_step *s,
	      struct pgw_err *err)
{
	uint64_t raw;
	enum pgw_stop why = pgw_step_read(img, mode, lvl, table, index, page,
					  span, s, &raw, err);

	if (why != PGW_STOP_OK)
		return why;
	if (memo && raw == 0 && memo->zero_known[lvl]) {
		s->entry = memo->zero[lvl];
		return memo->zero_why[lvl];
	}
	if (memo && pgw_entry_memo_get(memo, lvl, raw, &s->entry))
		return PGW_STOP_OK;
	why = pgw_classify(mode, enc, lvl, raw, &s->entry);
	if (memo && raw == 0) {
		memo->zero_known[lvl] = true;
		memo->zero_why[lvl] = why;
		memo->zero[lvl] = s->entry;
	} else if (memo && why == PGW_STOP_OK) {
		pgw_entry_memo_keep(memo, mode, enc, lvl, raw, &s->entry);
	}
	return why;
}

/*
 * One step: entry `index` of the level-lvl table at `table` in img, read,
 * decoded by mode (enc: its encryption bits) and classified into s
 * (s->entry is valid when s->read_ok).  err says why the table could not
 * be read.
 */
static inline enum pgw_stop pgw_step(struct pgw_image *img,
				     const struct pgw_mode *mode,
				     const struct pgw_enc_bits *enc,
				     enum pgw_level lvl, uint64_t table,
				     unsigned index, struct pgw_step *s,
				     struct pgw_err *err)
{
	return pgw_step_with(img, mode, enc, lvl, table, index, NULL, 0, NULL,
			     s, err);
}

/*
 * The top table a root names.  The CPU ignores CR3's low bits (PCID, PWT,
 * PCD); a root that is not aligned to its table's size is read the same
 * way, so no table read can straddle a page.  A root given as a CR3 may
 * carry the encryption bits (Linux's build_cr3 sets the C-bit).
 */
static inline uint64_t pgw_root_table(const struct pgw_mode *mode,
				      uint64_t root,
				      const struct pgw_enc_bits *enc)
{
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	uint64_t bytes = (UINT64_C(1) << mode->level[top].bits) *
			 mode->entry_size;

	return root & ~(bytes - 1) & ~(enc->enc | enc->shared);
}

/* The root that translates va: the space's one, or in a mode with two
 * the one va's select bit picks (0: that half has no table). */
static inline uint64_t pgw_root_of(const struct pgw_space *space,
				   uint64_t va)
{
	const struct pgw_mode *mode = space->mode;

	if (mode->root_select_bit && (va >> mode->root_select_bit & 1))
		return space->root_upper;
	return space->root;
}

/* Effective permissions down the levels, by the mode's rule (x86: USER
 * and RW ANDed, NX ORed, as ptdump's effective_prot). */
static inline uint32_t pgw_perm_start(const struct pgw_mode *mode)
{
	return mode->perm.and_bits;
}

static inline uint32_t pgw_perm_combine(const struct pgw_mode *mode,
					uint32_t eff, uint32_t perm)
{
	return (eff & perm & mode->perm.and_bits) |
	       ((eff | perm) & mode->perm.or_bits);
}

#endif
