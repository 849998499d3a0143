/*
 * Zero-copy page access, for the library's own readers (the walker) and
 * for tests: not part of the public API, because the pointer dangles after
 * a few more calls.  Outside callers copy with pgw_image_read_page() or
 * pgw_image_read().
 */
#ifndef PGW_IMAGE_PAGE_H
#define PGW_IMAGE_PAGE_H

#include "pgwalk.h"

/*
 * Pointer to the 4 KiB page of physical frame pfn.  The pointer stays valid
 * until the next PGW_IMAGE_PAGE_SLOTS calls of pgw_image_page on the same
 * image (formats that decompress keep a bounded cache).  A frame outside the
 * image, or left out by a filtered dump, is PGW_E_NODATA: never zeros.
 */
#define PGW_IMAGE_PAGE_SLOTS 8
enum pgw_status pgw_image_page(struct pgw_image *img, uint64_t pfn,
			       const uint8_t **page_ret, struct pgw_err *err);

/*
 * Why pgw_image_page said pfn's page is not in the image, when it said
 * so lately (the image keeps its last verdicts; an image never changes):
 * a batch stopping at a table the image lacks answers without asking
 * for the page, or for its message, again.  PGW_ABSENT_NONE: no such
 * verdict kept (pgw_image_page says).
 */
enum pgw_absence pgw_image_page_absent(const struct pgw_image *img,
				       uint64_t pfn);

/*
 * Up to n pages from pfn (n at most 16: a 64 KiB table), one after
 * another in memory from *page_ret, valid as pgw_image_page's pointers
 * are: how many (0: pfn's page cannot be read, err says why).  Fewer
 * than n where a page of the run is not in the image, or a zero-copy
 * image does not map them in one piece; a decompressing image lays the
 * run out in its cache in one piece (copying what it held apart,
 * decoding what it did not hold), so that a table of several pages is
 * kept whole.
 */
unsigned pgw_image_page_run(struct pgw_image *img, uint64_t pfn, unsigned n,
			    const uint8_t **page_ret, struct pgw_err *err);

/*
 * How long pgw_image_page's pointers stay valid, for callers that keep
 * them (the paging-structure cache keeps table pages): while the count
 * *epoch is what it was when the pointer was handed out.  A zero-copy
 * image (the mapped file, the one page of zeros) never changes it, nor
 * does a page a decompressing format serves in place from the map; its
 * bounded cache changes it when it gives a page up.  The count's address
 * is fixed until the image is closed.
 */
const uint64_t *pgw_image_page_epoch(const struct pgw_image *img);

/*
 * Does a page pgw_image_page served in place (from the mapped file of a
 * zero-copy image) lie in holes of a sparse file?  It reads as zeros,
 * which the kernel maps a page at a time: scans that find nothing in a
 * zero page skip it.  False for every page of an image that is not so.
 */
bool pgw_image_page_in_hole(struct pgw_image *img, const uint8_t *page);

/*
 * How many frames from pfn on lie wholly in one hole of a sparse file,
 * so read as zeros (pgw_image_page_in_hole of each): a scan steps over
 * them at once instead of asking page by page.  0 when pfn's page is not
 * so, or the format cannot say (only zero-copy images can).
 */
uint64_t pgw_image_hole_run(struct pgw_image *img, uint64_t pfn);

/*
 * How many pages from pfn on hold no bytes of the file: zeros only because
 * a segment claims more memory than its file holds (ELF p_memsz beyond
 * p_filesz: *zero_ret true), or not in the image (a range cut short, a
 * gap).  Nothing a scan looks for is there, and a hostile header can
 * claim 2^62 bytes of it, so scans step over the run at once.  0 when pfn
 * holds data, or the format cannot say.
 */
uint64_t pgw_image_unheld_run(struct pgw_image *img, uint64_t pfn,
			      bool *zero_ret);

/*
 * n images of img's file for n threads to read at once (an image is
 * used by one thread at a time, its caches included): opened again
 * through img's descriptor, so a file renamed or replaced meanwhile is
 * still the one img reads, with img's open options.  Each has caches of
 * its own but reads the file through img's map, so a page is faulted in
 * once whichever threads meet it.  PGW_E_IO when the file was replaced
 * or resized since img was opened.  Made when first asked for, kept,
 * and closed with img; *workers_ret holds n.
 */
enum pgw_status pgw_image_workers(struct pgw_image *img, unsigned n,
				  struct pgw_image *const **workers_ret,
				  struct pgw_err *err);

/* What a whole scan of img found VMCOREINFO candidates at, kept for the
 * next scan of the same image (the raw base's scan, then the session's):
 * pages to look at again, each checked as the scan checks it.  NULL:
 * none kept. */
void pgw_image_keep_scan_hint(struct pgw_image *img,
			      const struct pgw_facts_hint *h);
const struct pgw_facts_hint *pgw_image_scan_hint(const struct pgw_image *img);

/* Pages img and its workers decoded into their caches so far (a kdump's
 * decompressed pages; 0 for an image read in place). */
uint64_t pgw_image_pages_filled(const struct pgw_image *img);

/* The threads img's scans may use (its open options; at least 1). */
unsigned pgw_image_threads(const struct pgw_image *img);

/*
 * Give up every page decoded so far (the epoch moves): what a stretch of
 * pages costs to read next is then the same whatever was read before,
 * so a scan's decompression budget is spent alike on any thread.
 */
void pgw_image_forget_pages(struct pgw_image *img);

#endif
