/*
 * read's records (read_out.h) and their text: hexdump -C's layout, with
 * addresses (virtual, or physical with --phys) in the offset column: 16
 * bytes a line in hex and as ASCII (anything else '.'), a line equal to
 * the one before squeezed into one "*", the end address alone on the
 * last line.  A stretch --skip-unreadable skips is one marked line; the
 * next line starts after it.
 */
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

static void text_data(struct out *o, const void *rec)
{
	const struct read_data_rec *p = rec;
	const uint8_t *b = (const uint8_t *)p->hex.s;
	struct hexdump *h = o->hex;

	if (h->have == 0)
		h->addr = p->va.has ? p->va.v : p->pa;
	for (size_t i = 0; i < p->size;) {
		size_t n = 16 - h->have;
		if (n > p->size - i)
			n = p->size - i;
		memcpy(h->line + h->have, b + i, n);
		h->have += n;
		i += n;
		if (h->have == 16)
			line_out(o, h);
	}
}

/* A gap's line: where, how much, why (and at which level). */
static void gap_line(struct out *o, uint64_t start, uint64_t size,
		     const char *reason, const char *absence,
		     const char *level)
{
	struct hexdump *h = o->hex;
	struct line l;
	l.len = 0;

	if (h->have)
		line_out(o, h);
	addr(&l, h, start);
	emit_str(&l, "  ** ");
	emit_u64(&l, size);
	emit_str(&l, size == 1 ? " byte unreadable: " : " bytes unreadable: ");
	emit_str(&l, reason);
	if (absence) {
		emit_str(&l, " (");
		emit_str(&l, absence);
		emit_char(&l, ')');
	}
	if (level) {
		emit_str(&l, " at ");
		emit_str(&l, level);
	}
	emit_str(&l, " **\n");
	fwrite(l.buf, 1, l.len, o->f);
	/* hexdump starts afresh after it: no "*" across a gap. */
	h->have_prev = false;
	h->starred = false;
	h->addr = start + size;
}

static void text_gap(struct out *o, const void *rec)
{
	const struct read_gap_rec *g = rec;

	gap_line(o, g->va, g->size, g->reason, g->absence, g->level);
}

static void text_pgap(struct out *o, const void *rec)
{
	const struct read_pgap_rec *g = rec;

	gap_line(o, g->pa, g->size, g->reason, g->absence, NULL);
}

struct read_end_rec {
	uint64_t end;
};

static void text_end(struct out *o, const void *rec)
{
	const struct read_end_rec *e = rec;
	struct hexdump *h = o->hex;
	struct line l;
	l.len = 0;

	if (h->have)
		line_out(o, h);
	addr(&l, h, e->end);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

RECORD_TYPE(read_data_rec, "data", READ_DATA_FIELDS, text_data);
RECORD_TYPE(read_gap_rec, "gap", READ_GAP_FIELDS, text_gap);
RECORD_TYPE(read_pgap_rec, "gap", READ_PGAP_FIELDS, text_pgap);
static const struct rec_type read_end_type = {
	.name = "end", .text = text_end, .text_only = true,
};

static const struct rec_type *const read_types[] = {
	&read_data_rec_type, &read_gap_rec_type, &read_pgap_rec_type, NULL,
};

const struct rec_table read_table = {
	"type,va,end,size,pa,level,reason,absence,hex,protnone",
	read_types, NULL,
};

void read_say_data(struct out *o, const struct read_piece *p)
{
	struct read_data_rec r = {
		.va = { p->addr, !o->phys },
		.pa = p->pa,
		.size = p->size,
		.hex = { (const char *)p->data, p->size },
		.protnone = { true, p->protnone },
	};

	out_record(o, &read_data_rec_type, &r);
}

void read_say_gap(struct out *o, const struct read_skip *s)
{
	const struct pgw_read_gap *g = s->g;
	const char *reason = g->stop == PGW_STOP_OK ? "data-not-in-image" :
						      pgw_stop_key(g->stop);
	const char *absence = g->absence != PGW_ABSENT_NONE ?
			      pgw_absence_key(g->absence) : NULL;

	if (o->phys) {
		struct read_pgap_rec r = {
			.pa = g->va, .end = g->va + s->size, .size = s->size,
			.reason = reason, .absence = absence,
		};
		out_record(o, &read_pgap_rec_type, &r);
		return;
	}
	struct read_gap_rec r = {
		.va = g->va, .end = g->va + s->size, .size = s->size,
		.pa = { g->pa, g->stop == PGW_STOP_OK },
		.level = g->stop != PGW_STOP_NONCANONICAL &&
			 g->stop != PGW_STOP_BEYOND_SPACE ?
			 out_level_name(o->mode, g->level) : NULL,
		.reason = reason, .absence = absence,
	};
	out_record(o, &read_gap_rec_type, &r);
}

void read_say_end(struct out *o, uint64_t end)
{
	struct read_end_rec e = { end };

	out_record(o, &read_end_type, &e);
}
