/*
 * Physical memory as stretches of the stream (ELF PT_LOADs, LiME ranges,
 * a raw file): what segment-based formats add at open, and the page
 * access every one of them shares.
 *
 * Segments may overlap, and what a reader does there decides what the
 * evidence says, so the rules are fixed here once (docs/formats.md):
 *   - bytes in the file win over absent stretches: an excluded tail
 *     (ELF p_memsz beyond p_filesz) and the part of a segment the file
 *     lost;
 *   - two segments giving the same physical memory from different bytes
 *     of the file are both kept and compared when a page is read: where
 *     they differ the page is corrupt (PGW_E_NODATA, PGW_ABSENT_CORRUPT),
 *     never "first wins"; more than PGW_SEG_MAX_ALT + 1 of them at one
 *     address are corrupt unread;
 *   - a segment whose bytes run past the end of the file keeps what is
 *     there; the rest is absent, truncated.
 */
#ifndef PGW_SEGMENTS_H
#define PGW_SEGMENTS_H

#include "pgwalk.h"

struct pgw_image;

/*
 * Bytes [offset, offset+size) of the stream are physical [pa, pa+size).
 * The part past the end of the stream is added as absent (truncated).
 * id numbers the segment in messages ("PT_LOAD 3").
 */
enum pgw_status pgw_image_add_segment(struct pgw_image *img, uint64_t pa,
				      uint64_t size, uint64_t offset,
				      unsigned id, struct pgw_err *err);
/* Physical memory the image describes but does not hold, and why. */
enum pgw_status pgw_image_add_absent_segment(struct pgw_image *img,
					     uint64_t pa, uint64_t size,
					     enum pgw_absence why, unsigned id,
					     struct pgw_err *err);
/*
 * Resolve overlaps by the rules above, build the ranges `info` shows and
 * decide whether pages can be served from the map (img->zero_copy).  noun
 * names a segment in messages ("PT_LOAD", "range").
 */
enum pgw_status pgw_image_seal_segments(struct pgw_image *img,
					const char *noun, struct pgw_err *err);
void pgw_segments_free(struct pgw_image *img);

/* Segments added (before overlaps are resolved). */
size_t pgw_segments_count(const struct pgw_image *img);

/* struct pgw_format operations for segment formats. */
enum pgw_status pgw_segments_page(struct pgw_image *img, uint64_t pfn,
				  uint8_t *buf, const uint8_t **page_ret,
				  struct pgw_err *err);
enum pgw_absence pgw_segments_page_state(struct pgw_image *img, uint64_t pfn);
void pgw_segments_absent_bytes(struct pgw_image *img, uint64_t pa,
			       uint64_t last,
			       uint64_t counts[PGW_NABSENCES]);
void pgw_segments_evidence(struct pgw_image *img, struct pgw_evidence *ev);
uint64_t pgw_segments_held_pages(const struct pgw_image *img);
/* Whole pages from pfn on that hold no bytes of the file: a piece the
 * file lacks (excluded, cut short, damaged) or a gap up to the next
 * piece (*zero_ret stays false: none of it reads as zeros).  0 when pfn holds
 * data (or the run is not known). */
/* format.h's held_span, for segment-based formats. */
uint64_t pgw_segments_held_span(struct pgw_image *img, uint64_t pfn,
				uint64_t *first_ret);
uint64_t pgw_segments_unheld_run(struct pgw_image *img, uint64_t pfn,
				 bool *zero_ret);

#endif
