/*
 * A build without lzo, snappy and zstd: this test compiles the codec layer
 * itself with those libraries switched off (its definitions take the place
 * of the library's codecs.o), then opens images that need them.  Each must
 * fail with PGW_E_UNSUPPORTED naming the missing codec.
 */
#include "config.h"   /* first, so codecs.c's include of it is a no-op */
#undef PGW_HAVE_LZO
#undef PGW_HAVE_SNAPPY
#undef PGW_HAVE_ZSTD
#include "formats/codecs.c"

#include "imgtest.h"

int main(void)
{
	struct dw_mem m;
	struct dw_synth s;
	struct dw_buf b;
	struct dw_kdump_info in;
	struct pgw_image *img;
	struct pgw_err err;
	static const struct {
		const char *name;
		unsigned flag;
	} lacks[] = { { "lzo", 0x2 }, { "snappy", 0x4 }, { "zstd", 0x20 } };

	dw_synth_mem(&m, 256, 1, &s);
	struct dw_kdump_opts o = { .codec = DW_NONE };
	for (size_t i = 0; i < sizeof(lacks) / sizeof(lacks[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "this build lacks %s",
			 lacks[i].name);
		/* The header says the dump uses the codec: open refuses. */
		dw_write_kdump(&b, &m, &o, &in);
		dw_le(&b, in.status_off, lacks[i].flag, 4);
		enum pgw_status st = open_buf(&b, NULL, &img, &err);
		ok(st == PGW_E_UNSUPPORTED && msg_has(&err, want),
		   "kdump with %s: %s", lacks[i].name, err.msg);
		if (st == PGW_OK)
			pgw_image_close(img);
		/* Only one page says so: that page is refused. */
		dw_le(&b, in.status_off, 0, 4);
		dw_le(&b, in.desc_off + 3 * 24 + 12, lacks[i].flag, 4);
		if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK,
		       "kdump with one %s page: opens", lacks[i].name)) {
			const uint8_t *p;
			st = pgw_image_page(img, 3, &p, &err);
			ok(st == PGW_E_UNSUPPORTED && msg_has(&err, want),
			   "that page: %s", err.msg);
			ok(pgw_image_page(img, 4, &p, &err) == PGW_OK,
			   "the other pages read");
			pgw_image_close(img);
		}
		dw_free(&b);
	}

	/* AVML: a range header and a snappy stream identifier suffice. */
	static const uint8_t id[] = { 0xff, 6, 0, 0, 's', 'N', 'a', 'P', 'p',
				      'Y' };
	uint8_t chunk[4 + 4 + 4096];
	memset(&b, 0, sizeof(b));
	dw_lime_header(&b, 0x4C4D5641u, 2, 0, 4095);
	dw_append(&b, id, sizeof(id));
	chunk[0] = 0x01;   /* uncompressed chunk: 4 CRC bytes + the page */
	chunk[1] = (4 + 4096) & 0xff;
	chunk[2] = (4 + 4096) >> 8;
	chunk[3] = 0;
	memset(chunk + 4, 0, sizeof(chunk) - 4);
	dw_append(&b, chunk, sizeof(chunk));
	dw_le(&b, b.len, sizeof(id) + sizeof(chunk), 8);
	enum pgw_status st = open_buf(&b, NULL, &img, &err);
	ok(st == PGW_E_UNSUPPORTED && msg_has(&err, "this build lacks snappy"),
	   "avml: %s", err.msg);
	if (st == PGW_OK)
		pgw_image_close(img);
	dw_free(&b);
	free(m.data);
	free(m.kind);
	return tap_done();
}
