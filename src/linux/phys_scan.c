/*
 * One look at every page of an image, for the finders that work without
 * symbols.  Pages come from pgw_image_page, so raw, ELF and LiME images
 * are read in place; formats that decompress each page have a budget of
 * their own, and whatever a budget leaves out is said in the stats.
 */
#include "../lib/err.h"
#include "../formats/image_page.h"
#include "scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Formats whose pages are decompressed one at a time (~25 us each). */
static const char *const decoding_formats[] = { "kdump", "avml" };

static bool decodes_pages(const struct pgw_image *img)
{
	const char *name = pgw_image_format(img);

	for (size_t i = 0; i < sizeof(decoding_formats) /
				       sizeof(decoding_formats[0]); i++)
		if (strcmp(name, decoding_formats[i]) == 0)
			return true;
	return false;
}

void pgw_scan_incomplete(struct pgw_scan_stats *stats, const char *fmt, ...)
{
	va_list ap;

	if (!stats->complete)
		return;
	stats->complete = false;
	va_start(ap, fmt);
	vsnprintf(stats->why, sizeof(stats->why), fmt, ap);
	va_end(ap);
}

uint64_t pgw_scan_entry_budget(struct pgw_image *img,
			       const struct pgw_scan_opts *opts)
{
	if (opts && opts->max_entries)
		return opts->max_entries;
	return pgw_default_budget(img);
}

enum pgw_status pgw_phys_scan(struct pgw_image *img,
			      const struct pgw_scan_opts *opts,
			      pgw_page_visit visit, void *arg,
			      struct pgw_scan_stats *stats,
			      struct pgw_err *err)
{
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(img, &ranges);
	uint64_t max_pages = opts && opts->max_pages ? opts->max_pages :
						       PGW_SCAN_MAX_PAGES;
	uint64_t max_decoded = opts && opts->max_decoded ? opts->max_decoded :
							   PGW_SCAN_MAX_DECODED;
	bool decoding = decodes_pages(img);
	uint64_t decoded = 0;
	/* The finder's own reads (a PAE slot's page directory) decompress
	 * too, and once the cache is full each gives a page up: they count
	 * against the budget with the pages scanned, or forged slots that
	 * each name another directory would decompress without bound. */
	const uint64_t *given_up = pgw_image_page_epoch(img);

	if (opts && opts->only)
		return pgw_phys_scan_only(img, opts, visit, arg, stats, err);
	memset(stats, 0, sizeof(*stats));
	stats->complete = true;
	for (size_t r = 0; r < nr; r++)
		stats->pages += ranges[r].size >> PGW_PAGE_SHIFT;
	for (size_t r = 0; r < nr; r++) {
		/* Whole pages only: a range's partial first or last page is
		 * not in the image as a page anyway. */
		uint64_t pfn = (ranges[r].start + PGW_PAGE_SIZE - 1) >>
			       PGW_PAGE_SHIFT;
		uint64_t end = (ranges[r].start + ranges[r].size) >>
			       PGW_PAGE_SHIFT;
		if (ranges[r].start + ranges[r].size < ranges[r].start)
			end = UINT64_MAX >> PGW_PAGE_SHIFT;
		for (; pfn < end; pfn++) {
			const uint8_t *page;
			struct pgw_err ignored;
			/* Pages a kdump left out cost nothing to skip: only
			 * those decompressed count against that budget. */
			if (decoding)
				stats->decoded = decoded;
			if (stats->scanned == max_pages ||
			    (decoding && decoded >= max_decoded)) {
				bool pages = stats->scanned == max_pages;
				pgw_scan_incomplete(stats,
					"scan stopped at physical 0x%llx, "
					"after %llu of %llu pages: the %s "
					"budget (%llu) ran out",
					(unsigned long long)(pfn <<
							     PGW_PAGE_SHIFT),
					(unsigned long long)stats->scanned,
					(unsigned long long)stats->pages,
					pages ? "page" : "decompression",
					(unsigned long long)(pages ? max_pages :
							     max_decoded));
				return PGW_OK;
			}
			bool zero;
			uint64_t run = pgw_image_unheld_run(img, pfn, &zero);
			if (run) {
				/* Counted as looked at, all at once. */
				if (run > end - pfn)
					run = end - pfn;
				if (run > max_pages - stats->scanned)
					run = max_pages - stats->scanned;
				stats->scanned += run;
				if (zero)
					stats->holes += run;
				else
					stats->absent += run;
				pfn += run - 1;
				continue;
			}
			stats->scanned++;
			if (pgw_image_page(img, pfn, &page, &ignored) !=
			    PGW_OK) {
				stats->absent++;
				continue;
			}
			decoded++;
			if (pgw_image_page_in_hole(img, page)) {
				/* The rest of the hole too, in one step. */
				uint64_t hole = pgw_image_hole_run(img, pfn);
				if (hole > end - pfn)
					hole = end - pfn;
				if (hole > max_pages - stats->scanned + 1)
					hole = max_pages - stats->scanned + 1;
				if (hole == 0)
					hole = 1;
				stats->scanned += hole - 1;
				stats->holes += hole;
				pfn += hole - 1;
				continue;
			}
			uint64_t before = *given_up;
			int stop = visit(arg, pfn << PGW_PAGE_SHIFT, page);
			decoded += *given_up - before;
			if (decoding)
				stats->decoded = decoded;
			if (stop)
				return pgw_err_set(err, PGW_E_STOPPED,
						   "scan stopped at physical "
						   "0x%llx",
						   (unsigned long long)(pfn <<
							PGW_PAGE_SHIFT));
		}
	}
	return PGW_OK;
}
