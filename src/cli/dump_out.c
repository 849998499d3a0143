/*
 * dump's records (dump_out.h), their table and their text: ptdump's
 * layout, a line per run with its span, size, frame, page size, level
 * and permission columns, region markers inline, totals as comments.
 */
#include "access.h"
#include "dump_out.h"
#include "text_cells.h"

/* The detail cell's words of a map run: same_frame, stride=N, pkey=N;
 * JSON's "same_frame" (stride and pkey are fields of their own). */
static void run_json(struct out *o, struct line *l, const char *key,
		     const void *v)
{
	const struct pgw_run *run = v;

	(void)o;
	(void)key;
	if (run->same_frame)
		emit_str(l, ",\"same_frame\":true");
}

static void run_detail(struct out *o, struct line *l, size_t *from,
		       const void *v)
{
	const struct pgw_run *run = v;

	(void)o;
	(void)from;
	if (run->same_frame)
		emit_str(l, "same_frame");
	if (run->stride) {
		emit_str(l, " stride=");
		emit_u64(l, run->stride);
	}
	if (run->pkey) {
		emit_str(l, run->same_frame ? " pkey=" : "pkey=");
		emit_u64(l, run->pkey);
	}
}

const struct rec_custom dump_run_detail = { run_json, NULL, run_detail };
/* text's: the run, the summary */
const struct rec_custom dump_run_text = { 0 };
const struct rec_custom dump_summary_text = { 0 };

/* ---- text ---- */

static void text_region(struct out *o, const void *rec)
{
	const struct dump_region_rec *r = rec;

	out_rows_flush(o);
	fprintf(o->f, "---[ %s ]---\n", r->name);
}

void dump_text_map(struct out *o, struct line *l, const struct pgw_run *run,
		   uint64_t not_in_image, const struct name_rec *name)
{
	uint32_t e = run->eff_flags, f = run->flags;
	size_t start = l->len;

	text_span(l, o, run->va, run->end);
	text_size(l, run->end - run->va, 10);
	emit_char(l, ' ');
	stencil_hex(o->stencil, l, ST_PA, run->pa, out_pa_digits(o->mode));
	text_size(l, run->page_size, 4);
	emit_char(l, ' ');
	emit_str(l, out_level_name(o->mode, run->level));
	if (e & PGW_F_USER)
		emit_lit(l, " USR");
	else
		emit_lit(l, "    ");
	if (e & PGW_F_RW)
		emit_lit(l, " RW");
	else
		emit_lit(l, " ro");
	if (f & PGW_F_PWT)
		emit_lit(l, " PWT");
	else
		emit_lit(l, "    ");
	if (f & PGW_F_PCD)
		emit_lit(l, " PCD");
	else
		emit_lit(l, "    ");
	if (f & PGW_F_PAT)
		emit_lit(l, " PAT");
	else
		emit_lit(l, "    ");
	if (f & PGW_F_GLOBAL)
		emit_lit(l, " GLB");
	else
		emit_lit(l, "    ");
	/* Padded: the columns after it line up (the end is trimmed). */
	emit_str(l, pgw_cli_exec_cell(e));
	/* Memory encryption and protection keys only where there are any,
	 * so other dumps keep ptdump's columns. */
	if (f & PGW_F_ENC)
		emit_lit(l, " ENC");
	if (f & PGW_F_SHARED)
		emit_lit(l, " SHR");
	if (run->pkey) {
		emit_lit(l, " pkey=");
		emit_u64(l, run->pkey);
	}
	if (run->same_frame)
		emit_lit(l, "  same frame");
	if (run->stride) {
		emit_lit(l, " every ");
		text_size(l, run->stride, 0);
	}
	if (not_in_image) {
		emit_lit(l, "  not in image: ");
		text_size(l, not_in_image, 0);
	}
	if (name) {
		while (l->len > start && l->buf[l->len - 1] == ' ')
			l->len--;
		emit_char(l, ' ');
		text_name_rec(l, name);
	}
	while (l->len > start && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
}

static void text_map(struct out *o, const void *rec)
{
	const struct dump_map_rec *m = rec;

	dump_text_map(o, out_row(o), m->run, m->bytes_not_in_image, m->name);
}

static void text_hole(struct out *o, const void *rec)
{
	const struct pgw_run *run = ((const struct dump_hole_rec *)rec)->run;
	struct line l;
	l.len = 0;

	text_span(&l, o, run->va, run->end);
	text_size(&l, run->end - run->va, 10);
	emit_str(&l, " hole ");
	emit_str(&l, out_level_name(o->mode, run->level));
	emit_char(&l, ' ');
	emit_str(&l, pgw_stop_key(run->stop));
	if (run->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    run->stop == PGW_STOP_TABLE_BEYOND_MEMORY) {
		emit_str(&l, " (");
		emit_str(&l, pgw_absence_key(run->absence));
		emit_char(&l, ')');
	}
	if (run->np_kind == PGW_NP_PROTNONE) {
		emit_str(&l, ": protnone pa ");
		emit_hex(&l, run->np_pfn << PGW_PAGE_SHIFT);
	} else if (run->np_kind == PGW_NP_OTHER ||
		   run->np_kind == PGW_NP_SWAP_UNKNOWN) {
		emit_str(&l, run->np_kind == PGW_NP_OTHER ?
				     ": entry " :
				     ": swap-layout-unknown entry ");
		emit_hex(&l, run->entry_raw);
	} else if (run->np_kind != PGW_NP_NONE) {
		emit_str(&l, ": ");
		emit_str(&l, pgw_np_kind_key(run->np_kind));
		emit_str(&l, " type ");
		emit_u64(&l, run->swap_type);
		emit_str(&l, " offset ");
		emit_hex(&l, run->swap_offset);
	} else if (run->entry_pa) {
		emit_str(&l, ": entry ");
		emit_hex(&l, run->entry_raw);
		emit_str(&l, " at ");
		emit_hex(&l, run->entry_pa);
	}
	text_put(o, &l);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct dump_summary *s = ((const struct dump_summary_rec *)rec)->sum;
	struct line l;
	l.len = 0;
	bool first = true;

	emit_str(&l, "# mapped: ");
	text_size(&l, s->mapped, 0);
	emit_str(&l, " in ");
	emit_u64(&l, s->maps);
	emit_str(&l, s->maps == 1 ? " range" : " ranges");
	for (int lv = 0; lv < PGW_NLEVELS; lv++) {
		if (!s->level_bytes[lv])
			continue;
		emit_str(&l, first ? ": " : ", ");
		first = false;
		text_size(&l, pgw_level_span(o->mode, (enum pgw_level)lv), 0);
		emit_str(&l, " pages ");
		text_size(&l, s->level_bytes[lv], 0);
	}
	text_put(o, &l);
	if (s->not_in_image) {
		l.len = 0;
		emit_str(&l, "# not in image: ");
		text_size(&l, s->not_in_image, 0);
		emit_str(&l, " of the mapped bytes (their data; the mappings "
			     "stand)");
		text_put(o, &l);
	}
	l.len = 0;
	emit_str(&l, "# holes: ");
	emit_u64(&l, s->holes);
	if (s->nonpresent) {
		emit_str(&l, " (");
		emit_u64(&l, s->nonpresent);
		emit_str(&l, " of non-present entries with meaning)");
	}
	if (s->tables_missing) {
		emit_str(&l, ", ");
		emit_u64(&l, s->tables_missing);
		emit_str(&l, " where a page table is not in the image");
	}
	text_put(o, &l);
	l.len = 0;
	emit_str(&l, "# W+X: ");
	emit_u64(&l, s->wx);
	emit_str(&l, s->wx == 1 ? " range, " : " ranges, ");
	text_size(&l, s->wx_bytes, 0);
	if (s->unknown_perm_bytes) {
		emit_str(&l, "; and ");
		text_size(&l, s->unknown_perm_bytes, 0);
		emit_str(&l, " under page-table cycles, not walked: "
			     "permissions unknown");
	}
	if (s->no_nx && s->wx)
		emit_str(&l, " (this mode has no NX bit: every writable "
			     "page is executable)");
	text_put(o, &l);
	l.len = 0;
	emit_str(&l, "# walk: ");
	emit_u64(&l, s->stats.entries);
	emit_str(&l, " entries in ");
	emit_u64(&l, s->stats.tables);
	emit_str(&l, " tables, ");
	emit_u64(&l, s->stats.leaves);
	emit_str(&l, " leaves");
	text_incomplete(&l, s->reason, "");
	text_put(o, &l);
}

RECORD_TYPE(dump_region_rec, "region", DUMP_REGION_FIELDS, text_region);
RECORD_TYPE(dump_map_rec, "map", DUMP_MAP_FIELDS, text_map);
RECORD_TYPE(dump_hole_rec, "hole", DUMP_HOLE_FIELDS, text_hole);
RECORD_TYPE(dump_summary_rec, "summary", DUMP_SUMMARY_FIELDS, text_summary);

static const struct rec_type *const dump_types[] = {
	&dump_region_rec_type, &dump_map_rec_type, &dump_hole_rec_type,
	&dump_summary_rec_type, NULL,
};

#define DUMP_COLS "type,va,end,size,pa,page_size,level,entries,flags," \
		  "effective,region,bytes_not_in_image,reason,absence,detail"

const struct rec_table *dump_table(const struct out *o)
{
	static const struct rec_table t[2] = {
		{ DUMP_COLS, dump_types, NULL, true },
		{ DUMP_COLS "," NAME_COLS, dump_types, NULL, true },
	};

	return &t[o->names != NULL];
}

void dump_print_region(struct out *o, const struct pgw_region *r)
{
	out_record(o, &dump_region_rec_type, &(struct dump_region_rec){
		.span = { r->start, r->end, false },
		.region = r->key, .name = r->name });
}

void dump_print_map(struct out *o, const struct pgw_run *run,
		    uint64_t not_in_image)
{
	struct addr_name nm;
	struct name_rec name;

	out_record(o, &dump_map_rec_type, &(struct dump_map_rec){
		.span = { run->va, run->end, false },
		.pa = run->pa,
		.page_size = run->page_size,
		.level = out_level_name(o->mode, run->level),
		.entries = run->entries,
		.flags = { run->flags, true },
		.effective = { run->eff_flags, true },
		.pkey = { run->pkey, run->pkey != 0 },
		.bytes_not_in_image = not_in_image,
		.region = out_region_key(o, run),
		.same_frame = run->same_frame || run->pkey ? run : NULL,
		.stride = { run->stride, run->stride != 0 },
		.name = name_rec_of(o, -1, run->va, &nm, &name),
		.run = run,
	});
}

void dump_print_hole(struct out *o, const struct pgw_run *run)
{
	bool table = run->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		     run->stop == PGW_STOP_TABLE_BEYOND_MEMORY;
	struct np_rec np;

	out_record(o, &dump_hole_rec_type, &(struct dump_hole_rec){
		.span = { run->va, run->end, false },
		.level = out_level_name(o->mode, run->level),
		.entries = run->entries,
		.reason = pgw_stop_key(run->stop),
		.absence = table ? pgw_absence_key(run->absence) : NULL,
		.entry_pa = { run->entry_pa, run->entry_pa != 0 },
		.entry = { run->entry_raw, run->entry_pa != 0 },
		.non_present = np_rec_of(run->np_kind, run->np_pfn,
					 run->swap_type, run->swap_offset,
					 &np),
		.region = out_region_key(o, run),
		.run = run,
	});
}

/* mapped_by_page_size's keys: each level's page size, spelled (a run
 * prints one summary). */
static char span_key[PGW_NLEVELS][24];

static const char *span_key_of(unsigned lv)
{
	return span_key[lv];
}

void dump_print_summary(struct out *o, const struct dump_summary *s)
{
	for (int lv = 0; lv < PGW_NLEVELS; lv++)
		snprintf(span_key[lv], sizeof(span_key[lv]), "%llu",
			 (unsigned long long)pgw_level_span(
				 o->mode, (enum pgw_level)lv));
	out_record(o, &dump_summary_rec_type, &(struct dump_summary_rec){
		.maps = s->maps,
		.mapped = s->mapped,
		.mapped_by_page_size = { s->level_bytes, 0, PGW_NLEVELS,
					 span_key_of, false, true },
		.holes = s->holes,
		.non_present = s->nonpresent,
		.wx = s->wx,
		.wx_bytes = s->wx_bytes,
		.unknown_permissions_bytes = s->unknown_perm_bytes,
		.bytes_not_in_image = s->not_in_image,
		.tables_not_in_image = s->tables_missing,
		.entries = s->stats.entries,
		.tables = s->stats.tables,
		.leaves = s->stats.leaves,
		.complete = s->complete,
		.reason = s->reason,
		.sum = s,
	});
}
