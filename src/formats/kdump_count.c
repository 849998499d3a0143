/*
 * What a kdump lacks, counted: for pgw_image_absent_bytes and
 * pgw_image_evidence, a rank block (4096 pfns) at a time.  Both bitmaps'
 * words give outside, excluded, other-file and dumped pages; each block's
 * descriptors are checked once, the first time a range covers the whole
 * block or the block is asked about often (then its clean pages need only
 * their bitmap bit), and a partial block descriptor by descriptor.
 */
#include "kdump.h"

#include <stdlib.h>
#include <string.h>

/*
 * For each rank block (4096 pfns), how many of its dumped pages have no
 * data, by reason; counted the first time a block is asked about (reading
 * its descriptors once), so a range query costs the bitmap words of its
 * pages plus, once per block, 24 bytes per dumped page.
 */
struct block_sum {
	uint32_t bad[PGW_NABSENCES];
	bool done;           /* counted; kdump.h's clean[] says if clean */
	uint8_t asked;       /* page states asked before it was done */
	uint64_t data_end;   /* end of the furthest data its descriptors name
				(within data_limit) */
};

/* The per-block tallies, allocated the first time one is needed. */
static bool have_sums(struct kdump *k)
{
	if (!k->sums) {
		size_t n = k->nblk ? k->nblk : 1;
		k->clean = calloc(n, 1);
		k->sums = k->clean ? calloc(n, sizeof(*k->sums)) : NULL;
		if (!k->sums) {
			free(k->clean);
			k->clean = NULL;
		}
	}
	return k->sums != NULL;
}

static const struct block_sum *block_sum(const struct pgw_image *img,
					 struct kdump *k, uint64_t blk)
{
	struct block_sum *b = &k->sums[blk];
	const char *why_text;
	struct desc d;

	if (b->done)
		return b;
	for (uint64_t idx = k->rank[blk]; idx < k->rank[blk + 1]; idx++) {
		enum pgw_absence why = pgw_kdump_desc_state(img, k, idx, &d,
							     &why_text);
		b->bad[why]++;
		if (idx < k->ndesc && why != PGW_ABSENT_CORRUPT &&
		    d.offset <= k->data_limit &&
		    d.size <= k->data_limit - d.offset &&
		    d.offset + d.size > b->data_end)
			b->data_end = d.offset + d.size;
	}
	b->bad[PGW_ABSENT_NONE] = 0;
	b->done = true;
	bool clean = true;
	for (size_t r = 1; r < PGW_NABSENCES; r++)
		clean &= b->bad[r] == 0;
	k->clean[blk] = clean;
	return b;
}

/*
 * Is every dumped page of pfn's block known to have its data?  A block
 * asked about often enough has all its descriptors checked at once (24
 * bytes per dumped page, once), and from then on a page of a clean block
 * needs only its bitmap bit: a walk or a batch of translations asks about
 * the same blocks again and again.  A block asked about once or twice
 * keeps the per-page check.
 */
#define ASK_BEFORE_SUM 16

bool pgw_kdump_block_clean(const struct pgw_image *img, struct kdump *k,
			   uint64_t pfn)
{
	uint64_t blk = pfn / RANK_BITS;

	if (!have_sums(k))
		return false;
	struct block_sum *b = &k->sums[blk];
	if (!b->done && ++b->asked < ASK_BEFORE_SUM)
		return false;
	block_sum(img, k, blk);
	return k->clean[blk];
}

/* Bitmap bytes covering pfns [first, last] of one block, edges masked. */
static bool block_bytes(const struct pgw_source *src, uint64_t bitmap,
			uint64_t first, uint64_t last, uint8_t *out)
{
	struct pgw_err ignored;
	size_t n = (size_t)(last / 8 - first / 8 + 1);
	const uint8_t *p = pgw_kdump_bytes(src, bitmap + first / 8, n, out,
					   &ignored);

	if (!p)
		return false;
	if (p != out)
		memcpy(out, p, n);
	out[0] &= (uint8_t)~((1u << (first & 7)) - 1);
	out[n - 1] &= (uint8_t)((2u << (last & 7)) - 1);
	return true;
}

/* Pages [first, last] of one block, by state, into counts (in pages). */
static void count_block(const struct pgw_image *img, struct kdump *k,
			uint64_t first, uint64_t last,
			uint64_t counts[PGW_NABSENCES])
{
	uint8_t b1[RANK_BITS / 8], b2[RANK_BITS / 8];
	uint64_t blk = first / RANK_BITS;
	uint64_t dumped = 0, ram_only = 0, other = 0;
	size_t n = (size_t)(last / 8 - first / 8 + 1);

	if (!block_bytes(&img->src, k->bitmap1, first, last, b1) ||
	    !block_bytes(&img->src, k->bitmap2, first, last, b2)) {
		counts[PGW_ABSENT_CORRUPT] += last - first + 1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		dumped += (uint64_t)__builtin_popcount(b2[i]);
		ram_only += (uint64_t)__builtin_popcount(b1[i] &
							 (uint8_t)~b2[i]);
	}
	/* RAM a split file leaves to the others: those bits one by one,
	 * only where this block straddles the file's part. */
	if (ram_only && k->s.split) {
		for (uint64_t p = first; p <= last; p++) {
			size_t i = (size_t)(p / 8 - first / 8);
			if ((b1[i] & ~b2[i]) >> (p & 7) & 1)
				other += p < k->s.start_pfn ||
					 p >= k->s.end_pfn;
		}
	}
	counts[PGW_ABSENT_OUTSIDE] += last - first + 1 - dumped - ram_only;
	counts[PGW_ABSENT_EXCLUDED] += ram_only - other;
	counts[PGW_ABSENT_OTHER_FILE] += other;
	if (!dumped)
		return;
	uint64_t block_end = (blk + 1) * RANK_BITS;
	if (block_end > k->max_mapnr)
		block_end = k->max_mapnr;
	if (first % RANK_BITS == 0 && last + 1 == block_end) {
		const struct block_sum *b = block_sum(img, k, blk);
		uint64_t bad = 0;
		for (size_t r = 1; r < PGW_NABSENCES; r++) {
			counts[r] += b->bad[r];
			bad += b->bad[r];
		}
		counts[PGW_ABSENT_NONE] += dumped - bad;
		return;
	}
	/* Part of a block: its own descriptors. */
	struct pgw_err ignored;
	uint64_t idx;
	if (pgw_kdump_rank(img, k, first, &idx, &ignored) != PGW_OK) {
		counts[PGW_ABSENT_CORRUPT] += dumped;
		return;
	}
	for (uint64_t i = 0; i < dumped; i++) {
		const char *why_text;
		struct desc d;
		counts[pgw_kdump_desc_state(img, k, idx + i, &d, &why_text)]++;
	}
}

void pgw_kdump_absent_bytes(struct pgw_image *img, uint64_t pa,
			    uint64_t last, uint64_t counts[PGW_NABSENCES])
{
	struct kdump *k = img->priv;
	uint64_t pfn = pa >> k->shift, lpfn = last >> k->shift;
	uint64_t bmask = (UINT64_C(1) << k->shift) - 1;
	uint64_t pages[PGW_NABSENCES] = { 0 };

	if (!have_sums(k)) {
		/* No memory to count with: call it corrupt rather than
		 * guess it is there. */
		counts[PGW_ABSENT_CORRUPT] += last - pa + 1;
		return;
	}
	/* Pages beyond the bitmaps in one step. */
	uint64_t top = lpfn;
	if (top >= k->max_mapnr) {
		uint64_t from = pfn > k->max_mapnr ? pfn : k->max_mapnr;
		pages[PGW_ABSENT_OUTSIDE] += lpfn - from + 1;
		top = k->max_mapnr - 1;
	}
	for (uint64_t p = pfn; p <= top && pfn < k->max_mapnr;) {
		uint64_t bend = (p / RANK_BITS + 1) * RANK_BITS - 1;
		if (bend > top)
			bend = top;
		count_block(img, k, p, bend, pages);
		p = bend + 1;
	}
	/* Pages to bytes; the first and last page count in part. */
	enum pgw_absence first_why = pgw_kdump_page_state(img, pfn);
	enum pgw_absence last_why = pgw_kdump_page_state(img, lpfn);
	for (size_t r = 0; r < PGW_NABSENCES; r++)
		counts[r] += pages[r] << k->shift;
	counts[first_why] -= pa & bmask;
	counts[last_why] -= bmask - (last & bmask);
}

void pgw_kdump_evidence(struct pgw_image *img, struct pgw_evidence *ev)
{
	struct kdump *k = img->priv;
	uint64_t counts[PGW_NABSENCES] = { 0 };

	pgw_kdump_absent_bytes(img, 0, (k->max_mapnr << k->shift) - 1,
			       counts);
	for (size_t r = 0; r < PGW_NABSENCES; r++)
		counts[r] >>= PGW_PAGE_SHIFT;
	/* RAM: what the 1st bitmap says, plus pages dumped without a RAM
	 * bit (no writer does that; they are memory the file holds). */
	ev->pages_dumped = counts[PGW_ABSENT_NONE];
	for (size_t r = 1; r < PGW_NABSENCES; r++)
		if (r != PGW_ABSENT_OUTSIDE)
			ev->pages_absent[r] = counts[r];
	ev->pages_ram = ev->pages_dumped;
	for (size_t r = 1; r < PGW_NABSENCES; r++)
		ev->pages_ram += ev->pages_absent[r];
	/* Where the file should end: after its descriptors and after the
	 * data of every descriptor that is in it (the block sums, all
	 * counted now, kept the furthest). */
	uint64_t expect = k->desc_off + k->ndumped * DESC_SIZE;
	for (uint64_t b = 0; k->sums && b < k->nblk; b++)
		if (k->sums[b].data_end > expect)
			expect = k->sums[b].data_end;
	if (expect > img->src.size)
		ev->file_bytes_missing = expect - img->src.size;
}
