#include "../lib/err.h"
#include "codecs.h"
#include "config.h"   /* PGW_HAVE_<CODEC>: which codecs this build has */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../lib/dynlib.h"

#ifdef PGW_HAVE_LZO
#include <lzo/lzo1x.h>
#endif
#ifdef PGW_HAVE_SNAPPY
#include <snappy-c.h>
#endif
#ifdef PGW_HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif

/*
 * lzo, snappy and zstd are loaded when a page compressed with them is
 * first decoded (dynlib.h: snappy alone brings libstdc++ and costs most
 * of a millisecond at every start).  Each function is called through a
 * pointer of its own type; the macros below keep the calls as the
 * libraries' documentation writes them.  zlib is linked: libelf needs it
 * anyway.
 */
#define DYN(fn) static __typeof__(fn) *dyn_##fn
#define SYM(fn) { #fn, (void **)&dyn_##fn }
#ifdef PGW_HAVE_LZO
DYN(__lzo_init_v2);
DYN(lzo1x_decompress_safe);
static const struct pgw_dynsym lzo_syms[] = {
	SYM(__lzo_init_v2), SYM(lzo1x_decompress_safe),
};
#define __lzo_init_v2 (*dyn___lzo_init_v2)
#define lzo1x_decompress_safe (*dyn_lzo1x_decompress_safe)
#endif
#ifdef PGW_HAVE_SNAPPY
DYN(snappy_uncompress);
static const struct pgw_dynsym snappy_syms[] = { SYM(snappy_uncompress) };
#define snappy_uncompress (*dyn_snappy_uncompress)
#endif
#ifdef PGW_HAVE_ZSTD
DYN(ZSTD_createDCtx);
DYN(ZSTD_freeDCtx);
DYN(ZSTD_decompressDCtx);
DYN(ZSTD_isError);
DYN(ZSTD_getErrorCode);
DYN(ZSTD_getErrorName);
static const struct pgw_dynsym zstd_syms[] = {
	SYM(ZSTD_createDCtx), SYM(ZSTD_freeDCtx), SYM(ZSTD_decompressDCtx),
	SYM(ZSTD_isError), SYM(ZSTD_getErrorCode), SYM(ZSTD_getErrorName),
};
#define ZSTD_createDCtx (*dyn_ZSTD_createDCtx)
#define ZSTD_freeDCtx (*dyn_ZSTD_freeDCtx)
#define ZSTD_decompressDCtx (*dyn_ZSTD_decompressDCtx)
#define ZSTD_isError (*dyn_ZSTD_isError)
#define ZSTD_getErrorCode (*dyn_ZSTD_getErrorCode)
#define ZSTD_getErrorName (*dyn_ZSTD_getErrorName)
#endif
#define LIB(name, syms) \
	{ #name, PGW_SONAME_##name, "the package with " PGW_SONAME_##name, \
	  syms, sizeof(syms) / sizeof(syms[0]) }
#define NOLIB { NULL, NULL, NULL, NULL, 0 }

/* Per codec: the library to load first (what NULL: none, linked). */
static struct pgw_dynlib libs[PGW_NCODECS] = {
	[PGW_CODEC_ZLIB] = NOLIB,
#ifdef PGW_HAVE_LZO
	[PGW_CODEC_LZO] = LIB(lzo, lzo_syms),
#else
	[PGW_CODEC_LZO] = NOLIB,
#endif
#ifdef PGW_HAVE_SNAPPY
	[PGW_CODEC_SNAPPY] = LIB(snappy, snappy_syms),
#else
	[PGW_CODEC_SNAPPY] = NOLIB,
#endif
#ifdef PGW_HAVE_ZSTD
	[PGW_CODEC_ZSTD] = LIB(zstd, zstd_syms),
#else
	[PGW_CODEC_ZSTD] = NOLIB,
#endif
};

struct pgw_codecs {
	z_stream z;
	bool z_ready;
#ifdef PGW_HAVE_ZSTD
	ZSTD_DCtx *zstd;
#endif
};

static const struct {
	const char *name;
	const char *package;   /* what to install to get it */
	bool available;
} codecs[PGW_NCODECS] = {
	[PGW_CODEC_ZLIB] = { "zlib", "zlib1g-dev", true },
#ifdef PGW_HAVE_LZO
	[PGW_CODEC_LZO] = { "lzo", "liblzo2-dev", true },
#else
	[PGW_CODEC_LZO] = { "lzo", "liblzo2-dev", false },
#endif
#ifdef PGW_HAVE_SNAPPY
	[PGW_CODEC_SNAPPY] = { "snappy", "libsnappy-dev", true },
#else
	[PGW_CODEC_SNAPPY] = { "snappy", "libsnappy-dev", false },
#endif
#ifdef PGW_HAVE_ZSTD
	[PGW_CODEC_ZSTD] = { "zstd", "libzstd-dev", true },
#else
	[PGW_CODEC_ZSTD] = { "zstd", "libzstd-dev", false },
#endif
};

const char *pgw_codec_name(enum pgw_codec codec)
{
	return (unsigned)codec < PGW_NCODECS ? codecs[codec].name : "unknown";
}

bool pgw_codec_available(enum pgw_codec codec)
{
	return (unsigned)codec < PGW_NCODECS && codecs[codec].available;
}

enum pgw_status pgw_codec_require(enum pgw_codec codec, struct pgw_err *err)
{
	if (pgw_codec_available(codec)) {
		struct pgw_dynlib *lib = &libs[codec];
		if (!lib->what)
			return PGW_OK;
		enum pgw_status st = pgw_dynlib_load(lib, err);
#ifdef PGW_HAVE_LZO
		/* lzo_init checks the library matches its headers, once
		 * (idempotent, so two threads doing it is harmless). */
		static _Atomic int lzo_checked;
		if (st == PGW_OK && codec == PGW_CODEC_LZO && !lzo_checked) {
			if (lzo_init() != LZO_E_OK)
				return pgw_err_set(err, PGW_E_UNSUPPORTED,
						   "lzo: the library does not "
						   "match the headers pgwalk "
						   "was built with");
			lzo_checked = 1;
		}
#endif
		return st;
	}
	return pgw_err_set(err, PGW_E_UNSUPPORTED,
			   "data is compressed with %s, and this build lacks "
			   "%s (install %s and rebuild pgwalk)",
			   pgw_codec_name(codec), pgw_codec_name(codec),
			   (unsigned)codec < PGW_NCODECS ?
				   codecs[codec].package : "it");
}

struct pgw_codecs *pgw_codecs_new(void)
{
	return calloc(1, sizeof(struct pgw_codecs));
}

void pgw_codecs_free(struct pgw_codecs *c)
{
	if (!c)
		return;
	if (c->z_ready)
		inflateEnd(&c->z);
#ifdef PGW_HAVE_ZSTD
	if (c->zstd)   /* made only once the library was loaded */
		ZSTD_freeDCtx(c->zstd);
#endif
	free(c);
}

static enum pgw_status short_output(struct pgw_err *err, const char *name,
				    size_t got, size_t want)
{
	return pgw_err_set(err, PGW_E_FORMAT,
			   "%s data decodes to %zu bytes, not %zu", name, got,
			   want);
}

static enum pgw_status too_long(struct pgw_err *err, const char *name,
				size_t want)
{
	return pgw_err_set(err, PGW_E_FORMAT,
			   "%s data decodes to more than %zu bytes", name,
			   want);
}

static enum pgw_status do_zlib(struct pgw_codecs *c, const uint8_t *in,
			       size_t inlen, uint8_t *out, size_t outlen,
			       struct pgw_err *err)
{
	int rc;

	if (inlen > UINT32_MAX || outlen > UINT32_MAX)
		return pgw_err_set(err, PGW_E_ARG, "zlib: buffer too large");
	if (!c->z_ready) {
		memset(&c->z, 0, sizeof(c->z));
		if (inflateInit(&c->z) != Z_OK)
			return pgw_err_set(err, PGW_E_NOMEM,
					   "zlib: cannot initialise");
		c->z_ready = true;
	} else if (inflateReset(&c->z) != Z_OK) {
		return pgw_err_set(err, PGW_E_FORMAT, "zlib: cannot reset");
	}
	c->z.next_in = (Bytef *)in;
	c->z.avail_in = (uInt)inlen;
	c->z.next_out = out;
	c->z.avail_out = (uInt)outlen;
	rc = inflate(&c->z, Z_FINISH);
	if (rc == Z_STREAM_END) {
		if (c->z.total_out != outlen)
			return short_output(err, "zlib", c->z.total_out,
					    outlen);
		return PGW_OK;
	}
	/* Output full but the stream goes on: it would inflate further. */
	if ((rc == Z_BUF_ERROR || rc == Z_OK) && c->z.avail_out == 0)
		return too_long(err, "zlib", outlen);
	if (rc == Z_BUF_ERROR || rc == Z_OK)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "zlib: stream ends early (%zu bytes of "
				   "input, %lu decoded)", inlen,
				   (unsigned long)c->z.total_out);
	return pgw_err_set(err, PGW_E_FORMAT, "zlib: %s",
			   c->z.msg ? c->z.msg : zError(rc));
}

#ifdef PGW_HAVE_LZO
static enum pgw_status do_lzo(const uint8_t *in, size_t inlen, uint8_t *out,
			      size_t outlen, struct pgw_err *err)
{
	lzo_uint n = outlen;
	int rc = lzo1x_decompress_safe(in, inlen, out, &n, NULL);

	if (rc == LZO_E_OUTPUT_OVERRUN)
		return too_long(err, "lzo", outlen);
	if (rc != LZO_E_OK)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "lzo: corrupt data (error %d)", rc);
	if (n != outlen)
		return short_output(err, "lzo", n, outlen);
	return PGW_OK;
}
#endif

#ifdef PGW_HAVE_SNAPPY
static enum pgw_status do_snappy(const uint8_t *in, size_t inlen,
				 uint8_t *out, size_t outlen,
				 struct pgw_err *err)
{
	size_t n;
	enum pgw_status st = pgw_snappy_length(in, inlen, &n, err);

	if (st != PGW_OK)
		return st;
	/* The length prefix is checked before anything is decoded. */
	if (n > outlen)
		return too_long(err, "snappy", outlen);
	if (n != outlen)
		return short_output(err, "snappy", n, outlen);
	if (snappy_uncompress((const char *)in, inlen, (char *)out, &n) !=
	    SNAPPY_OK)
		return pgw_err_set(err, PGW_E_FORMAT, "snappy: corrupt data");
	if (n != outlen)
		return short_output(err, "snappy", n, outlen);
	return PGW_OK;
}
#endif

#ifdef PGW_HAVE_ZSTD
static enum pgw_status do_zstd(struct pgw_codecs *c, const uint8_t *in,
			       size_t inlen, uint8_t *out, size_t outlen,
			       struct pgw_err *err)
{
	if (!c->zstd) {
		c->zstd = ZSTD_createDCtx();
		if (!c->zstd)
			return pgw_err_set(err, PGW_E_NOMEM,
					   "zstd: cannot create a context");
	}
	size_t n = ZSTD_decompressDCtx(c->zstd, out, outlen, in, inlen);
	if (ZSTD_isError(n)) {
		if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
			return too_long(err, "zstd", outlen);
		return pgw_err_set(err, PGW_E_FORMAT, "zstd: %s",
				   ZSTD_getErrorName(n));
	}
	if (n != outlen)
		return short_output(err, "zstd", n, outlen);
	return PGW_OK;
}
#endif

enum pgw_status pgw_decompress(struct pgw_codecs *c, enum pgw_codec codec,
			       const uint8_t *in, size_t inlen, uint8_t *out,
			       size_t outlen, struct pgw_err *err)
{
	enum pgw_status st = pgw_codec_require(codec, err);

	if (st != PGW_OK)
		return st;
	switch (codec) {
	case PGW_CODEC_ZLIB:
		return do_zlib(c, in, inlen, out, outlen, err);
#ifdef PGW_HAVE_LZO
	case PGW_CODEC_LZO:
		return do_lzo(in, inlen, out, outlen, err);
#endif
#ifdef PGW_HAVE_SNAPPY
	case PGW_CODEC_SNAPPY:
		return do_snappy(in, inlen, out, outlen, err);
#endif
#ifdef PGW_HAVE_ZSTD
	case PGW_CODEC_ZSTD:
		return do_zstd(c, in, inlen, out, outlen, err);
#endif
	default:
		return pgw_err_set(err, PGW_E_ARG, "codec %d", (int)codec);
	}
}

enum pgw_status pgw_snappy_length(const uint8_t *in, size_t inlen,
				  size_t *len_ret, struct pgw_err *err)
{
	uint64_t v = 0;

	/* A little-endian base-128 varint of at most 32 bits. */
	for (size_t i = 0; i < 5; i++) {
		if (i == inlen)
			break;
		v |= (uint64_t)(in[i] & 0x7f) << (7 * i);
		if (!(in[i] & 0x80)) {
			if (v > UINT32_MAX)
				break;
			*len_ret = (size_t)v;
			return PGW_OK;
		}
	}
	return pgw_err_set(err, PGW_E_FORMAT,
			   "snappy: bad length prefix");
}

/* Reflected CRC-32C, polynomial 0x82f63b78; tables built once. */
static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82f63b78u & -(c & 1));
		crc_table[0][i] = c;
	}
	for (unsigned i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
					  crc_table[0][crc_table[t - 1][i] &
						       0xff];
}

uint32_t pgw_crc32c_table(const uint8_t *p, size_t len)
{
	uint32_t (*table)[256] = crc_table;
	uint32_t crc = 0xffffffff;

	pthread_once(&crc_once, crc_init);
	/* Slicing by 8: chunks are 64 KiB, so this is worth it. */
	while (len >= 8) {
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				     (uint32_t)p[2] << 16 |
				     (uint32_t)p[3] << 24);
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^
		      table[0][p[7]];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* SSE4.2's crc32 instruction computes CRC-32C itself, eight bytes at a
 * time: an AVML image's every chunk is checked when decoded, and the
 * tables cost 3 instructions a byte, as much as snappy's decoding. */
__attribute__((target("sse4.2"))) static uint32_t
crc32c_sse42(const uint8_t *p, size_t len)
{
	uint64_t crc = 0xffffffff;

	for (; len >= 8; p += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, p, sizeof(w));
		crc = __builtin_ia32_crc32di(crc, w);
	}
	uint32_t c = (uint32_t)crc;
	for (; len; p++, len--)
		c = __builtin_ia32_crc32qi(c, *p);
	return ~c;
}

bool pgw_crc32c_hw(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.2");
}

static bool crc_hw;
static pthread_once_t crc_hw_once = PTHREAD_ONCE_INIT;

static void crc_hw_init(void)
{
	crc_hw = pgw_crc32c_hw();
}

uint32_t pgw_crc32c(const uint8_t *p, size_t len)
{
	pthread_once(&crc_hw_once, crc_hw_init);
	return crc_hw ? crc32c_sse42(p, len) : pgw_crc32c_table(p, len);
}
#else
bool pgw_crc32c_hw(void)
{
	return false;
}

uint32_t pgw_crc32c(const uint8_t *p, size_t len)
{
	return pgw_crc32c_table(p, len);
}
#endif
