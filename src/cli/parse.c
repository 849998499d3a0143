/* Numbers on the command line and on stdin: hand-rolled because translate
 * parses millions of them. */
#include "session.h"

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
