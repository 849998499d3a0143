/*
 * LiME (Linux Memory Extractor, format "lime"): a 32-byte header per
 * physical range, each followed by the range's bytes (lime.h).  Ranges are
 * plain segments of the file, read in place.
 */
#include "../lib/err.h"
#include "format.h"
#include "../lib/bytes.h"
#include "lime.h"

#include <string.h>

bool pgw_lime_probe(const uint8_t *head, size_t len, uint32_t magic,
		    uint32_t version)
{
	return len >= PGW_LIME_HEADER_SIZE && pgw_le32(head) == magic &&
	       pgw_le32(head + 4) == version;
}

enum pgw_status pgw_lime_header_read(const struct pgw_source *src,
				     uint64_t off, struct pgw_lime_header *h,
				     struct pgw_err *err)
{
	uint8_t b[PGW_LIME_HEADER_SIZE];
	enum pgw_status st = pgw_source_read(src, off, b, sizeof(b), err);

	if (st != PGW_OK)
		return pgw_err_prefix(err, "range header at 0x%llx",
				      (unsigned long long)off);
	h->magic = pgw_le32(b);
	h->version = pgw_le32(b + 4);
	h->start = pgw_le64(b + 8);
	uint64_t end = pgw_le64(b + 16);
	if (h->magic != PGW_LIME_MAGIC && h->magic != PGW_AVML_MAGIC)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "range header at 0x%llx: bad magic 0x%08x",
				   (unsigned long long)off, h->magic);
	/* No physical address is 2^64 - 1; refusing it keeps start + size
	 * from wrapping to 0, as segments of other formats never do. */
	if (end < h->start || end == UINT64_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "range header at 0x%llx: end 0x%llx before "
				   "start 0x%llx or at the top of the address "
				   "space",
				   (unsigned long long)off,
				   (unsigned long long)end,
				   (unsigned long long)h->start);
	h->size = end - h->start + 1;
	return PGW_OK;
}

static bool lime_probe(const uint8_t *head, size_t len)
{
	return pgw_lime_probe(head, len, PGW_LIME_MAGIC, 1);
}

static enum pgw_status lime_open(struct pgw_image *img, struct pgw_err *err)
{
	uint64_t off = 0, n = 0, size = img->src.size;
	enum pgw_status st;

	while (off < size) {
		struct pgw_lime_header h;
		if (size - off < PGW_LIME_HEADER_SIZE) {
			pgw_image_add_fact(img, "incomplete",
					   "%llu stray bytes after range %llu",
					   (unsigned long long)(size - off),
					   (unsigned long long)n);
			break;
		}
		st = pgw_lime_header_read(&img->src, off, &h, err);
		if (st != PGW_OK)
			return st;
		if (h.magic != PGW_LIME_MAGIC || h.version != 1)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "range %llu at 0x%llx has magic "
					   "0x%08x version %u, not LiME 1%s",
					   (unsigned long long)n,
					   (unsigned long long)off, h.magic,
					   h.version,
					   h.magic == PGW_AVML_MAGIC ?
						   " (AVML-compressed: open "
						   "it with --image-format="
						   "avml)" : "");
		uint64_t data = off + PGW_LIME_HEADER_SIZE;
		uint64_t have = size - data;
		/* A cut-off capture keeps what arrived; the rest of the
		 * range is absent (truncated). */
		st = pgw_image_add_segment(img, h.start, h.size, data,
					   (unsigned)n, err);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "range %llu",
					      (unsigned long long)n);
		n++;
		if (h.size > have) {
			pgw_image_add_fact(img, "incomplete",
					   "file truncated: range %llu (0x%llx, "
					   "0x%llx bytes) is cut short: 0x%llx "
					   "bytes present",
					   (unsigned long long)n - 1,
					   (unsigned long long)h.start,
					   (unsigned long long)h.size,
					   (unsigned long long)have);
			break;
		}
		off = data + h.size;
	}
	st = pgw_image_seal_segments(img, "range", err);
	if (st != PGW_OK)
		return st;
	pgw_image_add_fact(img, "lime_ranges", "%llu",
			   (unsigned long long)n);
	return PGW_OK;
}

const struct pgw_format pgw_format_lime = {
	.name = "lime",
	.probe = lime_probe,
	.open = lime_open,
	.page = pgw_segments_page,
	.page_state = pgw_segments_page_state,
	.absent_bytes = pgw_segments_absent_bytes,
	.evidence = pgw_segments_evidence,
	.unheld_run = pgw_segments_unheld_run,
	.held_span = pgw_segments_held_span,
	.held_pages = pgw_segments_held_pages,
};
