/*
 * The kdump reader's own state, shared by kdump.c (headers, bitmaps, page
 * descriptors, pages) and kdump_count.c (what is absent, counted a rank
 * block at a time).  Not part of the library's interface.
 */
#ifndef PGW_KDUMP_H
#define PGW_KDUMP_H

#include "format.h"

#define DESC_SIZE 24
#define KDUMP_MAX_BLOCK 65536       /* the largest block size read */
#define RANK_BITS 4096              /* pfns per rank-table entry */
#define SUB_BITS 512                /* pfns per sub-rank entry */
#define SUBS (RANK_BITS / SUB_BITS)

/* disk_dump_header.status and page_desc.flags */
enum {
	DH_ZLIB = 0x1,
	DH_LZO = 0x2,
	DH_SNAPPY = 0x4,
	DH_INCOMPLETE = 0x8,
	DH_EXCLUDED_VMEMMAP = 0x10,
	DH_ZSTD = 0x20,
};
#define DH_CODECS (DH_ZLIB | DH_LZO | DH_SNAPPY | DH_ZSTD)

struct layout;
struct block_sum;

struct hdr {
	bool kdump;                 /* "KDUMP   " (else "DISKDUMP") */
	uint32_t version;
	uint32_t status, block_size, sub_hdr_size, bitmap_blocks, max_mapnr;
	uint32_t nr_cpus;
};

struct sub {
	bool have;
	uint64_t phys_base;
	int32_t dump_level;         /* -1: not recorded */
	bool split;
	uint64_t start_pfn, end_pfn;
	uint64_t off_vmcoreinfo, size_vmcoreinfo, off_note, size_note;
	uint64_t max_mapnr_64;
};

struct kdump {
	struct hdr h;
	struct sub s;
	const struct layout *lay;
	uint64_t max_mapnr;
	uint64_t bitmap1, bitmap2;   /* stream offsets */
	/* The bitmaps' max_mapnr bits in the mapped file, or NULL where
	 * flattening split one (read through the source then). */
	const uint8_t *bits1, *bits2;
	uint64_t desc_off;
	uint64_t ndumped;            /* set bits of the 2nd bitmap */
	uint64_t ndesc;              /* descriptors inside the file */
	uint64_t *rank;              /* dumped pfns below block i */
	uint16_t *subrank;           /* dumped pfns of block i below its
					sub-block j, at [i * SUBS + j] */
	uint64_t nblk;               /* rank blocks */
	struct block_sum *sums;      /* per block, lazily (absent_bytes) */
	uint8_t *clean;              /* per block: 1 once its sum found every
					dumped page's data there (allocated
					with sums) */
	uint64_t data_limit;         /* no page data lies beyond this */
	bool incomplete;             /* header flag */
	bool truncated;              /* the file ends before its last page */
	struct pgw_codecs *codecs;
	/* A kdump pfn is a block of block_size bytes (QEMU writes 64 KiB
	 * blocks for a 4 KiB guest): 2^shift bytes, 2^(shift - 12) of the
	 * image's 4 KiB pages.  The bitmaps, descriptors and ranks count
	 * blocks; only the image's page and page-state calls see 4 KiB
	 * pages (kdump_page, kdump_page_state_4k). */
	unsigned shift;
	uint8_t *block;              /* blocks above 4 KiB: the last one
					decoded (block_pfn), NULL before */
	uint64_t block_pfn;
	uint8_t cbuf[KDUMP_MAX_BLOCK]; /* compressed bytes split by
					  flattening */
};

struct desc {
	uint64_t offset;
	uint32_t size, flags;
};


/* ---- kdump.c ---- */

/* Bytes [off, off+len) of the stream (copied into buf when split), or
 * NULL. */
const uint8_t *pgw_kdump_bytes(const struct pgw_source *src, uint64_t off,
			       size_t len, uint8_t *buf, struct pgw_err *err);
/* Bit pfn of the bitmap at stream offset bitmap. */
bool pgw_kdump_bit(const struct pgw_source *src, uint64_t bitmap,
		   uint64_t pfn);
uint64_t pgw_kdump_popcount(const uint8_t *p, size_t n);
/* Index of pfn's descriptor: dumped pfns before it. */
enum pgw_status pgw_kdump_rank(const struct pgw_image *img,
			       const struct kdump *k, uint64_t pfn,
			       uint64_t *idx_ret, struct pgw_err *err);
/* Descriptor number idx, read and checked against the file: NONE when its
 * page's data is there, else why not (*why_ret in words). */
enum pgw_absence pgw_kdump_desc_state(const struct pgw_image *img,
				      const struct kdump *k, uint64_t idx,
				      struct desc *d, const char **why_ret);
enum pgw_absence pgw_kdump_page_state(struct pgw_image *img, uint64_t pfn);

/* ---- kdump_count.c ---- */

/* Is every dumped page of pfn's block known to have its data (a block
 * asked about often has all its descriptors checked at once)? */
bool pgw_kdump_block_clean(const struct pgw_image *img, struct kdump *k,
			   uint64_t pfn);
void pgw_kdump_absent_bytes(struct pgw_image *img, uint64_t pa,
			    uint64_t last, uint64_t counts[PGW_NABSENCES]);
void pgw_kdump_evidence(struct pgw_image *img, struct pgw_evidence *ev);

#endif
