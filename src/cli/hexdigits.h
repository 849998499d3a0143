/*
 * Sixteen hex digits at once, both ways: read from a line (parse.c) and
 * spelled into a record (emit.h).  A batch of translations reads and
 * writes two 64-bit numbers per address, and digit by digit that costs as
 * much as the walk.  Each has a form on 64-bit words, portable, and one
 * on SSE2's 16-byte registers (every x86-64 has them) that does the
 * sixteen digits in one go; tests/unit/hexdigits.c holds the two to the
 * same answers.  SSE2 halves a batch's CPU time: built -DPGW_NO_SIMD, a
 * million addresses cost tsv 38 -> 84 ms, json 41 -> 84 (the reader
 * alone, a digit at a time: 44 -> 94; bench/HISTORY.md).
 */
#ifndef PGW_HEXDIGITS_H
#define PGW_HEXDIGITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && defined(__x86_64__) && !defined(PGW_NO_SIMD)
#include <emmintrin.h>
#define PGW_HEX_SSE2 1
#endif

#define HEX_ONES UINT64_C(0x0101010101010101)
#define HEX_HIGH UINT64_C(0x8080808080808080)

/* 0x80 in each byte of x (all below 0x80) that lies in [lo, hi]: adding
 * 0x80 - lo sets a byte's top bit from lo up, 0x7f - hi from hi + 1 up,
 * and neither carries into the next byte. */
static inline uint64_t hex_bytes_in(uint64_t x, unsigned lo, unsigned hi)
{
	return (x + (0x80 - lo) * HEX_ONES) & ~(x + (0x7f - hi) * HEX_ONES) &
	       HEX_HIGH;
}

/* Eight ASCII hex digits, the first in the lowest byte, to their value
 * all at once; false if one is not a hex digit. */
static inline bool hex8_value(uint64_t x, uint32_t *v)
{
	uint64_t lower = x | 0x20 * HEX_ONES;
	uint64_t alpha = hex_bytes_in(lower, 'a', 'f');

	if ((x & HEX_HIGH) || (hex_bytes_in(x, '0', '9') | alpha) != HEX_HIGH)
		return false;
	/* Each byte its digit, then pairs, quads and the eight joined, the
	 * first (lowest) byte the most significant. */
	x = (lower & 0x0f * HEX_ONES) + (alpha >> 7) * 9;
	x = (x & UINT64_C(0x00ff00ff00ff00ff)) << 4 |
	    (x >> 8 & UINT64_C(0x00ff00ff00ff00ff));
	x = (x & UINT64_C(0x0000ffff0000ffff)) << 8 |
	    (x >> 16 & UINT64_C(0x0000ffff0000ffff));
	*v = (uint32_t)((x & 0xffffffff) << 16 | x >> 32);
	return true;
}

/* Eight bytes at p as a word, the first in the lowest byte. */
static inline uint64_t hex_load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The 16 hex digits at p (either case) as a number: words. */
static inline bool hex16_value_words(const char *p, uint64_t *v)
{
	uint32_t hi, lo;

	if (!hex8_value(hex_load8(p), &hi) || !hex8_value(hex_load8(p + 8), &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

/* x < 2^32 as 8 lower-case hex digits, most significant first in memory
 * order: each nibble spread to a byte, the bytes reversed, then turned
 * to ASCII all at once ('0'-'9', and 'a'-'f' for bytes >= 10). */
static inline uint64_t emit_hex8(uint64_t x)
{
	x = (x | x << 16) & UINT64_C(0x0000ffff0000ffff);
	x = (x | x << 8) & UINT64_C(0x00ff00ff00ff00ff);
	x = (x | x << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	uint64_t letter = ((x + 6 * HEX_ONES) >> 4) & HEX_ONES;
	return x + '0' * HEX_ONES + letter * ('a' - '0' - 10);
}

/* v's 16 lower-case hex digits at out: words. */
static inline void hex16_spell_words(char out[16], uint64_t v)
{
	uint64_t w[2] = { emit_hex8(v >> 32), emit_hex8(v & 0xffffffff) };

	memcpy(out, w, 16);
}

/* How many digits a line from s to its newline nl has room for after
 * its "0x" (or "0X"): 1 to 16, else 0 (no such prefix, or too long or
 * short a line).  Both forms of hex0x_body start here. */
static inline size_t hex0x_digits(const char *s, const char *nl)
{
	size_t nd = (size_t)(nl - s) - 2;

	return nd - 1 < 16 && s[0] == '0' && (s[1] | 0x20) == 'x' ? nd : 0;
}

#ifdef PGW_HEX_SSE2
/* Which of the 16 bytes of c are hex digits: a mask of their lanes.
 * Bytes of 0x80 and up are negative to the signed compares, so in
 * neither range. */
static inline unsigned hex_lanes_sse2(__m128i c)
{
	__m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));
	__m128i alpha = _mm_and_si128(
		_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
		_mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
	__m128i digit = _mm_and_si128(
		_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)),
		_mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(digit, alpha));
}

/* The value of 16 bytes that are all hex digits. */
static inline uint64_t hex16_reg_value(__m128i c)
{
	/* A digit's value is its low nibble ('0'-'9': 0x30-0x39), a
	 * letter's that plus 9 ('a'-'f' and 'A'-'F' end in 1-6): the
	 * letters are the bytes above '9'. */
	__m128i n = _mm_add_epi8(
		_mm_and_si128(c, _mm_set1_epi8(0x0f)),
		_mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('9')),
			      _mm_set1_epi8(9)));
	/* Pairs: the first digit of each (the low byte of a 16-bit lane)
	 * is the high nibble. */
	__m128i pair = _mm_or_si128(
		_mm_slli_epi16(_mm_and_si128(n, _mm_set1_epi16(0x00ff)), 4),
		_mm_srli_epi16(n, 8));
	uint64_t bytes = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pair,
								     pair));
	return __builtin_bswap64(bytes);
}

/* The 16 hex digits at p as a number: one register. */
static inline bool hex16_value_sse2(const char *p, uint64_t *v)
{
	__m128i c = _mm_loadu_si128((const __m128i *)(const void *)p);

	if (hex_lanes_sse2(c) != 0xffff)
		return false;
	*v = hex16_reg_value(c);
	return true;
}

/* The value of the first nd (1..16) lanes of c, all hex digits: the
 * lanes past them turned to '0', the value then shifted down past
 * them. */
static inline uint64_t hex0x_keep_value(__m128i c, size_t nd)
{
	static const unsigned char keep[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	/* keep + 16 - nd: lane i is kept when i < nd. */
	__m128i k = _mm_loadu_si128(
		(const __m128i *)(const void *)(keep + 16 - nd));

	c = _mm_or_si128(_mm_and_si128(k, c),
			 _mm_andnot_si128(k, _mm_set1_epi8('0')));
	return hex16_reg_value(c) >> 4 * (16 - nd);
}

/* hex0x_body in one register: the 16 bytes from the first digit on (the
 * line's, then whatever follows its newline). */
static inline bool hex0x_body_sse2(const char *s, const char *nl, uint64_t *v)
{
	size_t nd = hex0x_digits(s, nl);

	if (!nd)
		return false;
	__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 2));
	/* The first nd lanes must be digits; the ones after are not
	 * looked at. */
	if (((hex_lanes_sse2(c) | 0xffffu << nd) & 0xffff) != 0xffff)
		return false;
	*v = hex0x_keep_value(c, nd);
	return true;
}

/* hex0x_line in one register: the digits' lanes say where the number
 * ends, and the byte there must be the newline. */
static inline size_t hex0x_line_sse2(const char *s, uint64_t *v)
{
	uint16_t head;

	memcpy(&head, s, sizeof(head));
	if ((head | 0x2000) != ('0' | 'x' << 8))
		return 0;
	__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 2));
	/* The lanes are 16 bits, so ~ sets bit 16: 16 digits end at the
	 * 17th byte. */
	unsigned nd = (unsigned)__builtin_ctz(~hex_lanes_sse2(c));
	if (nd == 0 || s[2 + nd] != '\n')
		return 0;
	/* 16 digits (every address of a kernel's half) need no lanes
	 * cleared. */
	*v = nd == 16 ? hex16_reg_value(c) : hex0x_keep_value(c, nd);
	return nd + 3;
}

/* v's 16 lower-case hex digits at out: one register. */
static inline void hex16_spell_sse2(char out[16], uint64_t v)
{
	__m128i b = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
	__m128i low4 = _mm_set1_epi8(0x0f);
	__m128i n = _mm_unpacklo_epi8(
		_mm_and_si128(_mm_srli_epi16(b, 4), low4), _mm_and_si128(b, low4));
	__m128i letter = _mm_and_si128(_mm_cmpgt_epi8(n, _mm_set1_epi8(9)),
				       _mm_set1_epi8('a' - '0' - 10));
	__m128i ascii = _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')),
				     letter);

	_mm_storeu_si128((__m128i *)(void *)out, ascii);
}
#endif

/* The 16 hex digits at p as a number; false if one is not a hex digit. */
static inline bool hex16_value(const char *p, uint64_t *v)
{
#ifdef PGW_HEX_SSE2
	return hex16_value_sse2(p, v);
#else
	return hex16_value_words(p, v);
#endif
}

/* hex0x_body a digit at a time. */
static inline bool hex0x_body_bytes(const char *s, const char *nl, uint64_t *v)
{
	size_t nd = hex0x_digits(s, nl);
	uint64_t r = 0;

	if (!nd)
		return false;
	for (size_t i = 0; i < nd; i++) {
		unsigned char c = (unsigned char)s[2 + i], l = c | 0x20;
		unsigned d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (l >= 'a' && l <= 'f')
			d = l - 'a' + 10;
		else
			return false;
		r = r << 4 | d;
	}
	*v = r;
	return true;
}

/*
 * The usual line of an address batch, from s to its newline nl (the first
 * one after s): "0x" (or "0X") and 1 to 16 hex digits.  True with its
 * value in *v, else false (some other line, for the general parser).
 * The line's end is found first, by the caller, so that the next line's
 * start does not wait on this one's digits.  Reads up to 15 bytes past
 * nl: the caller's buffer has room after its data.
 */
static inline bool hex0x_body(const char *s, const char *nl, uint64_t *v)
{
#ifdef PGW_HEX_SSE2
	return hex0x_body_sse2(s, nl, v);
#else
	return hex0x_body_bytes(s, nl, v);
#endif
}

/* hex0x_line a digit at a time. */
static inline size_t hex0x_line_bytes(const char *s, uint64_t *v)
{
	const char *nl = s + 2;

	if (s[0] != '0' || (s[1] | 0x20) != 'x')
		return 0;
	while (nl < s + 18 && ((*nl >= '0' && *nl <= '9') ||
			       ((*nl | 0x20) >= 'a' && (*nl | 0x20) <= 'f')))
		nl++;
	return *nl == '\n' && hex0x_body_bytes(s, nl, v) ?
		       (size_t)(nl - s) + 1 : 0;
}

/*
 * The usual line of an address batch at s, its end found by its digits
 * rather than by a search for the newline first (which costs a batch as
 * much as reading the digits): "0x" (or "0X"), 1 to 16 hex digits and
 * the newline.  The line's length with its newline, its value in *v; 0:
 * some other line, for the general parser.  Reads 19 bytes from s, which
 * must all be the caller's data (a byte past it that looks like a
 * newline would end the line).
 */
static inline size_t hex0x_line(const char *s, uint64_t *v)
{
#ifdef PGW_HEX_SSE2
	return hex0x_line_sse2(s, v);
#else
	return hex0x_line_bytes(s, v);
#endif
}

/* v as 16 lower-case hex digits at out. */
static inline void hex16_spell(char out[16], uint64_t v)
{
#ifdef PGW_HEX_SSE2
	hex16_spell_sse2(out, v);
#else
	hex16_spell_words(out, v);
#endif
}

#endif
