/*
 * Writers of dump formats for tests: kdump compressed (both header
 * layouts, every codec, filtered pages, shared zero pages), makedumpfile's
 * flattened wrapping, LiME and AVML, all from one synthetic physical memory.
 * Written from the format descriptions (see the src/formats/ readers and
 * docs/formats.md), independently of the readers: the CRC here is the
 * bitwise textbook one, the rank of a page is counted, not looked up.
 *
 * Images are built in memory (struct dw_buf) so tests can corrupt them
 * before writing them out.
 */
#ifndef PGW_DUMPWRITER_H
#define PGW_DUMPWRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "config.h"   /* PGW_HAVE_<CODEC> */

#ifdef PGW_HAVE_LZO
#include <lzo/lzo1x.h>
#endif
#ifdef PGW_HAVE_SNAPPY
#include <snappy-c.h>
#endif
#ifdef PGW_HAVE_ZSTD
#include <zstd.h>
#endif

#define DW_API static __attribute__((unused))
#define DW_PAGE 4096u

/* ---- growable byte buffer ---- */

struct dw_buf {
	uint8_t *p;
	size_t len, cap;
};

DW_API void dw_reserve(struct dw_buf *b, size_t len)
{
	if (len <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < len)
		cap *= 2;
	b->p = realloc(b->p, cap);
	if (!b->p) {
		perror("dumpwriter");
		exit(99);
	}
	memset(b->p + b->cap, 0, cap - b->cap);
	b->cap = cap;
}

/* Make the buffer at least len bytes long (zero filled). */
DW_API void dw_grow(struct dw_buf *b, size_t len)
{
	dw_reserve(b, len);
	if (b->len < len)
		b->len = len;
}

DW_API void dw_put(struct dw_buf *b, size_t off, const void *p, size_t n)
{
	dw_grow(b, off + n);
	memcpy(b->p + off, p, n);
}

DW_API void dw_append(struct dw_buf *b, const void *p, size_t n)
{
	dw_put(b, b->len, p, n);
}

DW_API void dw_le(struct dw_buf *b, size_t off, uint64_t v, unsigned n)
{
	uint8_t t[8];
	for (unsigned i = 0; i < n; i++)
		t[i] = (uint8_t)(v >> (8 * i));
	dw_put(b, off, t, n);
}

DW_API void dw_be64(struct dw_buf *b, size_t off, uint64_t v)
{
	uint8_t t[8];
	for (unsigned i = 0; i < 8; i++)
		t[i] = (uint8_t)(v >> (56 - 8 * i));
	dw_put(b, off, t, 8);
}

DW_API void dw_free(struct dw_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

DW_API int dw_save(const struct dw_buf *b, const char *path)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t n = fwrite(b->p, 1, b->len, f);
	return (fclose(f) == 0 && n == b->len) ? 0 : -1;
}

/* ---- synthetic physical memory ---- */

enum dw_page_kind {
	DW_RAM = 0,        /* dumped */
	DW_FILTERED,       /* RAM left out by filtering (dump level) */
	DW_HOLE,           /* not RAM: no bit in the 1st bitmap, no range */
};

struct dw_mem {
	uint8_t *data;               /* npages * DW_PAGE */
	uint64_t npages;
	uint8_t *kind;               /* enum dw_page_kind per page */
};

DW_API bool dw_page_zero(const struct dw_mem *m, uint64_t pfn)
{
	static const uint8_t zero[DW_PAGE];
	return memcmp(m->data + pfn * DW_PAGE, zero, DW_PAGE) == 0;
}

static inline uint64_t dw_rand(uint64_t *s)
{
	/* xorshift64*: deterministic content, no libc state. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/*
 * Layout of the synthetic memory (4 KiB pages):
 *   pfn 1          PML4 (CR3 = 0x1000); tables are taken from pfn 2 up
 *   pfn 64..       data: random (incompressible) when pfn % 4 == 1, zero
 *                  when pfn % 11 == 0, else a compressible pattern
 * Mappings (x86-64, 4-level):
 *   0x400000 + i*4K, i < 64          4 KiB pages -> pfn 256 + 2*i
 *   0x40000000                       2 MiB page  -> 0x600000
 *   0xffff888000000000 + n*2M        2 MiB pages -> the first 16 MiB
 *   0xffffc00000000000               1 GiB page  -> 0
 *   0x7f0000000000 + i*4K, i < 8     4 KiB pages through a page table that
 *                                    `dw_synth_filter_table` names
 */
struct dw_synth {
	uint64_t cr3;
	uint64_t filtered_table_pfn;   /* a leaf table for filtering tests */
	uint64_t filtered_table_va;    /* a VA translated through it */
	uint64_t next_table;
};

static inline uint64_t *dw_entry(const struct dw_mem *m, uint64_t table_pfn,
				 unsigned idx)
{
	return (uint64_t *)(m->data + table_pfn * DW_PAGE) + idx;
}

/* Table below entry e (allocating one if empty). */
static inline uint64_t dw_next(struct dw_synth *s, uint64_t *e)
{
	if (!(*e & 1)) {
		uint64_t pfn = s->next_table++;
		*e = pfn << 12 | 0x67;  /* P RW US A D */
	}
	return (*e >> 12) & 0xffffffffff;
}

DW_API void dw_map(struct dw_mem *m, struct dw_synth *s, uint64_t va,
		   uint64_t pa, int level /* 1: 4K, 2: 2M, 3: 1G */)
{
	uint64_t t = s->cr3 >> 12;
	for (int lvl = 4; lvl > level; lvl--) {
		unsigned idx = (va >> (12 + 9 * (lvl - 1))) & 511;
		t = dw_next(s, dw_entry(m, t, idx));
	}
	unsigned idx = (va >> (12 + 9 * (level - 1))) & 511;
	*dw_entry(m, t, idx) = pa | 0x63 | (level > 1 ? 0x80 : 0) |
			       (va >> 63 ? 0 : 4);
}

DW_API void dw_synth_mem(struct dw_mem *m, uint64_t npages, uint64_t seed,
			 struct dw_synth *s)
{
	m->npages = npages;
	m->data = calloc(npages, DW_PAGE);
	m->kind = calloc(npages, 1);
	if (!m->data || !m->kind) {
		perror("dumpwriter");
		exit(99);
	}
	for (uint64_t pfn = 64; pfn < npages; pfn++) {
		uint64_t *w = (uint64_t *)(m->data + pfn * DW_PAGE);
		uint64_t r = seed ^ (pfn * UINT64_C(0x9e3779b97f4a7c15)) ^ 1;
		if (pfn % 11 == 0)
			continue;
		for (unsigned i = 0; i < DW_PAGE / 8; i++)
			w[i] = pfn % 4 == 1 ? dw_rand(&r) :
					      (pfn << 16 | (i % 7));
	}
	memset(s, 0, sizeof(*s));
	s->cr3 = 0x1000;
	s->next_table = 2;
	for (unsigned i = 0; i < 64; i++)
		dw_map(m, s, 0x400000 + i * 4096ull, (256 + 2 * i) * 4096ull, 1);
	dw_map(m, s, 0x40000000ull, 0x600000, 2);
	for (uint64_t pa = 0; pa < npages * DW_PAGE; pa += 0x200000)
		dw_map(m, s, 0xffff888000000000ull + pa, pa, 2);
	dw_map(m, s, 0xffffc00000000000ull, 0, 3);
	for (unsigned i = 0; i < 8; i++)
		dw_map(m, s, 0x7f0000000000ull + i * 4096ull,
		       (300 + i) * 4096ull, 1);
	/* The last table allocated is the leaf table of 0x7f0000000000. */
	s->filtered_table_pfn = s->next_table - 1;
	s->filtered_table_va = 0x7f0000000000ull + 0x123;
}

/*
 * Typical filtering (like makedumpfile -d 31 on user and free pages):
 * every third data page from pfn 256, and the table of filtered_table_va;
 * page tables otherwise stay.  A hole of 16 pages near the top.
 */
DW_API void dw_synth_filter(struct dw_mem *m, const struct dw_synth *s,
			    bool holes)
{
	for (uint64_t pfn = 256; pfn < m->npages; pfn++)
		if (pfn % 3 == 0)
			m->kind[pfn] = DW_FILTERED;
	m->kind[s->filtered_table_pfn] = DW_FILTERED;
	if (holes && m->npages > 64)
		for (uint64_t pfn = m->npages - 48; pfn < m->npages - 32; pfn++)
			m->kind[pfn] = DW_HOLE;
}

/* ---- kdump compressed ---- */

enum dw_codec { DW_NONE, DW_ZLIB, DW_LZO, DW_SNAPPY, DW_ZSTD };

static const struct {
	const char *name;
	unsigned flag;       /* DUMP_DH_COMPRESSED_* */
	bool built;
} dw_codecs[] = {
	[DW_NONE] = { "none", 0, true },
	[DW_ZLIB] = { "zlib", 0x1, true },
#ifdef PGW_HAVE_LZO
	[DW_LZO] = { "lzo", 0x2, true },
#else
	[DW_LZO] = { "lzo", 0x2, false },
#endif
#ifdef PGW_HAVE_SNAPPY
	[DW_SNAPPY] = { "snappy", 0x4, true },
#else
	[DW_SNAPPY] = { "snappy", 0x4, false },
#endif
#ifdef PGW_HAVE_ZSTD
	[DW_ZSTD] = { "zstd", 0x20, true },
#else
	[DW_ZSTD] = { "zstd", 0x20, false },
#endif
};

/* Compress one page; returns the size, or 0 to store it whole. */
/* len bytes of in compressed with c into out (cap bytes): the length,
 * 0 when it does not fit or c is none. */
DW_API size_t dw_compress_len(enum dw_codec c, const uint8_t *in, size_t len,
			      uint8_t *out, size_t cap)
{
	switch (c) {
	case DW_ZLIB: {
		uLongf n = cap;
		if (compress2(out, &n, in, len, 1) != Z_OK)
			return 0;
		return n;
	}
#ifdef PGW_HAVE_LZO
	case DW_LZO: {
		static uint8_t wrk[LZO1X_1_MEM_COMPRESS];
		lzo_uint n = cap;
		if (lzo_init() != LZO_E_OK ||
		    lzo1x_1_compress(in, len, out, &n, wrk) != LZO_E_OK)
			return 0;
		return n;
	}
#endif
#ifdef PGW_HAVE_SNAPPY
	case DW_SNAPPY: {
		size_t n = cap;
		if (snappy_compress((const char *)in, len, (char *)out,
				    &n) != SNAPPY_OK)
			return 0;
		return n;
	}
#endif
#ifdef PGW_HAVE_ZSTD
	case DW_ZSTD: {
		static ZSTD_CCtx *cctx;
		if (!cctx)
			cctx = ZSTD_createCCtx();
		size_t n = ZSTD_compressCCtx(cctx, out, cap, in, len, 1);
		return ZSTD_isError(n) ? 0 : n;
	}
#endif
	default:
		return 0;
	}
}

/* A page compressed with c (dw_compress_len of DW_PAGE bytes). */
DW_API size_t dw_compress(enum dw_codec c, const uint8_t *in, uint8_t *out,
			  size_t cap)
{
	return dw_compress_len(c, in, DW_PAGE, out, cap);
}

struct dw_kdump_opts {
	enum dw_codec codec;
	int layout;                /* 64 (LP64 writer, QEMU) or 32 (i386) */
	uint32_t header_version;   /* 6 unless testing older ones */
	int dump_level;
	bool exclude_zero;         /* zero pages not dumped (level bit 1) */
	bool share_zero;           /* zero pages share one descriptor */
	const char *machine;       /* utsname.machine */
	const uint8_t *notes;      /* ELF notes for the sub-header, or NULL */
	size_t notes_len;
	const char *vmcoreinfo;    /* text at offset_vmcoreinfo, or NULL */
	bool split;
	uint64_t split_start, split_end;  /* pfns [start, end) in this file */
	unsigned block_pages;      /* 4 KiB pages a block (a kdump pfn) holds:
				      1 (0 too), or 4 as makedumpfile of a
				      16K kernel writes; split and the
				      pfns above count blocks */
};

/* Where things ended up, for tests that corrupt them. */
struct dw_kdump_info {
	size_t status_off;         /* disk_dump_header.status */
	size_t max_mapnr_off;      /* its 32-bit max_mapnr */
	size_t sub_off;
	size_t max_mapnr64_off;
	size_t bitmap_blocks_off;
	size_t bitmap1, bitmap2, desc_off, data_off;
	uint64_t ndumped;
	size_t bitmap_len;         /* each */
};

DW_API int dw_kdump_dumped(const struct dw_mem *m,
			   const struct dw_kdump_opts *o, uint64_t pfn)
{
	if (m->kind[pfn] != DW_RAM)
		return 0;
	if (o->split && (pfn < o->split_start || pfn >= o->split_end))
		return 0;
	if (o->exclude_zero && dw_page_zero(m, pfn))
		return 0;
	return 1;
}

/* Block blk (of bp pages) is dumped: RAM (its first page; RAM ranges
 * are whole blocks), in this file's part, and not all zeros when zero
 * pages are left out. */
DW_API int dw_kdump_block_dumped(const struct dw_mem *m,
				 const struct dw_kdump_opts *o, uint64_t blk,
				 unsigned bp)
{
	uint64_t first = blk * bp;

	if (bp == 1)
		return dw_kdump_dumped(m, o, blk);
	if (m->kind[first] != DW_RAM)
		return 0;
	if (o->split && (blk < o->split_start || blk >= o->split_end))
		return 0;
	if (!o->exclude_zero)
		return 1;
	for (unsigned i = 0; i < bp && first + i < m->npages; i++)
		if (!dw_page_zero(m, first + i))
			return 1;
	return 0;
}

DW_API void dw_write_kdump(struct dw_buf *b, const struct dw_mem *m,
			   const struct dw_kdump_opts *o,
			   struct dw_kdump_info *info)
{
	bool l64 = o->layout != 32;
	unsigned status = l64 ? 424 : 412;
	unsigned sub_size = l64 ? 104 : 80, ls = l64 ? 8 : 4;
	uint32_t version = o->header_version ? o->header_version : 6;
	unsigned bp = o->block_pages ? o->block_pages : 1;
	size_t bs = (size_t)DW_PAGE * bp;
	uint64_t nblk = (m->npages + bp - 1) / bp;
	struct dw_kdump_info in;

	memset(&in, 0, sizeof(in));
	memset(b, 0, sizeof(*b));
	/* Sub-header and notes share the sub-header blocks. */
	size_t vmci_len = o->vmcoreinfo ? strlen(o->vmcoreinfo) : 0;
	size_t sub_bytes = sub_size + o->notes_len + vmci_len;
	size_t sub_blocks = (sub_bytes + bs - 1) / bs;
	size_t bitmap_len = ((nblk + 7) / 8 + bs - 1) / bs * bs;
	in.bitmap1 = (1 + sub_blocks) * bs;
	in.bitmap2 = in.bitmap1 + bitmap_len;
	in.desc_off = in.bitmap2 + bitmap_len;
	in.bitmap_len = bitmap_len;
	for (uint64_t pfn = 0; pfn < nblk; pfn++)
		in.ndumped += dw_kdump_block_dumped(m, o, pfn, bp);
	in.data_off = in.desc_off + in.ndumped * 24;

	/* disk_dump_header */
	dw_put(b, 0, "KDUMP   ", 8);
	dw_le(b, 8, version, 4);
	dw_put(b, 12, "Linux", 5);
	dw_put(b, 12 + 2 * 65, "6.1.0-synthetic", 15);
	if (o->machine)
		dw_put(b, 12 + 4 * 65, o->machine, strlen(o->machine));
	in.status_off = status;
	dw_le(b, status, dw_codecs[o->codec].flag, 4);
	dw_le(b, status + 4, bs, 4);
	dw_le(b, status + 8, sub_blocks, 4);
	in.bitmap_blocks_off = status + 12;
	dw_le(b, status + 12, 2 * bitmap_len / bs, 4);
	in.max_mapnr_off = status + 16;
	dw_le(b, status + 16, nblk > 0xffffffffu ? 0xffffffffu : nblk, 4);
	dw_le(b, status + 20, in.ndumped, 4);
	dw_le(b, status + 36, 1, 4);                 /* nr_cpus */

	/* kdump_sub_header: field offsets of the writer's ABI */
	size_t s = bs;
	in.sub_off = s;
	size_t o_dl = l64 ? 8 : 4, o_split = l64 ? 12 : 8;
	size_t o_sp = l64 ? 16 : 12, o_ep = l64 ? 24 : 16;
	size_t o_vo = l64 ? 32 : 20, o_vs = l64 ? 40 : 28;
	size_t o_no = l64 ? 48 : 32, o_ns = l64 ? 56 : 40;
	size_t o_s64 = l64 ? 80 : 56, o_e64 = l64 ? 88 : 64;
	size_t o_m64 = l64 ? 96 : 72;
	dw_le(b, s, 0x1000000, ls);                  /* phys_base */
	dw_le(b, s + o_dl, (uint64_t)o->dump_level, 4);
	if (o->split) {
		dw_le(b, s + o_split, 1, 4);
		dw_le(b, s + o_sp, o->split_start, ls);
		dw_le(b, s + o_ep, o->split_end, ls);
		dw_le(b, s + o_s64, o->split_start, 8);
		dw_le(b, s + o_e64, o->split_end, 8);
	}
	in.max_mapnr64_off = s + o_m64;
	dw_le(b, s + o_m64, nblk, 8);
	size_t pos = s + sub_size;
	if (o->notes_len) {
		dw_le(b, s + o_no, pos, 8);
		dw_le(b, s + o_ns, o->notes_len, ls);
		dw_put(b, pos, o->notes, o->notes_len);
		pos += o->notes_len;
	}
	if (vmci_len) {
		dw_le(b, s + o_vo, pos, 8);
		dw_le(b, s + o_vs, vmci_len, ls);
		dw_put(b, pos, o->vmcoreinfo, vmci_len);
	}

	/* bitmaps, descriptors, data */
	dw_grow(b, in.data_off);
	uint64_t idx = 0, data = in.data_off, zero_off = 0;
	bool have_zero = false;
	uint8_t *cbuf = malloc(2 * bs + 1024);
	/* A block's bytes (the last one padded with zeros). */
	uint8_t *blk = calloc(1, bs);
	for (uint64_t pfn = 0; pfn < nblk; pfn++) {
		if (m->kind[pfn * bp] != DW_HOLE)
			b->p[in.bitmap1 + pfn / 8] |= (uint8_t)(1u << (pfn % 8));
		if (!dw_kdump_block_dumped(m, o, pfn, bp))
			continue;
		b->p[in.bitmap2 + pfn / 8] |= (uint8_t)(1u << (pfn % 8));
		uint64_t in_mem = m->npages - pfn * bp < bp ?
					  m->npages - pfn * bp : bp;
		memset(blk, 0, bs);
		memcpy(blk, m->data + pfn * bs, in_mem * DW_PAGE);
		const uint8_t *page = blk;
		size_t d = in.desc_off + idx++ * 24;
		static const uint8_t zero[DW_PAGE];
		bool all_zero = true;
		for (unsigned i = 0; i < bp && all_zero; i++)
			all_zero = memcmp(blk + (size_t)i * DW_PAGE, zero,
					  DW_PAGE) == 0;
		if (o->share_zero && all_zero) {
			if (!have_zero) {
				zero_off = data;
				dw_put(b, data, page, bs);
				data += bs;
				have_zero = true;
			}
			dw_le(b, d, zero_off, 8);
			dw_le(b, d + 8, bs, 4);
			continue;
		}
		size_t n = dw_compress_len(o->codec, page, bs, cbuf,
					   2 * bs + 1024);
		if (n == 0 || n >= bs) {
			dw_le(b, d, data, 8);
			dw_le(b, d + 8, bs, 4);
			dw_put(b, data, page, bs);
			data += bs;
		} else {
			dw_le(b, d, data, 8);
			dw_le(b, d + 8, n, 4);
			dw_le(b, d + 12, dw_codecs[o->codec].flag, 4);
			dw_put(b, data, cbuf, n);
			data += n;
		}
	}
	free(cbuf);
	free(blk);
	if (info)
		*info = in;
}

/* ---- makedumpfile flattened ---- */

struct dw_flat_opts {
	size_t rec_size;       /* split the stream into records this big */
	bool reverse;          /* emit records last first (goes backwards) */
	bool skip_gap;         /* leave [464, 4096) unwritten, as makedumpfile */
	bool overlap;          /* a garbage record over [4096, 8192), written
				  first and overwritten by the real ones */
	bool no_end;           /* omit the end marker */
};

DW_API void dw_flat_record(struct dw_buf *out, uint64_t off, const void *p,
			   uint64_t n)
{
	size_t h = out->len;
	dw_be64(out, h, off);
	dw_be64(out, h + 8, n);
	dw_append(out, p, n);
}

DW_API void dw_flatten(struct dw_buf *out, const struct dw_buf *in,
		       const struct dw_flat_opts *o)
{
	size_t rs = o->rec_size ? o->rec_size : 65536;
	size_t nrec = (in->len + rs - 1) / rs;

	memset(out, 0, sizeof(*out));
	dw_put(out, 0, "makedumpfile", 12);
	dw_be64(out, 16, 1);     /* type */
	dw_be64(out, 24, 1);     /* version */
	dw_grow(out, 4096);
	if (o->overlap && in->len >= 8192) {
		uint8_t junk[4096];
		memset(junk, 0xa5, sizeof(junk));
		dw_flat_record(out, 4096, junk, sizeof(junk));
	}
	for (size_t k = 0; k < nrec; k++) {
		size_t i = o->reverse ? nrec - 1 - k : k;
		size_t start = i * rs, end = start + rs;
		if (end > in->len)
			end = in->len;
		if (o->skip_gap && start < 4096) {
			/* The header's 464 bytes, then nothing up to block 1. */
			if (start == 0)
				dw_flat_record(out, 0, in->p,
					       end < 464 ? end : 464);
			if (end > 4096)
				dw_flat_record(out, 4096, in->p + 4096,
					       end - 4096);
			continue;
		}
		dw_flat_record(out, start, in->p + start, end - start);
	}
	if (!o->no_end) {
		size_t h = out->len;
		dw_be64(out, h, UINT64_MAX);
		dw_be64(out, h + 8, UINT64_MAX);
	}
}

/* ---- LiME and AVML ---- */

DW_API void dw_lime_header(struct dw_buf *b, uint32_t magic, uint32_t version,
			   uint64_t start, uint64_t end_incl)
{
	size_t h = b->len;
	dw_le(b, h, magic, 4);
	dw_le(b, h + 4, version, 4);
	dw_le(b, h + 8, start, 8);
	dw_le(b, h + 16, end_incl, 8);
	dw_le(b, h + 24, 0, 8);
}

/* Runs of pages that are not holes, as [first, end) pfns. */
DW_API bool dw_next_run(const struct dw_mem *m, uint64_t *pfn,
			uint64_t *first, uint64_t *end)
{
	while (*pfn < m->npages && m->kind[*pfn] == DW_HOLE)
		(*pfn)++;
	if (*pfn >= m->npages)
		return false;
	*first = *pfn;
	while (*pfn < m->npages && m->kind[*pfn] != DW_HOLE)
		(*pfn)++;
	*end = *pfn;
	return true;
}

DW_API void dw_write_lime(struct dw_buf *b, const struct dw_mem *m)
{
	uint64_t pfn = 0, first, end;

	memset(b, 0, sizeof(*b));
	while (dw_next_run(m, &pfn, &first, &end)) {
		dw_lime_header(b, 0x4C694D45u, 1, first * DW_PAGE,
			       end * DW_PAGE - 1);
		dw_append(b, m->data + first * DW_PAGE,
			  (end - first) * DW_PAGE);
	}
}

/* Bitwise CRC-32C, masked as the snappy framing format stores it. */
DW_API uint32_t dw_crc32c_masked(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffff;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	crc = ~crc;
	return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

#ifdef PGW_HAVE_SNAPPY
/* One range as AVML writes it: header, snappy frames, 8-byte length. */
DW_API void dw_avml_range(struct dw_buf *b, uint64_t pa, const uint8_t *p,
			  uint64_t len, size_t chunk)
{
	static const uint8_t id[] = { 0xff, 6, 0, 0, 's', 'N', 'a', 'P', 'p',
				      'Y' };
	size_t cap = snappy_max_compressed_length(chunk);
	uint8_t *c = malloc(cap);

	dw_lime_header(b, 0x4C4D5641u, 2, pa, pa + len - 1);
	size_t start = b->len;
	dw_append(b, id, sizeof(id));
	for (uint64_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? (size_t)(len - off) : chunk;
		size_t clen = cap;
		uint8_t h[8];
		uint32_t crc = dw_crc32c_masked(p + off, n);
		snappy_compress((const char *)p + off, n, (char *)c, &clen);
		bool raw = clen >= n;
		size_t body = 4 + (raw ? n : clen);
		h[0] = raw ? 0x01 : 0x00;
		h[1] = (uint8_t)body;
		h[2] = (uint8_t)(body >> 8);
		h[3] = (uint8_t)(body >> 16);
		for (int i = 0; i < 4; i++)
			h[4 + i] = (uint8_t)(crc >> (8 * i));
		dw_append(b, h, 8);
		dw_append(b, raw ? p + off : c, raw ? n : clen);
	}
	dw_le(b, b->len, b->len - start, 8);
	free(c);
}

/*
 * AVML's acquisition: runs cut into blocks of at most 16 MiB (here
 * `block` bytes, to get several in small tests), all-zero blocks left out.
 */
DW_API void dw_write_avml(struct dw_buf *b, const struct dw_mem *m,
			  uint64_t block, size_t chunk)
{
	uint64_t pfn = 0, first, end;

	memset(b, 0, sizeof(*b));
	while (dw_next_run(m, &pfn, &first, &end)) {
		for (uint64_t pa = first * DW_PAGE; pa < end * DW_PAGE;
		     pa += block) {
			uint64_t n = end * DW_PAGE - pa;
			if (n > block)
				n = block;
			const uint8_t *p = m->data + pa;
			bool zero = true;
			for (uint64_t i = 0; i < n && zero; i++)
				zero = !p[i];
			if (!zero)
				dw_avml_range(b, pa, p, n, chunk);
		}
	}
}
#endif

#endif
