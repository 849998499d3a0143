/*
 * Words of text output every command spells alike (text_cells.c defines
 * them; each record type's text layout uses them).
 */
#ifndef PGW_TEXT_CELLS_H
#define PGW_TEXT_CELLS_H

#include "emit.h"

struct out;

/* A size the human way, "4K", "2M", "1G" (bytes as "123B"),
 * right-aligned in `width` columns (0: running text). */
void text_size(struct line *l, uint64_t size, int width);
/* Zero-padded hex, `digits` wide. */
void text_hexw(struct line *l, uint64_t v, int digits);
/* A start-end span, as wide as the mode's addresses. */
void text_span(struct line *l, const struct out *o, uint64_t va,
	       uint64_t end);
/* Effective permissions: "kernel|user ro|rw exec|nx". */
void text_access(struct line *l, uint32_t eff);

/* Pad the cell begun at `from` to `width` columns, then a space. */
static inline void text_pad(struct line *l, size_t from, size_t width)
{
	do
		emit_char(l, ' ');
	while (l->len - from <= width);
}

/* s in a cell `width` wide, then a space. */
static inline void text_cell(struct line *l, const char *s, size_t width)
{
	size_t at = l->len;

	emit_str(l, s);
	text_pad(l, at, width);
}

/* A table's column heads: each name in a cell its width wide, then
 * last (NULL: none), the line written (text_put). */
struct text_col {
	const char *name;
	size_t width;
};
void text_heads(struct out *o, const struct text_col *col, size_t n,
		const char *last);

/* Drop trailing blanks, end the line, write it (after what o->rows
 * gathered). */
void text_put(struct out *o, struct line *l);
/* "; INCOMPLETE: " and the reason in words, then tail (reason NULL:
 * nothing). */
void text_incomplete(struct line *l, const char *reason, const char *tail);

#endif
