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
#include "segments.h"
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
	 * cache) and point at it.  PGW_E_NODATA, with its reason, for frames
	 * the dump lacks or whose data is damaged: one bad page is never an
	 * error of the whole image.
	 */
	enum pgw_status (*page)(struct pgw_image *img, uint64_t pfn,
				uint8_t *buf, const uint8_t **page_ret,
				struct pgw_err *err);
	/* Why pfn is not in the image, from the index alone (no decoding):
	 * what page() says, except damage only decoding finds. */
	enum pgw_absence (*page_state)(struct pgw_image *img, uint64_t pfn);
	/* Add the bytes of [pa, last] (inclusive, last >= pa) to counts by
	 * the state of their page, like page_state, in bulk where it can. */
	void (*absent_bytes)(struct pgw_image *img, uint64_t pa, uint64_t last,
			     uint64_t counts[PGW_NABSENCES]);
	/* Fill the counts of ev (zeroed by the caller); may be slow, once. */
	void (*evidence)(struct pgw_image *img, struct pgw_evidence *ev);
	/* Whole pages from pfn on that the file holds no bytes of, from the
	 * index alone (pgw_image_unheld_run); NULL: the format cannot say. */
	uint64_t (*unheld_run)(struct pgw_image *img, uint64_t pfn,
			       bool *zero_ret);
	/* The run of frames around pfn whose page_state is PGW_ABSENT_NONE,
	 * all alike from the index alone: its count, its first frame in
	 * *first_ret.  0: pfn is not so, or the format cannot say; NULL:
	 * never says.  pgw_image_page_state remembers the run found last. */
	uint64_t (*held_span)(struct pgw_image *img, uint64_t pfn,
			      uint64_t *first_ret);
	/* Pages whose data the file holds (for budgets); O(1). */
	uint64_t (*held_pages)(const struct pgw_image *img);
	void (*close)(struct pgw_image *img);
};

/* NULL-terminated, in probe order (most specific magic first). */
extern const struct pgw_format *const pgw_formats[];

struct pgw_kv {
	char *key;
	char *value;
};

/* A fact for `info`: one per key, repeats counted. */
struct pgw_fact {
	const char *key;             /* a string literal of the format */
	char *first;                 /* the first value given */
	char *shown;                 /* first, and how many more, for info */
	size_t count;
};

struct pgw_segments;
struct pgw_absent_memo;

struct pgw_image {
	const struct pgw_format *format;
	struct pgw_image_open_opts opts;
	char *path;
	struct pgw_source src;       /* the file, mapped read-only */
	void *priv;                  /* the format's own state */
	/*
	 * Set by open when page() never needs `buf` (page-aligned segments
	 * of an unflattened file): no cache, no copies.  Otherwise page()
	 * gets a cache slot to fill.
	 */
	bool zero_copy;
	bool raw_by_size;            /* raw chosen for lack of magic */
	/* Unique among the images this process opens (from 1): what keeps
	 * an image apart from one closed before it at the same address
	 * (the paging-structure cache is keyed by it). */
	uint64_t serial;

	/* Physical memory, for segment-based formats (segments.h). */
	struct pgw_segments *segs;

	/* Summary for `info`; formats fill it at open. */
	struct pgw_phys_range *ranges;
	size_t nranges;
	unsigned machine;            /* ELF e_machine or 0 */
	unsigned elf_class;          /* 32, 64 or 0 */
	struct pgw_cpu *cpus;
	size_t ncpus;
	size_t nprstatus;
	struct pgw_prstatus *prstatus;   /* prstatus.c: in note order */
	size_t nprstatus_regs;
	struct pgw_arm64_regs *arm64_regs; /* AArch64 NT_PRSTATUS, in order */
	size_t narm64_regs;
	size_t note_bytes;           /* notes parsed so far (capped per file) */
	bool notes_capped;           /* a cap stopped note parsing */
	struct pgw_kv *vmcoreinfo;
	size_t nvmcoreinfo;
	char vmcoreinfo_conflict[256];/* a key two VMCOREINFO notes give
					 different values (empty: none) */
	bool vmcoreinfo_in_memory;   /* adopted from text found in memory */
	uint64_t vmcoreinfo_pa;      /* ... at this physical address */
	struct pgw_fact *facts;
	size_t nfacts;
	const char **fact_keys;      /* views for pgw_image_facts */
	const char **fact_values;
	bool marked_incomplete;      /* the writer flagged the dump so */
	bool have_evidence;          /* evidence computed (lazily, once) */
	struct pgw_evidence evidence;

	/* The frames the format's held_span said last are held. */
	uint64_t held_first, held_count;

	/* Bounded page cache for formats that are not zero-copy. */
	struct pgw_page_cache *cache;
	/* Pages found absent, and why (absent_memo.h; NULL until one is). */
	struct pgw_absent_memo *absent;
	/* Pages page() filled in (decompressed, or put together) so far:
	 * what the scans are held to decode once each (-v says it). */
	uint64_t pages_filled;
	/* What a whole VMCOREINFO scan of this image found (src/linux
	 * keeps it: the raw base's scan), so the next asker looks at those
	 * pages again instead of every page, as with the facts cache. */
	struct pgw_facts_hint scan_hint;

	/* The scans' workers: the same file opened again, one image per
	 * thread (pgw_image_workers), reading through this one's map,
	 * closed with this one (before it). */
	struct pgw_image **workers;
	unsigned nworkers;
};

/* ---- helpers for formats ---- */

/* Ranges for non-segment formats (kdump): append, merging neighbours. */
enum pgw_status pgw_image_add_range(struct pgw_image *img, uint64_t start,
				    uint64_t size, struct pgw_err *err);

/* Parse a VMCOREINFO note body ("KEY=VALUE\n"...) into img->vmcoreinfo. */
enum pgw_status pgw_image_parse_vmcoreinfo(struct pgw_image *img,
					   const char *text, size_t len,
					   struct pgw_err *err);
/* Parse one QEMU "QEMU" CPU-state note descriptor; appends a CPU. */
/* An NT_PRSTATUS note's registers (prstatus.c), counted in nprstatus. */
enum pgw_status pgw_image_add_prstatus(struct pgw_image *img,
				       const uint8_t *desc, size_t len,
				       struct pgw_err *err);
enum pgw_status pgw_image_add_qemu_cpu(struct pgw_image *img,
				       const uint8_t *desc, size_t len,
				       struct pgw_err *err);
/*
 * Walk an ELF note area (either class uses the same 4-byte-aligned Nhdr
 * layout for core files): VMCOREINFO, QEMU, NT_PRSTATUS.  Shared by ELF and
 * kdump (whose sub-header points at the same note format).  cut: the area
 * is what is left of a longer one the file lost, so a last note running
 * past its end is dropped (and said), not an error.  Notes are capped per
 * file (bytes and CPUs), whatever the headers claim.
 */
enum pgw_status pgw_image_parse_notes(struct pgw_image *img,
				      const uint8_t *notes, size_t len,
				      bool cut, struct pgw_err *err);
/* The cap on note bytes per file (CPUs: PGW_MAX_CPUS). */
#define PGW_MAX_NOTE_BYTES (UINT64_C(64) << 20)
/*
 * A format fact for `info` ("dump_level", "31"); copies value.  A key
 * given again is counted, not repeated: `info` shows the first value and
 * how many more there were.  key must outlive the image (a literal).
 */
void pgw_image_add_fact(struct pgw_image *img, const char *key,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether pfn lies in the run of frames held_span said last: what
 * pgw_image_page_state answers first, here so that a batch's walk asks
 * it inline and calls only for a frame outside the run. */
static inline bool pgw_image_held_last(const struct pgw_image *img,
				       uint64_t pfn)
{
	return pfn - img->held_first < img->held_count;
}

#endif /* PGW_FORMAT_H */
