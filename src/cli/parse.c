/* Numbers on the command line and on stdin: hand-rolled because translate
 * parses millions of them. */
#include "session.h"

#include <string.h>

bool pgw_cli_bare_hex;

/* Digit value + 1 for every character that is a hex digit, else 0. */
static const uint8_t digit1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
	['E'] = 15, ['F'] = 16,
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * 0x-prefixed hex, 0d-prefixed decimal, a single decimal digit (the same
 * number either way), and bare hex only when asked: "bad1" or "1000" could
 * be a word or either base, so without --hex they are not addresses.
 */
bool pgw_parse_addr(const char *s, bool bare_hex, uint64_t *v)
{
	uint64_t n = 0;
	const char *start;
	unsigned d;

	while (is_space(*s))
		s++;
	if (s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
		s += 2;
		start = s;
		for (; (d = digit1[(uint8_t)*s]) >= 1 && d <= 10; s++) {
			if (n > (UINT64_MAX - (d - 1)) / 10)
				return false;  /* does not fit in 64 bits */
			n = n * 10 + (d - 1);
		}
	} else {
		bool prefixed = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
		if (prefixed)
			s += 2;
		start = s;
		for (; (d = digit1[(uint8_t)*s]) != 0; s++) {
			if (n >> 60)
				return false;  /* a 17th significant digit */
			n = n << 4 | (d - 1);
		}
		if (!prefixed && !bare_hex &&
		    !(s == start + 1 && *start >= '0' && *start <= '9'))
			return false;
	}
	if (s == start)
		return false;
	while (is_space(*s))
		s++;
	if (*s)
		return false;
	*v = n;
	return true;
}

bool pgw_parse_u64(const char *s, uint64_t *v)
{
	return pgw_parse_addr(s, pgw_cli_bare_hex, v);
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGH UINT64_C(0x8080808080808080)

/* 0x80 in each byte of x (all below 0x80) that lies in [lo, hi]: adding
 * 0x80 - lo sets a byte's top bit from lo up, 0x7f - hi from hi + 1 up,
 * and neither carries into the next byte. */
static inline uint64_t bytes_in(uint64_t x, unsigned lo, unsigned hi)
{
	return (x + (0x80 - lo) * ONES) & ~(x + (0x7f - hi) * ONES) & HIGH;
}

/* Eight ASCII hex digits, the first in the lowest byte, to their value
 * all at once; false if one is not a hex digit. */
static inline bool hex8_value(uint64_t x, uint32_t *v)
{
	uint64_t lower = x | 0x20 * ONES;
	uint64_t alpha = bytes_in(lower, 'a', 'f');

	if ((x & HIGH) || (bytes_in(x, '0', '9') | alpha) != HIGH)
		return false;
	/* Each byte its digit, then pairs, quads and the eight joined, the
	 * first (lowest) byte the most significant. */
	x = (lower & 0x0f * ONES) + (alpha >> 7) * 9;
	x = (x & UINT64_C(0x00ff00ff00ff00ff)) << 4 |
	    (x >> 8 & UINT64_C(0x00ff00ff00ff00ff));
	x = (x & UINT64_C(0x0000ffff0000ffff)) << 8 |
	    (x >> 16 & UINT64_C(0x0000ffff0000ffff));
	*v = (uint32_t)((x & 0xffffffff) << 16 | x >> 32);
	return true;
}

/* Eight bytes at p as a word, the first in the lowest byte. */
static inline uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

bool pgw_parse_hex0x(const char *s, size_t n, uint64_t *v)
{
	const uint64_t zeros = '0' * ONES;
	uint64_t whi, wlo;
	uint32_t hi, lo;

	if (n < 3 || n > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	size_t nd = n - 2;
	if (nd < 8) {
		/* Short: a digit at a time. */
		uint64_t r = 0;
		for (size_t i = 2; i < n; i++) {
			unsigned d = digit1[(uint8_t)s[i]];
			if (!d)
				return false;
			r = r << 4 | (d - 1);
		}
		*v = r;
		return true;
	}
	/* The last eight digits, and the ones before them right-aligned in
	 * a word of '0's: loads inside the line, whatever its length. */
	wlo = load8(s + n - 8);
	if (nd == 8)
		whi = zeros;
	else if (nd == 16)
		whi = load8(s + 2);
	else
		whi = load8(s + 2) << 8 * (16 - nd) | zeros >> 8 * (nd - 8);
	if (!hex8_value(whi, &hi) || !hex8_value(wlo, &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}
