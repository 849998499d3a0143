/*
 * What an image format implements, and the shared pieces formats build on.
 *
 * To add a format: write src/formats/NAME.c defining one
 * `const struct pgw_format pgw_format_NAME`, and list it in formats_table.c.
 * Nothing else changes: the walker and every command see only
 * pgw_image_page().
 */
#ifndef PGW_FORMAT_H
#define PGW_FORMAT_H

#include "pgwalk.h"
#include "source.h"

struct pgw_image;

struct pgw_format {
	const char *name;
	/* Does this look like ours?  head holds the first bytes of the stream. */
	bool (*probe)(const uint8_t *head, size_t len);
	/* Parse headers, fill ranges/cpus/vmcoreinfo, set img->priv. */
	enum pgw_status (*open)(struct pgw_image *img, struct pgw_err *err);
	/*
	 * Data of frame pfn.  Either point *page_ret into the mapped stream
	 * (zero copy) or fill `buf` (PGW_PAGE_SIZE bytes, owned by the image
	 * cache) and point at it.  PGW_E_NODATA for frames the dump lacks.
	 */
	enum pgw_status (*page)(struct pgw_image *img, uint64_t pfn,
				uint8_t *buf, const uint8_t **page_ret,
				struct pgw_err *err);
	/* Cheap presence test (no decompression). */
	bool (*has_page)(struct pgw_image *img, uint64_t pfn);
	void (*close)(struct pgw_image *img);
};

/* NULL-terminated, in probe order (most specific magic first). */
extern const struct pgw_format *const pgw_formats[];

/* A contiguous physical range backed by contiguous stream bytes. */
struct pgw_segment {
	uint64_t pa;
	uint64_t size;
	uint64_t offset;   /* in the stream */
	bool zero;         /* known zero (ELF p_memsz > p_filesz), no bytes */
};

struct pgw_kv {
	char *key;
	char *value;
};

#define PGW_MAX_FACTS 16

struct pgw_image {
	const struct pgw_format *format;
	struct pgw_image_open_opts opts;
	char *path;
	struct pgw_source src;       /* the file, mapped read-only */
	void *priv;                  /* the format's own state */
	/*
	 * Set by open when page() always points into the map (page-aligned
	 * segments of an unflattened file): no cache, no copies.  Otherwise
	 * page() gets a cache slot to fill.
	 */
	bool zero_copy;
	bool raw_by_size;            /* raw chosen for lack of magic */

	/* Physical memory, for segment-based formats (ELF, raw, LiME ...). */
	struct pgw_segment *segs;    /* sorted by pa, non-overlapping */
	size_t nsegs;
	size_t last_seg;             /* lookup hint */

	/* Summary for `info`; formats fill it at open. */
	struct pgw_phys_range *ranges;
	size_t nranges;
	unsigned machine;            /* ELF e_machine or 0 */
	unsigned elf_class;          /* 32, 64 or 0 */
	struct pgw_cpu *cpus;
	size_t ncpus;
	size_t nprstatus;
	struct pgw_kv *vmcoreinfo;
	size_t nvmcoreinfo;
	bool vmcoreinfo_in_memory;   /* adopted from text found in memory */
	uint64_t vmcoreinfo_pa;      /* ... at this physical address */
	const char *fact_keys[PGW_MAX_FACTS];
	const char *fact_values[PGW_MAX_FACTS];
	char *fact_store[PGW_MAX_FACTS];
	size_t nfacts;

	/* Bounded page cache for formats that are not zero-copy. */
	struct pgw_page_cache *cache;
};

/* ---- helpers for formats ---- */

/* Segment table: add, then seal (sorts, rejects overlaps, builds ranges). */
enum pgw_status pgw_image_add_segment(struct pgw_image *img, uint64_t pa,
				      uint64_t size, uint64_t offset,
				      struct pgw_err *err);
/* Physical memory that is known to be zero, with no bytes in the file. */
enum pgw_status pgw_image_add_zero_segment(struct pgw_image *img, uint64_t pa,
					   uint64_t size, struct pgw_err *err);
enum pgw_status pgw_image_seal_segments(struct pgw_image *img,
					struct pgw_err *err);
/* page() and has_page() for segment formats whose stream is mapped. */
enum pgw_status pgw_segments_page(struct pgw_image *img, uint64_t pfn,
				  uint8_t *buf, const uint8_t **page_ret,
				  struct pgw_err *err);
bool pgw_segments_has_page(struct pgw_image *img, uint64_t pfn);
/* True when every segment covers whole pages (then set img->zero_copy
 * unless the source is flattened). */
bool pgw_segments_page_aligned(const struct pgw_image *img);

/* Ranges for non-segment formats (kdump): append, merging neighbours. */
enum pgw_status pgw_image_add_range(struct pgw_image *img, uint64_t start,
				    uint64_t size, struct pgw_err *err);

/* Parse a VMCOREINFO note body ("KEY=VALUE\n"...) into img->vmcoreinfo. */
enum pgw_status pgw_image_parse_vmcoreinfo(struct pgw_image *img,
					   const char *text, size_t len,
					   struct pgw_err *err);
/* Parse one QEMU "QEMU" CPU-state note descriptor; appends a CPU. */
enum pgw_status pgw_image_add_qemu_cpu(struct pgw_image *img,
				       const uint8_t *desc, size_t len,
				       struct pgw_err *err);
/* Walk an ELF note area (either class uses the same 4-byte-aligned Nhdr
 * layout for core files): VMCOREINFO, QEMU, NT_PRSTATUS.  Shared by ELF and
 * kdump (whose sub-header points at the same note format). */
enum pgw_status pgw_image_parse_notes(struct pgw_image *img,
				      const uint8_t *notes, size_t len,
				      struct pgw_err *err);
/* A format fact for `info` ("dump_level", "31"); copies value. */
void pgw_image_add_fact(struct pgw_image *img, const char *key,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* PGW_FORMAT_H */
