/* CSV with a header row; an empty pa/size means unmapped, `error` says why. */
#include "delimited.h"
#include "roots_out.h"

static void csv_xlat_begin(struct out *o)
{
	fputs("va,pa,size,level,flags,in_image,error\n", o->f);
}

static void csv_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_hex(&l, x->va);
	emit_char(&l, ',');
	if (x->stop == PGW_STOP_OK) {
		const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
		emit_hex(&l, x->pa);
		emit_char(&l, ',');
		emit_u64(&l, x->page_size);
		emit_char(&l, ',');
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_char(&l, ',');
		emit_flags(&l, e->flags, "|", "");
		emit_str(&l, x->data_in_image ? ",true," : ",false,");
	} else {
		emit_str(&l, ",,");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_str(&l, ",,,");
		emit_str(&l, out_xlat_error(x->stop));
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void csv_bad(struct out *o, const char *text)
{
	(void)text;
	fputs(",,,,,,not an address\n", o->f);
}

/* ---- dump and regions ---- */

/* Cell spelling of the dump rows (delimited.c). */
static const struct delim csv = { ',', "" };

static void csv_dump_map(struct out *o, const struct pgw_run *run)
{
	delim_dump_map(o, &csv, run);
}

static void csv_dump_hole(struct out *o, const struct pgw_run *run)
{
	delim_dump_hole(o, &csv, run);
}

static void csv_dump_begin(struct out *o, const struct walk_head *h)
{
	(void)h;
	fputs("type,va,end,size,pa,page_size,level,entries,flags,effective,"
	      "region,detail\n", o->f);
}

static void csv_dump_region(struct out *o, const struct pgw_region *r)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "region,");
	delim_span(&l, &csv, r->start, r->end);
	emit_str(&l, ",,,,,,");
	emit_str(&l, r->key);
	emit_char(&l, ',');
	emit_csv_str(&l, r->name);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void csv_dump_summary(struct out *o, const struct dump_summary *s)
{
	struct line l;
	l.len = 0;

	/* size: bytes mapped; entries: ranges printed; the rest in detail. */
	emit_str(&l, "summary,,,");
	emit_u64(&l, s->mapped);
	emit_str(&l, ",,,,");
	emit_u64(&l, s->maps);
	emit_str(&l, ",,,,holes=");
	emit_u64(&l, s->holes);
	emit_str(&l, " non_present=");
	emit_u64(&l, s->nonpresent);
	emit_str(&l, " wx=");
	emit_u64(&l, s->wx);
	emit_str(&l, " wx_bytes=");
	emit_u64(&l, s->wx_bytes);
	for (int lv = 0; lv < PGW_NLEVELS; lv++) {
		if (!s->level_bytes[lv])
			continue;
		emit_str(&l, " mapped_");
		emit_u64(&l, pgw_level_span(o->mode, (enum pgw_level)lv));
		emit_char(&l, '=');
		emit_u64(&l, s->level_bytes[lv]);
	}
	emit_str(&l, " entries=");
	emit_u64(&l, s->stats.entries);
	emit_str(&l, " tables=");
	emit_u64(&l, s->stats.tables);
	emit_str(&l, " leaves=");
	emit_u64(&l, s->stats.leaves);
	emit_str(&l, s->complete ? " complete=true\n" : " complete=false\n");
	fwrite(l.buf, 1, l.len, o->f);
}

static void csv_regions_begin(struct out *o, const struct walk_head *h)
{
	const struct pgw_layout *lay = h->layout;
	struct line l;
	l.len = 0;

	fputs("type,key,name,va,end,size,mapped,leaves,source,why\n", o->f);
	emit_str(&l, "layout,");
	emit_str(&l, lay->name);
	emit_char(&l, ',');
	emit_csv_str(&l, lay->desc);
	emit_str(&l, ",,,,,,,");
	emit_csv_str(&l, lay->why);
	emit_char(&l, '\n');
	for (size_t i = 0; i < lay->nbases; i++) {
		const struct pgw_layout_base *b = &lay->base[i];
		emit_str(&l, "base,");
		emit_str(&l, b->name);
		emit_str(&l, ",,");
		emit_hex(&l, b->value);
		emit_str(&l, ",,,,,");
		emit_str(&l, pgw_base_source_name(b->source));
		emit_char(&l, ',');
		emit_csv_str(&l, b->why);
		emit_char(&l, '\n');
	}
	fwrite(l.buf, 1, l.len, o->f);
}

static void csv_regions_row(struct out *o, const struct pgw_region *r,
			    const struct region_usage *u)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "region,");
	emit_str(&l, r->key);
	emit_char(&l, ',');
	emit_csv_str(&l, r->name);
	emit_char(&l, ',');
	delim_span(&l, &csv, r->start, r->end);
	emit_u64(&l, u->mapped);
	emit_char(&l, ',');
	emit_u64(&l, u->leaves);
	emit_str(&l, ",,\n");
	fwrite(l.buf, 1, l.len, o->f);
}

const struct formatter fmt_csv = {
	.name = "csv",
	.xlat_begin = csv_xlat_begin,
	.xlat = csv_xlat,
	.bad_addr = csv_bad,
	.dump_begin = csv_dump_begin,
	.dump_region = csv_dump_region,
	.dump_map = csv_dump_map,
	.dump_hole = csv_dump_hole,
	.dump_summary = csv_dump_summary,
	.regions_begin = csv_regions_begin,
	.regions_row = csv_regions_row,
	.delim = &csv,
	.roots_begin = delim_roots_begin,
	.roots_root = delim_roots_root,
	.roots_orphan = delim_roots_orphan,
	.roots_unowned = delim_roots_unowned,
	.roots_end = delim_roots_end,
};