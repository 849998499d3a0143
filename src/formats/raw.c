/*
 * Raw physical images: byte N of the file is physical address base + N
 * (pmemsave, /dev/mem copies, LiME's padded output).  No magic, so never
 * probed: chosen with --format=raw.
 */
#include "../lib/err.h"
#include "format.h"

static enum pgw_status raw_open(struct pgw_image *img, struct pgw_err *err)
{
	enum pgw_status st;

	if (img->opts.raw_base & (PGW_PAGE_SIZE - 1))
		return pgw_err_set(err, PGW_E_ARG,
				   "base 0x%llx is not page aligned",
				   (unsigned long long)img->opts.raw_base);
	st = pgw_image_add_segment(img, img->opts.raw_base, img->src.size, 0,
				   0, err);
	if (st == PGW_OK)
		st = pgw_image_seal_segments(img, "raw file", err);
	if (st != PGW_OK)
		return st;
	if (img->opts.raw_base_why)
		pgw_image_add_fact(img, "base", "0x%llx: %s",
				   (unsigned long long)img->opts.raw_base,
				   img->opts.raw_base_why);
	if (img->raw_by_size)
		pgw_image_add_fact(img, "probe", "no magic; a whole number of "
				   "pages, so taken as raw physical memory");
	return PGW_OK;
}

const struct pgw_format pgw_format_raw = {
	.name = "raw",
	.probe = NULL,
	.open = raw_open,
	.page = pgw_segments_page,
	.page_state = pgw_segments_page_state,
	.absent_bytes = pgw_segments_absent_bytes,
	.evidence = pgw_segments_evidence,
	.unheld_run = pgw_segments_unheld_run,
	.held_span = pgw_segments_held_span,
	.held_pages = pgw_segments_held_pages,
};
