/* Planning stencilled records (stencil.h). */
#include "stencil.h"

bool stencil_ready(const struct stencil *s)
{
	if (s->marked != (1u << ST_NSLOTS) - 1)
		return false;
	for (int i = 1; i < ST_NSLOTS; i++)
		if (s->at[i] < s->to[i - 1])
			return false;
	return s->to[ST_NSLOTS - 1] <= s->tmpl.len;
}

/* Digits v is spelled with in slot i of s. */
static size_t digits_of(const struct stencil *s, int i, uint64_t v)
{
	size_t need = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 0;
	size_t min = (size_t)s->digits[i];

	return need > min ? need : min;
}

bool stencil_plan(struct stencil *s, const uint64_t first[ST_NSLOTS],
		  const uint64_t last[ST_NSLOTS])
{
	/* ones + n: byte b is 0xff when b >= 16 - n. */
	static const unsigned char ones[32] = {
		[16] = 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	/* stencil_put's copies write whole 32-byte blocks; out_row leaves
	 * half of a line free. */
	size_t whole = (s->tmpl.len + 31) & ~(size_t)31;

	if (whole > sizeof(s->tmpl.buf) / 2)
		return false;
	for (int i = 0; i < ST_NSLOTS; i++) {
		size_t n = s->to[i] - s->at[i] - 2;
		/* Ascending numbers: the first and the last bound the
		 * widths and the upper halves of all between. */
		s->narrow[i] = n <= 8;
		if (digits_of(s, i, first[i]) != n ||
		    digits_of(s, i, last[i]) != n ||
		    s->to[i] < (s->narrow[i] ? 8u : 16u) ||
		    first[i] >> 32 != last[i] >> 32 || last[i] < first[i])
			return false;
		memcpy(s->mask[i], ones + n, 16);
		s->hi_digits[i] = emit_hex8(first[i] >> 32) & s->mask[i][0];
	}
	return true;
}
