/*
 * The two records spelled by hand (fast_rows.h): compact translations
 * in a batch, and map rows as stencils.  Each spells what the record's
 * schema (xlat_out.h, dump_out.h) spells, byte for byte:
 * tests/unit/fast_rows.c prints both ways and compares.
 */
#include "delim_cells.h"
#include "dump_out.h"
#include "fast_rows.h"
#include "json_kv.h"
#include "spelled.h"
#include "xlat_out.h"

/* ---- translate: JSON ---- */

/* ,"key":"0x.." with the key spelled out at compile time. */
#define KV_HEX(l, key, v) \
	(emit_lit((l), ",\"" key "\":\""), emit_hex((l), (v)), \
	 emit_char((l), '"'))

/* What a compact record says after its pa (an answer) or its va (none),
 * but for a non-present entry's details: the same words for every
 * record with the same answer_tail_key. */
static void json_tail(struct line *l, const struct out *o, const void *ctx,
		      const struct pgw_answer *a)
{
	(void)ctx;
	if (a->stop == PGW_STOP_OK) {
		emit_lit(l, "\",\"page_size\":");
		emit_u64(l, a->page_size);
		emit_lit(l, ",\"level\":\"");
		emit_str(l, out_level_name(o->mode, a->level));
		emit_lit(l, "\",\"flags\":[");
		emit_flags(l, a->flags, ",", "\"");
		emit_lit(l, "],\"effective\":[");
		emit_flags(l, a->eff_flags, ",", "\"");
		emit_char(l, ']');
		if (a->pkey)
			kv_u64(l, "pkey", a->pkey);
		if (a->absence == PGW_ABSENT_NONE) {
			emit_lit(l, ",\"in_image\":true");
		} else {
			emit_lit(l, ",\"in_image\":false,\"absence\":\"");
			emit_str(l, pgw_absence_key(a->absence));
			emit_char(l, '"');
		}
	} else {
		emit_lit(l, "\",\"pa\":null,\"level\":\"");
		emit_str(l, out_level_name(o->mode, a->level));
		emit_lit(l, "\",\"reason\":\"");
		emit_str(l, pgw_stop_key(a->stop));
		emit_char(l, '"');
		if (a->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		    a->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
			kv_str(l, "absence", pgw_absence_key(a->absence));
	}
}

/* The record tails spelled so far. */
static _Thread_local struct spelled json_tails[SPELLED_SLOTS];

/* A compact record of answer a for va, but for its closing brace. */
static inline __attribute__((always_inline)) struct line *
xlat_record(struct out *o, uint64_t va, const struct pgw_answer *a)
{
	struct line *l = out_row(o);

	emit_lit(l, "{\"type\":\"translation\",\"va\":\"");
	emit_hex(l, va);
	if (a->stop == PGW_STOP_OK) {
		emit_lit(l, "\",\"pa\":\"");
		emit_hex(l, a->pa);
	}
	spelled_tail(json_tails, 0, o, NULL, a, l, json_tail);
	struct np_rec np;
	if (a->stop == PGW_STOP_NOT_PRESENT &&
	    np_rec_of(a->np_kind, a->np_pfn, a->swap_type, a->swap_offset,
		      &np))
		np_spelling.json(o, l, NULL, &np);
	return l;
}

static void json_xlat(struct out *o, const uint64_t *va,
		      const struct pgw_answer *a, size_t n)
{
	struct addr_name nm;

	if (o->names) {
		for (size_t i = 0; i < n; i++) {
			struct line *l = xlat_record(o, va[i], &a[i]);
			if (out_name(o, -1, va[i], &nm))
				json_name(l, &nm);
			emit_lit(l, "}\n");
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		emit_lit(xlat_record(o, va[i], &a[i]), "}\n");
}

/* ---- translate: CSV, TSV ---- */

/* The cells after va and pa (without an answer: after va), through the
 * pkey cell; ctx: the struct delim. */
static void delim_tail(struct line *l, const struct out *o, const void *ctx,
		      const struct pgw_answer *a)
{
	const struct delim *d = ctx;

	if (a->stop == PGW_STOP_OK) {
		num(l, d, a->page_size);
		word(l, d, out_level_name(o->mode, a->level));
		flags(l, d, a->flags);
		flags(l, d, a->eff_flags);
		if (a->absence == PGW_ABSENT_NONE) {
			word(l, d, "true");
			empty(l, d, 2);
		} else {
			word(l, d, "false");
			empty(l, d, 1);
			word(l, d, pgw_absence_key(a->absence));
		}
	} else {
		empty(l, d, 2);   /* pa, page_size */
		word(l, d, out_level_name(o->mode, a->level));
		empty(l, d, 3);
		word(l, d, pgw_stop_key(a->stop));
		if (a->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		    a->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
			word(l, d, pgw_absence_key(a->absence));
		else
			empty(l, d, 1);
	}
	empty(l, d, 1);   /* input */
	if (a->stop == PGW_STOP_OK && a->pkey)
		num(l, d, a->pkey);
	else
		empty(l, d, 1);
}

/* The record tails spelled so far, of both separators (their keys say
 * which). */
static _Thread_local struct spelled delim_tails[SPELLED_SLOTS];

/* A row of answer a for va at the end of o's next line, through its pkey
 * cell. */
static inline __attribute__((always_inline)) struct line *
xlat_row(struct out *o, const struct delim *d, uint64_t va,
	 const struct pgw_answer *a)
{
	struct line *l = out_row(o);
	/* out_row leaves 1 KiB or more, room for both numbers: written
	 * through a cursor, without a check or a store of the length for
	 * each byte. */
	char *p = put_hex(l->buf + l->len, va);

	*p++ = d->sep;
	if (a->stop == PGW_STOP_OK) {
		p = put_hex(p, a->pa);
		*p++ = d->sep;
	}
	l->len = (size_t)(p - l->buf);
	spelled_tail(delim_tails, (uint8_t)d->sep, o, d, a, l,
		     delim_tail);
	return l;
}

/* The name cells of va, when o names addresses. */
static void name_cells(struct out *o, const struct delim *d, struct line *l,
		       uint64_t va)
{
	struct addr_name nm;

	if (o->names)
		delim_name(l, d, out_name(o, -1, va, &nm) ? &nm : NULL);
}

static void delim_xlat(struct out *o, const struct delim *d,
		       const uint64_t *va, const struct pgw_answer *a, size_t n)
{
	if (o->names) {
		for (size_t i = 0; i < n; i++) {
			struct line *l = xlat_row(o, d, va[i], &a[i]);
			name_cells(o, d, l, va[i]);
			rows_end(l);
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		rows_end(xlat_row(o, d, va[i], &a[i]));
}

bool fast_xlat(struct out *o, const uint64_t *va, const struct pgw_answer *a,
	       size_t n)
{
	if (o->levels)
		return false;
	if (o->fmt->kind == OUT_TEXT)
		xlat_text_lines(o, va, a, n);
	else if (o->fmt->kind == OUT_JSON)
		json_xlat(o, va, a, n);
	else
		delim_xlat(o, &o->fmt->delim, va, a, n);
	return true;
}

/* ---- dump's map rows ---- */

static void json_map(struct out *o, struct line *l,
			  const struct pgw_run *run, uint64_t not_in_image)
{
	/* The generic writer's spelling, marking the numbers for a
	 * stencil. */
	emit_str(l, "{\"type\":\"map\",\"va\":\"");
	stencil_hex(o->stencil, l, ST_VA, run->va, 1);
	emit_char(l, '"');
	if (run->end == 0 && run->va != 0) {
		emit_str(l, ",\"end\":\"0x10000000000000000\"");
	} else {
		emit_str(l, ",\"end\":\"");
		stencil_hex(o->stencil, l, ST_END, run->end, 1);
		emit_char(l, '"');
	}
	kv_u64(l, "size", run->end - run->va);
	emit_str(l, ",\"pa\":\"");
	stencil_hex(o->stencil, l, ST_PA, run->pa, 1);
	emit_char(l, '"');
	kv_u64(l, "page_size", run->page_size);
	emit_str(l, ",\"level\":\"");
	emit_str(l, out_level_name(o->mode, run->level));
	emit_char(l, '"');
	kv_u64(l, "entries", run->entries);
	emit_str(l, ",\"flags\":[");
	emit_flags(l, run->flags, ",", "\"");
	emit_str(l, "],\"effective\":[");
	emit_flags(l, run->eff_flags, ",", "\"");
	emit_char(l, ']');
	if (run->pkey)
		kv_u64(l, "pkey", run->pkey);
	kv_u64(l, "bytes_not_in_image", not_in_image);
	kv_str(l, "region", out_region_key(o, run));
	if (run->same_frame)
		emit_str(l, ",\"same_frame\":true");
	if (run->stride)
		kv_u64(l, "stride", run->stride);
	struct addr_name nm;
	if (out_name(o, -1, run->va, &nm))
		json_name(l, &nm);
	emit_str(l, "}\n");
}

static void delim_map(struct out *o, struct line *l, const struct delim *d,
		      const struct pgw_run *run, uint64_t not_in_image)
{
	word(l, d, "map");
	/* span and hex, marking the numbers for a stencil. */
	stencil_hex(o->stencil, l, ST_VA, run->va, 1);
	sep(l, d);
	if (run->end == 0 && run->va != 0)
		emit_str(l, "0x10000000000000000");
	else
		stencil_hex(o->stencil, l, ST_END, run->end, 1);
	sep(l, d);
	num(l, d, run->end - run->va);
	stencil_hex(o->stencil, l, ST_PA, run->pa, 1);
	sep(l, d);
	num(l, d, run->page_size);
	word(l, d, out_level_name(o->mode, run->level));
	num(l, d, run->entries);
	flags(l, d, run->flags);
	flags(l, d, run->eff_flags);
	word(l, d, out_region_key(o, run));
	num(l, d, not_in_image);
	empty(l, d, 2);
	/* detail: the schema's words (a run whose pages all map one frame
	 * says so, a protection key is named). */
	size_t from = l->len;
	if (run->same_frame || run->pkey)
		dump_run_detail.detail(o, l, &from, run);
	else
		emit_str(l, d->empty);
	sep(l, d);
	name_cells(o, d, l, run->va);
	rows_end(l);
}

void fast_map(struct out *o, struct line *l, const struct pgw_run *run,
	      uint64_t not_in_image)
{
	switch (o->fmt->kind) {
	case OUT_TEXT: {
		struct addr_name nm;
		struct name_rec name;
		dump_text_map(o, l, run, not_in_image,
			      name_rec_of(o, -1, run->va, &nm, &name));
		break;
	}
	case OUT_JSON:
		json_map(o, l, run, not_in_image);
		break;
	case OUT_DELIM:
		delim_map(o, l, &o->fmt->delim, run, not_in_image);
		break;
	}
}
