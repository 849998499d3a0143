/*
 * A worker image starts with a copy of the pages its image decoded
 * (pgw_page_cache_seed): it finds them without decoding them again, with
 * the very bytes; only pages committed are copied (not a slot handed out
 * and given back, not a page dropped); and nothing is shared after, so
 * what either cache drops, resets or refills later the other does not see.
 */
#include "imgtest.h"
#include "formats/page_cache.h"

#define SLOTS 16
#define NPAGES 300

/* Page pfn as the tests below fill it: every byte the same, from pfn. */
static void fill(uint8_t *p, uint64_t pfn)
{
	memset(p, (int)(pfn * 7 + 1) & 0xff, PGW_PAGE_SIZE);
}

static bool holds(struct pgw_page_cache *c, uint64_t pfn)
{
	const uint8_t *p = pgw_page_cache_get(c, pfn);
	uint8_t want[PGW_PAGE_SIZE];

	fill(want, pfn);
	return p && memcmp(p, want, PGW_PAGE_SIZE) == 0;
}

static void caches(void)
{
	struct pgw_page_cache *src = pgw_page_cache_new(SLOTS);
	struct pgw_page_cache *dst = pgw_page_cache_new(SLOTS);
	struct pgw_page_cache *small = pgw_page_cache_new(SLOTS / 2);

	if (!ok(src && dst && small, "caches made")) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	/* pfns 100..109 committed, 110 handed out and given back, 105
	 * dropped. */
	for (uint64_t pfn = 100; pfn < 110; pfn++) {
		fill(pgw_page_cache_slot(src, pfn), pfn);
		pgw_page_cache_commit(src, pfn);
	}
	fill(pgw_page_cache_slot(src, 110), 110);
	pgw_page_cache_unslot(src);
	pgw_page_cache_drop(src, 105);

	pgw_page_cache_seed(dst, src);
	unsigned found = 0, apart = 0;
	for (uint64_t pfn = 100; pfn < 110; pfn++) {
		found += holds(dst, pfn);
		const uint8_t *p = pgw_page_cache_get(dst, pfn);
		apart += p && p != pgw_page_cache_get(src, pfn);
	}
	is_u64(found, 9, "the seeded cache finds the 9 pages src holds");
	is_u64(apart, 9, "... each a copy of its own (not src's memory)");
	ok(!pgw_page_cache_get(dst, 105), "a page src dropped is not copied");
	ok(!pgw_page_cache_get(dst, 110), "a slot given back is not copied");
	is_u64(*pgw_page_cache_epoch(dst), 0, "the seeded cache gave nothing "
	       "up (pointers from it stay valid)");

	/* src changes after: dst does not see it. */
	pgw_page_cache_drop(src, 101);
	for (uint64_t pfn = 200; pfn < 200 + SLOTS; pfn++) {
		memset(pgw_page_cache_slot(src, pfn), 0xee, PGW_PAGE_SIZE);
		pgw_page_cache_commit(src, pfn);
	}
	ok(!pgw_page_cache_get(src, 101) && !pgw_page_cache_get(src, 102),
	   "src dropped 101 and gave every slot to other pages");
	found = 0;
	for (uint64_t pfn = 100; pfn < 110; pfn++)
		found += holds(dst, pfn);
	is_u64(found, 9, "dst still finds its 9 pages, bytes unchanged");
	pgw_page_cache_reset(src);
	ok(holds(dst, 101), "src reset: dst still finds 101");

	/* And the other way: dst's changes do not reach src. */
	pgw_page_cache_seed(small, dst);
	pgw_page_cache_drop(small, 100);
	ok(holds(dst, 100), "dst still finds 100 its copy dropped");
	found = 0;
	for (uint64_t pfn = 100; pfn < 110; pfn++)
		found += holds(small, pfn) == (pgw_page_cache_get(small, pfn)
					       != NULL);
	is_u64(found, 10, "a smaller cache seeded: what it finds is right");

	/* dst's next pages are given up in src's order: the oldest first. */
	struct pgw_page_cache *order = pgw_page_cache_new(SLOTS);
	for (uint64_t pfn = 300; pfn < 300 + SLOTS; pfn++) {
		fill(pgw_page_cache_slot(src, pfn), pfn);
		pgw_page_cache_commit(src, pfn);
	}
	for (uint64_t pfn = 300; pfn < 304; pfn++) {
		fill(pgw_page_cache_slot(src, pfn + 100), pfn + 100);
		pgw_page_cache_commit(src, pfn + 100);
	}
	pgw_page_cache_seed(order, src);
	fill(pgw_page_cache_slot(order, 500), 500);
	pgw_page_cache_commit(order, 500);
	ok(order && !pgw_page_cache_get(order, 304) &&
	   holds(order, 305) && holds(order, 403) && holds(order, 500),
	   "the seeded cache gives up src's oldest page next");

	/* A cache that decoded a page before it is seeded gives it up:
	 * its slot now holds one of src's, found under that page alone. */
	struct pgw_page_cache *used = pgw_page_cache_new(SLOTS);
	if (used) {
		fill(pgw_page_cache_slot(used, 900), 900);
		pgw_page_cache_commit(used, 900);
		pgw_page_cache_seed(used, src);
	}
	ok(used && !pgw_page_cache_get(used, 900) && holds(used, 403) &&
	   *pgw_page_cache_epoch(used) == 1,
	   "a page the seeded cache held before is given up (epoch 1)");
	pgw_page_cache_free(used);
	pgw_page_cache_free(order);
	pgw_page_cache_free(small);
	pgw_page_cache_free(src);
	pgw_page_cache_free(dst);
}

/* A kdump (zlib, every page compressed where it shrinks) whose image
 * decoded some pages before its workers opened. */
static void workers(void)
{
	struct dw_synth s;
	struct dw_mem m;
	struct dw_kdump_opts o = { .codec = DW_ZLIB };
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_image *const *w;
	struct pgw_err err;
	const uint8_t *mine, *theirs;

	dw_synth_mem(&m, NPAGES, 3, &s);
	dw_write_kdump(&b, &m, &o, NULL);
	if (!ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "kdump opens")) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	unsigned read = 0;
	for (uint64_t pfn = 10; pfn < 40; pfn++)
		read += pgw_image_page(img, pfn, &mine, &err) == PGW_OK;
	uint64_t filled = pgw_image_pages_filled(img);
	ok(read == 30 && filled > 0, "the image decoded %llu of the 30 pages "
	   "read", (unsigned long long)filled);
	if (!ok(pgw_image_workers(img, 2, &w, &err) == PGW_OK,
		"two workers open")) {
		printf("#   %s\n", err.msg);
		pgw_image_close(img);
		dw_free(&b);
		return;
	}
	unsigned same = 0, own = 0;
	for (int i = 0; i < 2; i++)
		for (uint64_t pfn = 10; pfn < 40; pfn++) {
			if (pgw_image_page(img, pfn, &mine, &err) != PGW_OK ||
			    pgw_image_page(w[i], pfn, &theirs, &err) !=
			    PGW_OK)
				continue;
			same += memcmp(mine, theirs, PGW_PAGE_SIZE) == 0 &&
				memcmp(theirs, m.data + pfn * DW_PAGE,
				       DW_PAGE) == 0;
			own += mine != theirs;
		}
	is_u64(same, 60, "each worker reads the 30 pages, their bytes");
	/* Pages stored whole are read in place, in the one map. */
	is_u64(own, 2 * filled, "... the %llu decoded from a copy of its own",
	       (unsigned long long)filled);
	is_u64(pgw_image_pages_filled(w[0]) + pgw_image_pages_filled(w[1]),
	       0, "the workers decoded none of them again");
	is_u64(pgw_image_pages_filled(img), filled,
	       "nor did the image (%llu pages decoded in all)",
	       (unsigned long long)filled);
	unsigned right = 0;
	for (uint64_t pfn = 50; pfn < 90; pfn++)
		right += pgw_image_page(w[0], pfn, &theirs, &err) == PGW_OK &&
			 memcmp(theirs, m.data + pfn * DW_PAGE, DW_PAGE) == 0;
	ok(right == 40 && pgw_image_pages_filled(w[0]) > 0,
	   "pages the image never read, a worker decodes itself (%llu)",
	   (unsigned long long)pgw_image_pages_filled(w[0]));
	pgw_image_close(img);
	dw_free(&b);
	free(m.data);
	free(m.kind);
}

int main(void)
{
	caches();
	workers();
	return tap_done();
}
