#include "delim_cells.h"
#include "name_cells.h"
#include "spelled.h"

/* va, end, size: an end of 0 after a non-zero start is 2^64. */
static void span(struct line *l, const struct delim *d, uint64_t va,
		 uint64_t end)
{
	hex(l, d, va);
	if (end == 0 && va != 0) {
		emit_str(l, "0x10000000000000000");
		sep(l, d);
	} else {
		hex(l, d, end);
	}
	num(l, d, end - va);
}

/* ---- translate ---- */

void delim_xlat_begin(struct out *o, const struct delim *d)
{
	/* pkey last but for levels: columns are only ever added at the
	 * end, so a reader by position keeps working. */
	static const char *const cols[2][2] = {
		{ "va,pa,page_size,level,flags,effective,in_image,reason,"
		  "absence,input,pkey",
		  "va,pa,page_size,level,flags,effective,in_image,reason,"
		  "absence,input,pkey," NAME_COLS },
		{ "va,pa,page_size,level,flags,effective,in_image,reason,"
		  "absence,input,pkey,levels",
		  "va,pa,page_size,level,flags,effective,in_image,reason,"
		  "absence,input,pkey,levels," NAME_COLS },
	};

	header(o, d, cols[o->levels][o->names != NULL]);
}

/* Each level as level@entry_pa=entry ("-" for a table not read),
 * joined by '|'. */
static void levels(struct line *l, const struct delim *d,
		   const struct out *o, const struct pgw_xlat *x)
{
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

/* The cells after va and pa (without an answer: after va), through the
 * pkey cell; ctx: the struct delim. */
static void xlat_tail(struct line *l, const struct out *o, const void *ctx,
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
static struct spelled xlat_tails[SPELLED_SLOTS];

/* A row of answer a for va at the end of o's next line, through its pkey
 * cell. */
static inline __attribute__((always_inline)) struct line *
xlat_row(struct out *o, const struct delim *d, uint64_t va,
	 const struct pgw_answer *a)
{
	struct line *l = out_row(o);
	/* out_row leaves half a line, room for both numbers: written
	 * through a cursor, without a check or a store of the length for
	 * each byte. */
	char *p = put_hex(l->buf + l->len, va);

	*p++ = d->sep;
	if (a->stop == PGW_STOP_OK) {
		p = put_hex(p, a->pa);
		*p++ = d->sep;
	}
	l->len = (size_t)(p - l->buf);
	spelled_tail(xlat_tails, (uint64_t)(uint8_t)d->sep << 52, o, d, a, l,
		     xlat_tail);
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

void delim_xlat(struct out *o, const struct delim *d, const uint64_t *va,
		const struct pgw_answer *a, size_t n)
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

void delim_xlat_walk(struct out *o, const struct delim *d,
		     const struct pgw_xlat *x)
{
	struct pgw_answer a;

	pgw_xlat_answer(x, &a);
	struct line *l = xlat_row(o, d, x->va, &a);
	levels(l, d, o, x);
	name_cells(o, d, l, x->va);
	rows_end(l);
}

void delim_bad_addr(struct out *o, const struct delim *d, const char *s,
		    size_t n)
{
	struct line l;
	l.len = 0;

	out_rows_flush(o);   /* an echo may not fit in o->rows */
	empty(&l, d, 7);
	word(&l, d, "not-an-address");
	empty(&l, d, 1);
	/* ECHO_MAX bytes fit a line. */
	bytes_cell(&l, d, s, n);
	empty(&l, d, o->levels ? 2 : 1);   /* pkey, levels */
	if (o->names)
		delim_name(&l, d, NULL);
	row_end(o, &l);
}

/* ---- dump ---- */

void delim_dump_begin(struct out *o, const struct delim *d)
{
	header(o, d, o->names ?
		"type,va,end,size,pa,page_size,level,entries,flags,effective,"
		"region,bytes_not_in_image,reason,absence,detail," NAME_COLS :
		"type,va,end,size,pa,page_size,level,entries,flags,effective,"
		"region,bytes_not_in_image,reason,absence,detail");
}

void delim_dump_region(struct out *o, const struct delim *d,
		       const struct pgw_region *r)
{
	struct line l;
	l.len = 0;

	word(&l, d, "region");
	span(&l, d, r->start, r->end);
	empty(&l, d, 6);
	word(&l, d, r->key);
	empty(&l, d, 3);
	text(&l, d, r->name);
	if (o->names)
		delim_name(&l, d, NULL);
	row_end(o, &l);
}

void delim_dump_map(struct out *o, struct line *l, const struct delim *d,
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
	/* detail: a run whose pages all map one frame says so, and a
	 * protection key is named. */
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
	if (!run->same_frame && !run->pkey)
		emit_str(l, d->empty);
	sep(l, d);
	name_cells(o, d, l, run->va);
	rows_end(l);
}

/* A hole's entry and non-present details as key=value words. */
static void hole_detail(struct line *l, const struct delim *d,
			const struct pgw_run *run)
{
	size_t start = l->len;

	if (run->entry_pa) {
		emit_str(l, "entry_pa=");
		emit_hex(l, run->entry_pa);
		emit_str(l, " entry=");
		emit_hex(l, run->entry_raw);
	}
	if (run->np_kind != PGW_NP_NONE) {
		if (l->len > start)
			emit_char(l, ' ');
		emit_str(l, "non_present=");
		emit_str(l, pgw_np_kind_key(run->np_kind));
		if (run->np_kind == PGW_NP_PROTNONE) {
			emit_str(l, " pa=");
			emit_hex(l, run->np_pfn << PGW_PAGE_SHIFT);
		} else if (run->np_kind != PGW_NP_OTHER) {
			emit_str(l, " swap_type=");
			emit_u64(l, run->swap_type);
			emit_str(l, " swap_offset=");
			emit_hex(l, run->swap_offset);
		}
	}
	if (l->len == start)
		emit_str(l, d->empty);
	sep(l, d);
}

void delim_dump_hole(struct out *o, const struct delim *d,
		     const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	word(&l, d, "hole");
	span(&l, d, run->va, run->end);
	empty(&l, d, 2);
	word(&l, d, out_level_name(o->mode, run->level));
	num(&l, d, run->entries);
	empty(&l, d, 2);
	word(&l, d, out_region_key(o, run));
	empty(&l, d, 1);
	word(&l, d, pgw_stop_key(run->stop));
	if (run->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    run->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		word(&l, d, pgw_absence_key(run->absence));
	else
		empty(&l, d, 1);
	hole_detail(&l, d, run);
	if (o->names)
		delim_name(&l, d, NULL);
	row_end(o, &l);
}

static void kv(struct line *l, const char *key, uint64_t v)
{
	if (l->buf[l->len - 1] != ',' && l->buf[l->len - 1] != '\t')
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	emit_u64(l, v);
}

void delim_dump_summary(struct out *o, const struct delim *d,
			const struct dump_summary *s)
{
	struct line l;
	l.len = 0;

	word(&l, d, "summary");
	empty(&l, d, 10);
	num(&l, d, s->not_in_image);
	word(&l, d, s->reason ? s->reason : "");
	empty(&l, d, 1);
	/* The JSON summary's other fields, in its order. */
	kv(&l, "maps", s->maps);
	kv(&l, "mapped", s->mapped);
	for (int lv = 0; lv < PGW_NLEVELS; lv++) {
		if (!s->level_bytes[lv])
			continue;
		emit_str(&l, " mapped_");
		emit_u64(&l, pgw_level_span(o->mode, (enum pgw_level)lv));
		emit_char(&l, '=');
		emit_u64(&l, s->level_bytes[lv]);
	}
	kv(&l, "holes", s->holes);
	kv(&l, "non_present", s->nonpresent);
	kv(&l, "wx", s->wx);
	kv(&l, "wx_bytes", s->wx_bytes);
	kv(&l, "unknown_permissions_bytes", s->unknown_perm_bytes);
	kv(&l, "tables_not_in_image", s->tables_missing);
	kv(&l, "entries", s->stats.entries);
	kv(&l, "tables", s->stats.tables);
	kv(&l, "leaves", s->stats.leaves);
	emit_str(&l, s->complete ? " complete=true" : " complete=false");
	sep(&l, d);
	if (o->names)
		delim_name(&l, d, NULL);
	row_end(o, &l);
}
