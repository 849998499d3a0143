/*
 * read as JSON Lines: a `data` record per piece of bytes (one 4 KiB page
 * at most) with the bytes in hex, a `gap` record per stretch
 * --skip-unreadable skips.  With --phys there is no virtual address:
 * "va" is null.
 */
#include "json_kv.h"
#include "read_out.h"

static void put(struct out *o, struct line *l)
{
	emit_str(l, "}\n");
	fwrite(l->buf, 1, l->len, o->f);
}

void json_read_data(struct out *o, const struct read_piece *p)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"data\"");
	if (o->phys)
		kv_null(&l, "va");
	else
		kv_hex(&l, "va", p->addr);
	kv_hex(&l, "pa", p->pa);
	kv_u64(&l, "size", p->size);
	emit_str(&l, ",\"hex\":\"");
	for (size_t i = 0; i < p->size; i++) {
		if (l.len > sizeof(l.buf) - 8)
			emit_spill(&l, o->f);
		emit_hex_w(&l, p->data[i], 2);
	}
	emit_char(&l, '"');
	if (p->protnone)
		emit_str(&l, ",\"protnone\":true");
	put(o, &l);
}

void json_read_gap(struct out *o, const struct read_skip *s)
{
	const struct pgw_read_gap *g = s->g;
	uint64_t end = g->va + s->size;
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"gap\"");
	if (o->phys) {
		kv_null(&l, "va");
		kv_hex(&l, "pa", g->va);
	} else {
		kv_hex(&l, "va", g->va);
	}
	emit_str(&l, ",\"end\":\"");
	if (end == 0)
		emit_str(&l, "0x10000000000000000");
	else
		emit_hex(&l, end);
	emit_char(&l, '"');
	kv_u64(&l, "size", s->size);
	if (!o->phys && g->stop == PGW_STOP_OK)
		kv_hex(&l, "pa", g->pa);
	if (!o->phys && g->stop != PGW_STOP_NONCANONICAL &&
	    g->stop != PGW_STOP_BEYOND_SPACE)
		kv_str(&l, "level", out_level_name(o->mode, g->level));
	kv_str(&l, "reason", g->stop == PGW_STOP_OK ? "data-not-in-image" :
						      pgw_stop_key(g->stop));
	if (g->absence != PGW_ABSENT_NONE)
		kv_str(&l, "absence", pgw_absence_key(g->absence));
	put(o, &l);
}
