/*
 * kdump compressed dumps: "KDUMP   " (makedumpfile -c/-l/-p/-z, QEMU's
 * dump-guest-memory -z/-l/-s) and the older "DISKDUMP".
 *
 * The file is cut into blocks of block_size bytes (the page size):
 *   block 0                  disk_dump_header
 *   block 1..                kdump_sub_header, then the ELF notes it points
 *                            at (sub_hdr_size blocks)
 *   then bitmap_blocks       1st bitmap (pfns that are RAM) and 2nd bitmap
 *                            (pfns dumped), half each, bit n = pfn n, LSB
 *                            first
 *   then                     one 24-byte page_desc {offset, size, flags,
 *                            page_flags} per set bit of the 2nd bitmap, in
 *                            pfn order
 *   then                     page data, each page compressed on its own or
 *                            stored whole; zero pages may share one
 *                            descriptor's data
 *
 * The header is the C struct of the writer, so its layout follows the
 * writer's ABI: a 64-bit writer has an 8-byte-aligned 16-byte struct
 * timeval and 8-byte longs in the sub-header; a 32-bit writer has neither.
 * QEMU writes the 64-bit layout for i386 guests too.  We try each layout
 * and keep the one whose fields make sense (see pick_layout).
 *
 * Only headers and bitmaps are read at open.  A pfn finds its descriptor
 * through a rank table (dumped pages before every 4096-pfn block) plus a
 * popcount inside the block, and pages are decompressed one at a time into
 * the image's bounded page cache.
 */
#include "../lib/err.h"
#include "codecs.h"
#include "kdump.h"
#include "../lib/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIG_LEN 8
#define UTS_LEN 65
#define UTS_RELEASE (12 + 2 * UTS_LEN)
#define UTS_MACHINE (12 + 4 * UTS_LEN)
#define MAX_NOTES (64u << 20)       /* notes bigger than this are not notes */
#define MAX_VMCOREINFO (1u << 20)
#define MAX_RANGES 65536            /* `info` ranges; runs beyond coalesce */


static const struct {
	unsigned flag;
	enum pgw_codec codec;
} codec_flags[] = {
	{ DH_ZLIB, PGW_CODEC_ZLIB },
	{ DH_LZO, PGW_CODEC_LZO },
	{ DH_SNAPPY, PGW_CODEC_SNAPPY },
	{ DH_ZSTD, PGW_CODEC_ZSTD },
};
#define NCODEC_FLAGS (sizeof(codec_flags) / sizeof(codec_flags[0]))

/*
 * Where the writer's compiler put things.  `status` starts the run of ten
 * 32-bit fields that ends the header; the sub-header offsets are those of
 * struct kdump_sub_header with `unsigned long` of long_size bytes.
 */
struct layout {
	const char *name;
	unsigned status;
	unsigned sub_size;
	unsigned phys_base, dump_level, split, start_pfn, end_pfn;
	unsigned off_vmcoreinfo, size_vmcoreinfo, off_note, size_note;
	unsigned start_pfn_64, end_pfn_64, max_mapnr_64;
	unsigned long_size;
};

static const struct layout layouts[] = {
	/* LP64: timeval is 16 bytes at 408 (aligned to 8). */
	{ "64-bit", 424, 104, 0, 8, 12, 16, 24, 32, 40, 48, 56, 80, 88, 96, 8 },
	/* ILP32 (i386 makedumpfile): timeval is 8 bytes at 404. */
	{ "32-bit", 412, 80, 0, 4, 8, 12, 16, 20, 28, 32, 40, 56, 64, 72, 4 },
	/* ILP32 with a 64-bit time_t: timeval is 16 bytes at 404. */
	{ "32-bit (64-bit time_t)", 420, 80, 0, 4, 8, 12, 16, 20, 28, 32, 40,
	  56, 64, 72, 4 },
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))
#define HDR_MAX (424 + 40)


static bool kdump_probe(const uint8_t *head, size_t len)
{
	return len >= SIG_LEN && (memcmp(head, "KDUMP   ", SIG_LEN) == 0 ||
				  memcmp(head, "DISKDUMP", SIG_LEN) == 0);
}

static void read_hdr(const uint8_t *b, const struct layout *l, struct hdr *h)
{
	const uint8_t *t = b + l->status;

	h->kdump = memcmp(b, "KDUMP   ", SIG_LEN) == 0;
	h->version = pgw_le32(b + 8);
	h->status = pgw_le32(t);
	h->block_size = pgw_le32(t + 4);
	h->sub_hdr_size = pgw_le32(t + 8);
	h->bitmap_blocks = pgw_le32(t + 12);
	h->max_mapnr = pgw_le32(t + 16);
	h->nr_cpus = pgw_le32(t + 36);
}

static void read_sub(const uint8_t *b, const struct layout *l,
		     uint32_t version, struct sub *s)
{
	unsigned ls = l->long_size;

	memset(s, 0, sizeof(*s));
	s->have = true;
	s->dump_level = -1;
	s->phys_base = pgw_le(b + l->phys_base, ls);
	if (version >= 1)
		s->dump_level = (int32_t)pgw_le32(b + l->dump_level);
	if (version >= 2) {
		s->split = pgw_le32(b + l->split) != 0;
		s->start_pfn = pgw_le(b + l->start_pfn, ls);
		s->end_pfn = pgw_le(b + l->end_pfn, ls);
	}
	if (version >= 3) {
		s->off_vmcoreinfo = pgw_le64(b + l->off_vmcoreinfo);
		s->size_vmcoreinfo = pgw_le(b + l->size_vmcoreinfo, ls);
	}
	if (version >= 4) {
		s->off_note = pgw_le64(b + l->off_note);
		s->size_note = pgw_le(b + l->size_note, ls);
	}
	if (version >= 6) {
		s->start_pfn = pgw_le64(b + l->start_pfn_64);
		s->end_pfn = pgw_le64(b + l->end_pfn_64);
		s->max_mapnr_64 = pgw_le64(b + l->max_mapnr_64);
	}
}

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* The sub-header as this layout would read it (zeros where absent). */
static void peek_sub(const struct pgw_source *src, const struct layout *l,
		     const struct hdr *h, struct sub *s)
{
	uint8_t b[128] = { 0 };
	struct pgw_err ignored;
	size_t n = pgw_source_avail(src, h->block_size, l->sub_size);

	if (n)
		(void)pgw_source_read(src, h->block_size, b, n, &ignored);
	read_sub(b, l, h->version, s);
}

/*
 * How much sense the header makes under layout l.  A block size that is a
 * power of two and a small sub-header are required; the bitmaps ending
 * inside the file and, for version 6, the 64-bit max_mapnr agreeing with
 * the 32-bit copy, and the notes sitting inside the sub-header blocks, add
 * confidence.  Read under the wrong layout, these fields are timestamp
 * bytes or neighbouring counters and fail the tests.
 */
static int layout_score(const struct pgw_source *src, const uint8_t *b,
			size_t blen, const struct layout *l)
{
	struct hdr h;
	struct sub s;
	int score = 0;

	if (blen < l->status + 40)
		return -1;
	read_hdr(b, l, &h);
	if (!pow2(h.block_size) || h.block_size < 512 ||
	    h.block_size > (1u << 20))
		return -1;
	if (h.sub_hdr_size > (1u << 16) ||
	    (h.kdump && h.version >= 1 && h.sub_hdr_size == 0))
		return -1;
	uint64_t end = (1 + (uint64_t)h.sub_hdr_size + h.bitmap_blocks) *
		       h.block_size;
	score += h.bitmap_blocks && end <= src->size;
	if (!h.kdump || h.version < 1)
		return score;
	peek_sub(src, l, &h, &s);
	uint64_t sub_end = (1 + (uint64_t)h.sub_hdr_size) * h.block_size;
	if (h.version >= 6) {
		uint64_t m = s.max_mapnr_64;
		score += (m > UINT32_MAX ? UINT32_MAX : m) == h.max_mapnr;
	}
	if (h.version >= 4 && s.size_note)
		score += s.off_note >= h.block_size + l->sub_size &&
			 s.off_note <= sub_end &&
			 s.size_note <= sub_end - s.off_note;
	return score;
}

static enum pgw_status pick_layout(const struct pgw_source *src,
				   const uint8_t *b, size_t blen,
				   const struct layout **lay_ret,
				   struct pgw_err *err)
{
	int best = -1;

	for (size_t i = 0; i < NLAYOUTS; i++) {
		int s = layout_score(src, b, blen, &layouts[i]);
		if (s > best) {
			best = s;
			*lay_ret = &layouts[i];
		}
	}
	if (best >= 0)
		return PGW_OK;
	if (blen < layouts[1].status + 40)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "disk_dump_header truncated (%zu bytes)",
				   blen);
	return pgw_err_set(err, PGW_E_FORMAT,
			   "disk_dump_header makes no sense in any known "
			   "layout (block_size reads 0x%x as 64-bit, 0x%x as "
			   "32-bit)", pgw_le32(b + layouts[0].status + 4),
			   pgw_le32(b + layouts[1].status + 4));
}

/* ---- bitmaps ---- */

const uint8_t *pgw_kdump_bytes(const struct pgw_source *src, uint64_t off,
			       size_t len, uint8_t *buf, struct pgw_err *err)
{
	const uint8_t *p;

	return pgw_source_get(src, off, len, buf, &p, err) == PGW_OK ? p
								   : NULL;
}

bool pgw_kdump_bit(const struct pgw_source *src, uint64_t bitmap,
		   uint64_t pfn)
{
	uint8_t b;
	struct pgw_err ignored;
	const uint8_t *p = pgw_kdump_bytes(src, bitmap + pfn / 8, 1, &b,
					   &ignored);

	return p && (*p >> (pfn & 7) & 1);
}

/* The set bits of w.  Every page a kdump is asked about ranks its bit,
 * and a machine without a popcount instruction (x86-64 before v2, the
 * build's baseline) pays a libgcc call for __builtin_popcount that costs
 * more than these steps. */
static inline unsigned popcount64(uint64_t w)
{
	w -= (w >> 1) & UINT64_C(0x5555555555555555);
	w = (w & UINT64_C(0x3333333333333333)) +
	    ((w >> 2) & UINT64_C(0x3333333333333333));
	w = (w + (w >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned)((w * UINT64_C(0x0101010101010101)) >> 56);
}

uint64_t pgw_kdump_popcount(const uint8_t *p, size_t n)
{
	uint64_t c = 0, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		c += popcount64(w);
	}
	for (w = 0; i < n; i++)
		w = w << 8 | p[i];
	return c + popcount64(w);
}

/* Index of pfn's descriptor: dumped pfns before it. */
enum pgw_status pgw_kdump_rank(const struct pgw_image *img,
			       const struct kdump *k, uint64_t pfn,
			       uint64_t *idx_ret, struct pgw_err *err)
{
	uint8_t buf[SUB_BITS / 8];
	uint64_t sub = pfn / SUB_BITS;
	size_t nbytes = (size_t)(pfn % SUB_BITS) / 8;
	uint64_t r = k->rank[pfn / RANK_BITS] + k->subrank[sub];
	const uint8_t *p = pfn < k->max_mapnr && k->bits2 ?
				   k->bits2 + sub * (SUB_BITS / 8) :
				   pgw_kdump_bytes(&img->src,
						   k->bitmap2 + sub * (SUB_BITS / 8),
						   nbytes + 1, buf, err);

	if (!p)
		return pgw_err_prefix(err, "2nd bitmap");
	r += pgw_kdump_popcount(p, nbytes);
	r += popcount64(p[nbytes] & ((1u << (pfn & 7)) - 1));
	*idx_ret = r;
	return PGW_OK;
}

/*
 * One pass over both bitmaps: the rank table, page counts and the RAM
 * ranges for `info`.  Bits at or above max_mapnr are ignored.
 */
static enum pgw_status scan_bitmaps(struct pgw_image *img, struct kdump *k,
				    uint64_t *valid_ret, uint64_t *excluded_ret,
				    struct pgw_err *err)
{
	uint8_t b1buf[RANK_BITS / 8], b2buf[RANK_BITS / 8];
	uint64_t nblk = (k->max_mapnr + RANK_BITS - 1) / RANK_BITS;
	uint64_t dumped = 0, valid = 0, excluded = 0;
	uint64_t run_start = 0;
	bool in_run = false, coalesced = false;
	enum pgw_status st;

	k->nblk = nblk;

	/* One u64 and SUBS u16 per 512 bytes of bitmap: bounded by the
	 * file's size.  The sub-ranks leave at most 64 bytes to count when
	 * a page's descriptor is looked up. */
	k->rank = malloc((size_t)(nblk + 1) * sizeof(*k->rank));
	k->subrank = malloc((size_t)nblk * SUBS * sizeof(*k->subrank));
	if (!k->rank || !k->subrank)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	for (uint64_t blk = 0; blk < nblk; blk++) {
		uint64_t first = blk * RANK_BITS;
		uint64_t nbits = k->max_mapnr - first < RANK_BITS ?
					 k->max_mapnr - first : RANK_BITS;
		size_t nbytes = (size_t)(nbits + 7) / 8;
		uint64_t off = blk * (RANK_BITS / 8);
		const uint8_t *b1 = pgw_kdump_bytes(&img->src,
						    k->bitmap1 + off, nbytes,
						    b1buf, err);
		if (!b1)
			return pgw_err_prefix(err, "1st bitmap");
		if (b1 != b1buf)
			memcpy(b1buf, b1, nbytes);
		const uint8_t *b2 = pgw_kdump_bytes(&img->src,
						    k->bitmap2 + off, nbytes,
						    b2buf, err);
		if (!b2)
			return pgw_err_prefix(err, "2nd bitmap");
		if (b2 != b2buf)
			memcpy(b2buf, b2, nbytes);
		if (nbits % 8) {
			uint8_t mask = (uint8_t)((1u << (nbits % 8)) - 1);
			b1buf[nbytes - 1] &= mask;
			b2buf[nbytes - 1] &= mask;
		}
		k->rank[blk] = dumped;
		for (size_t j = 0, below = 0; j < SUBS; j++) {
			size_t from = j * (SUB_BITS / 8);
			k->subrank[blk * SUBS + j] = (uint16_t)below;
			if (from < nbytes)
				below += (size_t)pgw_kdump_popcount(
					b2buf + from,
					nbytes - from < SUB_BITS / 8 ?
						nbytes - from : SUB_BITS / 8);
		}
		dumped += pgw_kdump_popcount(b2buf, nbytes);
		valid += pgw_kdump_popcount(b1buf, nbytes);
		for (size_t i = 0; i < nbytes; i++)
			excluded += (uint64_t)__builtin_popcount(
				b1buf[i] & (uint8_t)~b2buf[i]);
		/* Runs of RAM; whole bytes of 0x00/0xff are skipped fast. */
		for (size_t i = 0; i < nbytes; i++) {
			uint8_t v = b1buf[i];
			if ((v == 0 && !in_run) || (v == 0xff && in_run))
				continue;
			for (unsigned bit = 0; bit < 8; bit++) {
				bool set = v >> bit & 1;
				uint64_t pfn = first + i * 8 + bit;
				if (set == in_run)
					continue;
				if (set) {
					run_start = pfn;
				} else if (img->nranges < MAX_RANGES) {
					st = pgw_image_add_range(
						img, run_start << k->shift,
						(pfn - run_start) << k->shift,
						err);
					if (st != PGW_OK)
						return st;
				} else {
					/* Pathological bitmaps: stretch the
					 * last range instead of growing. */
					struct pgw_phys_range *r =
						&img->ranges[img->nranges - 1];
					r->size = (pfn << k->shift) -
						  r->start;
					coalesced = true;
				}
				in_run = set;
			}
		}
	}
	if (in_run) {
		st = pgw_image_add_range(img, run_start << k->shift,
					 (k->max_mapnr - run_start) << k->shift,
					 err);
		if (st != PGW_OK)
			return st;
	}
	k->rank[nblk] = dumped;
	k->ndumped = dumped;
	*valid_ret = valid;
	*excluded_ret = excluded;
	if (coalesced)
		pgw_image_add_fact(img, "ranges_note",
				   "more than %d RAM runs; the last range "
				   "spans the rest", MAX_RANGES);
	return PGW_OK;
}

/* ---- page descriptors ---- */

/*
 * Every descriptor a page needs is checked when that page is read or asked
 * about, never trusted because another one was fine: a file cut in its
 * data, one bad descriptor or one damaged page makes those pages absent
 * with their reason, and the rest of the dump reads as it is.
 */

static enum pgw_absence read_desc(const struct pgw_image *img,
				  const struct kdump *k, uint64_t idx,
				  struct desc *d)
{
	uint8_t b[DESC_SIZE];
	struct pgw_err ignored;
	uint64_t off = k->desc_off + idx * DESC_SIZE;

	/* Read first (one lookup in a flattened file); only a failed read
	 * needs to know why. */
	if (pgw_source_read(&img->src, off, b, DESC_SIZE, &ignored) != PGW_OK) {
		enum pgw_absence why = pgw_source_absence(&img->src, off,
							  DESC_SIZE);
		return why != PGW_ABSENT_NONE ? why : PGW_ABSENT_CORRUPT;
	}
	d->offset = pgw_le64(b);
	d->size = pgw_le32(b + 8);
	d->flags = pgw_le32(b + 12);
	return PGW_ABSENT_NONE;
}

/* What a descriptor read from the file says of its page's data: NONE when
 * the data is there to decode; *why_ret says what is wrong otherwise. */
static enum pgw_absence desc_verdict(const struct pgw_image *img,
				     const struct kdump *k,
				     const struct desc *d, const char **why_ret)
{
	if (d->size == 0 && d->offset == 0) {
		*why_ret = "its descriptor is empty: never written";
		return k->incomplete || k->truncated ? PGW_ABSENT_MISSING
						     : PGW_ABSENT_CORRUPT;
	}
	if (d->size == 0 || d->size > k->h.block_size) {
		*why_ret = d->size ? "its descriptor claims more bytes than a "
				     "page" :
				     "its descriptor claims 0 bytes";
		return PGW_ABSENT_CORRUPT;
	}
	if ((d->flags & DH_CODECS) & ((d->flags & DH_CODECS) - 1)) {
		*why_ret = "its descriptor names two compressions";
		return PGW_ABSENT_CORRUPT;
	}
	if (!(d->flags & DH_CODECS) && d->size != k->h.block_size) {
		*why_ret = "its descriptor gives an uncompressed page a size "
			   "other than a page";
		return PGW_ABSENT_CORRUPT;
	}
	enum pgw_absence why = pgw_source_absence(&img->src, d->offset,
						  d->size);
	if (why == PGW_ABSENT_NONE)
		return why;
	/* No writer puts page data beyond room for every dumped page after
	 * the descriptors: that is a damaged offset, not a cut file. */
	if (d->offset > k->data_limit || d->size > k->data_limit - d->offset) {
		*why_ret = "its descriptor points beyond any page data";
		return PGW_ABSENT_CORRUPT;
	}
	*why_ret = why == PGW_ABSENT_TRUNCATED ?
			   "its data is past the end of the file" :
			   "its data was never written";
	return why;
}

/* The descriptor of dumped page number idx, or why its data is absent. */
enum pgw_absence pgw_kdump_desc_state(const struct pgw_image *img,
				      const struct kdump *k, uint64_t idx,
				      struct desc *d, const char **why_ret)
{
	if (idx >= k->ndesc) {
		*why_ret = "its descriptor is past the end of the file";
		return PGW_ABSENT_TRUNCATED;
	}
	enum pgw_absence why = read_desc(img, k, idx, d);
	if (why != PGW_ABSENT_NONE) {
		*why_ret = "its descriptor was never written";
		return why;
	}
	return desc_verdict(img, k, d, why_ret);
}

/* Why a pfn has no descriptor at all (not dumped), NONE when it has.
 * Inline: a batch asks it for every frame it finds. */
static inline enum pgw_absence bitmap_state(const struct pgw_image *img,
					    const struct kdump *k,
					    uint64_t pfn)
{
	if (pfn >= k->max_mapnr)
		return PGW_ABSENT_OUTSIDE;
	if (k->bits2 ? k->bits2[pfn / 8] >> (pfn & 7) & 1 :
		       pgw_kdump_bit(&img->src, k->bitmap2, pfn))
		return PGW_ABSENT_NONE;
	if (!(k->bits1 ? k->bits1[pfn / 8] >> (pfn & 7) & 1 :
			 pgw_kdump_bit(&img->src, k->bitmap1, pfn)))
		return PGW_ABSENT_OUTSIDE;
	if (k->s.split && (pfn < k->s.start_pfn || pfn >= k->s.end_pfn))
		return PGW_ABSENT_OTHER_FILE;
	return PGW_ABSENT_EXCLUDED;
}

static enum pgw_status not_dumped(const struct kdump *k, uint64_t pfn,
				  enum pgw_absence why, struct pgw_err *err)
{
	uint64_t pa = pfn << k->shift;
	char lvl[32] = "";

	switch (why) {
	case PGW_ABSENT_OTHER_FILE:
		return pgw_err_nodata(err, why,
				      "physical 0x%llx is in another file of "
				      "this split dump (this one holds pfns "
				      "0x%llx-0x%llx)",
				      (unsigned long long)pa,
				      (unsigned long long)k->s.start_pfn,
				      (unsigned long long)k->s.end_pfn);
	case PGW_ABSENT_EXCLUDED:
		if (k->s.dump_level >= 0)
			snprintf(lvl, sizeof(lvl), ", dump level %d",
				 (int)k->s.dump_level);
		return pgw_err_nodata(err, why,
				      "physical 0x%llx: page excluded from "
				      "the dump (filtered%s)",
				      (unsigned long long)pa, lvl);
	default:
		if (pfn >= k->max_mapnr)
			return pgw_err_nodata(err, why,
					      "physical 0x%llx is not in the "
					      "image (the dump ends at pfn "
					      "0x%llx)", (unsigned long long)pa,
					      (unsigned long long)k->max_mapnr);
		return pgw_err_nodata(err, why,
				      "physical 0x%llx is not in the image "
				      "(not RAM in the dump's bitmap)",
				      (unsigned long long)pa);
	}
}

/* The descriptor of pfn, or why its data is not in the image (NODATA). */
static enum pgw_status find_desc(const struct pgw_image *img,
				 const struct kdump *k, uint64_t pfn,
				 struct desc *d, struct pgw_err *err)
{
	uint64_t pa = pfn << k->shift;
	uint64_t idx;
	const char *why_text = "";
	enum pgw_absence why = bitmap_state(img, k, pfn);
	enum pgw_status st;

	if (why != PGW_ABSENT_NONE)
		return not_dumped(k, pfn, why, err);
	st = pgw_kdump_rank(img, k, pfn, &idx, err);
	if (st != PGW_OK)
		return st;
	why = pgw_kdump_desc_state(img, k, idx, d, &why_text);
	if (why == PGW_ABSENT_NONE)
		return PGW_OK;
	if (why == PGW_ABSENT_CORRUPT)
		return pgw_err_nodata(err, why,
				      "physical 0x%llx: page descriptor %llu "
				      "is damaged (%s: offset 0x%llx, %u "
				      "bytes, flags 0x%x)",
				      (unsigned long long)pa,
				      (unsigned long long)idx, why_text,
				      (unsigned long long)d->offset, d->size,
				      d->flags);
	return pgw_err_nodata(err, why,
			      "physical 0x%llx: page missing from the dump%s "
			      "(%s)", (unsigned long long)pa,
			      why == PGW_ABSENT_TRUNCATED ?
				      ", which is truncated" :
			      k->incomplete ? ", which is marked incomplete" :
					      "",
			      why_text);
}

/* Block pfn (of block_size bytes) into buf, or in place at *block_ret. */
static enum pgw_status kdump_block(struct pgw_image *img, uint64_t pfn,
				   uint8_t *buf, const uint8_t **block_ret,
				   struct pgw_err *err)
{
	struct kdump *k = img->priv;
	uint64_t pa = pfn << k->shift;
	struct desc d;
	const uint8_t *data;
	enum pgw_status st = find_desc(img, k, pfn, &d, err);

	if (st != PGW_OK)
		return st;
	if (!(d.flags & DH_CODECS))
		st = pgw_source_get(&img->src, d.offset, k->h.block_size, buf,
				    block_ret, err);
	else
		st = pgw_source_get(&img->src, d.offset, d.size, k->cbuf,
				    &data, err);
	for (size_t i = 0; st == PGW_OK && (d.flags & DH_CODECS) &&
			   i < NCODEC_FLAGS; i++) {
		if (!(d.flags & codec_flags[i].flag))
			continue;
		st = pgw_decompress(k->codecs, codec_flags[i].codec, data,
				    d.size, buf, k->h.block_size, err);
		*block_ret = buf;
		break;
	}
	/* A stream that does not decode to its page damages that page, not
	 * the image.  (A codec this build lacks stays an error of its own.) */
	if (st == PGW_E_FORMAT) {
		pgw_err_prefix(err, "physical 0x%llx: its compressed data is "
			       "damaged", (unsigned long long)pa);
		return pgw_err_as_nodata(err, PGW_ABSENT_CORRUPT);
	}
	if (st != PGW_OK)
		return pgw_err_prefix(err, "physical 0x%llx",
				      (unsigned long long)pa);
	return PGW_OK;
}

/*
 * The image's 4 KiB page pfn: its block's own when blocks are 4 KiB, else
 * a copy of its part of the block, which is decoded once and kept while
 * its pages are read one after another (a walk reads a table's, a read
 * its neighbours').
 */
static enum pgw_status kdump_page(struct pgw_image *img, uint64_t pfn,
				  uint8_t *buf, const uint8_t **page_ret,
				  struct pgw_err *err)
{
	struct kdump *k = img->priv;
	unsigned sub = k->shift - PGW_PAGE_SHIFT;
	uint64_t bpfn = pfn >> sub;
	const uint8_t *block;
	enum pgw_status st;

	if (!sub)
		return kdump_block(img, pfn, buf, page_ret, err);
	if (!k->block || k->block_pfn != bpfn) {
		if (!k->block && !(k->block = malloc(k->h.block_size)))
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		k->block_pfn = UINT64_MAX;
		st = kdump_block(img, bpfn, k->block, &block, err);
		if (st != PGW_OK)
			return st;
		if (block != k->block)
			memcpy(k->block, block, k->h.block_size);
		k->block_pfn = bpfn;
	}
	memcpy(buf, k->block + ((pfn & ((UINT64_C(1) << sub) - 1))
				<< PGW_PAGE_SHIFT), PGW_PAGE_SIZE);
	*page_ret = buf;
	return PGW_OK;
}

/* The image's 4 KiB page pfn: its block's state.  The usual frame of a
 * batch first, in a few loads: dumped (its bit in the mapped bitmap),
 * in a block known clean (pgw_kdump_page_state's verdict then too). */
static enum pgw_absence kdump_page_state_4k(struct pgw_image *img,
					    uint64_t pfn)
{
	const struct kdump *k = img->priv;
	uint64_t b = pfn >> (k->shift - PGW_PAGE_SHIFT);

	if (b < k->max_mapnr && k->bits2 && k->clean &&
	    (k->bits2[b / 8] >> (b & 7) & 1) && k->clean[b / RANK_BITS])
		return PGW_ABSENT_NONE;
	return pgw_kdump_page_state(img, b);
}

enum pgw_absence pgw_kdump_page_state(struct pgw_image *img, uint64_t pfn)
{
	struct kdump *k = img->priv;
	struct pgw_err ignored;
	const char *why_text;
	struct desc d;
	uint64_t idx;
	enum pgw_absence why = bitmap_state(img, k, pfn);

	/* A clean block's flag first: the one load most frames of a batch
	 * need after their bit. */
	if (why != PGW_ABSENT_NONE || (k->clean && k->clean[pfn / RANK_BITS]) ||
	    pgw_kdump_block_clean(img, k, pfn))
		return why;
	if (pgw_kdump_rank(img, k, pfn, &idx, &ignored) != PGW_OK)
		return PGW_ABSENT_CORRUPT;
	return pgw_kdump_desc_state(img, k, idx, &d, &why_text);
}

/*
 * Frames from pfn on that the bitmaps leave out for one reason, so scans
 * step over a filtered dump's excluded runs and its holes between RAM at
 * once: 64 frames a step where both bitmaps are in the map and the dump
 * is not split (where no boundary can change the reason), else a frame.
 */
static uint64_t kdump_unheld_run(struct pgw_image *img, uint64_t pfn,
				 bool *zero_ret)
{
	const struct kdump *k = img->priv;
	/* The bitmaps count the dump's pages (blocks of 2^shift bytes). */
	unsigned sub = k->shift - PGW_PAGE_SHIFT;
	uint64_t first = pfn >> sub;
	enum pgw_absence why = first < k->max_mapnr ?
				       bitmap_state(img, k, first) :
				       PGW_ABSENT_NONE;
	bool words = k->bits1 && k->bits2 && !k->s.split;
	uint64_t ram = why == PGW_ABSENT_OUTSIDE ? 0 : UINT64_MAX;
	uint64_t end = first + 1;

	*zero_ret = false;
	if (why == PGW_ABSENT_NONE)
		return 0;
	while (end < k->max_mapnr) {
		uint64_t dumped, in_ram;
		if (words && end % 64 == 0 && k->max_mapnr - end >= 64) {
			memcpy(&dumped, k->bits2 + end / 8, 8);
			memcpy(&in_ram, k->bits1 + end / 8, 8);
			if (dumped == 0 && in_ram == ram) {
				end += 64;
				continue;
			}
		}
		if (bitmap_state(img, k, end) != why)
			break;
		end++;
	}
	return (end << sub) - pfn;
}

static uint64_t kdump_held_pages(const struct pgw_image *img)
{
	const struct kdump *k = img->priv;

	return k->ndesc << (k->shift - PGW_PAGE_SHIFT);
}

/* ---- open ---- */

static unsigned machine_from_uts(const char *m)
{
	if (strcmp(m, "x86_64") == 0)
		return 62;  /* EM_X86_64 */
	if (strcmp(m, "aarch64") == 0)
		return 183; /* EM_AARCH64 */
	if (m[0] == 'i' && m[1] >= '3' && m[1] <= '6' &&
	    strcmp(m + 2, "86") == 0)
		return 3;   /* EM_386 */
	return 0;
}

static enum pgw_status read_notes(struct pgw_image *img, struct kdump *k,
				  struct pgw_err *err)
{
	const struct sub *s = &k->s;
	enum pgw_status st = PGW_OK;
	const uint8_t *p;

	if (s->size_note) {
		if (s->size_note > MAX_NOTES)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "ELF notes of %llu bytes are "
					   "implausibly large",
					   (unsigned long long)s->size_note);
		if (pgw_source_absence(&img->src, s->off_note, s->size_note) !=
		    PGW_ABSENT_NONE)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "ELF notes (%llu bytes at 0x%llx) "
					   "are not in the file",
					   (unsigned long long)s->size_note,
					   (unsigned long long)s->off_note);
		uint8_t *buf = malloc((size_t)s->size_note);
		if (!buf)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		st = pgw_source_get(&img->src, s->off_note,
				    (size_t)s->size_note, buf, &p, err);
		if (st == PGW_OK)
			st = pgw_image_parse_notes(img, p,
						   (size_t)s->size_note, false,
						   err);
		free(buf);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "ELF notes at 0x%llx",
					      (unsigned long long)s->off_note);
	}
	/* The notes usually hold VMCOREINFO already; then this is a no-op. */
	if (s->size_vmcoreinfo && !pgw_vmcoreinfo_count(img)) {
		if (s->size_vmcoreinfo > MAX_VMCOREINFO)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "VMCOREINFO of %llu bytes is "
					   "implausibly large",
					   (unsigned long long)s->size_vmcoreinfo);
		if (pgw_source_absence(&img->src, s->off_vmcoreinfo,
				       s->size_vmcoreinfo) != PGW_ABSENT_NONE)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "VMCOREINFO (%llu bytes at 0x%llx) "
					   "is not in the file",
					   (unsigned long long)
						   s->size_vmcoreinfo,
					   (unsigned long long)
						   s->off_vmcoreinfo);
		char *buf = malloc((size_t)s->size_vmcoreinfo);
		if (!buf)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		st = pgw_source_read(&img->src, s->off_vmcoreinfo, buf,
				     (size_t)s->size_vmcoreinfo, err);
		if (st == PGW_OK)
			st = pgw_image_parse_vmcoreinfo(
				img, buf, (size_t)s->size_vmcoreinfo, err);
		free(buf);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "VMCOREINFO at 0x%llx",
					      (unsigned long long)
						      s->off_vmcoreinfo);
	}
	return PGW_OK;
}

static void compression_names(unsigned status, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < NCODEC_FLAGS; i++)
		if (status & codec_flags[i].flag)
			n += (size_t)snprintf(out + n, n < len ? len - n : 0,
					      "%s%s", n ? ", " : "",
					      pgw_codec_name(
						      codec_flags[i].codec));
	if (!n)
		snprintf(out, len, "none");
}

/* makedumpfile -d: which kinds of pages the level leaves out. */
static void dump_level_text(int level, char *out, size_t len)
{
	static const char *const names[] = { "zero", "cache",
					     "cache-private", "user", "free" };
	size_t n = (size_t)snprintf(out, len, "%d", level);
	const char *sep = " (";

	if (level <= 0 || level > 31)
		return;
	for (int i = 0; i < 5; i++)
		if (level & (1 << i)) {
			n += (size_t)snprintf(out + n, n < len ? len - n : 0,
					      "%s%s", sep, names[i]);
			sep = ", ";
		}
	snprintf(out + n, n < len ? len - n : 0, " pages excluded)");
}

/*
 * Is the file cut in its page data?  Data follows the descriptors in pfn
 * order, so the last pages' data ends the file; zero pages may all share
 * one page of data near the start, so look back from the last descriptor
 * (a bounded number of them) for data past the end.  Cheap at open; a cut
 * anywhere else still shows, page by page, when a page is read.
 */
#define CUT_LOOKBACK 4096

static bool data_cut(const struct pgw_image *img, const struct kdump *k)
{
	for (uint64_t n = 0; n < CUT_LOOKBACK && n < k->ndesc; n++) {
		struct desc d;
		uint64_t idx = k->ndesc - 1 - n;
		enum pgw_absence why = read_desc(img, k, idx, &d);
		if (why == PGW_ABSENT_TRUNCATED)
			return true;
		if (why != PGW_ABSENT_NONE || d.size == 0 ||
		    d.offset > k->data_limit ||
		    d.size > k->data_limit - d.offset)
			continue;
		if (pgw_source_absence(&img->src, d.offset, d.size) ==
		    PGW_ABSENT_TRUNCATED)
			return true;
	}
	return false;
}

static enum pgw_status check_codecs(const struct kdump *k,
				    struct pgw_err *err)
{
	for (size_t i = 0; i < NCODEC_FLAGS; i++) {
		if (!(k->h.status & codec_flags[i].flag))
			continue;
		enum pgw_status st = pgw_codec_require(codec_flags[i].codec,
						       err);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "pages");
	}
	return PGW_OK;
}

static void add_facts(struct pgw_image *img, const struct kdump *k,
		      const uint8_t *hb, uint64_t valid, uint64_t excluded)
{
	char buf[160];
	char uts[UTS_LEN + 1];

	/* The sub-header has no version of its own: header_version says
	 * which of its fields exist. */
	pgw_image_add_fact(img, "kdump_header", "%s, %s version %u, %s layout",
			   k->h.kdump ? "KDUMP" : "DISKDUMP",
			   k->s.have ? "header and sub-header" :
				       "header (no kdump sub-header)",
			   k->h.version, k->lay->name);
	memcpy(uts, hb + UTS_MACHINE, UTS_LEN);
	uts[UTS_LEN] = '\0';
	if (uts[0])
		pgw_image_add_fact(img, "machine", "%s", uts);
	memcpy(uts, hb + UTS_RELEASE, UTS_LEN);
	if (uts[0])
		pgw_image_add_fact(img, "kernel", "%s", uts);
	if (k->s.have && k->s.dump_level >= 0) {
		dump_level_text(k->s.dump_level, buf, sizeof(buf));
		pgw_image_add_fact(img, "dump_level", "%s", buf);
	}
	compression_names(k->h.status, buf, sizeof(buf));
	pgw_image_add_fact(img, "compression", "%s", buf);
	pgw_image_add_fact(img, "max_mapnr", "0x%llx (%llu MiB)",
			   (unsigned long long)k->max_mapnr,
			   (unsigned long long)(k->max_mapnr >>
						(20 - k->shift)));
	pgw_image_add_fact(img, "pages",
			   "%llu RAM, %llu dumped, %llu excluded by filtering%s",
			   (unsigned long long)valid,
			   (unsigned long long)k->ndumped,
			   (unsigned long long)excluded,
			   k->shift > PGW_PAGE_SHIFT ? " (blocks)" : "");
	if (k->shift > PGW_PAGE_SHIFT)
		pgw_image_add_fact(img, "block_size",
				   "%u bytes (the writer's; pages are read "
				   "from blocks of %u)", k->h.block_size,
				   1u << (k->shift - PGW_PAGE_SHIFT));
	if (k->s.have)
		pgw_image_add_fact(img, "phys_base", "0x%llx",
				   (unsigned long long)k->s.phys_base);
	if (k->s.split)
		pgw_image_add_fact(img, "split", "pfns 0x%llx-0x%llx of a "
				   "split dump", (unsigned long long)
						 k->s.start_pfn,
				   (unsigned long long)k->s.end_pfn);
	if (k->h.status & DH_EXCLUDED_VMEMMAP)
		pgw_image_add_fact(img, "excluded_vmemmap", "yes");
	if (k->incomplete || k->truncated) {
		/* Counting reads every descriptor: only for a dump that is
		 * known to lack pages (a cut elsewhere shows per page). */
		struct pgw_evidence ev;
		pgw_image_evidence(img, &ev);
		uint64_t lost = ev.pages_absent[PGW_ABSENT_TRUNCATED] +
				ev.pages_absent[PGW_ABSENT_MISSING] +
				ev.pages_absent[PGW_ABSENT_CORRUPT];
		pgw_image_add_fact(img, "incomplete",
				   "%s%s%s: %llu of %llu dumped pages missing "
				   "(%llu truncated, %llu never written, %llu "
				   "corrupt)%s",
				   k->incomplete ? "marked incomplete" : "",
				   k->incomplete && k->truncated ? ", " : "",
				   k->truncated ? "file truncated" : "",
				   (unsigned long long)lost,
				   (unsigned long long)k->ndumped,
				   (unsigned long long)
					   ev.pages_absent[PGW_ABSENT_TRUNCATED],
				   (unsigned long long)
					   ev.pages_absent[PGW_ABSENT_MISSING],
				   (unsigned long long)
					   ev.pages_absent[PGW_ABSENT_CORRUPT],
				   ev.file_bytes_missing ?
					   ", the file's end is missing" : "");
	}
}

static enum pgw_status kdump_open(struct pgw_image *img, struct pgw_err *err)
{
	uint8_t hb[HDR_MAX] = { 0 };
	struct kdump *k;
	enum pgw_status st;
	size_t hlen = pgw_source_avail(&img->src, 0, sizeof(hb));

	st = pgw_source_read(&img->src, 0, hb, hlen, err);
	if (st != PGW_OK)
		return st;
	if (!kdump_probe(hb, hlen))
		return pgw_err_set(err, PGW_E_FORMAT,
				   "no KDUMP or DISKDUMP signature");
	k = calloc(1, sizeof(*k));
	if (!k)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	img->priv = k;
	st = pick_layout(&img->src, hb, hlen, &k->lay, err);
	if (st != PGW_OK)
		return st;
	read_hdr(hb, k->lay, &k->h);
	const struct hdr *h = &k->h;
	if (h->block_size < PGW_PAGE_SIZE || h->block_size > KDUMP_MAX_BLOCK)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "block size %u: blocks of %u to %u bytes "
				   "are read", h->block_size,
				   (unsigned)PGW_PAGE_SIZE,
				   (unsigned)KDUMP_MAX_BLOCK);
	k->shift = (unsigned)__builtin_ctz(h->block_size);
	if (h->kdump && h->version >= 1) {
		uint8_t sb[128] = { 0 };
		size_t n = pgw_source_avail(&img->src, h->block_size,
					    k->lay->sub_size);
		if (n < k->lay->sub_size)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "kdump_sub_header truncated (%zu of "
					   "%u bytes)", n, k->lay->sub_size);
		st = pgw_source_read(&img->src, h->block_size, sb, n, err);
		if (st != PGW_OK)
			return st;
		read_sub(sb, k->lay, h->version, &k->s);
	} else {
		k->s.dump_level = -1;
	}
	k->max_mapnr = h->version >= 6 && k->s.have ? k->s.max_mapnr_64 :
						       h->max_mapnr;
	k->incomplete = h->status & DH_INCOMPLETE;
	if (k->s.split && k->s.end_pfn <= k->s.start_pfn)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "split dump with empty pfn range "
				   "0x%llx-0x%llx",
				   (unsigned long long)k->s.start_pfn,
				   (unsigned long long)k->s.end_pfn);

	/* Bitmaps: both must cover max_mapnr and lie inside the file. */
	uint64_t bs = h->block_size;
	if (h->bitmap_blocks == 0 || h->bitmap_blocks % 2)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "bitmap_blocks is %u (two equal bitmaps "
				   "expected)", h->bitmap_blocks);
	uint64_t half = (uint64_t)h->bitmap_blocks / 2 * bs;
	k->bitmap1 = (1 + (uint64_t)h->sub_hdr_size) * bs;
	k->bitmap2 = k->bitmap1 + half;
	k->desc_off = k->bitmap2 + half;
	if (k->max_mapnr == 0)
		return pgw_err_set(err, PGW_E_FORMAT, "max_mapnr is 0");
	if (k->max_mapnr > half * 8)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "bitmaps of %llu bits are shorter than "
				   "max_mapnr %llu",
				   (unsigned long long)(half * 8),
				   (unsigned long long)k->max_mapnr);
	if (k->desc_off > img->src.size)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "bitmaps end at 0x%llx, past the end of the "
				   "file (0x%llx): truncated before any page",
				   (unsigned long long)k->desc_off,
				   (unsigned long long)img->src.size);
	/* A flattened file's logical size is what its records claim: the
	 * bitmap bytes must be there before anything is sized by them. */
	uint64_t bm_bytes = (k->max_mapnr + 7) / 8;
	if (pgw_source_absence(&img->src, k->bitmap1, bm_bytes) !=
		    PGW_ABSENT_NONE ||
	    pgw_source_absence(&img->src, k->bitmap2, bm_bytes) !=
		    PGW_ABSENT_NONE)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "bitmaps for max_mapnr %llu (0x%llx bytes "
				   "each) are not in the file",
				   (unsigned long long)k->max_mapnr,
				   (unsigned long long)bm_bytes);
	/* Where each lies whole in the file (always, unless flattening
	 * split it), its bits are read in place: every frame a batch
	 * answers reads one or two. */
	const uint8_t *in_place;
	struct pgw_err split;
	if (pgw_source_get(&img->src, k->bitmap1, bm_bytes, NULL, &in_place,
			   &split) == PGW_OK)
		k->bits1 = in_place;
	if (pgw_source_get(&img->src, k->bitmap2, bm_bytes, NULL, &in_place,
			   &split) == PGW_OK)
		k->bits2 = in_place;

	st = check_codecs(k, err);
	if (st != PGW_OK)
		return st;
	k->codecs = pgw_codecs_new();
	if (!k->codecs)
		return pgw_err_set(err, PGW_E_NOMEM,
				   "cannot set up decompression");
	uint64_t valid = 0, excluded = 0;
	st = scan_bitmaps(img, k, &valid, &excluded, err);
	if (st != PGW_OK)
		return st;
	uint64_t room = (img->src.size - k->desc_off) / DESC_SIZE;
	k->ndesc = room < k->ndumped ? room : k->ndumped;
	/* No writer puts page data past room for every dumped page (and
	 * one shared zero page) after the descriptors. */
	k->data_limit = k->desc_off + k->ndumped * DESC_SIZE +
			(k->ndumped + 1) * (uint64_t)h->block_size;
	k->truncated = k->ndesc < k->ndumped || data_cut(img, k);
	img->marked_incomplete = k->incomplete;
	char machine[UTS_LEN + 1] = { 0 };
	memcpy(machine, hb + UTS_MACHINE, UTS_LEN);
	img->machine = machine_from_uts(machine);
	st = read_notes(img, k, err);
	if (st != PGW_OK)
		return st;
	add_facts(img, k, hb, valid, excluded);
	/* Pages are decoded into the image's page cache. */
	img->zero_copy = false;
	return PGW_OK;
}

static void kdump_close(struct pgw_image *img)
{
	struct kdump *k = img->priv;

	pgw_codecs_free(k->codecs);
	free(k->rank);
	free(k->subrank);
	free(k->sums);
	free(k->clean);
	free(k->block);
	free(k);
	img->priv = NULL;
}

const struct pgw_format pgw_format_kdump = {
	.name = "kdump",
	.probe = kdump_probe,
	.open = kdump_open,
	.page = kdump_page,
	.page_state = kdump_page_state_4k,
	.absent_bytes = pgw_kdump_absent_bytes,
	.evidence = pgw_kdump_evidence,
	.unheld_run = kdump_unheld_run,
	.held_pages = kdump_held_pages,
	.close = kdump_close,
};
