/*
 * translate's record (xlat_out.h): its tables and its text, a line per
 * address in a batch or, for one address or under --levels, the whole
 * walk like crash's vtop.
 */
#include "delim_cells.h"
#include "json_kv.h"
#include "spelled.h"
#include "text_cells.h"
#include "xlat_out.h"
#include "access.h"

/* ,"key":"0x..", ,"key":N with the key spelled out at compile time. */
#define KV_HEX(l, key, v) \
	(emit_lit((l), ",\"" key "\":\""), emit_hex((l), (v)), \
	 emit_char((l), '"'))
#define KV_U64(l, key, v) \
	(emit_lit((l), ",\"" key "\":"), emit_u64((l), (v)))

const struct np_rec *np_rec_of(enum pgw_np_kind kind, uint64_t pfn,
			       unsigned swap_type, uint64_t swap_offset,
			       struct np_rec *np)
{
	bool swap = pgw_np_kind_numbered(kind);

	if (kind == PGW_NP_NONE)
		return NULL;
	*np = (struct np_rec){
		.kind = pgw_np_kind_key(kind),
		.pa = { pfn << PGW_PAGE_SHIFT, kind == PGW_NP_PROTNONE },
		.swap_type = { swap_type, swap },
		.swap_offset = { swap_offset, swap },
	};
	return np;
}

/* ,"non_present":{"kind":..,"pa" or "swap_type","swap_offset"} */
static void np_json(struct out *o, struct line *l, const char *key,
		    const void *v)
{
	const struct np_rec *np = v;

	(void)o;
	(void)key;
	emit_lit(l, ",\"non_present\":{\"kind\":\"");
	emit_str(l, np->kind);
	emit_char(l, '"');
	if (np->pa.has)
		kv_hex(l, "pa", np->pa.v);
	if (np->swap_type.has) {
		kv_u64(l, "swap_type", np->swap_type.v);
		kv_hex(l, "swap_offset", np->swap_offset.v);
	}
	emit_char(l, '}');
}

static void np_detail(struct out *o, struct line *l, size_t *from,
		      const void *v)
{
	const struct np_rec *np = v;

	(void)o;
	if (l->len > *from)
		emit_char(l, ' ');
	emit_str(l, "non_present=");
	emit_str(l, np->kind);
	if (np->pa.has) {
		emit_str(l, " pa=");
		emit_hex(l, np->pa.v);
	}
	if (np->swap_type.has) {
		emit_str(l, " swap_type=");
		emit_u64(l, np->swap_type.v);
		emit_str(l, " swap_offset=");
		emit_hex(l, np->swap_offset.v);
	}
}

const struct rec_custom np_spelling = { np_json, NULL, np_detail };

static void level_entry(struct line *l, const struct pgw_entry *e)
{
	if (e->kind == PGW_ENT_NOT_PRESENT) {
		struct np_rec np;
		if (np_rec_of(e->np_kind, e->np_pfn, e->swap_type,
			      e->swap_offset, &np))
			np_json(NULL, l, NULL, &np);
		return;
	}
	emit_lit(l, ",\"flags\":[");
	emit_flags(l, e->flags, ",", "\"");
	emit_char(l, ']');
	if (e->pkey)
		KV_U64(l, "pkey", e->pkey);
	if (e->reserved)
		KV_HEX(l, "reserved", e->reserved);
}

static void levels_json(struct out *o, struct line *l, const char *key,
			const void *arg)
{
	const struct pgw_xlat *x = arg;

	(void)key;
	emit_lit(l, ",\"levels\":[");
	for (unsigned i = 0; i < x->nsteps; i++) {
		const struct pgw_step *s = &x->step[i];
		if (i)
			emit_char(l, ',');
		emit_lit(l, "{\"level\":\"");
		emit_str(l, out_level_name(o->mode, s->level));
		emit_char(l, '"');
		KV_HEX(l, "table", s->table);
		KV_U64(l, "index", s->index);
		KV_HEX(l, "entry_pa", s->entry_pa);
		if (s->read_ok) {
			KV_HEX(l, "entry", s->entry.raw);
			level_entry(l, &s->entry);
		} else {
			emit_lit(l, ",\"entry\":null");
			kv_str(l, "absence", pgw_absence_key(x->table_absence));
		}
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

/* Each level as level@entry_pa=entry ("-" for a table not read),
 * joined by '|'. */
static void levels_cell(struct out *o, struct line *l,
			const struct delim *d, const void *arg)
{
	const struct pgw_xlat *x = arg;

	for (unsigned i = 0; i < x->nsteps; i++) {
		const struct pgw_step *s = &x->step[i];
		if (i)
			emit_char(l, '|');
		emit_str(l, out_level_name(o->mode, s->level));
		emit_char(l, '@');
		emit_hex(l, s->entry_pa);
		emit_char(l, '=');
		if (s->read_ok)
			emit_hex(l, s->entry.raw);
		else
			emit_char(l, '-');
	}
	if (!x->nsteps)
		emit_str(l, d->empty);
	sep(l, d);
}

const struct rec_custom xlat_levels = { levels_json, levels_cell, NULL };
/* text's: the answer, a batch line's words spelled once per kind */
const struct rec_custom xlat_answer = { 0 };

/* ---- text ---- */

static void np_text(struct line *l, const struct pgw_entry *e)
{
	emit_str(l, "not present (");
	emit_str(l, pgw_np_kind_key(e->np_kind));
	if (e->np_kind == PGW_NP_PROTNONE) {
		emit_str(l, ", pa ");
		emit_hex(l, e->np_pfn << PGW_PAGE_SHIFT);
	} else if (pgw_np_kind_numbered(e->np_kind)) {
		emit_str(l, ", type ");
		emit_u64(l, e->swap_type);
		emit_str(l, " offset ");
		emit_hex(l, e->swap_offset);
	}
	emit_char(l, ')');
}

static void step_text(struct line *l, const struct pgw_mode *mode,
		      const struct pgw_step *s, enum pgw_absence absence)
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
		emit_str(l, "<table not in image: ");
		emit_str(l, pgw_absence_key(absence));
		emit_str(l, ">\n");
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

/* The leaf's memory-encryption bits and protection key, only where
 * there are any: " enc", " shared", " pkey=N". */
static void leaf_extra_text(struct line *l, uint32_t flags, unsigned pkey)
{
	if (flags & PGW_F_ENC)
		emit_str(l, " enc");
	if (flags & PGW_F_SHARED)
		emit_str(l, " shared");
	if (pkey) {
		emit_str(l, " pkey=");
		emit_u64(l, pkey);
	}
}

/* Why a walk stopped: the reason key, the absence of a table not in the
 * image, and where. */
static void stop_text(struct line *l, const struct out *o,
		      enum pgw_stop stop, enum pgw_level level,
		      enum pgw_absence absence)
{
	emit_str(l, "not mapped: ");
	emit_str(l, pgw_stop_key(stop));
	if (stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    stop == PGW_STOP_TABLE_BEYOND_MEMORY) {
		emit_str(l, " (");
		emit_str(l, pgw_absence_key(absence));
		emit_char(l, ')');
	}
	if (stop != PGW_STOP_NONCANONICAL && stop != PGW_STOP_BEYOND_SPACE) {
		emit_str(l, " at ");
		emit_str(l, out_level_name(o->mode, level));
	}
}

/* A batch line's words after its PA (an answer) or its arrow (none):
 * the same for every line with the same answer_tail_key. */
static void line_tail(struct line *l, const struct out *o, const void *ctx,
		      const struct pgw_answer *a)
{
	(void)ctx;
	if (a->stop != PGW_STOP_OK) {
		stop_text(l, o, a->stop, a->level, a->absence);
		return;
	}
	emit_char(l, ' ');
	text_size(l, a->page_size, 0);
	emit_char(l, ' ');
	emit_str(l, out_level_name(o->mode, a->level));
	emit_char(l, ' ');
	text_access(l, a->eff_flags);
	leaf_extra_text(l, a->flags, a->pkey);
	if (a->absence != PGW_ABSENT_NONE) {
		emit_lit(l, " data-not-in-image (");
		emit_str(l, pgw_absence_key(a->absence));
		emit_char(l, ')');
	}
}

/* The batch lines' tails spelled so far. */
static _Thread_local struct spelled line_tails[SPELLED_SLOTS];

/* One line per address (batches): "VA -> PA SIZE LEVEL PERMS". */
static inline __attribute__((always_inline)) void
text_line(struct out *o, uint64_t va, const struct pgw_answer *a,
	  const struct name_rec *name)
{
	struct line *l = out_row(o);

	emit_hex(l, va);
	emit_lit(l, " -> ");
	if (a->stop == PGW_STOP_OK)
		emit_hex(l, a->pa);
	spelled_tail(line_tails, 0, o, NULL, a, l, line_tail);
	text_name_rec(l, name);
	emit_char(l, '\n');
}

void xlat_text_lines(struct out *o, const uint64_t *va,
		     const struct pgw_answer *a, size_t n)
{
	struct addr_name nm;
	struct name_rec name;

	if (!o->names) {
		for (size_t i = 0; i < n; i++)
			text_line(o, va[i], &a[i], NULL);
		return;
	}
	for (size_t i = 0; i < n; i++)
		text_line(o, va[i], &a[i],
			  name_rec_of(o, -1, va[i], &nm, &name));
}

/* The whole walk, like crash's vtop (one ADDR, or --levels). */
static void text_walk(struct out *o, const struct pgw_xlat *x,
		      const char *why, const struct name_rec *name)
{
	struct line l;

	out_rows_flush(o);   /* a whole walk may not fit in o->rows */
	l.len = 0;
	emit_str(&l, "VIRTUAL ");
	emit_hex(&l, x->va);
	if (x->stop == PGW_STOP_OK) {
		emit_str(&l, " -> PHYSICAL ");
		emit_hex(&l, x->pa);
		emit_str(&l, " (");
		text_size(&l, x->page_size, 0);
		emit_str(&l, " page at ");
		emit_str(&l, out_level_name(o->mode, x->level));
		if (!x->data_in_image) {
			emit_str(&l, "; data-not-in-image: ");
			emit_str(&l, pgw_absence_key(x->data_absence));
		}
		emit_str(&l, ")\n");
	} else {
		emit_str(&l, " -> ");
		stop_text(&l, o, x->stop, x->level, x->table_absence);
		emit_char(&l, '\n');
	}
	if (name) {
		emit_char(&l, ' ');
		text_name_rec(&l, name);
		emit_char(&l, '\n');
	}
	for (unsigned i = 0; i < x->nsteps; i++)
		step_text(&l, o->mode, &x->step[i], x->table_absence);
	if (x->stop == PGW_STOP_OK) {
		emit_str(&l, "  page ");
		emit_hex(&l, x->pa & ~(x->page_size - 1));
		emit_str(&l, "  effective: ");
		text_access(&l, x->eff_flags);
		emit_char(&l, '\n');
	} else if (why && why[0]) {
		/* Why the table is missing: filtered, outside RAM, cut off. */
		emit_str(&l, "  ");
		emit_text_strn(&l, why, strlen(why));
		emit_char(&l, '\n');
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void text_bad(struct out *o, const char *text, size_t n)
{
	struct line l;
	l.len = 0;

	out_rows_flush(o);   /* an echo may not fit in o->rows */
	emit_str(&l, "input '");
	emit_bytes(&l, o->f, text, n, emit_text_char);
	emit_str(&l, o->levels ? "' -> not-an-address\n\n" :
				 "' -> not-an-address\n");
	fwrite(l.buf, 1, l.len, o->f);
}

static void text_xlat(struct out *o, const void *rec)
{
	const struct xlat_rec *r = rec;

	if (!r->answer)
		text_bad(o, r->input.s, r->input.n);
	else if (r->levels)
		text_walk(o, r->levels, r->why, r->name);
	else
		text_line(o, r->va.v, r->answer, r->name);
}

RECORD_TYPE(xlat_rec, "translation", XLAT_FIELDS, text_xlat);

static const struct rec_type *const xlat_types[] = { &xlat_rec_type, NULL };

/* The columns: pkey last but for levels and names (columns are only
 * ever added at the end, so a reader by position keeps working). */
#define XLAT_COLS "va,pa,page_size,level,flags,effective,in_image,reason," \
		  "absence,input,pkey"

const struct rec_table *xlat_table(const struct out *o)
{
	static const struct rec_table t[2][2] = {
		{ { XLAT_COLS, xlat_types, NULL, true },
		  { XLAT_COLS "," NAME_COLS, xlat_types, NULL, true } },
		{ { XLAT_COLS ",levels", xlat_types, NULL, true },
		  { XLAT_COLS ",levels," NAME_COLS, xlat_types, NULL, true } },
	};

	return &t[o->levels][o->names != NULL];
}

/* The record of va's answer a; under --levels with x, its whole walk
 * and why, the image's message when the walk could not read a table. */
void xlat_print(struct out *o, uint64_t va, const struct pgw_answer *a,
		const struct pgw_xlat *x, const char *why)
{
	bool ok = a->stop == PGW_STOP_OK;
	bool table = a->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		     a->stop == PGW_STOP_TABLE_BEYOND_MEMORY;
	struct np_rec np;
	struct addr_name nm;
	struct name_rec name;
	struct xlat_rec r = {
		.va = { va, true },
		.pa = { a->pa, ok },
		.page_size = { a->page_size, ok },
		.level = out_level_name(o->mode, a->level),
		.flags = { a->flags, ok },
		.effective = { a->eff_flags, ok },
		.pkey = { a->pkey, ok && a->pkey },
		.in_image = { a->absence == PGW_ABSENT_NONE, ok },
		.reason = ok ? NULL : pgw_stop_key(a->stop),
		.absence = (ok && a->absence != PGW_ABSENT_NONE) || table ?
			   pgw_absence_key(a->absence) : NULL,
		.non_present = a->stop != PGW_STOP_NOT_PRESENT ? NULL :
			np_rec_of(a->np_kind, a->np_pfn, a->swap_type,
				  a->swap_offset, &np),
		.levels = x,
		.name = name_rec_of(o, -1, va, &nm, &name),
		.answer = a,
		.why = why,
	};
	out_record(o, &xlat_rec_type, &r);
}
