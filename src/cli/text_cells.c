/* Words of text output every command spells alike (text_cells.h). */
#include "access.h"
#include "output.h"
#include "text_cells.h"

static void human_spell(struct line *l, uint64_t size, int width);

/* "user rw nx", the effective permissions in words. */
void text_access(struct line *l, uint32_t eff)
{
	if (eff & PGW_F_USER)
		emit_lit(l, "user ");
	else
		emit_lit(l, "kernel ");
	if (eff & PGW_F_RW)
		emit_lit(l, "rw ");
	else
		emit_lit(l, "ro ");
	emit_str(l, pgw_cli_exec_word(eff));
}

/* ptdump's size spelling: the largest unit that divides evenly. */
void text_size(struct line *l, uint64_t size, int width)
{
	/* The last one spelled: --leaves asks for "4K" millions of times. */
	static _Thread_local struct line last;
	static _Thread_local uint64_t last_size = 1;
	static _Thread_local int last_width = -1;

	if (size == last_size && width == last_width) {
		emit_mem(l, last.buf, last.len);
		return;
	}
	size_t at = l->len;
	human_spell(l, size, width);
	last.len = 0;
	emit_mem(&last, l->buf + at, l->len - at);
	last_size = size;
	last_width = width;
}

/* text_size's words, spelled. */
static void human_spell(struct line *l, uint64_t size, int width)
{
	static const char unit[] = "KMGTPE";
	char t[24];
	int n = 0, u = -1;

	if (size && !(size & 1023)) {
		size >>= 10;
		u = 0;
		while (!(size & 1023) && u + 1 < (int)sizeof(unit) - 1) {
			size >>= 10;
			u++;
		}
	}
	if (u >= 0 || size)
		t[n++] = u >= 0 ? unit[u] : 'B';
	do {
		t[n++] = (char)('0' + size % 10);
		size /= 10;
	} while (size);
	/* Right-aligned; a value wider than the column still gets a blank
	 * before it (except in running text, width 0). */
	for (int i = n; i < width; i++)
		emit_char(l, ' ');
	if (width && n >= width)
		emit_char(l, ' ');
	while (n)
		emit_char(l, t[--n]);
}

/* Zero-padded to `digits`, wider when the value needs it (2^32, the end
 * of a 32-bit space). */
void text_hexw(struct line *l, uint64_t v, int digits)
{
	emit_hex_min(l, v, digits);
}

/* start-end, with an end of 2^64 spelled out. */
void text_span(struct line *l, const struct out *o, uint64_t va,
	       uint64_t end)
{
	int w = out_va_digits(o->mode);

	stencil_hex(o->stencil, l, ST_VA, va, w);
	emit_char(l, '-');
	if (end == 0 && va != 0)
		emit_str(l, "0x10000000000000000");
	else
		stencil_hex(o->stencil, l, ST_END, end, w);
}

/* Drop trailing blanks, end the line, write it (after what o->rows
 * gathered). */
void text_heads(struct out *o, const struct text_col *col, size_t n,
		const char *last)
{
	struct line l;
	l.len = 0;

	for (size_t i = 0; i < n; i++)
		text_cell(&l, col[i].name, col[i].width);
	if (last)
		emit_str(&l, last);
	text_put(o, &l);
}

void text_put(struct out *o, struct line *l)
{
	out_rows_flush(o);
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

/* "; INCOMPLETE: why" for a summary that is not whole. */
void text_incomplete(struct line *l, const char *reason, const char *tail)
{
	static const struct { const char *reason, *words; } why[] = {
		{ "budget", "the entry budget ran out (raise --max-entries)" },
		{ "table-not-in-image", "page tables not in the image" },
		{ "read-error", "the image could not be read" },
	};

	if (!reason)
		return;
	emit_str(l, "; INCOMPLETE: ");
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++)
		if (strcmp(reason, why[i].reason) == 0)
			emit_str(l, why[i].words);
	emit_str(l, tail);
}
