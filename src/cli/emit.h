/*
 * Small writers into a caller's line buffer: formatters build a whole line
 * and fwrite it once, because translate prints millions of lines and printf
 * costs more than the walk.
 */
#ifndef PGW_EMIT_H
#define PGW_EMIT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pgwalk.h"
#include "hexdigits.h"

/* Declare as `struct line l; l.len = 0;`: an initializer would clear all
 * of buf, which costs more than formatting the line. */
struct line {
	char buf[8192];
	size_t len;
};

/* Byte by byte: the strings are short (flag names, keys), and strlen plus
 * memcpy calls cost more than the copy. */
static inline void emit_str(struct line *l, const char *s)
{
	while (*s && l->len < sizeof(l->buf))
		l->buf[l->len++] = *s++;
}

static inline void emit_char(struct line *l, char c)
{
	if (l->len < sizeof(l->buf))
		l->buf[l->len++] = c;
}

/* n bytes at once (keys and words whose length is known). */
static inline void emit_mem(struct line *l, const char *s, size_t n)
{
	if (n <= sizeof(l->buf) - l->len) {
		memcpy(l->buf + l->len, s, n);
		l->len += n;
	}
}

/* A string literal: its length is a constant, so the copy is a few
 * moves (JSON keys, separators). */
#define emit_lit(l, s) emit_mem((l), "" s, sizeof(s) - 1)

/* The last n (1..16) of v's 16 hex digits after "0x": v moved up so
 * that they come first, and all 16 spelled into the line at once (the
 * bytes past the n digits are overwritten by what follows), with no
 * buffer to copy them from. */
static inline char *put_hex_digits(char *p, uint64_t v, size_t n)
{
	p[0] = '0';
	p[1] = 'x';
	hex16_spell(p + 2, v << (64 - 4 * n));
	return p + n + 2;
}

static inline void emit_hex_digits(struct line *l, uint64_t v, size_t n)
{
	if (18 > sizeof(l->buf) - l->len)
		return;
	l->len = (size_t)(put_hex_digits(l->buf + l->len, v, n) - l->buf);
}

/* Lower-case hex with 0x, no padding, at p (18 bytes of room); the end.
 * The one address spelling. */
static inline char *put_hex(char *p, uint64_t v)
{
	unsigned bits = v ? 64 - (unsigned)__builtin_clzll(v) : 1;

	return put_hex_digits(p, v, (bits + 3) / 4);
}

static inline void emit_hex(struct line *l, uint64_t v)
{
	if (18 <= sizeof(l->buf) - l->len)
		l->len = (size_t)(put_hex(l->buf + l->len, v) - l->buf);
}

/* Hex with "0x", at least `digits` digits (more when v needs them). */
static inline void emit_hex_min(struct line *l, uint64_t v, int digits)
{
	while (digits < 16 && (v >> (4 * digits)) != 0)
		digits++;
	emit_hex_digits(l, v, (size_t)digits);
}

/* Zero-padded hex without 0x, `width` digits (raw entries). */
static inline void emit_hex_w(struct line *l, uint64_t v, int width)
{
	for (int s = (width - 1) * 4; s >= 0; s -= 4)
		emit_char(l, "0123456789abcdef"[(v >> s) & 0xf]);
}

static inline void emit_u64(struct line *l, uint64_t v)
{
	char tmp[20];
	int i = 20;

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if ((size_t)(20 - i) <= sizeof(l->buf) - l->len) {
		memcpy(l->buf + l->len, tmp + i, (size_t)(20 - i));
		l->len += (size_t)(20 - i);
	}
}

/* Flag names joined by sep, each between quote and quote, in bit order
 * (emit_flags.c: remembered per combination, as a batch prints the same
 * few millions of times).  sep and quote are one character or "". */
void emit_flags(struct line *l, uint32_t flags, const char *sep,
		const char *quote);

/* One byte of a JSON string body: printable ASCII passes, except the
 * quote and the backslash; every other byte is \u00NN (the string read as
 * Latin-1: valid JSON whatever the image holds, and reversible). */
static inline void emit_json_char(struct line *l, unsigned char c)
{
	if (c == '"' || c == '\\') {
		emit_char(l, '\\');
		emit_char(l, (char)c);
	} else if (c < 0x20 || c >= 0x7f) {
		emit_str(l, "\\u00");
		emit_char(l, "0123456789abcdef"[c >> 4]);
		emit_char(l, "0123456789abcdef"[c & 0xf]);
	} else {
		emit_char(l, (char)c);
	}
}

static inline void emit_json_str(struct line *l, const char *s)
{
	for (; *s; s++)
		emit_json_char(l, (unsigned char)*s);
}

/* At most n bytes of s (a long string goes out in pieces); the bytes
 * read. */
static inline size_t emit_json_strn(struct line *l, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		emit_json_char(l, (unsigned char)s[i]);
	return i;
}

/* One byte of a string from the image for a terminal or a delimited
 * cell: printable ASCII passes, the backslash is \\, every other byte
 * (controls, escape sequences, tabs, newlines) \xNN. */
static inline void emit_text_char(struct line *l, unsigned char c)
{
	if (c == '\\') {
		emit_str(l, "\\\\");
	} else if (c >= 0x20 && c < 0x7f) {
		emit_char(l, (char)c);
	} else {
		emit_str(l, "\\x");
		emit_char(l, "0123456789abcdef"[c >> 4]);
		emit_char(l, "0123456789abcdef"[c & 0xf]);
	}
}

/* At most n bytes of s escaped by emit_text_char; the bytes read. */
static inline size_t emit_text_strn(struct line *l, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		emit_text_char(l, (unsigned char)s[i]);
	return i;
}

/* Write what l holds to f and empty it: for records as long as the
 * image's lists. */
static inline void emit_spill(struct line *l, FILE *f)
{
	fwrite(l->buf, 1, l->len, f);
	l->len = 0;
}

/* s escaped by esc (emit_json_strn, emit_text_strn), spilling l to f as
 * it fills, so that no string is cut short however long. */
static inline void emit_long(struct line *l, FILE *f, const char *s,
			     size_t (*esc)(struct line *, const char *,
					   size_t))
{
	while (*s) {
		if (l->len > sizeof(l->buf) / 2)
			emit_spill(l, f);
		s += esc(l, s, 256);
	}
}

/* n bytes that may hold anything (a NUL too), escaped by esc_char,
 * spilling l to f as it fills. */
static inline void emit_bytes(struct line *l, FILE *f, const char *s,
			      size_t n,
			      void (*esc_char)(struct line *, unsigned char))
{
	for (size_t i = 0; i < n; i++) {
		if (l->len > sizeof(l->buf) - 8)
			emit_spill(l, f);
		esc_char(l, (unsigned char)s[i]);
	}
}

/* A string cell of a delimited row: escaped as text (so no cell holds a
 * tab or a newline), and for CSV (sep ',') quoted as RFC 4180 says when
 * it holds a comma or a quote. */
static inline void emit_cell_str(struct line *l, char sep, const char *s)
{
	bool quote = sep == ',' && strpbrk(s, ",\"");

	if (quote)
		emit_char(l, '"');
	for (; *s; s++) {
		if (quote && *s == '"')
			emit_char(l, '"');
		emit_text_char(l, (unsigned char)*s);
	}
	if (quote)
		emit_char(l, '"');
}

#endif
