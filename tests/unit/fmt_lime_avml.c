/*
 * LiME and AVML images written from synthetic memory: every page of a
 * range reads back byte-identical, pages outside every range (holes,
 * AVML's left-out zero blocks) are NODATA, and damaged files fail with a
 * one-line error or, when cut short, keep what they hold.
 */
#include "imgtest.h"

#define NPAGES 2048

/* Pages of m that an image should hold: present[pfn]. */
static uint64_t check(struct pgw_image *img, const struct dw_mem *m,
		      const bool *present, uint64_t *same_ret)
{
	uint64_t wrong = 0, same = 0;

	for (uint64_t pfn = 0; pfn < m->npages + 4; pfn++) {
		const uint8_t *p;
		struct pgw_err err = { 0 };
		enum pgw_status st = pgw_image_page(img, pfn, &p, &err);
		bool want = pfn < m->npages && present[pfn];
		if (!state_agrees(img, pfn, st, &err))
			wrong++;
		if (want && st == PGW_OK &&
		    memcmp(p, m->data + pfn * DW_PAGE, DW_PAGE) == 0)
			same++;
		else if (want || st != PGW_E_NODATA)
			wrong++;
	}
	*same_ret = same;
	return wrong;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Every page of a run pgw_image_unheld_run reports is one the file holds
 * nothing of (scans step over runs unread): NODATA, or zeros when the run
 * is zero-fill.  Returns pages wrongly inside a run. */
static uint64_t runs_wrong(struct pgw_image *img, uint64_t npages)
{
	uint64_t wrong = 0;

	for (uint64_t pfn = 0; pfn < npages; pfn++) {
		bool zero;
		uint64_t run = pgw_image_unheld_run(img, pfn, &zero);
		for (uint64_t k = 0; k < run && pfn + k < npages; k++) {
			const uint8_t *p;
			struct pgw_err err;
			enum pgw_status st = pgw_image_page(img, pfn + k, &p,
							    &err);
			if (zero ? st != PGW_OK || !all_zero(p, DW_PAGE)
				 : st != PGW_E_NODATA)
				wrong++;
		}
	}
	return wrong;
}

static void expect_pages(const char *name, const struct dw_buf *b,
			 const char *format, const struct dw_mem *m,
			 const bool *present)
{
	struct pgw_image *img;
	struct pgw_err err;
	uint64_t same;

	if (!ok(open_buf(b, NULL, &img, &err) == PGW_OK, "%s: opens", name)) {
		printf("#   %s\n", err.msg);
		return;
	}
	ok(strcmp(pgw_image_format(img), format) == 0, "%s: probed as %s",
	   name, format);
	uint64_t wrong = check(img, m, present, &same);
	ok(wrong == 0 && same > 0, "%s: %llu pages identical, %llu wrong",
	   name, (unsigned long long)same, (unsigned long long)wrong);
	wrong = runs_wrong(img, m->npages + 4);
	ok(wrong == 0, "%s: unheld runs hold no page (%llu wrong)", name,
	   (unsigned long long)wrong);
	pgw_image_close(img);
}

static void expect_open_error(const char *name, const struct dw_buf *b,
			      const char *want)
{
	struct pgw_image *img;
	struct pgw_err err;
	enum pgw_status st = open_buf(b, NULL, &img, &err);

	ok(st == PGW_E_FORMAT && msg_has(&err, want),
	   "%s: fails saying '%s'", name, want);
	if (st == PGW_OK)
		pgw_image_close(img);
	else if (!msg_has(&err, want))
		printf("#   got: %s\n", err.msg);
}

static void lime_tests(const struct dw_mem *m, const bool *present)
{
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;

	dw_write_lime(&b, m);
	expect_pages("lime", &b, "lime", m, present);

	/* Cut inside the last range: what arrived stays readable. */
	size_t full = b.len;
	b.len -= 3 * DW_PAGE + 100;
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "lime cut: opens")) {
		const uint8_t *p;
		uint64_t last = m->npages - 1;
		ok(strstr(fact(img, "incomplete"), "cut short") != NULL,
		   "lime cut: says the range is cut short");
		ok(pgw_image_page(img, last - 5, &p, &err) == PGW_OK &&
		   memcmp(p, m->data + (last - 5) * DW_PAGE, DW_PAGE) == 0,
		   "lime cut: pages before the cut read");
		ok(pgw_image_page(img, last - 3, &p, &err) == PGW_E_NODATA,
		   "lime cut: the partial page is NODATA");
		bool zero;
		uint64_t run = pgw_image_unheld_run(img, last - 2, &zero);
		ok(run == 3 && !zero && runs_wrong(img, m->npages) == 0,
		   "lime cut: the 3 whole pages past the cut are one unheld "
		   "run (%llu)", (unsigned long long)run);
		pgw_image_close(img);
	}
	b.len = full;

	/* end before start */
	dw_le(&b, 16, 0, 8);
	dw_le(&b, 8, 0x5000, 8);
	expect_open_error("lime end < start", &b, "before start");
	/* Ending at the last 64-bit address, start + size would wrap to 0. */
	dw_le(&b, 8, UINT64_C(0xfffffffffffff000), 8);
	dw_le(&b, 16, UINT64_MAX, 8);
	expect_open_error("lime end at 2^64 - 1", &b,
			  "top of the address space");
	dw_free(&b);
}

/* An AVML file of two uncompressed (LiME 1) ranges, the second inside the
 * first once sorted: overlap found whatever the order in the file. */
static void avml_overlap_test(void)
{
	static const uint64_t range[2][2] = {
		{ 0x2000, 0x2fff }, { 0x1000, 0x2fff },
	};
	struct dw_buf b = { 0 };
	struct pgw_image *img;
	struct pgw_err err;

	for (int i = 0; i < 2; i++) {
		size_t off = b.len, size = range[i][1] - range[i][0] + 1;
		dw_grow(&b, off + 32 + size);
		dw_le(&b, off, 0x4C694D45, 4);
		dw_le(&b, off + 4, 1, 4);
		dw_le(&b, off + 8, range[i][0], 8);
		dw_le(&b, off + 16, range[i][1], 8);
	}
	enum pgw_status st = open_buf(&b, "avml", &img, &err);
	ok(st == PGW_E_FORMAT && msg_has(&err, "ranges overlap at physical"),
	   "avml overlapping ranges: fails saying so");
	if (st == PGW_OK)
		pgw_image_close(img);
	else if (!msg_has(&err, "overlap"))
		printf("#   got: %s\n", err.msg);
	dw_free(&b);
}

#ifdef PGW_HAVE_SNAPPY
/* Offset of the first chunk header after the stream identifier. */
#define FIRST_CHUNK (32 + 10)

static void avml_tests(const struct dw_mem *m, const bool *present)
{
	struct dw_buf b, c;
	struct pgw_image *img;
	struct pgw_err err;
	char name[64];

	/* Blocks of 1 MiB: the zeroed MiB at 4 MiB is left out. */
	bool avail[NPAGES];
	memcpy(avail, present, sizeof(avail));
	for (uint64_t pfn = 1024; pfn < 1280; pfn++)
		avail[pfn] = false;
	static const size_t chunks[] = { 65536, 10000, 4096 };
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		snprintf(name, sizeof(name), "avml chunks of %zu", chunks[i]);
		dw_write_avml(&b, m, 1u << 20, chunks[i]);
		expect_pages(name, &b, "avml", m, avail);
		dw_free(&b);
	}
	/* The MiB left out is one run, from each of its pages to its end. */
	dw_write_avml(&b, m, 1u << 20, 65536);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "avml gap: opens")) {
		bool zero;
		uint64_t from_first = pgw_image_unheld_run(img, 1024, &zero);
		uint64_t from_mid = pgw_image_unheld_run(img, 1100, &zero);
		ok(from_first == 256 && from_mid == 180 && !zero &&
		   pgw_image_unheld_run(img, 1023, &zero) == 0,
		   "avml gap: the left-out MiB is an unheld run (%llu, %llu "
		   "pages)", (unsigned long long)from_first,
		   (unsigned long long)from_mid);
		pgw_image_close(img);
	}
	dw_free(&b);

	/* A LiME range inside an AVML file (avml convert leaves them). */
	dw_write_avml(&b, m, 1u << 20, 65536);
	dw_lime_header(&b, 0x4C694D45u, 1, (uint64_t)NPAGES * DW_PAGE,
		       (uint64_t)NPAGES * DW_PAGE + 2 * DW_PAGE - 1);
	uint8_t extra[2 * DW_PAGE];
	memset(extra, 0x5a, sizeof(extra));
	dw_append(&b, extra, sizeof(extra));
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK,
	       "avml + lime range: opens")) {
		const uint8_t *p;
		ok(pgw_image_page(img, NPAGES + 1, &p, &err) == PGW_OK &&
		   p[0] == 0x5a && p[4095] == 0x5a,
		   "avml + lime range: the LiME range reads");
		pgw_image_close(img);
	}
	dw_free(&b);

	/* Padding and skippable chunks between uncompressed ones, as the
	 * framing format allows: skipped, and never many hops per page. */
	static const uint8_t id[] = { 0xff, 6, 0, 0, 's', 'N', 'a', 'P', 'p',
				      'Y' };
	memset(&b, 0, sizeof(b));
	dw_lime_header(&b, 0x4C4D5641u, 2, 0, 32 * DW_PAGE - 1);
	size_t start = b.len;
	dw_append(&b, id, sizeof(id));
	for (unsigned pg = 0; pg < 32; pg++) {
		static const uint8_t pad[] = { 0xfe, 0, 0, 0 };
		static const uint8_t skip[] = { 0x80, 3, 0, 0, 1, 2, 3 };
		for (int k = 0; k < 100; k++)
			dw_append(&b, k % 2 ? pad : skip,
				  k % 2 ? sizeof(pad) : sizeof(skip));
		uint8_t h[8] = { 0x01, (4 + DW_PAGE) & 0xff, (4 + DW_PAGE) >> 8 };
		uint32_t crc = dw_crc32c_masked(m->data + pg * DW_PAGE, DW_PAGE);
		for (int i = 0; i < 4; i++)
			h[4 + i] = (uint8_t)(crc >> (8 * i));
		dw_append(&b, h, 8);
		dw_append(&b, m->data + pg * DW_PAGE, DW_PAGE);
	}
	dw_le(&b, b.len, b.len - start, 8);
	bool first32[NPAGES] = { false };
	for (int pg = 0; pg < 32; pg++)
		first32[pg] = true;
	expect_pages("avml padding chunks", &b, "avml", m, first32);
	dw_free(&b);

	dw_write_avml(&b, m, 1u << 20, 65536);
	/* A flipped bit in the first chunk's stored CRC: caught when a page
	 * of the chunk is read. */
	c = (struct dw_buf){ 0 };
	dw_put(&c, 0, b.p, b.len);
	c.p[FIRST_CHUNK + 5] ^= 0x01;
	if (ok(open_buf(&c, NULL, &img, &err) == PGW_OK, "avml crc: opens")) {
		const uint8_t *p;
		enum pgw_status st = pgw_image_page(img, 0, &p, &err);
		ok(st == PGW_E_NODATA && err.absence == PGW_ABSENT_CORRUPT &&
		   msg_has(&err, "CRC-32C"),
		   "avml crc: a page of the damaged chunk is not in the image "
		   "(corrupt): %s", err.msg);
		/* The chunk's 16 pages, and only they. */
		uint64_t bad = 0, good = 0;
		for (uint64_t pfn = 0; pfn < 64; pfn++) {
			st = pgw_image_page(img, pfn, &p, &err);
			bad += st == PGW_E_NODATA &&
			       err.absence == PGW_ABSENT_CORRUPT;
			good += st == PGW_OK;
		}
		ok(bad == 16 && good == 48,
		   "avml crc: the chunk's 16 pages are corrupt, the next 48 "
		   "read (%llu, %llu)", (unsigned long long)bad,
		   (unsigned long long)good);
		ok(pgw_image_page_state(img, 0) == PGW_ABSENT_NONE,
		   "avml crc: page_state cannot tell without decoding");
		pgw_image_close(img);
	}
	dw_free(&c);

	/* The trailer must count the stream.  The first range is 1 MiB in
	 * 16 chunks of 64 KiB after the identifier; its trailer follows. */
	dw_put(&c, 0, b.p, b.len);
	size_t pos = FIRST_CHUNK;
	for (int i = 0; i < 16; i++)
		pos += 4 + (c.p[pos + 1] | c.p[pos + 2] << 8 |
			    (size_t)c.p[pos + 3] << 16);
	dw_le(&c, pos, 12345, 8);
	expect_open_error("avml trailer", &c, "trailer says");
	dw_free(&c);

	/* Reserved, unskippable chunk type. */
	dw_put(&c, 0, b.p, b.len);
	c.p[FIRST_CHUNK] = 0x02;
	expect_open_error("avml reserved chunk", &c, "reserved type");
	dw_free(&c);

	/* No stream identifier first. */
	dw_put(&c, 0, b.p, b.len);
	c.p[32] = 0xfe;
	expect_open_error("avml no identifier", &c, "identifier");
	dw_free(&c);

	/* A chunk claiming more than 64 KiB decoded (snappy's varint). */
	dw_put(&c, 0, b.p, b.len);
	if (c.p[FIRST_CHUNK] == 0x00) {
		c.p[FIRST_CHUNK + 8] = 0x80;
		c.p[FIRST_CHUNK + 9] = 0x80;
		c.p[FIRST_CHUNK + 10] = 0x08;   /* 131072 */
		expect_open_error("avml chunk bomb", &c, "at most 65536");
	} else {
		ok(0, "avml chunk bomb: first chunk is not compressed");
	}
	dw_free(&c);

	/* Cut in the middle: the ranges before stay, the rest is missing. */
	dw_put(&c, 0, b.p, b.len / 2);
	if (ok(open_buf(&c, NULL, &img, &err) == PGW_OK, "avml cut: opens")) {
		const uint8_t *p;
		ok(strstr(fact(img, "incomplete"), "ends inside range") != NULL,
		   "avml cut: says where the file ends");
		ok(pgw_image_page(img, 1, &p, &err) == PGW_OK &&
		   memcmp(p, m->data + DW_PAGE, DW_PAGE) == 0,
		   "avml cut: early pages read");
		ok(pgw_image_page(img, NPAGES - 1, &p, &err) == PGW_E_NODATA,
		   "avml cut: late pages are NODATA");
		/* The range the file ends in: whole pages past its first
		 * truncated one are a run (ranges after it are not ranges). */
		uint64_t cut = 0, run = 0;
		bool zero = false;
		while (cut < NPAGES &&
		       (pgw_image_page(img, cut, &p, &err) != PGW_E_NODATA ||
			err.absence != PGW_ABSENT_TRUNCATED))
			cut++;
		if (cut < NPAGES)
			run = pgw_image_unheld_run(img, cut + 1, &zero);
		ok(run >= 1 && !zero && runs_wrong(img, NPAGES) == 0,
		   "avml cut: the part the file lacks is an unheld run (%llu "
		   "pages from 0x%llx)", (unsigned long long)run,
		   (unsigned long long)cut + 1);
		pgw_image_close(img);
	}
	dw_free(&c);
	dw_free(&b);
}
#endif

int main(void)
{
	struct dw_mem m;
	struct dw_synth s;
	bool present[NPAGES];

	dw_synth_mem(&m, NPAGES, 3, &s);
	dw_synth_filter(&m, &s, true);
	memset(m.data + 1024 * DW_PAGE, 0, 256 * DW_PAGE);
	for (uint64_t pfn = 0; pfn < NPAGES; pfn++)
		present[pfn] = m.kind[pfn] != DW_HOLE;
	lime_tests(&m, present);
	avml_overlap_test();
#ifdef PGW_HAVE_SNAPPY
	avml_tests(&m, present);
#else
	printf("ok %d - # skip AVML: no snappy in this build\n", ++tap_n);
#endif
	free(m.data);
	free(m.kind);
	return tap_done();
}
