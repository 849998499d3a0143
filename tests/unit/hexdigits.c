/*
 * Sixteen hex digits at once (src/cli/hexdigits.h), both forms against a
 * digit-at-a-time reference and against each other: every byte value in
 * every one of the 16 places of a valid number (a digit of either case is
 * read, anything else refuses the whole number), upper and lower case,
 * the extremes, and a million random numbers spelled and read back; the
 * spelling against snprintf's %016llx.  Where SSE2 is missing (another
 * architecture) the words form is checked alone.
 */
#include <stdlib.h>

#include "tap.h"
#include "cli/hexdigits.h"

/* The reference: a digit at a time. */
static bool ref_value(const char *p, uint64_t *v)
{
	uint64_t r = 0;

	for (int i = 0; i < 16; i++) {
		unsigned c = (unsigned char)p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		r = r << 4 | d;
	}
	*v = r;
	return true;
}

/* Each form's answer for p against the reference's; the forms that
 * disagree, as bits (1: words, 2: SSE2). */
static unsigned check_value(const char *p)
{
	uint64_t want = 0, got = 0;
	bool ok_want = ref_value(p, &want);
	unsigned bad = 0;

	if (hex16_value_words(p, &got) != ok_want || (ok_want && got != want))
		bad |= 1;
#ifdef PGW_HEX_SSE2
	got = 0;
	if (hex16_value_sse2(p, &got) != ok_want || (ok_want && got != want))
		bad |= 2;
#endif
	return bad;
}

static unsigned check_spell(uint64_t v)
{
	char want[17], got[16];
	unsigned bad = 0;

	snprintf(want, sizeof(want), "%016llx", (unsigned long long)v);
	hex16_spell_words(got, v);
	if (memcmp(got, want, 16))
		bad |= 1;
#ifdef PGW_HEX_SSE2
	hex16_spell_sse2(got, v);
	if (memcmp(got, want, 16))
		bad |= 2;
#endif
	return bad;
}

int main(void)
{
	const char *base = "0123456789abcdef", *upper = "FEDCBA9876543210";
	unsigned bad = 0, cases = 0;

	/* Every byte in every place of two valid numbers. */
	for (int n = 0; n < 2; n++)
		for (int pos = 0; pos < 16; pos++)
			for (int c = 0; c < 256; c++) {
				char s[16];
				memcpy(s, n ? upper : base, 16);
				s[pos] = (char)c;
				bad |= check_value(s);
				cases++;
			}
	ok(bad == 0, "%u numbers with every byte value in every place: both "
	   "forms as the reference (bad forms %u)", cases, bad);

	bad = 0;
	const char *edges[] = { "0000000000000000", "ffffffffffffffff",
				"FFFFFFFFFFFFFFFF", "8000000000000000",
				"0000000000000001", "aBcDeF0123456789",
				"ffffffffffffffg0", "/0000000000000:0",
				"`000000000000000", "@000000000000000",
				"G000000000000000", "0000000 00000000" };
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		bad |= check_value(edges[i]);
	ok(bad == 0, "the extremes and the neighbours of the ranges ('/', ':', "
	   "'@', 'G', '`', 'g', a space)");

	/* A million numbers spelled, read back, every length of zeros. */
	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
	unsigned spell_bad = 0, back_bad = 0;
	for (int i = 0; i < 1000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t v = x >> (i % 64);
		char s[16];
		spell_bad |= check_spell(v);
		hex16_spell(s, v);
		uint64_t back = 0;
		if (!hex16_value(s, &back) || back != v)
			back_bad++;
		back_bad += check_value(s) != 0;
	}
	ok(spell_bad == 0, "a million numbers spelled as %%016llx spells them "
	   "(bad forms %u)", spell_bad);
	ok(back_bad == 0, "and read back to themselves (%u not)", back_bad);
#ifndef PGW_HEX_SSE2
	printf("# no SSE2 here: the words form checked alone\n");
#endif
	return tap_done();
}
