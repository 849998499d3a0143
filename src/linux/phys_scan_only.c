/*
 * The pages an earlier scan found something in, looked at again in place
 * of every page (a hint kept by the caller).  Each page is read and
 * visited as the whole scan would visit it, so the finder's own checks
 * decide again; pages that are no longer held are counted, not visited.
 */
#include "../lib/err.h"
#include "../formats/image_page.h"
#include "scan.h"

#include <stdlib.h>
#include <string.h>

enum pgw_status pgw_phys_scan_only(struct pgw_image *img,
				   const struct pgw_scan_opts *opts,
				   const struct pgw_finder *finder,
				   struct pgw_scan_stats *stats,
				   struct pgw_err *err)
{
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(img, &ranges);
	uint64_t last = 0;
	void *scratch = finder->scratch_size ?
				calloc(1, finder->scratch_size) : NULL;
	enum pgw_status st = PGW_OK;

	if (finder->scratch_size && !scratch)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	if (finder->begin)
		finder->begin(finder->arg, scratch, img);
	memset(stats, 0, sizeof(*stats));
	stats->complete = true;
	for (size_t r = 0; r < nr; r++)
		stats->pages += ranges[r].size >> PGW_PAGE_SHIFT;
	for (size_t i = 0; i < opts->nonly; i++) {
		uint64_t pfn = opts->only[i] >> PGW_PAGE_SHIFT;
		const uint8_t *page;
		struct pgw_err ignored;

		/* Ascending and once each, as the whole scan visits them. */
		if (i && pfn <= last)
			continue;
		last = pfn;
		stats->scanned++;
		if (pgw_image_page(img, pfn, &page, &ignored) != PGW_OK) {
			stats->absent++;
			continue;
		}
		if (pgw_image_page_in_hole(img, page)) {
			stats->holes++;
			continue;
		}
		bool oom;
		if (pgw_scan_page(finder, img, scratch, pfn << PGW_PAGE_SHIFT,
				  page, &oom)) {
			st = oom ? pgw_err_set(err, PGW_E_NOMEM,
					       "out of memory") :
				   pgw_err_set(err, PGW_E_STOPPED, "scan stopped "
					       "at physical 0x%llx",
					       (unsigned long long)(pfn <<
								    PGW_PAGE_SHIFT));
			break;
		}
	}
	free(scratch);
	return st;
}
