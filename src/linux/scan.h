/*
 * Shared by the finders of src/linux/ that look at every page of an image:
 * the page iterator with its budgets, and reading entries out of a page.
 */
#ifndef PGW_LINUX_SCAN_H
#define PGW_LINUX_SCAN_H

#include "pgwalk.h"

#include <string.h>

/*
 * A finder's part in a scan of physical memory.  The pages are cut into
 * chunks (PGW_SCAN_CHUNK pages, however many threads there are); look
 * sees a chunk's pages in order, in whichever thread runs the chunk, and
 * says what it found with pgw_scan_emit; take then gets the findings of
 * every chunk in physical order, in the calling thread, so the answer is
 * that of one thread.  look may read arg (what take never writes), its
 * chunk's scratch and the chunk's image; nothing else it shares.  A page
 * of zeros holds nothing a finder looks for: pages in holes of a sparse
 * file, or that the file holds no bytes of, are skipped unread.
 */
#define PGW_SCAN_CHUNK 4096

struct pgw_scan_chunk;

struct pgw_finder {
	void *arg;
	size_t rec_size;             /* bytes of one finding */
	size_t scratch_size;         /* a chunk's own state, zeroed; or 0 */
	/* Before a chunk's first page (NULL: nothing to set up). */
	void (*begin)(const void *arg, void *scratch, struct pgw_image *img);
	void (*look)(const void *arg, struct pgw_scan_chunk *chunk,
		     uint64_t pa, const uint8_t *page);
	/* A finding, in physical order; non-zero stops the scan there
	 * (pgw_phys_scan returns PGW_E_STOPPED). */
	int (*take)(void *arg, const void *rec);
};

/* Record a finding of the page at pa (rec_size bytes, copied). */
void pgw_scan_emit(struct pgw_scan_chunk *chunk, uint64_t pa,
		   const void *rec);
/* The chunk's scratch, and the image it reads (the thread's own). */
void *pgw_scan_scratch(struct pgw_scan_chunk *chunk);
struct pgw_image *pgw_scan_image(struct pgw_scan_chunk *chunk);

/*
 * Look at every page of every physical range of the image, within the
 * budgets of opts (NULL: the defaults), on the image's threads
 * (pgw_image_threads); or only opts->only's pages when it names some
 * (pgw_phys_scan_only).  Pages the image lacks are counted as absent and
 * skipped.  Fills stats (pages, scanned, absent, holes, decoded,
 * complete, why); a budget that stops the scan is not an error, and
 * stops it at the same page on any number of threads.
 */
enum pgw_status pgw_phys_scan(struct pgw_image *img,
			      const struct pgw_scan_opts *opts,
			      const struct pgw_finder *finder,
			      struct pgw_scan_stats *stats,
			      struct pgw_err *err);

/* pgw_phys_scan over opts->only's pages alone (opts->nonly of them), on
 * the calling thread. */
enum pgw_status pgw_phys_scan_only(struct pgw_image *img,
				   const struct pgw_scan_opts *opts,
				   const struct pgw_finder *finder,
				   struct pgw_scan_stats *stats,
				   struct pgw_err *err);

/* One page through the finder on the calling thread: look (scratch:
 * finder->scratch_size bytes, begun by the caller), then take each
 * finding at once.  Non-zero: take stopped the scan, or, with *oom set,
 * a finding was lost. */
int pgw_scan_page(const struct pgw_finder *finder, struct pgw_image *img,
		  void *scratch, uint64_t pa, const uint8_t *page, bool *oom);

/* The entry budget of opts for validation walks. */
uint64_t pgw_scan_entry_budget(struct pgw_image *img,
			       const struct pgw_scan_opts *opts);

/* Note in stats that something was cut short (the first reason stays). */
void pgw_scan_incomplete(struct pgw_scan_stats *stats, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Entry i of a table held in buf (entries of `size` bytes). */
static inline uint64_t pgw_buf_entry(const uint8_t *buf, unsigned size,
				     unsigned i)
{
	/* Fixed-size copies compile to one load; the scan does this for
	 * every page. */
	if (size == 8) {
		uint64_t v;
		memcpy(&v, buf + (size_t)i * 8, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, buf + (size_t)i * 4, 4);
	return v;
}

/*
 * Accessed and dirty: the CPU sets them in whichever copy of an entry it
 * walks through, and i386 copies the kernel's PDEs (4 MiB leaves too)
 * into every process, so two copies of one kernel entry may differ there.
 */
#define PGW_ENTRY_AD (UINT64_C(0x60))

static inline bool pgw_same_entry(uint64_t a, uint64_t b)
{
	return ((a ^ b) & ~PGW_ENTRY_AD) == 0;
}

/* FNV-1a: to tell pages with the same bytes (copies) apart cheaply. */
static inline uint64_t pgw_fnv64(const uint8_t *p, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

#define PGW_FNV64_SEED UINT64_C(0xcbf29ce484222325)

/* FNV-1a a word at a time, on from h (8 times fewer steps than a byte
 * at a time: the facts cache hashes ~200 KiB a command), the tail a byte
 * at a time; not pgw_fnv64's values. */
static inline uint64_t pgw_fnv64_words(uint64_t h, const uint8_t *p,
				       size_t n)
{
	uint64_t w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * UINT64_C(0x100000001b3);
		h ^= h >> 32;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * UINT64_C(0x100000001b3);
	return h;
}

/* Entries in the top table and bytes it spans. */
static inline unsigned pgw_top_entries(const struct pgw_mode *mode)
{
	return 1u << mode->level[PGW_PGD].bits;
}

#endif
