#include <string.h>

#include "search_feed.h"
#include "../formats/image_page.h"

/* A step's bytes must fit in 64 bits (a hostile header may claim a run
 * up to the top of the address space). */
#define MAX_STEP (UINT64_C(1) << 40)

static bool zeros_match_nothing(const struct scanner *sc)
{
	static const uint8_t zeros[PATTERN_MAX];

	for (size_t i = 0; i < sc->npat; i++) {
		const struct pattern *p = sc->pat[i];
		if (p->kind == PGW_PATTERN_REGEX || p->kind == PGW_PATTERN_YARA ||
		    pattern_at(p, zeros))
			return false;
	}
	return true;
}

void search_feed_init(struct search_feed *f, struct pgw_image *img,
		      struct scanner *sc, uint64_t *not_in_image)
{
	*f = (struct search_feed){
		.img = img, .sc = sc, .not_in_image = not_in_image,
		.skip_zeros = zeros_match_nothing(sc),
	};
}

bool search_feed_page(struct search_feed *f, uint64_t addr, uint64_t pa)
{
	uint64_t pfn = pa >> PGW_PAGE_SHIFT;
	enum pgw_absence why = pgw_image_page_state(f->img, pfn);
	struct pgw_err err = { 0 };

	if (why == PGW_ABSENT_NONE) {
		uint8_t *slot = scan_slot(f->sc, addr, pa);
		if (pgw_image_read_page(f->img, pfn, slot, &err) == PGW_OK) {
			scan_commit(f->sc);
			return true;
		}
		why = err.absence != PGW_ABSENT_NONE ? err.absence :
						       PGW_ABSENT_CORRUPT;
	}
	if (f->not_in_image)
		f->not_in_image[why] += PGW_PAGE_SIZE;
	scan_break(f->sc);
	return false;
}

bool search_feed_frame(struct search_feed *f, uint64_t pfn)
{
	return search_feed_page(f, pfn << PGW_PAGE_SHIFT,
				pfn << PGW_PAGE_SHIFT);
}

/* A page that reads as zeros, given as zeros without faulting the file's
 * hole in. */
static void feed_zeros(struct search_feed *f, uint64_t pfn)
{
	uint64_t pa = pfn << PGW_PAGE_SHIFT;

	memset(scan_slot(f->sc, pa, pa), 0, PGW_PAGE_SIZE);
	scan_commit(f->sc);
}

/* n frames of zeros from pfn: searched at their ends only when no
 * pattern can match inside (search_feed.h), the rest counted searched. */
static bool stopped(const struct search_feed *f)
{
	return f->stopped && *f->stopped;
}

static void zero_run(struct search_feed *f, uint64_t pfn, uint64_t n)
{
	if (!f->skip_zeros || n < 3) {
		for (uint64_t k = 0; k < n && !stopped(f); k++)
			feed_zeros(f, pfn + k);
		return;
	}
	feed_zeros(f, pfn);
	scan_break(f->sc);
	if (stopped(f))
		return;
	f->sc->bytes += (n - 2) << PGW_PAGE_SHIFT;
	feed_zeros(f, pfn + n - 1);
}

/* n frames from pfn the file holds nothing of, counted by reason in one
 * step; false when the index gives some of them as held (then they are
 * fed one by one). */
static bool absent_run(struct search_feed *f, uint64_t pfn, uint64_t n)
{
	uint64_t counts[PGW_NABSENCES];

	pgw_image_absent_bytes(f->img, pfn << PGW_PAGE_SHIFT,
			       n << PGW_PAGE_SHIFT, counts);
	if (counts[PGW_ABSENT_NONE])
		return false;
	for (size_t k = 0; f->not_in_image && k < PGW_NABSENCES; k++)
		f->not_in_image[k] += counts[k];
	scan_break(f->sc);
	return true;
}

void search_feed_frames(struct search_feed *f, uint64_t pfn, uint64_t end)
{
	while (pfn < end && !stopped(f)) {
		uint64_t left = end - pfn < MAX_STEP ? end - pfn : MAX_STEP;
		bool zero;
		uint64_t n = pgw_image_unheld_run(f->img, pfn, &zero);
		if (n && !zero) {
			n = n < left ? n : left;
			if (!absent_run(f, pfn, n)) {
				for (uint64_t k = 0; k < n && !stopped(f); k++)
					search_feed_frame(f, pfn + k);
			}
			pfn += n;
			continue;
		}
		if (!n)
			n = pgw_image_hole_run(f->img, pfn);
		if (!n) {
			search_feed_frame(f, pfn++);
			continue;
		}
		n = n < left ? n : left;
		zero_run(f, pfn, n);
		pfn += n;
	}
}

uint64_t search_feed_run(struct pgw_image *img, uint64_t pfn)
{
	bool zero;
	uint64_t n = pgw_image_unheld_run(img, pfn, &zero);

	return n ? n : pgw_image_hole_run(img, pfn);
}
