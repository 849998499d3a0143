/*
 * AVML compressed images (avml --compress): LiME-style range headers with
 * magic "AVML" and version 2 (lime.h), each followed by the range's bytes
 * in the snappy framing format and then an 8-byte little-endian count of
 * the framed bytes.  AVML writes ranges of at most 16 MiB and leaves out
 * ranges that are all zero.  LiME version-1 ranges may appear too (avml
 * convert) and are read in place.
 *
 * Snappy framing (github.com/google/snappy, framing_format.txt): chunks of
 * a type byte and a 24-bit little-endian length.  0xff is the stream
 * identifier "sNaPpY"; 0x00 holds a masked CRC-32C of the decoded data and
 * one snappy block of at most 65536 decoded bytes; 0x01 the CRC and the
 * bytes themselves; 0x02-0x7f are reserved and must not be skipped;
 * 0x80-0xfe are skipped.
 *
 * At open we hop over the chunk headers (no decoding) and keep every 16th
 * chunk as a checkpoint, so the index stays small (16 bytes per 1 MiB of
 * AVML's 64 KiB chunks); a page is found by hopping at most 15 headers from
 * its checkpoint, and its chunk is decoded into a small cache of decoded
 * chunks.
 */
#include "../lib/err.h"
#include "codecs.h"
#include "format.h"
#include "../lib/grow.h"
#include "../lib/bytes.h"
#include "lime.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_MAX 65536u          /* decoded bytes per chunk, at most */
/* A compressed chunk: CRC plus snappy's worst case for CHUNK_MAX bytes. */
#define CCHUNK_MAX (4 + 32 + CHUNK_MAX + CHUNK_MAX / 6)
#define CHECKPOINT_EVERY 16
#define NCACHE 4                  /* decoded chunks kept */

enum {
	CH_COMPRESSED = 0x00,
	CH_UNCOMPRESSED = 0x01,
	CH_RESERVED_LAST = 0x7f,      /* 0x02-0x7f: unskippable */
	CH_PADDING = 0xfe,
	CH_STREAM_ID = 0xff,
};

struct checkpoint {
	uint64_t pos;                 /* stream offset of a chunk header */
	uint64_t ustart;              /* its first decoded byte in the range */
};

struct range {
	uint64_t pa, size;
	uint64_t avail;               /* decoded bytes the file really holds */
	bool compressed;
	uint64_t data;                /* LiME: the bytes; AVML: the stream */
	size_t first_cp, ncp;         /* checkpoints (compressed ranges) */
};

struct chunk {
	uint64_t pos;                 /* stream offset of its header */
	uint8_t type;
	uint32_t len;                 /* bytes after the 4-byte header */
	uint32_t ulen;                /* decoded bytes */
};

struct cached {
	uint64_t pos;                 /* chunk header offset; UINT64_MAX: none */
	uint32_t ulen;
	uint8_t *data;
};

struct avml {
	struct range *ranges;
	size_t nranges;
	struct checkpoint *cps;
	size_t ncps;
	struct cached cache[NCACHE];
	unsigned next;                /* FIFO hand */
	struct pgw_codecs *codecs;
	uint8_t *cbuf;                /* a compressed chunk split by flattening */
	size_t last;                  /* range lookup hint */
};

static bool avml_probe(const uint8_t *head, size_t len)
{
	return pgw_lime_probe(head, len, PGW_AVML_MAGIC, 2);
}

/* The chunk whose header is at pos; its decoded length without decoding. */
static enum pgw_status read_chunk(const struct pgw_source *src, uint64_t pos,
				  struct chunk *c, struct pgw_err *err)
{
	uint8_t b[4 + 4 + 5];
	enum pgw_status st = pgw_source_read(src, pos, b, 4, err);

	if (st != PGW_OK)
		return st;
	c->pos = pos;
	c->type = b[0];
	c->len = pgw_le24(b + 1);
	c->ulen = 0;
	if (c->len > src->size - pos - 4)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "snappy chunk at 0x%llx (%u bytes) runs past "
				   "the end of the file",
				   (unsigned long long)pos, c->len);
	if (c->type == CH_COMPRESSED || c->type == CH_UNCOMPRESSED) {
		if (c->len < 4 + (c->type == CH_COMPRESSED))
			return pgw_err_set(err, PGW_E_FORMAT,
					   "snappy chunk at 0x%llx is too short "
					   "(%u bytes)",
					   (unsigned long long)pos, c->len);
		if (c->type == CH_COMPRESSED && c->len > CCHUNK_MAX)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "snappy chunk at 0x%llx has %u "
					   "bytes, more than any 64 KiB block "
					   "compresses to",
					   (unsigned long long)pos, c->len);
		if (c->type == CH_UNCOMPRESSED) {
			c->ulen = c->len - 4;
		} else {
			size_t n = c->len - 4 < 5 ? c->len - 4 : 5;
			size_t ulen;
			st = pgw_source_read(src, pos + 8, b + 8, n, err);
			if (st == PGW_OK)
				st = pgw_snappy_length(b + 8, n, &ulen, err);
			if (st != PGW_OK)
				return pgw_err_prefix(
					err, "snappy chunk at 0x%llx",
					(unsigned long long)pos);
			if (ulen > CHUNK_MAX)
				return pgw_err_set(
					err, PGW_E_FORMAT,
					"snappy chunk at 0x%llx decodes to "
					"%zu bytes (at most %u allowed)",
					(unsigned long long)pos, ulen,
					CHUNK_MAX);
			c->ulen = (uint32_t)ulen;
		}
		if (c->ulen > CHUNK_MAX)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "snappy chunk at 0x%llx holds %u "
					   "bytes (at most %u allowed)",
					   (unsigned long long)pos, c->ulen,
					   CHUNK_MAX);
		return PGW_OK;
	}
	if (c->type == CH_STREAM_ID) {
		uint8_t id[6];
		if (c->len != 6 ||
		    pgw_source_read(src, pos + 4, id, 6, err) != PGW_OK ||
		    memcmp(id, "sNaPpY", 6) != 0)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "bad snappy stream identifier at "
					   "0x%llx", (unsigned long long)pos);
		return PGW_OK;
	}
	if (c->type <= CH_RESERVED_LAST)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "snappy chunk at 0x%llx has reserved type "
				   "0x%02x", (unsigned long long)pos, c->type);
	return PGW_OK;  /* padding and skippable chunks */
}

static enum pgw_status add_checkpoint(struct avml *a, uint64_t pos,
				      uint64_t ustart, struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&a->cps, a->ncps, sizeof(*a->cps), err);
	if (st != PGW_OK)
		return st;
	a->cps[a->ncps].pos = pos;
	a->cps[a->ncps].ustart = ustart;
	a->ncps++;
	return PGW_OK;
}

/*
 * Hop over the chunks of the range whose stream starts at r->data, keeping
 * checkpoints; *end_ret is where the stream ends (its trailer).  A file cut
 * inside the stream leaves r->avail short of r->size.
 */
static enum pgw_status index_range(const struct pgw_source *src,
				   struct avml *a, struct range *r,
				   uint64_t *end_ret, bool *cut_ret,
				   struct pgw_err *err)
{
	uint64_t pos = r->data, ustart = 0;
	size_t nchunks = 0;
	enum pgw_status st;

	r->first_cp = a->ncps;
	*cut_ret = false;
	while (ustart < r->size) {
		struct chunk c;
		if (src->size - pos < 4) {
			*cut_ret = true;
			break;
		}
		st = read_chunk(src, pos, &c, err);
		if (st == PGW_E_FORMAT && c.len > src->size - pos - 4) {
			*cut_ret = true;
			break;
		}
		if (st != PGW_OK)
			return st;
		if (nchunks == 0 && c.type != CH_STREAM_ID)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "snappy stream at 0x%llx does not "
					   "start with its identifier",
					   (unsigned long long)pos);
		if (c.ulen > r->size - ustart)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "snappy data decodes past the "
					   "range's 0x%llx bytes",
					   (unsigned long long)r->size);
		/* Counting every chunk, padding too, bounds the hops. */
		if (nchunks % CHECKPOINT_EVERY == 0) {
			st = add_checkpoint(a, pos, ustart, err);
			if (st != PGW_OK)
				return st;
		}
		ustart += c.ulen;
		nchunks++;
		pos += 4 + (uint64_t)c.len;
	}
	r->avail = ustart;
	r->ncp = a->ncps - r->first_cp;
	*end_ret = pos;
	return PGW_OK;
}

static int range_cmp(const void *x, const void *y)
{
	const struct range *a = x, *b = y;

	return a->pa < b->pa ? -1 : a->pa > b->pa;
}

static enum pgw_status add_range(struct avml *a, const struct range *r,
				 struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&a->ranges, a->nranges,
				      sizeof(*a->ranges), err);
	if (st != PGW_OK)
		return st;
	a->ranges[a->nranges++] = *r;
	return PGW_OK;
}

static enum pgw_status parse(struct pgw_image *img, struct avml *a,
			     uint64_t *ncompressed_ret, struct pgw_err *err)
{
	const struct pgw_source *src = &img->src;
	uint64_t off = 0, n = 0;
	enum pgw_status st;

	*ncompressed_ret = 0;
	while (off < src->size) {
		struct pgw_lime_header h;
		struct range r = { 0 };
		bool cut = false;

		if (src->size - off < PGW_LIME_HEADER_SIZE) {
			pgw_image_add_fact(img, "incomplete",
					   "%llu stray bytes after range %llu",
					   (unsigned long long)(src->size - off),
					   (unsigned long long)n);
			break;
		}
		st = pgw_lime_header_read(src, off, &h, err);
		if (st != PGW_OK)
			return st;
		r.pa = h.start;
		r.size = h.size;
		r.data = off + PGW_LIME_HEADER_SIZE;
		if (h.magic == PGW_AVML_MAGIC && h.version == 2) {
			uint64_t end = 0;
			r.compressed = true;
			st = index_range(src, a, &r, &end, &cut, err);
			if (st != PGW_OK)
				return pgw_err_prefix(err, "range %llu",
						      (unsigned long long)n);
			if (!cut && src->size - end < 8) {
				cut = true;
			} else if (!cut) {
				uint8_t t[8];
				st = pgw_source_read(src, end, t, 8, err);
				if (st != PGW_OK)
					return st;
				if (pgw_le64(t) != end - r.data)
					return pgw_err_set(
						err, PGW_E_FORMAT,
						"range %llu: trailer says "
						"%llu bytes of snappy data, "
						"found %llu",
						(unsigned long long)n,
						(unsigned long long)pgw_le64(t),
						(unsigned long long)(end -
								     r.data));
				off = end + 8;
			}
			++*ncompressed_ret;
		} else if (h.magic == PGW_LIME_MAGIC && h.version == 1) {
			uint64_t have = src->size - r.data;
			r.avail = h.size < have ? h.size : have;
			cut = h.size > have;
			off = r.data + r.avail;
		} else {
			return pgw_err_set(err, PGW_E_FORMAT,
					   "range %llu at 0x%llx: magic 0x%08x "
					   "version %u is neither AVML 2 nor "
					   "LiME 1", (unsigned long long)n,
					   (unsigned long long)off, h.magic,
					   h.version);
		}
		if (cut)
			pgw_image_add_fact(img, "incomplete",
					   "the file ends inside range %llu "
					   "(0x%llx): 0x%llx of 0x%llx bytes "
					   "present", (unsigned long long)n,
					   (unsigned long long)r.pa,
					   (unsigned long long)r.avail,
					   (unsigned long long)r.size);
		st = add_range(a, &r, err);
		if (st != PGW_OK)
			return st;
		n++;
		if (cut)
			break;
	}
	if (a->nranges == 0)
		return pgw_err_set(err, PGW_E_FORMAT, "no ranges");
	return PGW_OK;
}

static enum pgw_status avml_open(struct pgw_image *img, struct pgw_err *err)
{
	struct avml *a;
	uint64_t ncompressed;
	enum pgw_status st;

	a = calloc(1, sizeof(*a));
	if (!a)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	img->priv = a;
	for (unsigned i = 0; i < NCACHE; i++)
		a->cache[i].pos = UINT64_MAX;
	st = parse(img, a, &ncompressed, err);
	if (st != PGW_OK)
		return st;
	if (ncompressed) {
		st = pgw_codec_require(PGW_CODEC_SNAPPY, err);
		if (st != PGW_OK)
			return st;
		a->codecs = pgw_codecs_new();
		a->cbuf = malloc(CCHUNK_MAX);
		for (unsigned i = 0; i < NCACHE; i++)
			a->cache[i].data = malloc(CHUNK_MAX);
		if (!a->codecs || !a->cbuf)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		for (unsigned i = 0; i < NCACHE; i++)
			if (!a->cache[i].data)
				return pgw_err_set(err, PGW_E_NOMEM,
						   "out of memory");
	}
	/* Each range names its slice of a->cps, so sorting keeps them. */
	qsort(a->ranges, a->nranges, sizeof(*a->ranges), range_cmp);
	for (size_t i = 0; i < a->nranges; i++) {
		const struct range *r = &a->ranges[i];
		/* Sorted, so r->pa >= the previous start; the difference
		 * cannot wrap where an end address could. */
		if (i && r->pa - a->ranges[i - 1].pa < a->ranges[i - 1].size)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "ranges overlap at physical 0x%llx",
					   (unsigned long long)r->pa);
		st = pgw_image_add_range(img, r->pa, r->size, err);
		if (st != PGW_OK)
			return st;
	}
	pgw_image_add_fact(img, "avml_ranges", "%zu (%llu snappy-compressed)",
			   a->nranges, (unsigned long long)ncompressed);
	img->zero_copy = false;
	return PGW_OK;
}

/* The range describing pa (its bytes may be cut short), or NULL. */
static const struct range *find_range(struct avml *a, uint64_t pa)
{
	const struct range *r = &a->ranges[a->last];
	size_t lo = 0, hi = a->nranges;

	if (pa >= r->pa && pa - r->pa < r->size)
		return r;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		r = &a->ranges[mid];
		if (pa < r->pa)
			hi = mid;
		else if (pa - r->pa >= r->size)
			lo = mid + 1;
		else {
			a->last = mid;
			return r;
		}
	}
	return NULL;
}

/* The first range that ends above pa, or nranges. */
static size_t range_from(const struct avml *a, uint64_t pa)
{
	size_t lo = 0, hi = a->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct range *r = &a->ranges[mid];
		if (pa >= r->pa && pa - r->pa >= r->size)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The chunk of r holding decoded offset in. */
static enum pgw_status find_chunk(const struct pgw_source *src,
				  const struct avml *a, const struct range *r,
				  uint64_t in, struct chunk *c, uint64_t *ustart,
				  struct pgw_err *err)
{
	size_t lo = 0, hi = r->ncp;
	const struct checkpoint *cp = &a->cps[r->first_cp];

	/* Last checkpoint at or before in. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (cp[mid].ustart <= in)
			lo = mid;
		else
			hi = mid;
	}
	uint64_t pos = cp[lo].pos, u = cp[lo].ustart;
	for (;;) {
		enum pgw_status st = read_chunk(src, pos, c, err);
		if (st != PGW_OK)
			return st;
		if (c->ulen && in - u < c->ulen) {
			*ustart = u;
			return PGW_OK;
		}
		u += c->ulen;
		pos += 4 + (uint64_t)c->len;
	}
}

static uint32_t unmask_crc(uint32_t masked)
{
	uint32_t rot = masked - 0xa282ead8u;

	return rot >> 17 | rot << 15;
}

static enum pgw_status decode_chunk(const struct pgw_source *src,
				    struct avml *a, const struct chunk *c,
				    const uint8_t **data_ret,
				    struct pgw_err *err)
{
	for (unsigned i = 0; i < NCACHE; i++)
		if (a->cache[i].pos == c->pos) {
			*data_ret = a->cache[i].data;
			return PGW_OK;
		}
	struct cached *slot = &a->cache[a->next];
	const uint8_t *p;
	enum pgw_status st;

	a->next = (a->next + 1) % NCACHE;
	slot->pos = UINT64_MAX;
	st = pgw_source_get(src, c->pos + 4, c->len, a->cbuf, &p, err);
	if (st != PGW_OK)
		return st;
	if (c->type == CH_COMPRESSED)
		st = pgw_decompress(a->codecs, PGW_CODEC_SNAPPY, p + 4,
				    c->len - 4, slot->data, c->ulen, err);
	else
		memcpy(slot->data, p + 4, c->ulen);
	/* A chunk that does not decode damages its pages, not the image. */
	if (st == PGW_E_FORMAT) {
		pgw_err_prefix(err, "snappy chunk at 0x%llx",
			       (unsigned long long)c->pos);
		return pgw_err_as_nodata(err, PGW_ABSENT_CORRUPT);
	}
	if (st != PGW_OK)
		return pgw_err_prefix(err, "snappy chunk at 0x%llx",
				      (unsigned long long)c->pos);
	uint32_t want = unmask_crc(pgw_le32(p));
	uint32_t got = pgw_crc32c(slot->data, c->ulen);
	if (got != want)
		return pgw_err_nodata(err, PGW_ABSENT_CORRUPT,
				      "snappy chunk at 0x%llx: CRC-32C 0x%08x, "
				      "expected 0x%08x",
				      (unsigned long long)c->pos, got, want);
	slot->pos = c->pos;
	slot->ulen = c->ulen;
	*data_ret = slot->data;
	return PGW_OK;
}

static enum pgw_status copy_out(struct pgw_image *img, struct avml *a,
				const struct range *r, uint64_t in, uint8_t *out,
				size_t n, struct pgw_err *err)
{
	if (!r->compressed)
		return pgw_source_read(&img->src, r->data + in, out, n, err);
	while (n) {
		struct chunk c;
		uint64_t ustart = 0;
		const uint8_t *data = NULL;
		enum pgw_status st = find_chunk(&img->src, a, r, in, &c,
						&ustart, err);
		if (st == PGW_E_FORMAT)
			st = pgw_err_as_nodata(err, PGW_ABSENT_CORRUPT);
		if (st == PGW_OK)
			st = decode_chunk(&img->src, a, &c, &data, err);
		if (st != PGW_OK)
			return st;
		/* find_chunk guarantees in < ustart + ulen: k >= 1. */
		size_t k = (size_t)(ustart + c.ulen - in);
		if (k > n)
			k = n;
		memcpy(out, data + (in - ustart), k);
		out += k;
		in += k;
		n -= k;
	}
	return PGW_OK;
}

/* Why the byte at pa is not in the image, or NONE. */
static enum pgw_absence byte_state(const struct range *r, uint64_t pa)
{
	if (!r)
		return PGW_ABSENT_OUTSIDE;
	return pa - r->pa < r->avail ? PGW_ABSENT_NONE : PGW_ABSENT_TRUNCATED;
}

static enum pgw_status absent(const struct range *r, uint64_t pa,
			      struct pgw_err *err)
{
	if (byte_state(r, pa) == PGW_ABSENT_OUTSIDE)
		return pgw_err_nodata(err, PGW_ABSENT_OUTSIDE,
				      "physical 0x%llx is not in the image",
				      (unsigned long long)pa);
	return pgw_err_nodata(err, PGW_ABSENT_TRUNCATED,
			      "physical 0x%llx: the file ends inside its "
			      "range (0x%llx of 0x%llx bytes present): "
			      "truncated", (unsigned long long)pa,
			      (unsigned long long)r->avail,
			      (unsigned long long)r->size);
}

/*
 * Why the page at pa is not in the image (NONE: every byte comes from a
 * range that holds it), and the first byte with that reason: truncated
 * wins over outside, the more telling.
 */
static enum pgw_absence page_why(struct avml *a, uint64_t pa,
				 uint64_t *at_ret)
{
	uint64_t done = 0;
	enum pgw_absence why = PGW_ABSENT_NONE;

	while (done < PGW_PAGE_SIZE) {
		const struct range *r = find_range(a, pa + done);
		enum pgw_absence b = byte_state(r, pa + done);
		uint64_t n;
		if (r) {
			uint64_t in = pa + done - r->pa;
			uint64_t lim = b == PGW_ABSENT_NONE ? r->avail : r->size;
			n = lim - in;
		} else {
			size_t i = range_from(a, pa + done);
			n = i < a->nranges ? a->ranges[i].pa - (pa + done)
					   : PGW_PAGE_SIZE;
		}
		if (b != PGW_ABSENT_NONE &&
		    (why == PGW_ABSENT_NONE || why == PGW_ABSENT_OUTSIDE)) {
			why = b;
			*at_ret = pa + done;
		}
		if (n >= PGW_PAGE_SIZE - done)
			break;
		done += n;
	}
	return why;
}

static enum pgw_absence avml_page_state(struct pgw_image *img, uint64_t pfn)
{
	uint64_t at;

	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return PGW_ABSENT_OUTSIDE;
	return page_why(img->priv, pfn << PGW_PAGE_SHIFT, &at);
}

static enum pgw_status avml_page(struct pgw_image *img, uint64_t pfn,
				 uint8_t *buf, const uint8_t **page_ret,
				 struct pgw_err *err)
{
	struct avml *a = img->priv;
	uint64_t pa = pfn << PGW_PAGE_SHIFT;
	size_t done = 0;

	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return absent(NULL, pa, err);
	uint64_t at;
	if (page_why(a, pa, &at) != PGW_ABSENT_NONE)
		return absent(find_range(a, at), at, err);
	while (done < PGW_PAGE_SIZE) {
		const struct range *r = find_range(a, pa + done);
		uint64_t in = pa + done - r->pa;
		size_t n = PGW_PAGE_SIZE - done;
		if (n > r->avail - in)
			n = (size_t)(r->avail - in);
		enum pgw_status st = copy_out(img, a, r, in, buf + done, n,
					      err);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "physical 0x%llx",
					      (unsigned long long)(pa + done));
		done += n;
	}
	*page_ret = buf;
	return PGW_OK;
}

/*
 * Whole pages from pfn on in a gap before the next range or in the cut part
 * of one.  A cut range claims its size in a header the file still holds
 * (2^62 bytes, if hostile) while its stream stopped long before.
 */
static uint64_t avml_unheld_run(struct pgw_image *img, uint64_t pfn,
				bool *zero_ret)
{
	struct avml *a = img->priv;
	uint64_t pa = pfn << PGW_PAGE_SHIFT;

	*zero_ret = false;    /* ranges AVML left out as zero are unknown */
	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return 0;
	size_t i = range_from(a, pa);
	if (i == a->nranges)
		return 0;
	const struct range *r = &a->ranges[i];
	if (pa < r->pa)
		return (r->pa >> PGW_PAGE_SHIFT) - pfn;
	uint64_t in = pa - r->pa;
	return in < r->avail ? 0 : (r->size - in) >> PGW_PAGE_SHIFT;
}

static void add_bytes(uint64_t counts[PGW_NABSENCES], enum pgw_absence why,
		      uint64_t first, uint64_t last)
{
	counts[why] += last - first + 1;
}

/* Like the segment formats: whole pages of one range part or of a gap in
 * bulk, pages that straddle one at a time. */
static void avml_absent_bytes(struct pgw_image *img, uint64_t pa,
			      uint64_t last, uint64_t counts[PGW_NABSENCES])
{
	struct avml *a = img->priv;
	uint64_t x = pa;

	for (;;) {
		uint64_t pg = x & ~(PGW_PAGE_SIZE - 1);
		size_t i = range_from(a, pg);
		const struct range *r = i < a->nranges ? &a->ranges[i] : NULL;
		uint64_t stop = pg + (PGW_PAGE_SIZE - 1);
		enum pgw_absence why;
		if (r && pg >= r->pa) {
			/* Inside r: its present part, then its cut part. */
			uint64_t in = pg - r->pa;
			uint64_t part_end = in < r->avail ? r->avail : r->size;
			uint64_t whole = (part_end - in) & ~(PGW_PAGE_SIZE - 1);
			why = in < r->avail ? PGW_ABSENT_NONE
					    : PGW_ABSENT_TRUNCATED;
			if (whole)
				stop = pg + (whole - 1);
			else
				why = avml_page_state(img,
						      pg >> PGW_PAGE_SHIFT);
		} else if (!r || r->pa - pg >= PGW_PAGE_SIZE) {
			why = PGW_ABSENT_OUTSIDE;
			stop = r ? (r->pa & ~(PGW_PAGE_SIZE - 1)) - 1
				 : UINT64_MAX;
		} else {
			why = avml_page_state(img, pg >> PGW_PAGE_SHIFT);
		}
		add_bytes(counts, why, x, stop < last ? stop : last);
		if (stop >= last)
			return;
		x = stop + 1;
	}
}

static void avml_evidence(struct pgw_image *img, struct pgw_evidence *ev)
{
	struct avml *a = img->priv;
	uint64_t counts[PGW_NABSENCES] = { 0 };
	uint64_t next = 0;
	bool any = false;

	for (size_t i = 0; i < a->nranges; i++) {
		const struct range *r = &a->ranges[i];
		uint64_t first = r->pa >> PGW_PAGE_SHIFT;
		uint64_t lastp = (r->pa + (r->size - 1)) >> PGW_PAGE_SHIFT;
		if (any && first < next)
			first = next;
		if (any && first > lastp)
			continue;
		avml_absent_bytes(img, first << PGW_PAGE_SHIFT,
				  (lastp << PGW_PAGE_SHIFT) +
					  (PGW_PAGE_SIZE - 1),
				  counts);
		any = true;
		next = lastp + 1;
		if (r->avail < r->size)
			/* The cut stream's own length was never written:
			 * at least its 8-byte trailer is missing. */
			ev->file_bytes_missing += r->compressed ?
				8 : r->size - r->avail;
	}
	for (size_t k = 0; k < PGW_NABSENCES; k++) {
		uint64_t pages = counts[k] >> PGW_PAGE_SHIFT;
		ev->pages_ram += pages;
		if (k == PGW_ABSENT_NONE)
			ev->pages_dumped += pages;
		else
			ev->pages_absent[k] += pages;
	}
}

static uint64_t avml_held_pages(const struct pgw_image *img)
{
	const struct avml *a = img->priv;
	uint64_t bytes = 0;

	for (size_t i = 0; i < a->nranges; i++)
		bytes += a->ranges[i].avail;
	return (bytes + PGW_PAGE_SIZE - 1) >> PGW_PAGE_SHIFT;
}

static void avml_close(struct pgw_image *img)
{
	struct avml *a = img->priv;

	for (unsigned i = 0; i < NCACHE; i++)
		free(a->cache[i].data);
	pgw_codecs_free(a->codecs);
	free(a->cbuf);
	free(a->ranges);
	free(a->cps);
	free(a);
	img->priv = NULL;
}

const struct pgw_format pgw_format_avml = {
	.name = "avml",
	.probe = avml_probe,
	.open = avml_open,
	.page = avml_page,
	.page_state = avml_page_state,
	.absent_bytes = avml_absent_bytes,
	.evidence = avml_evidence,
	.unheld_run = avml_unheld_run,
	.held_pages = avml_held_pages,
	.close = avml_close,
};
