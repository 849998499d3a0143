/* CSV with a header row; an empty pa/size means unmapped, `error` says why. */
#include "emit.h"
#include "output.h"

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
	if (x->status == PGW_X_OK) {
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
		emit_str(&l, pgw_xlat_status_text(x->status));
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void csv_bad(struct out *o, const char *text)
{
	(void)text;
	fputs(",,,,,,not an address\n", o->f);
}

const struct formatter fmt_csv = {
	.name = "csv",
	.xlat_begin = csv_xlat_begin,
	.xlat = csv_xlat,
	.bad_addr = csv_bad,
};
