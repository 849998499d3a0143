/* Any record as one CSV/TSV row (record.h): a cell per column of its
 * table, the columns its type has no field for empty. */
#include "delim_cells.h"
#include "record.h"

enum { COLS_MAX = 64, TYPES_MAX = 16 };

/* A table's columns and, per record type, which field fills each (and
 * which part of a span): worked out once per table. */
struct cols {
	const struct rec_table *table;
	size_t n;
	const char *name[COLS_MAX];
	size_t nname[COLS_MAX];      /* the length of name[i] */
	struct cell {
		short field;         /* -1: empty, -2: the detail cell */
		char part;           /* of a span: 0 va, 1 end, 2 size */
	} map[TYPES_MAX][COLS_MAX];          /* by the type's place in the table */
};

static const char *const span_part[] = { "va", "end", "size" };

static size_t col_index(const struct cols *c, const char *name, size_t n)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->nname[i] == n && strncmp(c->name[i], name, n) == 0)
			return i;
	return c->n;
}

static void col_add(struct cols *c, const char *name, size_t n)
{
	if (col_index(c, name, n) == c->n && c->n < COLS_MAX) {
		c->name[c->n] = name;
		c->nname[c->n++] = n;
	}
}

static void cols_build(struct cols *c, const struct rec_table *t)
{
	c->table = t;
	c->n = 0;
	for (const char *s = t->cols; *s;) {
		size_t n = strcspn(s, ",");
		col_add(c, s, n);
		s += n + (s[n] == ',');
	}
	for (size_t k = 0; t->types[k]; k++) {
		const struct rec_type *ty = t->types[k];
		for (size_t f = 0; f < ty->nfields; f++) {
			if (ty->field[f].how & (RF_JSON | RF_DETAIL))
				continue;
			if (ty->field[f].kind != RK_SPAN) {
				col_add(c, ty->field[f].name,
					strlen(ty->field[f].name));
				continue;
			}
			for (int p = 0; p < 3; p++)
				col_add(c, span_part[p],
					strlen(span_part[p]));
		}
	}
	for (size_t k = 0; t->types[k] && k < TYPES_MAX; k++) {
		const struct rec_type *ty = t->types[k];
		for (size_t i = 0; i < c->n; i++)
			c->map[k][i].field = -1;
		for (size_t f = 0; f < ty->nfields; f++) {
			const struct rec_field *fd = &ty->field[f];
			if (fd->how & RF_JSON)
				continue;
			if (fd->how & RF_DETAIL) {
				size_t i = col_index(c, "detail", 6);
				if (i < c->n)
					c->map[k][i].field = -2;
				continue;
			}
			if (fd->kind != RK_SPAN) {
				size_t i = col_index(c, fd->name,
						     strlen(fd->name));
				c->map[k][i].field = (short)f;
				continue;
			}
			for (int p = 0; p < 3; p++) {
				size_t i = col_index(c, span_part[p],
						     strlen(span_part[p]));
				c->map[k][i].field = (short)f;
				c->map[k][i].part = (char)p;
			}
		}
	}
}

/* The columns of o's table (one table a run: kept). */
static const struct cols *cols_of(const struct out *o)
{
	static struct cols c;

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
		emit_mem(&l, c->name[i], c->nname[i]);
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void span_cell(struct line *l, const struct delim *d,
		      const struct rec_span *s, int part)
{
	if (part == 0) {
		hex(l, d, s->va);
	} else if (part == 2) {
		num(l, d, s->end - s->va);
	} else if (s->end == 0 && s->va != 0) {
		emit_str(l, "0x10000000000000000");
		sep(l, d);
	} else {
		hex(l, d, s->end);
	}
}

static void cell(struct line *l, const struct delim *d,
		 const struct rec_field *f, const char *rec, int part)
{
	const void *p = rec + f->off;
	const struct rec_opt *opt = p;
	const struct rec_bytes *b = p;
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
		span_cell(l, d, p, part);
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
		bytes_cell(l, d, b->s, b->n);
		break;
	}
}

/* The detail cell: the fields that have no column of their own, as
 * key=value words joined by spaces. */
static void detail_cell(struct line *l, const struct delim *d,
			const struct rec_type *t, const char *rec)
{
	size_t from = l->len;

	for (size_t i = 0; i < t->nfields; i++) {
		const struct rec_field *f = &t->field[i];
		const void *p = rec + f->off;
		const struct rec_opt *opt = p;
		if (!(f->how & RF_DETAIL) || !rec_present(f, p))
			continue;
		if (l->len > from)
			emit_char(l, ' ');
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
		case RK_SPAN:
		case RK_BYTES:
			break;   /* never details: they have columns */
		}
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

	while (o->table->types[k] && o->table->types[k] != t)
		k++;
	if (!o->table->types[k] || k >= TYPES_MAX)
		return;   /* not the table's: a bug the tests catch */
	word(&l, d, t->name);
	for (size_t i = 1; i < c->n; i++) {
		const struct cell *m = &c->map[k][i];
		if (m->field == -2)
			detail_cell(&l, d, t, rec);
		else if (m->field < 0)
			empty(&l, d, 1);
		else
			cell(&l, d, &t->field[m->field], rec, m->part);
	}
	out_rows_flush(o);
	row_end(o, &l);
}
