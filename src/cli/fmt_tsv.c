/* Tab-separated, no header.  translate: va, pa, size, flags, with "-" for
 * every column an unmapped VA lacks.  dump: the CSV columns, "-" for an
 * empty cell, map and hole rows only. */
#include "delimited.h"
#include "roots_out.h"

static void tsv_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_hex(&l, x->va);
	emit_char(&l, '\t');
	if (x->stop == PGW_STOP_OK) {
		const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
		emit_hex(&l, x->pa);
		emit_char(&l, '\t');
		emit_u64(&l, x->page_size);
		emit_char(&l, '\t');
		emit_flags(&l, e->flags, ",", "");
	} else {
		emit_str(&l, "-\t-\t-");
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void tsv_bad(struct out *o, const char *text)
{
	(void)text;
	fputs("-\t-\t-\t-\n", o->f);
}

/* ---- dump and regions ---- */

/* Cell spelling of the dump rows (delimited.c). */
static const struct delim tsv = { '\t', "-" };

static void tsv_dump_map(struct out *o, const struct pgw_run *run)
{
	delim_dump_map(o, &tsv, run);
}

static void tsv_dump_hole(struct out *o, const struct pgw_run *run)
{
	delim_dump_hole(o, &tsv, run);
}

/* Regions as rows: key, va, end, size, mapped, leaves, name. */
static void tsv_regions_row(struct out *o, const struct pgw_region *r,
			    const struct region_usage *u)
{
	struct line l;
	l.len = 0;

	emit_str(&l, r->key);
	emit_char(&l, '\t');
	delim_span(&l, &tsv, r->start, r->end);
	emit_u64(&l, u->mapped);
	emit_char(&l, '\t');
	emit_u64(&l, u->leaves);
	emit_char(&l, '\t');
	emit_str(&l, r->name);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

const struct formatter fmt_tsv = {
	.name = "tsv",
	.xlat = tsv_xlat,
	.bad_addr = tsv_bad,
	.dump_map = tsv_dump_map,
	.dump_hole = tsv_dump_hole,
	.regions_row = tsv_regions_row,
	.delim = &tsv,
	.roots_begin = delim_roots_begin,
	.roots_root = delim_roots_root,
	.roots_orphan = delim_roots_orphan,
	.roots_unowned = delim_roots_unowned,
	.roots_end = delim_roots_end,
};