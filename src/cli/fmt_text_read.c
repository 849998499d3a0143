/*
 * read as text: hexdump -C's layout, with addresses (virtual, or
 * physical with --phys) in the offset column: 16 bytes a line in hex and
 * as ASCII (anything else '.'), a line equal to the one before squeezed
 * into one "*", the end address alone on the last line.  A stretch
 * --skip-unreadable skips is one marked line; the next line starts after
 * it.
 */
#include "emit.h"
#include "read_out.h"

static void addr(struct line *l, const struct hexdump *h, uint64_t a)
{
	emit_hex_w(l, a, h->digits);
}

/* The line held (16 bytes, or fewer before a gap or the end). */
static void line_out(struct out *o, struct hexdump *h)
{
	struct line l;
	l.len = 0;

	if (h->have == 16 && h->have_prev &&
	    memcmp(h->line, h->prev, 16) == 0) {
		if (!h->starred)
			fputs("*\n", o->f);
		h->starred = true;
		goto next;
	}
	addr(&l, h, h->addr);
	emit_char(&l, ' ');
	for (size_t i = 0; i < 16; i++) {
		if (i % 8 == 0)
			emit_char(&l, ' ');
		if (i < h->have) {
			emit_hex_w(&l, h->line[i], 2);
			emit_char(&l, ' ');
		} else {
			emit_str(&l, "   ");
		}
	}
	emit_str(&l, " |");
	for (size_t i = 0; i < h->have; i++)
		emit_char(&l, h->line[i] >= 0x20 && h->line[i] < 0x7f ?
				      (char)h->line[i] : '.');
	emit_str(&l, "|\n");
	fwrite(l.buf, 1, l.len, o->f);
	h->starred = false;
next:
	h->have_prev = h->have == 16;
	memcpy(h->prev, h->line, 16);
	h->addr += h->have;
	h->have = 0;
}

void text_read_data(struct out *o, const struct read_piece *p)
{
	struct hexdump *h = o->hex;

	if (h->have == 0)
		h->addr = p->addr;
	for (size_t i = 0; i < p->size;) {
		size_t n = 16 - h->have;
		if (n > p->size - i)
			n = p->size - i;
		memcpy(h->line + h->have, p->data + i, n);
		h->have += n;
		i += n;
		if (h->have == 16)
			line_out(o, h);
	}
}

void text_read_gap(struct out *o, const struct read_skip *s)
{
	struct hexdump *h = o->hex;
	const struct pgw_read_gap *g = s->g;
	struct line l;
	l.len = 0;

	if (h->have)
		line_out(o, h);
	addr(&l, h, g->va);
	emit_str(&l, "  ** ");
	emit_u64(&l, s->size);
	emit_str(&l, s->size == 1 ? " byte unreadable: " :
				    " bytes unreadable: ");
	emit_str(&l, g->stop == PGW_STOP_OK ? "data-not-in-image" :
					      pgw_stop_key(g->stop));
	if (g->absence != PGW_ABSENT_NONE) {
		emit_str(&l, " (");
		emit_str(&l, pgw_absence_key(g->absence));
		emit_char(&l, ')');
	}
	if (!o->phys && g->stop != PGW_STOP_NONCANONICAL &&
	    g->stop != PGW_STOP_BEYOND_SPACE) {
		emit_str(&l, " at ");
		emit_str(&l, out_level_name(o->mode, g->level));
	}
	emit_str(&l, " **\n");
	fwrite(l.buf, 1, l.len, o->f);
	/* hexdump starts afresh after it: no "*" across a gap. */
	h->have_prev = false;
	h->starred = false;
	h->addr = g->va + s->size;
}

void text_read_end(struct out *o, uint64_t end)
{
	struct hexdump *h = o->hex;
	struct line l;
	l.len = 0;

	if (h->have)
		line_out(o, h);
	addr(&l, h, end);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}
