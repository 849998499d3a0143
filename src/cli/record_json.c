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

static void json_field(struct out *o, struct line *l,
		       const struct rec_field *f, const char *rec)
{
	const void *p = rec + f->off;
	const struct rec_opt *opt = p;
	const struct rec_bytes *b = p;

	if (!rec_present(f, p)) {
		if (f->how & RF_NULL)
			kv_null(l, f->name);
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

void json_record(struct out *o, const struct rec_type *t, const void *rec)
{
	struct line l;
	l.len = 0;

	out_rows_flush(o);
	emit_str(&l, "{\"type\":\"");
	emit_str(&l, t->name);
	emit_char(&l, '"');
	for (size_t i = 0; i < t->nfields; i++)
		json_field(o, &l, &t->field[i], rec);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}
