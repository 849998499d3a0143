/* Numbers on the command line and on stdin: hand-rolled because translate
 * parses millions of them. */
#include "session.h"

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int digit(char c, unsigned base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return (unsigned)d < base ? d : -1;
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
