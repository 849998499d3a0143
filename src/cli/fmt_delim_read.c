/* read as CSV and TSV rows (delimited.h). */
#include "delim_cells.h"
#include "read_out.h"

/* ---- read ---- */

void delim_read_begin(struct out *o, const struct delim *d)
{
	header(o, d, "type,va,end,size,pa,level,reason,absence,hex,protnone");
}

void delim_read_data(struct out *o, const struct delim *d,
		     const struct read_piece *p)
{
	struct line l;
	l.len = 0;

	word(&l, d, "data");
	if (o->phys)
		empty(&l, d, 1);
	else
		hex(&l, d, p->addr);
	empty(&l, d, 1);
	num(&l, d, p->size);
	hex(&l, d, p->pa);
	empty(&l, d, 3);
	for (size_t i = 0; i < p->size; i++) {
		if (l.len > sizeof(l.buf) - 8)
			emit_spill(&l, o->f);
		emit_hex_w(&l, p->data[i], 2);
	}
	sep(&l, d);
	word(&l, d, p->protnone ? "true" : "");
	row_end(o, &l);
}

void delim_read_gap(struct out *o, const struct delim *d,
		    const struct read_skip *s)
{
	const struct pgw_read_gap *g = s->g;
	uint64_t end = g->va + s->size;
	struct line l;
	l.len = 0;

	word(&l, d, "gap");
	if (o->phys)
		empty(&l, d, 1);
	else
		hex(&l, d, g->va);
	if (end == 0) {
		emit_str(&l, "0x10000000000000000");
		sep(&l, d);
	} else {
		hex(&l, d, end);
	}
	num(&l, d, s->size);
	if (o->phys)
		hex(&l, d, g->va);
	else if (g->stop == PGW_STOP_OK)
		hex(&l, d, g->pa);
	else
		empty(&l, d, 1);
	if (!o->phys && g->stop != PGW_STOP_NONCANONICAL &&
	    g->stop != PGW_STOP_BEYOND_SPACE)
		word(&l, d, out_level_name(o->mode, g->level));
	else
		empty(&l, d, 1);
	word(&l, d, g->stop == PGW_STOP_OK ? "data-not-in-image" :
					     pgw_stop_key(g->stop));
	word(&l, d, g->absence != PGW_ABSENT_NONE ?
			    pgw_absence_key(g->absence) : "");
	empty(&l, d, 2);
	row_end(o, &l);
}
