/*
 * makedumpfile's flattened format as a view: records in any order, later
 * records overwriting earlier ones exactly as `makedumpfile -R` replays
 * them, gaps that stay gaps, and damaged record streams.
 */
#include "imgtest.h"

#define LOGICAL (64 * 4096)

static void header(struct dw_buf *b, uint64_t type)
{
	memset(b, 0, sizeof(*b));
	dw_put(b, 0, "makedumpfile", 12);
	dw_be64(b, 16, type);
	dw_be64(b, 24, 1);
	dw_grow(b, 4096);
}

static void end(struct dw_buf *b)
{
	size_t h = b->len;
	dw_be64(b, h, UINT64_MAX);
	dw_be64(b, h + 8, UINT64_MAX);
}

/* Random records over [0, LOGICAL), replayed into ref as -R would. */
static void random_records(struct dw_buf *b, uint8_t *ref, uint64_t seed,
			   unsigned n)
{
	static uint8_t data[LOGICAL];
	uint64_t r = seed;

	header(b, 1);
	/* Cover everything once, so the raw view has no gap. */
	for (size_t i = 0; i < LOGICAL; i++)
		data[i] = (uint8_t)dw_rand(&r);
	dw_flat_record(b, 0, data, LOGICAL);
	memcpy(ref, data, LOGICAL);
	for (unsigned k = 0; k < n; k++) {
		uint64_t off = dw_rand(&r) % LOGICAL;
		uint64_t len = 1 + dw_rand(&r) % 20000;
		if (len > LOGICAL - off)
			len = LOGICAL - off;
		memset(data, (int)(k + 1), len);
		dw_flat_record(b, off, data, len);
		memcpy(ref + off, data, len);
	}
	end(b);
}

static void precedence(void)
{
	static uint8_t ref[LOGICAL], got[LOGICAL];
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;

	for (uint64_t seed = 1; seed <= 3; seed++) {
		random_records(&b, ref, seed * 977, 300);
		if (!ok(open_buf(&b, "raw", &img, &err) == PGW_OK,
			"300 overlapping records (seed %llu): opens",
			(unsigned long long)seed)) {
			printf("#   %s\n", err.msg);
			dw_free(&b);
			continue;
		}
		ok(pgw_image_read(img, 0, got, LOGICAL, &err) == PGW_OK &&
		   memcmp(got, ref, LOGICAL) == 0,
		   "seed %llu: every byte is the last record's, as -R writes",
		   (unsigned long long)seed);
		ok(atoi(fact(img, "flattened_overwritten")) > 0,
		   "seed %llu: info counts overwritten records: %s",
		   (unsigned long long)seed, fact(img, "flattened_overwritten"));
		pgw_image_close(img);
		dw_free(&b);
	}
}

static void gaps_and_order(void)
{
	uint8_t a[8192], c[4096];
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;
	const uint8_t *p;

	memset(a, 'a', sizeof(a));
	memset(c, 'c', sizeof(c));
	header(&b, 1);
	/* Backwards, with a gap at [8192, 12288). */
	dw_flat_record(&b, 12288, c, sizeof(c));
	dw_flat_record(&b, 0, a, sizeof(a));
	end(&b);
	if (ok(open_buf(&b, "raw", &img, &err) == PGW_OK, "backwards: opens")) {
		ok(pgw_image_page(img, 3, &p, &err) == PGW_OK && p[0] == 'c',
		   "backwards: the later-offset record reads");
		ok(pgw_image_page(img, 1, &p, &err) == PGW_OK && p[4095] == 'a',
		   "backwards: the earlier-offset record reads");
		enum pgw_status st = pgw_image_page(img, 2, &p, &err);
		ok(st == PGW_E_NODATA && err.absence == PGW_ABSENT_MISSING &&
		   msg_has(&err, "not in the file"),
		   "gap: never written, so not in the image (missing), not "
		   "zeros: %s", err.msg);
		ok(pgw_image_page_state(img, 2) == PGW_ABSENT_MISSING,
		   "gap: page_state says missing");
		pgw_image_close(img);
	}
	dw_free(&b);

	/* The same records without the end marker: the gap may be what a
	 * cut left unwritten, so its page is truncated. */
	header(&b, 1);
	dw_flat_record(&b, 12288, c, sizeof(c));
	dw_flat_record(&b, 0, a, sizeof(a));
	if (ok(open_buf(&b, "raw", &img, &err) == PGW_OK, "no end: opens")) {
		enum pgw_status st = pgw_image_page(img, 2, &p, &err);
		ok(st == PGW_E_NODATA && err.absence == PGW_ABSENT_TRUNCATED,
		   "no end: the gap is truncated: %s", err.msg);
		ok(pgw_image_page(img, 3, &p, &err) == PGW_OK && p[0] == 'c',
		   "no end: what arrived reads");
		pgw_image_close(img);
	}
	dw_free(&b);
}

static void damaged(void)
{
	uint8_t a[4096];
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;
	enum pgw_status st;

	memset(a, 'a', sizeof(a));
	header(&b, 1);
	dw_flat_record(&b, 0, a, sizeof(a));
	size_t h = b.len;
	dw_be64(&b, h, (uint64_t)-4096);      /* points before the start */
	dw_be64(&b, h + 8, 4096);
	dw_append(&b, a, sizeof(a));
	end(&b);
	st = open_buf(&b, "raw", &img, &err);
	ok(st == PGW_E_FORMAT && msg_has(&err, "offset -4096"),
	   "negative offset: %s", err.msg);
	dw_free(&b);

	header(&b, 1);
	dw_flat_record(&b, 0, a, sizeof(a));
	h = b.len;
	dw_be64(&b, h, 4096);
	dw_be64(&b, h + 8, 0);                 /* neither data nor the end */
	st = open_buf(&b, "raw", &img, &err);
	ok(st == PGW_E_FORMAT && msg_has(&err, "size 0"),
	   "zero-size record: %s", err.msg);
	dw_free(&b);

	header(&b, 1);
	dw_flat_record(&b, 0, a, sizeof(a));
	h = b.len;
	dw_be64(&b, h, UINT64_C(0x7ffffffffffff000));
	dw_be64(&b, h + 8, 0x2000);
	st = open_buf(&b, "raw", &img, &err);
	ok(st == PGW_E_FORMAT && msg_has(&err, "overflows"),
	   "record past 2^63: %s", err.msg);
	dw_free(&b);

	header(&b, 2);
	dw_flat_record(&b, 0, a, sizeof(a));
	end(&b);
	st = open_buf(&b, "raw", &img, &err);
	ok(st == PGW_E_UNSUPPORTED && msg_has(&err, "type 2"),
	   "unknown type: %s", err.msg);
	dw_free(&b);

	header(&b, 1);
	b.len = 2000;
	st = open_buf(&b, "raw", &img, &err);
	ok(st == PGW_E_FORMAT && msg_has(&err, "header truncated"),
	   "short header: %s", err.msg);
	dw_free(&b);

	header(&b, 1);
	end(&b);
	st = open_buf(&b, "raw", &img, &err);
	ok(st == PGW_E_FORMAT && msg_has(&err, "no data records"),
	   "no records: %s", err.msg);
	dw_free(&b);

	/* Cut inside a record, no end marker: keep what is there. */
	header(&b, 1);
	dw_flat_record(&b, 0, a, sizeof(a));
	dw_flat_record(&b, 4096, a, sizeof(a));
	b.len -= 100;
	if (ok(open_buf(&b, "raw", &img, &err) == PGW_OK, "cut record: opens")) {
		const uint8_t *p;
		ok(strstr(fact(img, "flattened_incomplete"), "cut short") != NULL,
		   "cut record: info says so");
		ok(pgw_image_page(img, 0, &p, &err) == PGW_OK,
		   "cut record: the whole record reads");
		pgw_image_close(img);
	}
	dw_free(&b);
}

int main(void)
{
	precedence();
	gaps_and_order();
	damaged();
	return tap_done();
}
