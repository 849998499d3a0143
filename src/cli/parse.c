/* Numbers on the command line and on stdin: hand-rolled because translate
 * parses millions of them. */
#include "session.h"
#include "hexdigits.h"

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
 * Under --hex a word of hex digits is hex even when it starts "0d": QEMU
 * prints 32-bit addresses as eight digits ("0d000000" is 0xd000000), and
 * whoever asked for bare hex meant it for every word.
 */
bool pgw_parse_addr(const char *s, bool bare_hex, uint64_t *v)
{
	uint64_t n = 0;
	const char *start;
	unsigned d;

	while (is_space(*s))
		s++;
	if (!bare_hex && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
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

bool pgw_parse_hex0x(const char *s, size_t n, uint64_t *v)
{
	const uint64_t zeros = '0' * HEX_ONES;
	uint64_t whi, wlo;
	uint32_t hi, lo;

	if (n < 3 || n > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	size_t nd = n - 2;
	if (nd == 16)
		return hex16_value(s + 2, v);   /* most addresses */
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
	wlo = hex_load8(s + n - 8);
	if (nd == 8)
		whi = zeros;
	else
		whi = hex_load8(s + 2) << 8 * (16 - nd) | zeros >> 8 * (nd - 8);
	if (!hex8_value(whi, &hi) || !hex8_value(wlo, &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}
