/* Numbers on the command line and on stdin: hand-rolled because translate
 * parses millions of them. */
#include "session.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Digit values, 0xff for non-digits: a table, as this runs per stdin line. */
static const uint8_t digit_value[256] = {
	['0'] = 0, ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5,
	['6'] = 6, ['7'] = 7, ['8'] = 8, ['9'] = 9,
	['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13, ['e'] = 14, ['f'] = 15,
	['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15,
};

static int digit(char c, unsigned base)
{
	unsigned char u = (unsigned char)c;
	unsigned d = digit_value[u];

	/* The table's zero default is a real value only for '0'. */
	if (d == 0 && u != '0')
		return -1;
	return d < base ? (int)d : -1;
}

bool pgw_parse_u64(const char *s, uint64_t *v)
{
	unsigned base = 16;
	uint64_t n = 0;
	const char *start;

	while (is_space(*s))
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	} else if (s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
		s += 2;
		base = 10;
	}
	start = s;
	for (int d; (d = digit(*s, base)) >= 0; s++) {
		if (n > (UINT64_MAX - (unsigned)d) / base)
			return false;  /* does not fit in 64 bits */
		n = n * base + (unsigned)d;
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
