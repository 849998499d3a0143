/*
 * The codec layer: CRC-32C against its published check value, snappy's
 * length prefix, and exact-size decoding for every codec built in.
 */
#include "imgtest.h"
#include "formats/codecs.h"

int main(void)
{
	struct pgw_err err;
	uint8_t page[4096], out[4096], z[8192];

	/* RFC 3720 B.4 / the iSCSI check value of "123456789". */
	is_u64(pgw_crc32c((const uint8_t *)"123456789", 9), 0xe3069283,
	       "crc32c check value");
	static uint8_t zeros[32];
	is_u64(pgw_crc32c(zeros, 32), 0x8a9136aa, "crc32c of 32 zero bytes");
	uint8_t big[100003];
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + (i >> 9));
	uint32_t m = dw_crc32c_masked(big, sizeof(big));
	uint32_t rot = m - 0xa282ead8u;
	is_u64(pgw_crc32c(big, sizeof(big)), rot >> 17 | rot << 15,
	       "crc32c equals the bitwise one on 100 KB");
	is_u64(pgw_crc32c_table(big, sizeof(big)), rot >> 17 | rot << 15,
	       "crc32c from tables (sliced) too");
	/* Every length 0..80 from every alignment 0..7: the eight-byte
	 * steps and the tail of both forms against the bitwise one. */
	unsigned crc_bad = 0;
	for (size_t off = 0; off < 8; off++)
		for (size_t len = 0; len <= 80; len++) {
			m = dw_crc32c_masked(big + 1000 + off, len);
			rot = m - 0xa282ead8u;
			uint32_t want = rot >> 17 | rot << 15;
			crc_bad += pgw_crc32c(big + 1000 + off, len) != want;
			crc_bad += pgw_crc32c_table(big + 1000 + off, len) !=
				   want;
		}
	ok(crc_bad == 0, "crc32c (%s) and from tables: every length 0-80 at "
	   "every alignment as the bitwise one (%u differ)",
	   pgw_crc32c_hw() ? "the CPU's crc32 instruction" : "tables",
	   crc_bad);

	size_t n = 0;
	static const uint8_t v1[] = { 0x80, 0x80, 0x04 };
	ok(pgw_snappy_length(v1, 3, &n, &err) == PGW_OK && n == 65536,
	   "snappy length prefix 65536");
	static const uint8_t v2[] = { 0xff, 0xff, 0xff, 0xff, 0x7f };
	ok(pgw_snappy_length(v2, 5, &n, &err) == PGW_E_FORMAT,
	   "snappy length prefix over 32 bits is refused");
	ok(pgw_snappy_length(v1, 2, &n, &err) == PGW_E_FORMAT,
	   "truncated snappy length prefix is refused");

	for (size_t i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)(i % 251 + (i / 1024));
	struct pgw_codecs *c = pgw_codecs_new();
	ok(c != NULL, "codec state");
	static const struct {
		enum dw_codec w;
		enum pgw_codec r;
	} map[] = { { DW_ZLIB, PGW_CODEC_ZLIB }, { DW_LZO, PGW_CODEC_LZO },
		    { DW_SNAPPY, PGW_CODEC_SNAPPY },
		    { DW_ZSTD, PGW_CODEC_ZSTD } };
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const char *name = pgw_codec_name(map[i].r);
		if (!dw_codecs[map[i].w].built) {
			ok(!pgw_codec_available(map[i].r) &&
			   pgw_codec_require(map[i].r, &err) ==
				   PGW_E_UNSUPPORTED,
			   "%s: absent, and said so", name);
			continue;
		}
		size_t zn = dw_compress(map[i].w, page, z, sizeof(z));
		/* Twice: contexts are reused between pages. */
		for (int k = 0; k < 2; k++) {
			memset(out, 0, sizeof(out));
			ok(zn && pgw_decompress(c, map[i].r, z, zn, out, 4096,
						&err) == PGW_OK &&
			   memcmp(out, page, 4096) == 0,
			   "%s: page round trip %d", name, k);
		}
		ok(pgw_decompress(c, map[i].r, z, zn, out, 2048, &err) ==
			   PGW_E_FORMAT && msg_has(&err, "more than 2048"),
		   "%s: never writes past the output: %s", name, err.msg);
		ok(pgw_decompress(c, map[i].r, z, zn / 2, out, 4096, &err) ==
			   PGW_E_FORMAT,
		   "%s: half a stream is an error: %s", name, err.msg);
	}
	pgw_codecs_free(c);
	return tap_done();
}
