/*
 * Sixteen hex digits at once (src/cli/hexdigits.h), both forms against a
 * digit-at-a-time reference and against each other: every byte value in
 * every one of the 16 places of a valid number (a digit of either case is
 * read, anything else refuses the whole number), upper and lower case,
 * the extremes, and a million random numbers spelled and read back; the
 * spelling against snprintf's %016llx, and emit.h's writers of numbers
 * (0x and no padding, or padded) against snprintf.  Where SSE2 is missing
 * (another architecture) the words form is checked alone.
 */
#include <stdlib.h>

#include "tap.h"
#include "cli/emit.h"
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

/* The reference line: "0x" or "0X", 1 to 16 hex digits, a newline. */
static size_t ref_line(const char *p, uint64_t *v)
{
	size_t nd = 0;
	uint64_t r = 0;

	if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return 0;
	while (nd < 17 && strchr("0123456789abcdefABCDEF", p[2 + nd]) &&
	       p[2 + nd])
		nd++;
	if (nd == 0 || nd > 16 || p[2 + nd] != '\n')
		return 0;
	for (size_t i = 0; i < nd; i++) {
		char c = p[2 + i];
		r = r << 4 | (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	*v = r;
	return 3 + nd;
}

/* Both forms of hex0x_body against the reference at p (which has 16
 * bytes of room before it and 48 from it on), the line taken to its
 * first newline as the reader finds it, and both of hex0x_line (which
 * finds it); the forms that disagree, as bits. */
static unsigned check_line(const char *p)
{
	uint64_t want = 0, got = 0;
	size_t n = ref_line(p, &want);
	const char *nl = memchr(p, '\n', 48);
	bool m;
	unsigned bad = 0;

	/* hex0x_line finds the end itself (bits 4: words, 8: SSE2). */
	if (hex0x_line_bytes(p, &got) != n || (n && got != want))
		bad |= 4;
#ifdef PGW_HEX_SSE2
	got = 0;
	if (hex0x_line_sse2(p, &got) != n || (n && got != want))
		bad |= 8;
#endif
	got = 0;
	if (!nl)
		return n ? bad | 3 : bad;   /* the reader asks no hex0x_body */
	m = hex0x_body_bytes(p, nl, &got);
	if (m != (n != 0) || (n && got != want))
		bad |= 1;
#ifdef PGW_HEX_SSE2
	got = 0;
	m = hex0x_body_sse2(p, nl, &got);
	if (m != (n != 0) || (n && got != want))
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

	/* Lines: every count of digits (0 to 18) after 0x or 0X, then every
	 * byte value as the byte after them and in every place of the line,
	 * with random bytes in the room before and after (a line's answer
	 * must not depend on them). */
	bad = 0;
	cases = 0;
	for (unsigned nd = 0; nd <= 18; nd++)
		for (unsigned pos = 0; pos < nd + 3; pos++)
			for (int c = 0; c < 256; c++) {
				char room[64], *p = room + 16;
				for (size_t i = 0; i < sizeof(room); i++) {
					x ^= x << 13;
					x ^= x >> 7;
					x ^= x << 17;
					room[i] = (char)x;
				}
				p[0] = '0';
				p[1] = pos & 1 ? 'X' : 'x';
				for (unsigned i = 0; i < nd; i++) {
					unsigned d = (x >> (4 * (i % 16))) & 15;
					p[2 + i] = (pos + i) & 1 ? base[d] :
								   upper[d];
				}
				p[2 + nd] = '\n';
				p[pos] = (char)c;
				bad |= check_line(p);
				cases++;
			}
	ok(bad == 0, "%u lines of 0 to 18 digits with every byte value in "
	   "every place, amid random bytes: both forms of each reader as "
	   "the reference (bad forms %u)", cases, bad);
	bad = 0;
	const char *lines[] = { "0x0\n", "0x1\n", "0xffffffffffffffff\n",
				"0X8000000000000000\n", "0x\n", "0x1\r\n",
				"0x1 \n", "0x00000000000000001\n", "00x1\n",
				"0x1\0\n", "x1\n", "0xg\n" };
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char room[64] = { 0 };
		memcpy(room + 16, lines[i], strlen(lines[i]) + 1);
		bad |= check_line(room + 16);
	}
	ok(bad == 0, "the edges: one digit, 16, 17, none, CR, a space, a NUL");

	/* The writers: emit_hex as printf's %#llx spells it (0 as 0x0),
	 * emit_hex_min padded to 1..16 digits, in a line that already
	 * holds a byte, for every length of number. */
	bad = 0;
	unsigned spelt = 0;
	for (unsigned bits = 0; bits <= 64; bits++)
		for (unsigned k = 0; k < 40; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Exactly `bits` significant bits. */
			uint64_t top = UINT64_C(1) << (bits ? bits - 1 : 0);
			uint64_t v = bits ? top | (x & (top - 1)) : 0;
			char want[40];
			struct line l;
			l.len = 1;
			emit_hex(&l, v);
			snprintf(want, sizeof(want), "0x%llx",
				 (unsigned long long)v);
			bad += l.len - 1 != strlen(want) ||
			       memcmp(l.buf + 1, want, strlen(want)) != 0;
			int w = (int)(k % 16) + 1;
			l.len = 1;
			emit_hex_min(&l, v, w);
			snprintf(want, sizeof(want), "0x%0*llx", w,
				 (unsigned long long)v);
			bad += l.len - 1 != strlen(want) ||
			       memcmp(l.buf + 1, want, strlen(want)) != 0;
			spelt += 2;
		}
	ok(bad == 0, "emit_hex and emit_hex_min (1-16 digits) as printf on %u "
	   "numbers of every length: %u differ", spelt, bad);
#ifndef PGW_HEX_SSE2
	printf("# no SSE2 here: the words form checked alone\n");
#endif
	return tap_done();
}
