/*
 * diff's records (diff_out.h) and their text: a line per range (+ added,
 * - removed, ~ changed, ? uncompared) with each side's mapping, then a
 * '#' summary line.
 */
#include "access.h"
#include "diff_out.h"
#include "output.h"
#include "text_cells.h"

static void text_head(struct out *o, const void *ctx)
{
	const struct diff_head *h = ctx;

	fprintf(o->f, "# a: root 0x%llx  b: root 0x%llx  (+ added, - removed, "
		      "~ changed, ? uncompared)\n",
		(unsigned long long)h->root_a, (unsigned long long)h->root_b);
}

static void text_side(struct line *l, const struct out *o, const char *name,
		      const struct diff_side_rec *sd)
{
	if (!sd)
		return;
	uint32_t eff = (uint32_t)sd->effective.v;

	emit_str(l, "  ");
	emit_str(l, name);
	emit_str(l, ": ");
	if (!sd->pa.has) {
		emit_str(l, "table not in image (");
		emit_str(l, sd->absence);
		emit_char(l, ')');
		return;
	}
	text_hexw(l, sd->pa.v, out_pa_digits(o->mode));
	emit_char(l, ' ');
	text_size(l, sd->page_size.v, 0);
	emit_char(l, ' ');
	emit_str(l, sd->level);
	emit_str(l, (eff & PGW_F_USER) ? " USR" : "");
	emit_str(l, (eff & PGW_F_RW) ? " RW" : " ro");
	if (!pgw_cli_executable(eff))
		emit_str(l, " NX");
	else if (eff & (PGW_F_PXN | PGW_F_UXN))
		emit_str(l, pgw_cli_exec_cell(eff));
	else
		emit_str(l, " x");
	if (sd->flags.v & PGW_F_GLOBAL)
		emit_str(l, " GLB");
	if (sd->same_frame.has)
		emit_str(l, " same-frame");
	if (sd->absence) {
		emit_str(l, " data not in image (");
		emit_str(l, sd->absence);
		emit_char(l, ')');
	}
}

static void text_range(struct out *o, const void *rec)
{
	const struct diff_range_rec *r = rec;
	static const char mark[] = "+-~?";
	struct line l;
	bool first = true;
	unsigned k = 0;

	while (k < PGW_DIFF_UNCOMPARED &&
	       strcmp(r->kind, pgw_diff_kind_key(k)) != 0)
		k++;
	l.len = 0;
	emit_char(&l, mark[k]);
	emit_char(&l, ' ');
	text_span(&l, o, r->range.va, r->range.end);
	text_size(&l, r->range.end - r->range.va, 10);
	text_side(&l, o, "a", r->a);
	text_side(&l, o, "b", r->b);
	for (unsigned b = 0; b < r->changes.n; b++) {
		const char *w = rec_key(&r->changes, b);
		if (!w)
			continue;
		emit_str(&l, first ? "  changed: " : ",");
		emit_str(&l, w);
		first = false;
	}
	text_put(o, &l);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct diff_summary_rec *s = rec;
	struct line l;

	l.len = 0;
	emit_str(&l, "# ");
	emit_u64(&l, s->ranges);
	emit_str(&l, " ranges: added ");
	text_size(&l, s->added, 0);
	emit_str(&l, ", removed ");
	text_size(&l, s->removed, 0);
	emit_str(&l, ", changed ");
	text_size(&l, s->changed, 0);
	emit_str(&l, ", uncompared ");
	text_size(&l, s->uncompared, 0);
	emit_str(&l, "; alike ");
	text_size(&l, s->same, 0);
	if (s->data_compared.has) {
		emit_str(&l, "; data compared ");
		text_size(&l, s->data_compared.v, 0);
	}
	text_put(o, &l);
	if (s->table_not_in_image) {
		l.len = 0;
		emit_str(&l, "# INCOMPLETE: ");
		text_size(&l, s->table_not_in_image, 0);
		emit_str(&l, " under page tables an image lacks "
			     "(table-not-in-image)");
		text_put(o, &l);
	}
	if (s->uncompared > s->table_not_in_image) {
		l.len = 0;
		emit_str(&l, "# INCOMPLETE: ");
		text_size(&l, s->uncompared - s->table_not_in_image, 0);
		emit_str(&l, " mapped to pages an image lacks "
			     "(data-not-in-image)");
		text_put(o, &l);
	}
}

RECORD_TYPE(diff_side_rec, "side", DIFF_SIDE_FIELDS, NULL);
RECORD_TYPE(diff_range_rec, NULL, DIFF_RANGE_FIELDS, text_range);
RECORD_TYPE(diff_summary_rec, "summary", DIFF_SUMMARY_FIELDS,
	    text_summary);

static const struct rec_type *const diff_types[] = {
	&diff_range_rec_type, &diff_summary_rec_type, NULL,
};

const struct rec_table diff_table = {
	"type,va,end,size,a_pa,a_page_size,a_effective,b_pa,b_page_size,"
	"b_effective,changes,reason,detail",
	diff_types, text_head,
};
