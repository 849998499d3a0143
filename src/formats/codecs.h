/*
 * Decompressors for dump pages and chunks: zlib (always built), lzo,
 * snappy and zstd (each when mk/codecs.mk found its library).  One call
 * shape for all: decompress exactly `outlen` bytes into `out`, never more,
 * so a stream that would inflate further is an error, not an allocation.
 */
#ifndef PGW_CODECS_H
#define PGW_CODECS_H

#include "pgwalk.h"

enum pgw_codec {
	PGW_CODEC_ZLIB,
	PGW_CODEC_LZO,
	PGW_CODEC_SNAPPY,
	PGW_CODEC_ZSTD,
	PGW_NCODECS
};

const char *pgw_codec_name(enum pgw_codec codec);
bool pgw_codec_available(enum pgw_codec codec);
/* PGW_E_UNSUPPORTED "this build lacks <codec> ..." for an absent codec. */
enum pgw_status pgw_codec_require(enum pgw_codec codec, struct pgw_err *err);

/* Reusable decompression state (zlib and zstd contexts); lazily built. */
struct pgw_codecs;
struct pgw_codecs *pgw_codecs_new(void);
void pgw_codecs_free(struct pgw_codecs *c);

/*
 * Decompress in[0..inlen) into exactly outlen bytes of out.  Fails with
 * PGW_E_FORMAT when the data is corrupt, decodes to fewer bytes, or would
 * decode to more (checked before or during decoding, never by allocating).
 */
enum pgw_status pgw_decompress(struct pgw_codecs *c, enum pgw_codec codec,
			       const uint8_t *in, size_t inlen, uint8_t *out,
			       size_t outlen, struct pgw_err *err);

/* Snappy's own length prefix: the decoded size, without decoding. */
enum pgw_status pgw_snappy_length(const uint8_t *in, size_t inlen,
				  size_t *len_ret, struct pgw_err *err);

/* CRC-32C (Castagnoli), as the snappy framing format checks chunks: by
 * the CPU's crc32 instruction where it has one (pgw_crc32c_hw), else
 * from tables (pgw_crc32c_table, which tests hold to the same values). */
uint32_t pgw_crc32c(const uint8_t *p, size_t len);
uint32_t pgw_crc32c_table(const uint8_t *p, size_t len);
bool pgw_crc32c_hw(void);

#endif
