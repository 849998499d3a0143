/* Tab-separated, no header.  translate: va, pa, size, flags, with "-" for
 * every column an unmapped VA lacks.  dump: the CSV columns, "-" for an
 * empty cell, map and hole rows only. */
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

/* ---- dump and regions ---- */

/* Columns of a dump row; `-` stands for an empty cell in TSV. */
#define SEP '\t'
#define EMPTY "-"

static void cell_end(struct line *l, bool last)
{
	emit_char(l, last ? '\n' : SEP);
}

static void empty(struct line *l)
{
	emit_str(l, EMPTY);
	emit_char(l, SEP);
}

static void span(struct line *l, uint64_t va, uint64_t end)
{
	emit_hex(l, va);
	emit_char(l, SEP);
	if (end == 0 && va != 0)
		emit_str(l, "0x10000000000000000");
	else
		emit_hex(l, end);
	emit_char(l, SEP);
	emit_u64(l, end - va);
	emit_char(l, SEP);
}

static void hole_detail(struct line *l, const struct pgw_run *run)
{
	emit_str(l, out_hole_kind_key(run->hole_kind));
	if (run->np_kind == PGW_NP_PROTNONE) {
		emit_str(l, " protnone pfn=");
		emit_hex(l, run->np_pfn);
	} else if (run->np_kind == PGW_NP_OTHER) {
		emit_str(l, " other entry=");
		emit_hex(l, run->entry_raw);
	} else if (run->np_kind != PGW_NP_NONE) {
		emit_char(l, ' ');
		emit_str(l, out_np_kind_name(run->np_kind));
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

static void tsv_dump_map(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "map");
	emit_char(&l, SEP);
	span(&l, run->va, run->end);
	emit_hex(&l, run->pa);
	emit_char(&l, SEP);
	emit_u64(&l, run->page_size);
	emit_char(&l, SEP);
	emit_str(&l, out_level_name(o->mode, run->level));
	emit_char(&l, SEP);
	emit_u64(&l, run->entries);
	emit_char(&l, SEP);
	emit_flags(&l, run->flags, "|", "");
	emit_char(&l, SEP);
	emit_flags(&l, run->eff_flags, "|", "");
	emit_char(&l, SEP);
	emit_str(&l, out_region_key(o, run));
	emit_char(&l, SEP);
	/* detail: a run whose pages all map one frame says so. */
	emit_str(&l, run->same_frame ? "same-frame" : EMPTY);
	cell_end(&l, true);
	fwrite(l.buf, 1, l.len, o->f);
}

static void tsv_dump_hole(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "hole");
	emit_char(&l, SEP);
	span(&l, run->va, run->end);
	empty(&l);
	empty(&l);
	emit_str(&l, out_level_name(o->mode, run->level));
	emit_char(&l, SEP);
	emit_u64(&l, run->entries);
	emit_char(&l, SEP);
	empty(&l);
	empty(&l);
	emit_str(&l, out_region_key(o, run));
	emit_char(&l, SEP);
	hole_detail(&l, run);
	cell_end(&l, true);
	fwrite(l.buf, 1, l.len, o->f);
}

/* Regions as rows: key, va, end, size, mapped, leaves, name. */
static void tsv_regions_row(struct out *o, const struct pgw_region *r,
			    const struct region_usage *u)
{
	struct line l;
	l.len = 0;

	emit_str(&l, r->key);
	emit_char(&l, '\t');
	span(&l, r->start, r->end);
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
};