/*
 * The cells of a delimited row (CSV, TSV), for every writer of rows
 * (record_delim.c, fast_rows.c, a command's own spellings): one spelling
 * of an empty cell, a number, a word, image text.
 */
#ifndef PGW_DELIM_CELLS_H
#define PGW_DELIM_CELLS_H

#include "delimited.h"

/* Each cell is followed by the separator, the last by a newline. */

static inline void sep(struct line *l, const struct delim *d)
{
	emit_char(l, d->sep);
}

static inline void empty(struct line *l, const struct delim *d, int n)
{
	while (n-- > 0) {
		emit_str(l, d->empty);
		emit_char(l, d->sep);
	}
}

static inline void hex(struct line *l, const struct delim *d, uint64_t v)
{
	emit_hex(l, v);
	sep(l, d);
}

static inline void num(struct line *l, const struct delim *d, uint64_t v)
{
	emit_u64(l, v);
	sep(l, d);
}

/* A word of pgwalk's own vocabulary (a key, a level): never escaped. */
static inline void word(struct line *l, const struct delim *d,
			const char *s)
{
	emit_str(l, *s ? s : d->empty);
	sep(l, d);
}

/* Text that may hold anything (names, reasons in words, image strings). */
static inline void text(struct line *l, const struct delim *d,
			const char *s)
{
	if (*s)
		emit_cell_str(l, d->sep, s);
	else
		emit_str(l, d->empty);
	sep(l, d);
}

/* n bytes that may hold anything (a NUL too: input echoed), escaped as
 * text and, in CSV, quoted when they hold a comma or a quote; as much as
 * fits a line. */
static inline void bytes_cell(struct line *l, const struct delim *d,
			      const char *s, size_t n)
{
	bool quote = d->sep == ',' && (memchr(s, ',', n) || memchr(s, '"', n));

	if (quote)
		emit_char(l, '"');
	for (size_t i = 0; i < n && l->len < sizeof(l->buf) - 16; i++) {
		if (quote && s[i] == '"')
			emit_char(l, '"');
		emit_text_char(l, (unsigned char)s[i]);
	}
	if (quote)
		emit_char(l, '"');
	if (!n)
		emit_str(l, d->empty);
	sep(l, d);
}

static inline void flags(struct line *l, const struct delim *d, uint32_t f)
{
	if (f)
		emit_flags(l, f, "|", "");
	else
		emit_str(l, d->empty);
	sep(l, d);
}

/* The end of a row built in o->rows (out_row): the separator after the
 * last cell becomes a newline. */
static inline void rows_end(struct line *l)
{
	l->buf[l->len - 1] = '\n';
}

/* The end of the row: the separator after the last cell becomes a
 * newline. */
static inline void row_end(struct out *o, struct line *l)
{
	l->buf[l->len - 1] = '\n';
	fwrite(l->buf, 1, l->len, o->f);
}

/* A header row written with d's separator. */
static inline void header(struct out *o, const struct delim *d,
			  const char *cols)
{
	struct line l;
	l.len = 0;

	for (; *cols; cols++)
		emit_char(&l, *cols == ',' ? d->sep : *cols);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

#endif
