/* va<TAB>pa<TAB>size<TAB>flags; "-" for every column an unmapped VA lacks. */
#include "emit.h"
#include "output.h"

static void tsv_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_hex(&l, x->va);
	emit_char(&l, '\t');
	if (x->status == PGW_X_OK) {
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

const struct formatter fmt_tsv = {
	.name = "tsv",
	.xlat = tsv_xlat,
	.bad_addr = tsv_bad,
};
