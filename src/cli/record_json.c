/* Any record as one JSON object (record.h): "type" first, then its
 * fields in order, an absent one left out. */
#include "json_kv.h"
#include "record.h"

static void json_span(struct line *l, const struct rec_span *s)
{
	kv_hex(l, "va", s->va);
	emit_str(l, ",\"end\":\"");
	if (s->end == 0 && s->va != 0)
		emit_str(l, "0x10000000000000000");
	else
		emit_hex(l, s->end);
	emit_char(l, '"');
	kv_u64(l, "size", s->end - s->va);
}

static void json_fields(struct out *o, struct line *l,
			const struct rec_type *t, const char *rec);

/* ,"key":["name",...] */
static void json_keys(struct line *l, const char *key,
		      const struct rec_keys *k)
{
	bool first = true;

	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":[");
	for (unsigned b = 0; b < k->n; b++) {
		const char *w = rec_key(k, b);
		if (!w)
			continue;
		emit_str(l, first ? "\"" : ",\"");
		emit_str(l, w);
		emit_char(l, '"');
		first = false;
	}
	emit_char(l, ']');
}

/* ,"key":{"a":N,...} */
static void json_counts(struct line *l, const char *key,
			const struct rec_counts *c)
{
	char k[64];

	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":{");
	bool first = true;

	for (unsigned i = c->from; i < c->to; i++) {
		if (c->nonzero && !c->v[i])
			continue;
		rec_count_key(k, sizeof(k), c, i);
		emit_str(l, first ? "\"" : ",\"");
		first = false;
		emit_str(l, k);
		emit_str(l, "\":");
		emit_u64(l, c->v[i]);
	}
	emit_char(l, '}');
}

/* The bytes in hex, spilling l to o as it fills. */
void rec_hexdata(struct out *o, struct line *l, const struct rec_bytes *b)
{
	for (size_t i = 0; i < b->n; i++) {
		if (l->len > sizeof(l->buf) - 8)
			emit_spill(l, o->f);
		emit_hex_w(l, (unsigned char)b->s[i], 2);
	}
}

static void json_field(struct out *o, struct line *l,
		       const struct rec_field *f, const char *rec)
{
	const void *p = rec + f->off;
	const struct rec_opt *opt = p;
	const struct rec_bytes *b = p;

	if (f->how & RF_TEXT)
		return;
	if (!rec_present(f, p)) {
		if (!(f->how & RF_NULL))
			return;
		if (f->kind != RK_SPAN && f->kind != RK_RANGE) {
			kv_null(l, f->name);
			return;
		}
		kv_null(l, "va");
		kv_null(l, "end");
		kv_null(l, "size");
		return;
	}
	switch (f->kind) {
	case RK_HEX:
		kv_hex(l, f->name, *(const uint64_t *)p);
		break;
	case RK_U64:
		kv_u64(l, f->name, *(const uint64_t *)p);
		break;
	case RK_BOOL:
		kv_bool(l, f->name, *(const bool *)p);
		break;
	case RK_WORD:
		kv_str(l, f->name, *(const char *const *)p);
		break;
	case RK_TEXT:
		kv_long(o, l, false, f->name, *(const char *const *)p);
		break;
	case RK_SPAN:
		json_span(l, p);
		break;
	case RK_END:
		emit_str(l, ",\"");
		emit_str(l, f->name);
		emit_str(l, *(const uint64_t *)p ? "\":\"" :
			    "\":\"0x10000000000000000");
		if (*(const uint64_t *)p)
			emit_hex(l, *(const uint64_t *)p);
		emit_char(l, '"');
		break;
	case RK_RANGE:
		kv_hex(l, "va", ((const struct rec_span *)p)->va);
		if (((const struct rec_span *)p)->end)
			kv_hex(l, "end", ((const struct rec_span *)p)->end);
		else
			emit_str(l, ",\"end\":\"0x10000000000000000\"");
		kv_u64(l, "size", ((const struct rec_span *)p)->end -
				  ((const struct rec_span *)p)->va);
		break;
	case RK_FLAGS:
		emit_str(l, ",\"");
		emit_str(l, f->name);
		emit_str(l, "\":[");
		emit_flags(l, (uint32_t)opt->v, ",", "\"");
		emit_char(l, ']');
		break;
	case RK_KEYS:
		json_keys(l, f->name, p);
		break;
	case RK_HEXDATA:
		emit_str(l, ",\"");
		emit_str(l, f->name);
		emit_str(l, "\":\"");
		rec_hexdata(o, l, p);
		emit_char(l, '"');
		break;
	case RK_COUNTS:
		json_counts(l, f->name, p);
		break;
	case RK_GROUP:
		json_fields(o, l, f->sub, *(const char *const *)p);
		break;
	case RK_CUSTOM:
		f->custom->json(o, l, f->name, *(const void *const *)p);
		break;
	case RK_OBJECT: {
		size_t at;
		emit_str(l, ",\"");
		emit_str(l, f->name);
		emit_str(l, "\":{");
		at = l->len;
		json_fields(o, l, f->sub, *(const char *const *)p);
		if (l->len > at && l->buf[at] == ',') {   /* first: none */
			memmove(l->buf + at, l->buf + at + 1, l->len - at - 1);
			l->len--;
		}
		emit_char(l, '}');
		break;
	}
	case RK_OHEX:
		kv_hex(l, f->name, opt->v);
		break;
	case RK_OU64:
		kv_u64(l, f->name, opt->v);
		break;
	case RK_OBOOL:
		kv_bool(l, f->name, opt->v);
		break;
	case RK_BYTES:
		emit_str(l, ",\"");
		emit_str(l, f->name);
		emit_str(l, "\":\"");
		emit_bytes(l, o->f, b->s, b->n, emit_json_char);
		emit_char(l, '"');
		break;
	}
}

/* Each field, a comma before each; a type without a name has its name
 * in the first field. */
static void json_fields(struct out *o, struct line *l,
			const struct rec_type *t, const char *rec)
{
	for (size_t i = !t->name; i < t->nfields; i++)
		json_field(o, l, &t->field[i], rec);
}

void json_record(struct out *o, const struct rec_type *t, const void *rec)
{
	struct line l;
	l.len = 0;

	if (t->text_only)
		return;
	out_rows_flush(o);
	emit_str(&l, "{\"type\":\"");
	emit_str(&l, rec_type_name(t, rec));
	emit_char(&l, '"');
	json_fields(o, &l, t, rec);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}
