/* Numbers on the command line and on stdin: hand-rolled because translate
 * parses millions of them. */
#include "session.h"

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

bool pgw_parse_u64(const char *s, uint64_t *v)
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
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s += 2;
		start = s;
		for (; (d = digit1[(uint8_t)*s]) != 0; s++) {
			if (n >> 60)
				return false;  /* a 17th significant digit */
			n = n << 4 | (d - 1);
		}
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
