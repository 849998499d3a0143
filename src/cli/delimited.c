#include "delimited.h"

static void cell(struct line *l, const struct delim *d, const char *s)
{
	emit_str(l, s);
	emit_char(l, d->sep);
}

void delim_span(struct line *l, const struct delim *d, uint64_t va,
		uint64_t end)
{
	emit_hex(l, va);
	emit_char(l, d->sep);
	if (end == 0 && va != 0)
		emit_str(l, "0x10000000000000000");
	else
		emit_hex(l, end);
	emit_char(l, d->sep);
	emit_u64(l, end - va);
	emit_char(l, d->sep);
}

static void hole_detail(struct line *l, const struct pgw_run *run)
{
	emit_str(l, pgw_stop_key(run->stop));
	if (run->np_kind == PGW_NP_PROTNONE) {
		emit_str(l, " protnone pfn=");
		emit_hex(l, run->np_pfn);
	} else if (run->np_kind == PGW_NP_OTHER) {
		emit_str(l, " other entry=");
		emit_hex(l, run->entry_raw);
	} else if (run->np_kind != PGW_NP_NONE) {
		emit_char(l, ' ');
		emit_str(l, pgw_np_kind_key(run->np_kind));
		emit_str(l, " type=");
		emit_u64(l, run->swap_type);
		emit_str(l, " offset=");
		emit_hex(l, run->swap_offset);
	} else if (run->entry_pa) {
		emit_str(l, " entry=");
		emit_hex(l, run->entry_raw);
		emit_str(l, " at=");
		emit_hex(l, run->entry_pa);
	}
}

void delim_dump_map(struct out *o, const struct delim *d,
		    const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	cell(&l, d, "map");
	delim_span(&l, d, run->va, run->end);
	emit_hex(&l, run->pa);
	emit_char(&l, d->sep);
	emit_u64(&l, run->page_size);
	emit_char(&l, d->sep);
	cell(&l, d, out_level_name(o->mode, run->level));
	emit_u64(&l, run->entries);
	emit_char(&l, d->sep);
	emit_flags(&l, run->flags, "|", "");
	emit_char(&l, d->sep);
	emit_flags(&l, run->eff_flags, "|", "");
	emit_char(&l, d->sep);
	cell(&l, d, out_region_key(o, run));
	/* detail: a run whose pages all map one frame says so, and a
	 * protection key is named. */
	if (run->same_frame)
		emit_str(&l, "same-frame");
	if (run->pkey) {
		emit_str(&l, run->same_frame ? " pkey=" : "pkey=");
		emit_u64(&l, run->pkey);
	}
	if (!run->same_frame && !run->pkey)
		emit_str(&l, d->empty);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

void delim_dump_hole(struct out *o, const struct delim *d,
		     const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	cell(&l, d, "hole");
	delim_span(&l, d, run->va, run->end);
	cell(&l, d, d->empty);          /* pa */
	cell(&l, d, d->empty);          /* page_size */
	cell(&l, d, out_level_name(o->mode, run->level));
	emit_u64(&l, run->entries);
	emit_char(&l, d->sep);
	cell(&l, d, d->empty);          /* flags */
	cell(&l, d, d->empty);          /* effective */
	cell(&l, d, out_region_key(o, run));
	hole_detail(&l, run);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}
