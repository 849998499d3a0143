/*
 * Damaged kdump files: each fails with one clear line (at open, or when
 * the damaged page is read), never a crash or a huge allocation; cut-off
 * and incomplete dumps keep what they hold and say what is missing.
 */
#include "imgtest.h"

#define NPAGES 3000

static struct dw_mem mem;
static struct dw_kdump_opts opts = { .codec = DW_ZLIB, .layout = 64 };

/* A fresh good image and where its parts are. */
static void image(struct dw_buf *b, struct dw_kdump_info *in)
{
	dw_write_kdump(b, &mem, &opts, in);
}

static void open_fails(const char *name, const struct dw_buf *b,
		       enum pgw_status want, const char *text)
{
	struct pgw_image *img;
	struct pgw_err err;
	enum pgw_status st = open_buf(b, NULL, &img, &err);

	ok(st == want && msg_has(&err, text), "%s: open fails: %s", name,
	   st == PGW_OK ? "(opened)" : err.msg);
	if (st == PGW_OK)
		pgw_image_close(img);
}

/*
 * One damaged page is that page not in the image, with its reason, never
 * an error of the whole image: the page is NODATA (why), the cheap state
 * says so too unless only decoding can tell (decoded), and the other
 * pages read.
 */
static void page_fails(const char *name, const struct dw_buf *b,
		       uint64_t pfn, enum pgw_absence why, bool decoded,
		       const char *text)
{
	struct pgw_image *img;
	struct pgw_err err;
	const uint8_t *p;

	if (!ok(open_buf(b, NULL, &img, &err) == PGW_OK, "%s: opens", name)) {
		printf("#   %s\n", err.msg);
		return;
	}
	enum pgw_status st = pgw_image_page(img, pfn, &p, &err);
	ok(st == PGW_E_NODATA && err.absence == why && msg_has(&err, text),
	   "%s: pfn %llu is not in the image (%s): %s", name,
	   (unsigned long long)pfn, pgw_absence_key(why),
	   st == PGW_OK ? "(read)" : err.msg);
	enum pgw_absence state = pgw_image_page_state(img, pfn);
	ok(state == (decoded ? PGW_ABSENT_NONE : why),
	   "%s: page_state says %s", name, pgw_absence_key(state));
	/* The neighbours are fine. */
	ok(pgw_image_page(img, pfn + 8, &p, &err) == PGW_OK,
	   "%s: other pages still read", name);
	/* Asked about often, the block's descriptors are checked at once
	 * (kdump_count.c): its damaged page still says so, and a good one
	 * is held. */
	for (uint64_t i = 0; i < 40; i++)
		pgw_image_page_state(img, pfn + 8 + i);
	state = pgw_image_page_state(img, pfn);
	ok(state == (decoded ? PGW_ABSENT_NONE : why),
	   "%s: page_state says %s after its block is summed", name,
	   pgw_absence_key(state));
	ok(pgw_image_page_state(img, pfn + 8) == PGW_ABSENT_NONE,
	   "%s: ... and a good page of the block is held", name);
	pgw_image_close(img);
}

static void set_desc(struct dw_buf *b, const struct dw_kdump_info *in,
		     uint64_t idx, uint64_t off, uint32_t size, uint32_t flags)
{
	dw_le(b, in->desc_off + idx * 24, off, 8);
	dw_le(b, in->desc_off + idx * 24 + 8, size, 4);
	dw_le(b, in->desc_off + idx * 24 + 12, flags, 4);
}

static void header_damage(void)
{
	struct dw_buf b;
	struct dw_kdump_info in;

	image(&b, &in);
	b.len = 100;
	open_fails("truncated header", &b, PGW_E_FORMAT,
		   "disk_dump_header truncated");
	dw_free(&b);

	image(&b, &in);
	b.len = 4096 + 50;
	open_fails("truncated sub-header", &b, PGW_E_FORMAT,
		   "kdump_sub_header truncated");
	dw_free(&b);

	image(&b, &in);
	for (size_t i = 8; i < 464; i++)
		b.p[i] = (uint8_t)(i * 131 + 7);
	open_fails("garbage header", &b, PGW_E_FORMAT, "no sense in any known");
	dw_free(&b);

	image(&b, &in);
	dw_le(&b, in.max_mapnr64_off, in.bitmap_len * 8 + 1, 8);
	dw_le(&b, in.max_mapnr_off, in.bitmap_len * 8 + 1, 4);
	open_fails("bitmap shorter than max_mapnr", &b, PGW_E_FORMAT,
		   "shorter than max_mapnr");
	/* Billions of pages: refused before anything is allocated. */
	dw_le(&b, in.max_mapnr64_off, UINT64_C(5000000000), 8);
	dw_le(&b, in.max_mapnr_off, 0xffffffff, 4);
	open_fails("billions of pages", &b, PGW_E_FORMAT,
		   "shorter than max_mapnr");
	dw_le(&b, in.bitmap_blocks_off, 0x7ffffffe, 4);
	open_fails("billions of bitmap blocks", &b, PGW_E_FORMAT,
		   "past the end of the file");
	dw_free(&b);

	image(&b, &in);
	dw_le(&b, in.bitmap_blocks_off, 3, 4);
	open_fails("odd bitmap blocks", &b, PGW_E_FORMAT, "bitmap_blocks is 3");
	dw_free(&b);

	image(&b, &in);
	dw_le(&b, in.status_off + 4, 131072, 4);
	open_fails("128 KiB blocks", &b, PGW_E_UNSUPPORTED,
		   "block size 131072");
	dw_le(&b, in.status_off + 4, 2048, 4);
	open_fails("2 KiB blocks", &b, PGW_E_UNSUPPORTED, "block size 2048");
	dw_free(&b);

	image(&b, &in);
	dw_le(&b, in.sub_off + 48, 4200, 8);          /* offset_note */
	dw_le(&b, in.sub_off + 56, UINT64_C(1) << 40, 8);
	open_fails("huge notes", &b, PGW_E_FORMAT, "implausibly large");
	dw_le(&b, in.sub_off + 48, b.len - 10, 8);
	dw_le(&b, in.sub_off + 56, 1000, 8);
	open_fails("notes past the end", &b, PGW_E_FORMAT,
		   "are not in the file");
	dw_free(&b);
}

/* A compressed stream of `len` bytes of a pattern with codec c. */
static size_t bomb(enum dw_codec c, size_t len, uint8_t *out, size_t cap)
{
	static uint8_t in[16384];
	memset(in, 'A', sizeof(in));
	switch (c) {
	case DW_ZLIB: {
		uLongf n = cap;
		return compress2(out, &n, in, len, 9) == Z_OK ? n : 0;
	}
#ifdef PGW_HAVE_LZO
	case DW_LZO: {
		static uint8_t wrk[LZO1X_1_MEM_COMPRESS];
		lzo_uint n = cap;
		lzo_init();
		return lzo1x_1_compress(in, len, out, &n, wrk) == LZO_E_OK ?
			       n : 0;
	}
#endif
#ifdef PGW_HAVE_SNAPPY
	case DW_SNAPPY: {
		size_t n = cap;
		return snappy_compress((const char *)in, len, (char *)out,
				       &n) == SNAPPY_OK ? n : 0;
	}
#endif
#ifdef PGW_HAVE_ZSTD
	case DW_ZSTD: {
		size_t n = ZSTD_compress(out, cap, in, len, 3);
		return ZSTD_isError(n) ? 0 : n;
	}
#endif
	default:
		return 0;
	}
}

static void page_damage(void)
{
	struct dw_buf b;
	struct dw_kdump_info in;
	char name[96];

	image(&b, &in);
	set_desc(&b, &in, 0, b.len + 4096, 100, 1);
	page_fails("descriptor past EOF", &b, 0, PGW_ABSENT_TRUNCATED, false,
		   "past the end of the file");
	dw_free(&b);

	/* Data far beyond where any writer puts page data: a damaged
	 * offset, not a cut file. */
	image(&b, &in);
	set_desc(&b, &in, 0, UINT64_C(1) << 40, 100, 1);
	page_fails("descriptor offset 2^40", &b, 0, PGW_ABSENT_CORRUPT, false,
		   "points beyond any page data");
	dw_free(&b);

	image(&b, &in);
	set_desc(&b, &in, 1, in.data_off, 5000, 1);
	page_fails("compressed size > page", &b, 1, PGW_ABSENT_CORRUPT, false,
		   "5000 bytes");
	set_desc(&b, &in, 1, in.data_off, 0, 1);
	page_fails("size 0", &b, 1, PGW_ABSENT_CORRUPT, false,
		   "claims 0 bytes");
	set_desc(&b, &in, 1, in.data_off, 100, 0x3);
	page_fails("two codecs", &b, 1, PGW_ABSENT_CORRUPT, false,
		   "two compressions");
	set_desc(&b, &in, 1, in.data_off, 100, 0);
	page_fails("short uncompressed page", &b, 1, PGW_ABSENT_CORRUPT, false,
		   "uncompressed page a size other than a page");
	dw_free(&b);

	/* Bombs: streams that decode past a page, and ones that fall short. */
	for (int c = DW_ZLIB; c <= DW_ZSTD; c++) {
		uint8_t z[20000];
		if (!dw_codecs[c].built) {
			printf("ok %d - # skip no %s\n", ++tap_n,
			       dw_codecs[c].name);
			continue;
		}
		size_t n = bomb((enum dw_codec)c, 16384, z, sizeof(z));
		image(&b, &in);
		size_t at = b.len;
		dw_append(&b, z, n);
		set_desc(&b, &in, 2, at, (uint32_t)n, dw_codecs[c].flag);
		snprintf(name, sizeof(name), "%s bomb (16 KiB in %zu bytes)",
			 dw_codecs[c].name, n);
		page_fails(name, &b, 2, PGW_ABSENT_CORRUPT, true,
			   "more than 4096 bytes");
		dw_free(&b);

		n = bomb((enum dw_codec)c, 2048, z, sizeof(z));
		image(&b, &in);
		at = b.len;
		dw_append(&b, z, n);
		set_desc(&b, &in, 2, at, (uint32_t)n, dw_codecs[c].flag);
		snprintf(name, sizeof(name), "%s short page",
			 dw_codecs[c].name);
		page_fails(name, &b, 2, PGW_ABSENT_CORRUPT, true, "not 4096");
		dw_free(&b);

		image(&b, &in);
		memset(z, 0xee, 300);
		at = b.len;
		dw_append(&b, z, 300);
		set_desc(&b, &in, 2, at, 300, dw_codecs[c].flag);
		snprintf(name, sizeof(name), "%s garbage", dw_codecs[c].name);
		page_fails(name, &b, 2, PGW_ABSENT_CORRUPT, true,
			   dw_codecs[c].name);
		dw_free(&b);
	}
}

/* Every dumped page reads or is NODATA saying it is missing. */
static void incomplete(const char *name, const struct dw_buf *b,
		       const char *fact_text, const char *why, bool some_read)
{
	struct pgw_image *img;
	struct pgw_err err;
	uint64_t read = 0, missing = 0, wrong = 0, why_ok = 0;

	if (!ok(open_buf(b, NULL, &img, &err) == PGW_OK, "%s: opens", name)) {
		printf("#   %s\n", err.msg);
		return;
	}
	ok(strstr(fact(img, "incomplete"), fact_text) != NULL,
	   "%s: info says '%s'", name, fact(img, "incomplete"));
	for (uint64_t pfn = 0; pfn < mem.npages; pfn++) {
		const uint8_t *p;
		enum pgw_status st = pgw_image_page(img, pfn, &p, &err);
		if (st == PGW_OK && !memcmp(p, mem.data + pfn * DW_PAGE,
					    DW_PAGE))
			read++;
		else if (st == PGW_E_NODATA &&
			 msg_has(&err, "missing from the dump")) {
			missing++;
			why_ok += msg_has(&err, why);
		} else
			wrong++;
		wrong += !state_agrees(img, pfn, st, &err);
	}
	ok((read > 0) == some_read && missing > 0 && wrong == 0,
	   "%s: %llu pages read, %llu missing, %llu wrong", name,
	   (unsigned long long)read, (unsigned long long)missing,
	   (unsigned long long)wrong);
	ok(why_ok > 0, "%s: missing pages say '%s'", name, why);
	char want[64];
	snprintf(want, sizeof(want), "%llu of", (unsigned long long)missing);
	ok(strstr(fact(img, "incomplete"), want) != NULL,
	   "%s: info counts %llu missing", name, (unsigned long long)missing);
	pgw_image_close(img);
}

static void incomplete_dumps(void)
{
	struct dw_buf b;
	struct dw_kdump_info in;

	image(&b, &in);
	b.len = in.data_off + (b.len - in.data_off) / 2;
	incomplete("cut in the data", &b, "file truncated",
		   "past the end of the file", true);
	dw_le(&b, in.status_off, 0x1 | 0x8, 4);
	incomplete("cut, marked incomplete", &b, "marked incomplete",
		   "past the end of the file", true);
	dw_free(&b);

	image(&b, &in);
	b.len = in.desc_off + 24 * 100 + 7;
	incomplete("cut in the descriptors", &b, "file truncated",
		   "descriptor is past the end", false);
	dw_free(&b);

	/* makedumpfile out of space: descriptors never written stay zero. */
	image(&b, &in);
	dw_le(&b, in.status_off, 0x1 | 0x8, 4);
	memset(b.p + in.desc_off + 24 * (in.ndumped - 200), 0, 24 * 200);
	incomplete("empty descriptors", &b, "marked incomplete",
		   "descriptor is empty", true);
	dw_free(&b);
}

int main(void)
{
	struct dw_synth s;

	dw_synth_mem(&mem, NPAGES, 5, &s);
	header_damage();
	page_damage();
	incomplete_dumps();
	free(mem.data);
	free(mem.kind);
	return tap_done();
}
