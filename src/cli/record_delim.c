/* Any record as one CSV/TSV row (record.h): a cell per column of its
 * table, the columns its type has no field for empty. */
#include "delim_cells.h"
#include "record.h"

enum { COLS_MAX = 64, TYPES_MAX = 16 };

/* Which field fills a column: the field, and the part of it (a span's
 * va, end or size; a sub record's field). */
struct cell {
	short field;                 /* -1: empty, -2: the detail cell,
					-3: the type */
	short part;
};

/* A table's columns and, per record type, what fills each: worked out
 * once per table. */
struct cols {
	const struct rec_table *table;
	size_t n;
	const char *name[COLS_MAX];
	char names[COLS_MAX][32];    /* "a_pa": a sub record's columns */
	struct cell map[TYPES_MAX][COLS_MAX];   /* by the type's place */
};

static const char *const span_part[] = { "va", "end", "size" };

static size_t col_index(const struct cols *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return i;
	return c->n;
}

static void col_add(struct cols *c, const char *name)
{
	if (col_index(c, name) == c->n && c->n < COLS_MAX)
		c->name[c->n++] = name;
}

/* The column of part p of field f ("" when it has none of its own). */
static const char *part_name(char *buf, size_t n, const struct rec_field *f,
			     int p)
{
	if (f->kind == RK_SPAN || f->kind == RK_RANGE)
		return span_part[p];
	if (f->kind == RK_GROUP)
		return part_name(buf, n, &f->sub->field[p], 0);
	if (f->kind != RK_OBJECT)
		return f->col ? f->col : f->name;
	snprintf(buf, n, "%s_%s", f->name, f->sub->field[p].name);
	return buf;
}

static bool has_sub(const struct rec_field *f)
{
	return f->kind == RK_OBJECT || f->kind == RK_GROUP;
}

static int nparts(const struct rec_field *f)
{
	if (f->kind == RK_SPAN || f->kind == RK_RANGE)
		return 3;
	return has_sub(f) ? (int)f->sub->nfields : 1;
}

/* Has part p a column (rather than JSON only, or a detail word)? */
static bool part_col(const struct rec_field *f, int p)
{
	unsigned how = has_sub(f) ? f->sub->field[p].how : f->how;

	return !(f->how & (RF_JSON | RF_DETAIL | RF_TEXT)) &&
	       !(how & (RF_JSON | RF_DETAIL | RF_TEXT));
}

static bool part_detail(const struct rec_field *f, int p)
{
	unsigned how = has_sub(f) ? f->sub->field[p].how : f->how;

	return !(f->how & (RF_JSON | RF_TEXT)) && (how & RF_DETAIL);
}

static void cols_build(struct cols *c, const struct rec_table *t)
{
	char buf[32];

	c->table = t;
	c->n = 0;
	for (const char *s = t->cols; *s && c->n < COLS_MAX;) {
		size_t n = strcspn(s, ",");
		snprintf(c->names[c->n], sizeof(c->names[0]), "%.*s", (int)n,
			 s);
		c->name[c->n] = c->names[c->n];
		c->n++;
		s += n + (s[n] == ',');
	}
	for (size_t k = 0; t->types[k]; k++) {
		const struct rec_type *ty = t->types[k];
		for (size_t f = !ty->name; f < ty->nfields; f++)
			for (int p = 0; p < nparts(&ty->field[f]); p++) {
				if (part_detail(&ty->field[f], p))
					col_add(c, "detail");
				if (!part_col(&ty->field[f], p) ||
				    c->n == COLS_MAX || t->closed)
					continue;
				snprintf(c->names[c->n], sizeof(c->names[0]),
					 "%s", part_name(buf, sizeof(buf),
							 &ty->field[f], p));
				col_add(c, c->names[c->n]);
			}
	}
	size_t detail = col_index(c, "detail");
	size_t type = col_index(c, "type");
	for (size_t k = 0; t->types[k] && k < TYPES_MAX; k++) {
		const struct rec_type *ty = t->types[k];
		for (size_t i = 0; i < c->n; i++)
			c->map[k][i].field = i == type ? -3 : -1;
		for (size_t f = !ty->name; f < ty->nfields; f++)
			for (int p = 0; p < nparts(&ty->field[f]); p++) {
				const struct rec_field *fd = &ty->field[f];
				size_t i = part_detail(fd, p) ? detail :
					   !part_col(fd, p) ? c->n :
					   col_index(c, part_name(buf,
							sizeof(buf), fd, p));
				if (i == c->n)
					continue;
				c->map[k][i].field = part_detail(fd, p) ? -2 :
						     (short)f;
				c->map[k][i].part = (short)p;
			}
	}
}

/* The columns of o's table (one table a run: kept). */
static const struct cols *cols_of(const struct out *o)
{
	static _Thread_local struct cols c;

	if (c.table != o->table)
		cols_build(&c, o->table);
	return &c;
}

void delim_table(struct out *o, const struct delim *d,
		 const struct rec_table *t)
{
	struct line l;
	l.len = 0;

	o->table = t;
	const struct cols *c = cols_of(o);
	for (size_t i = 0; i < c->n; i++) {
		if (i)
			emit_char(&l, d->sep);
		emit_str(&l, c->name[i]);
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void span_cell(struct line *l, const struct delim *d,
		      const struct rec_field *f, const struct rec_span *s,
		      int part)
{
	if (part == 0) {
		hex(l, d, s->va);
	} else if (part == 2) {
		num(l, d, s->end - s->va);
	} else if (s->end == 0 && (s->va != 0 || f->kind == RK_RANGE)) {
		emit_str(l, "0x10000000000000000");
		sep(l, d);
	} else {
		hex(l, d, s->end);
	}
}

static void keys_cell(struct line *l, const struct delim *d,
		      const struct rec_keys *k)
{
	size_t from = l->len;

	for (unsigned b = 0; b < k->n; b++) {
		const char *w = rec_key(k, b);
		if (!w)
			continue;
		if (l->len > from)
			emit_char(l, '|');
		emit_str(l, w);
	}
	if (l->len == from)
		emit_str(l, d->empty);
	sep(l, d);
}

/* Bytes from the image (a path may be 4 KiB, four times that escaped),
 * escaped as text and quoted in CSV when needed, spilling the row to the
 * output as it fills: never cut short. */
static void long_cell(struct out *o, struct line *l, const struct delim *d,
		      const struct rec_bytes *b)
{
	bool quote = d->sep == ',' && (memchr(b->s, ',', b->n) ||
				       memchr(b->s, '"', b->n));

	if (!b->n)
		emit_str(l, d->empty);
	if (quote)
		emit_char(l, '"');
	for (size_t i = 0; i < b->n; i++) {
		if (l->len > sizeof(l->buf) - 16)
			emit_spill(l, o->f);
		if (quote && b->s[i] == '"')
			emit_char(l, '"');
		emit_text_char(l, (unsigned char)b->s[i]);
	}
	if (quote)
		emit_char(l, '"');
	sep(l, d);
}

static void cell(struct out *o, struct line *l, const struct delim *d,
		 const struct rec_field *f, const char *rec, int part)
{
	const void *p = rec + f->off;
	const struct rec_opt *opt = p;
	const char *s;

	if (!rec_present(f, p)) {
		empty(l, d, 1);
		return;
	}
	switch (f->kind) {
	case RK_HEX:
		hex(l, d, *(const uint64_t *)p);
		break;
	case RK_U64:
		num(l, d, *(const uint64_t *)p);
		break;
	case RK_BOOL:
		word(l, d, *(const bool *)p ? "true" : "false");
		break;
	case RK_WORD:
		s = *(const char *const *)p;
		word(l, d, s ? s : "");
		break;
	case RK_TEXT:
		s = *(const char *const *)p;
		text(l, d, s ? s : "");
		break;
	case RK_SPAN:
	case RK_RANGE:
		span_cell(l, d, f, p, part);
		break;
	case RK_END:
		if (*(const uint64_t *)p)
			hex(l, d, *(const uint64_t *)p);
		else
			word(l, d, "0x10000000000000000");
		break;
	case RK_OHEX:
		hex(l, d, opt->v);
		break;
	case RK_OU64:
		num(l, d, opt->v);
		break;
	case RK_OBOOL:
		word(l, d, opt->v ? "true" : "false");
		break;
	case RK_BYTES:
		long_cell(o, l, d, p);
		break;
	case RK_FLAGS:
		flags(l, d, (uint32_t)opt->v);
		break;
	case RK_KEYS:
		keys_cell(l, d, p);
		break;
	case RK_HEXDATA:
		rec_hexdata(o, l, p);
		sep(l, d);
		break;
	case RK_COUNTS:
		empty(l, d, 1);   /* counts go in detail */
		break;
	case RK_OBJECT:
	case RK_GROUP:
		cell(o, l, d, &f->sub->field[part], *(const char *const *)p,
		     0);
		break;
	case RK_CUSTOM:
		f->custom->cell(o, l, d, *(const void *const *)p);
		break;
	}
}

/* " name_key=N" of each count. */
static void counts_words(struct line *l, size_t from, const char *name,
			 const struct rec_counts *c)
{
	char k[64];

	for (unsigned i = c->from; i < c->to; i++) {
		if (c->nonzero && !c->v[i])
			continue;
		if (l->len > from)
			emit_char(l, ' ');
		rec_count_key(k, sizeof(k), c, i);
		emit_str(l, name);
		emit_char(l, '_');
		emit_str(l, k);
		emit_char(l, '=');
		emit_u64(l, c->v[i]);
	}
}

/* " key=value" of one field in the detail cell begun at from. */
static void detail_word(struct out *o, struct line *l, size_t *fromp,
			const char *prefix, const struct rec_field *f,
			const char *rec)
{
	const void *p = rec + f->off;
	const struct rec_opt *opt = p;
	size_t from = *fromp;

	if (!rec_present(f, p))
		return;
	if (f->kind == RK_CUSTOM) {
		f->custom->detail(o, l, fromp, *(const void *const *)p);
		return;
	}
	if (f->kind == RK_COUNTS) {
		counts_words(l, from, f->col ? f->col : f->name, p);
		return;
	}
	if (l->len > from)
		emit_char(l, ' ');
	if (prefix) {
		emit_str(l, prefix);
		emit_char(l, '_');
	}
	emit_str(l, f->name);
	emit_char(l, '=');
	switch (f->kind) {
	case RK_HEX:
		emit_hex(l, *(const uint64_t *)p);
		break;
	case RK_U64:
		emit_u64(l, *(const uint64_t *)p);
		break;
	case RK_BOOL:
		emit_str(l, *(const bool *)p ? "true" : "false");
		break;
	case RK_WORD:
	case RK_TEXT:
		emit_str(l, *(const char *const *)p);
		break;
	case RK_OHEX:
		emit_hex(l, opt->v);
		break;
	case RK_OU64:
		emit_u64(l, opt->v);
		break;
	case RK_OBOOL:
		emit_str(l, opt->v ? "true" : "false");
		break;
	case RK_FLAGS:
		emit_flags(l, (uint32_t)opt->v, "|", "");
		break;
	default:
		break;   /* spans, bytes, key sets, objects: columns */
	}
}

/* The detail cell: the fields that have no column of their own, as
 * key=value words joined by spaces. */
static void detail_cell(struct out *o, struct line *l,
			const struct delim *d, const struct rec_type *t,
			const char *rec)
{
	size_t from = l->len;

	for (size_t i = !t->name; i < t->nfields; i++) {
		const struct rec_field *f = &t->field[i];
		if (!has_sub(f)) {
			if (part_detail(f, 0))
				detail_word(o, l, &from, NULL, f, rec);
			continue;
		}
		const char *sub = *(const char *const *)(rec + f->off);
		for (int p = 0; sub && p < nparts(f); p++)
			if (part_detail(f, p))
				detail_word(o, l, &from,
					    f->kind == RK_OBJECT ? f->name :
								   NULL,
					    &f->sub->field[p], sub);
	}
	if (l->len == from)
		emit_str(l, d->empty);
	sep(l, d);
}

void delim_record(struct out *o, const struct delim *d,
		  const struct rec_type *t, const void *rec)
{
	const struct cols *c = cols_of(o);
	size_t k = 0;
	struct line l;
	l.len = 0;

	if (t->text_only)
		return;
	while (o->table->types[k] && o->table->types[k] != t)
		k++;
	if (!o->table->types[k] || k >= TYPES_MAX)
		return;   /* not the table's: a bug the tests catch */
	out_rows_flush(o);
	for (size_t i = 0; i < c->n; i++) {
		const struct cell *m = &c->map[k][i];
		if (m->field == -3)
			word(&l, d, rec_type_name(t, rec));
		else if (m->field == -2)
			detail_cell(o, &l, d, t, rec);
		else if (m->field < 0)
			empty(&l, d, 1);
		else
			cell(o, &l, d, &t->field[m->field], rec, m->part);
	}
	row_end(o, &l);
}
