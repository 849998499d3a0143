/* regions' records (regions_out.h) and their text layout: the layout and
 * its bases as sentences, the regions as columns. */
#include "output.h"
#include "regions_out.h"
#include "text_cells.h"

static void text_layout(struct out *o, const void *rec)
{
	const struct layout_rec *r = rec;
	char prefix[160];

	snprintf(prefix, sizeof(prefix), "layout %s (", r->name);
	out_text_line(o->f, prefix, r->why, ")\n");
}

static void text_base(struct out *o, const void *rec)
{
	const struct base_rec *r = rec;
	char prefix[160];

	snprintf(prefix, sizeof(prefix), "base %s 0x%llx %s: ", r->name,
		 (unsigned long long)r->value, r->source);
	out_text_line(o->f, prefix, r->why, "\n");
}

/* The column heads, before the first region (or the summary). */
static void text_head(struct out *o)
{
	if (o->last == &region_rec_type)
		return;
	fprintf(o->f, "# %-*s %10s %10s %8s  REGION\n",
		2 * out_va_digits(o->mode) + 3, "START-END", "SIZE", "MAPPED",
		"LEAVES");
}

static void text_region(struct out *o, const void *rec)
{
	const struct region_rec *r = rec;
	struct line l;
	l.len = 0;
	struct line n;
	n.len = 0;

	text_head(o);
	emit_str(&l, "  ");
	text_span(&l, o, r->span.va, r->span.end);
	text_size(&l, r->span.end - r->span.va, 11);
	if (r->mapped)
		text_size(&l, r->mapped, 11);
	else
		emit_str(&l, "          -");
	if (r->leaves)
		emit_u64(&n, r->leaves);
	else
		emit_char(&n, '-');
	for (size_t i = n.len; i < 9; i++)
		emit_char(&l, ' ');
	if (n.len >= 9)
		emit_char(&l, ' ');  /* shared tables: counts past the column */
	memcpy(l.buf + l.len, n.buf, n.len);
	l.len += n.len;
	emit_str(&l, "  ");
	emit_str(&l, r->name);
	text_put(o, &l);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct regions_summary_rec *s = rec;
	struct line l;
	l.len = 0;

	text_head(o);
	emit_str(&l, "# mapped: ");
	text_size(&l, s->mapped, 0);
	emit_str(&l, " in ");
	emit_u64(&l, s->leaves);
	emit_str(&l, s->leaves == 1 ? " leaf" : " leaves");
	text_incomplete(&l, s->reason, ": mapped sizes are partial");
	text_put(o, &l);
}

RECORD_TYPE(layout_rec, "layout", LAYOUT_FIELDS, text_layout);
RECORD_TYPE(base_rec, "base", BASE_FIELDS, text_base);
RECORD_TYPE(region_rec, "region", REGION_FIELDS, text_region);
RECORD_TYPE(regions_summary_rec, "summary", REGIONS_SUMMARY_FIELDS,
	    text_summary);

static const struct rec_type *const regions_types[] = {
	&layout_rec_type, &base_rec_type, &region_rec_type,
	&regions_summary_rec_type, NULL,
};

const struct rec_table regions_table = {
	"type,name,region,va,end,size,mapped,leaves,value,source,complete,"
	"reason,why,desc",
	regions_types,
};
