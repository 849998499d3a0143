/* Human output: every level walked, like crash's vtop, one block per VA. */
#include <inttypes.h>

#include "emit.h"
#include "output.h"

static void size_text(struct line *l, uint64_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (size >= 1024 && (size & 1023) == 0 && u < 4) {
		size >>= 10;
		u++;
	}
	emit_u64(l, size);
	emit_char(l, ' ');
	emit_str(l, unit[u]);
}

static void np_text(struct line *l, const struct pgw_entry *e)
{
	emit_str(l, "not present (");
	emit_str(l, out_np_kind_name(e->np_kind));
	if (e->np_kind == PGW_NP_PROTNONE) {
		emit_str(l, ", frame ");
		emit_hex(l, e->np_pfn << PGW_PAGE_SHIFT);
	} else if (e->np_kind != PGW_NP_NONE && e->np_kind != PGW_NP_OTHER) {
		emit_str(l, ", type ");
		emit_u64(l, e->swap_type);
		emit_str(l, " offset ");
		emit_hex(l, e->swap_offset);
	}
	emit_char(l, ')');
}

static void step_text(struct line *l, const struct pgw_mode *mode,
		      const struct pgw_step *s)
{
	const struct pgw_level_desc *d = &mode->level[s->level];
	int width = mode->entry_size * 2;

	emit_str(l, "  ");
	emit_str(l, d->name);
	emit_char(l, ' ');
	emit_str(l, d->hw_name);
	for (size_t n = strlen(d->hw_name); n < 5; n++)
		emit_char(l, ' ');
	emit_str(l, "table ");
	emit_hex(l, s->table);
	emit_str(l, " [");
	emit_u64(l, s->index);
	emit_str(l, "] entry ");
	emit_hex(l, s->entry_pa);
	emit_str(l, ": ");
	if (!s->read_ok) {
		emit_str(l, "<table page not in image>\n");
		return;
	}
	emit_hex_w(l, s->entry.raw, width);
	emit_str(l, "  ");
	if (s->entry.kind == PGW_ENT_NOT_PRESENT) {
		np_text(l, &s->entry);
	} else {
		emit_flags(l, s->entry.flags, " ", "");
		if (s->entry.pkey) {
			emit_str(l, " pkey=");
			emit_u64(l, s->entry.pkey);
		}
		if (s->entry.reserved) {
			emit_str(l, "  RESERVED BITS ");
			emit_hex(l, s->entry.reserved);
		}
	}
	emit_char(l, '\n');
}

static void text_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_str(&l, "VIRTUAL ");
	emit_hex(&l, x->va);
	if (x->status == PGW_X_OK) {
		emit_str(&l, " -> PHYSICAL ");
		emit_hex(&l, x->pa);
		emit_str(&l, " (");
		size_text(&l, x->page_size);
		emit_str(&l, " page at ");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_str(&l, x->data_in_image ? ")\n" :
						 "; data NOT in image)\n");
	} else {
		emit_str(&l, " -> not mapped: ");
		emit_str(&l, pgw_xlat_status_text(x->status));
		if (x->status != PGW_X_NONCANONICAL) {
			emit_str(&l, " at ");
			emit_str(&l, out_level_name(o->mode, x->level));
		}
		emit_char(&l, '\n');
	}
	for (unsigned i = 0; i < x->nsteps; i++)
		step_text(&l, o->mode, &x->step[i]);
	if (x->status == PGW_X_OK) {
		emit_str(&l, "  page ");
		emit_hex(&l, x->pa & ~(x->page_size - 1));
		emit_str(&l, "  effective: ");
		emit_str(&l, (x->eff_flags & PGW_F_USER) ? "user " : "kernel ");
		emit_str(&l, (x->eff_flags & PGW_F_RW) ? "rw " : "ro ");
		emit_str(&l, (x->eff_flags & PGW_F_NX) ? "nx\n" : "exec\n");
	} else if (x->io.msg[0] && x->status == PGW_X_IO) {
		emit_str(&l, "  ");
		emit_str(&l, x->io.msg);
		emit_char(&l, '\n');
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void text_bad(struct out *o, const char *text)
{
	fprintf(o->f, "INPUT '%.200s' -> not an address\n\n", text);
}

const struct formatter fmt_text = {
	.name = "text",
	.xlat = text_xlat,
	.bad_addr = text_bad,
};
