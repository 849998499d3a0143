/*
 * Shared by the finders of src/linux/ that look at every page of an image:
 * the page iterator with its budgets, and reading entries out of a page.
 */
#ifndef PGW_LINUX_SCAN_H
#define PGW_LINUX_SCAN_H

#include "pgwalk.h"

#include <string.h>

/*
 * Called once per page the image holds, in physical order; a non-zero
 * return stops the scan (and is returned by pgw_phys_scan as PGW_E_STOPPED).
 * A visitor finds nothing in a page of zeros: pages in holes of a sparse
 * file are skipped unread (counted in stats->holes).
 */
typedef int (*pgw_page_visit)(void *arg, uint64_t pa, const uint8_t *page);

/*
 * Visit every page of every physical range of the image, within the
 * budgets of opts (NULL: the defaults), or only opts->only's pages when
 * it names some.  Pages the image lacks are counted
 * as absent and skipped.  Fills stats (pages, scanned, absent, complete,
 * why); a budget that stops the scan is not an error.
 */
enum pgw_status pgw_phys_scan(struct pgw_image *img,
			      const struct pgw_scan_opts *opts,
			      pgw_page_visit visit, void *arg,
			      struct pgw_scan_stats *stats,
			      struct pgw_err *err);

/* pgw_phys_scan over opts->only's pages alone (opts->nonly of them). */
enum pgw_status pgw_phys_scan_only(struct pgw_image *img,
				   const struct pgw_scan_opts *opts,
				   pgw_page_visit visit, void *arg,
				   struct pgw_scan_stats *stats,
				   struct pgw_err *err);

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

/* Entries in the top table and bytes it spans. */
static inline unsigned pgw_top_entries(const struct pgw_mode *mode)
{
	return 1u << mode->level[PGW_PGD].bits;
}

#endif
