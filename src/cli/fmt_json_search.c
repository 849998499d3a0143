/*
 * search as JSON Lines: a `hit` record per match, then the `summary`.
 */
#include "json_kv.h"
#include "search_out.h"

static void put(struct out *o, struct line *l)
{
	emit_str(l, "}\n");
	fwrite(l->buf, 1, l->len, o->f);
}

/* "kind:text", the pattern as given, escaped. */
static void pattern(struct out *o, struct line *l, const struct search_hit *h)
{
	char label[PATTERN_LABEL_MAX];

	emit_str(l, ",\"pattern\":\"");
	emit_bytes(l, o->f, label,
		   pattern_label(h->pattern, h->rule, h->rule_string, label,
				 sizeof(label)),
		   emit_json_char);
	emit_char(l, '"');
}

void json_search_hit(struct out *o, const struct search_hit *h)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"hit\"");
	kv_hex(&l, "pa", h->pa);
	if (h->have_va)
		kv_hex(&l, "va", h->va);
	else
		kv_null(&l, "va");
	if (h->have_root)
		kv_hex(&l, "root", h->root);
	else
		kv_null(&l, "root");
	if (h->have_pid) {
		emit_str(&l, ",\"pid\":");
		emit_u64(&l, (uint64_t)h->pid);
		emit_str(&l, ",\"comm\":\"");
		emit_bytes(&l, o->f, (const char *)h->comm, h->comm_len,
			   emit_json_char);
		emit_char(&l, '"');
	} else {
		emit_str(&l, ",\"pid\":null,\"comm\":null");
	}
	pattern(o, &l, h);
	kv_u64(&l, "size", h->size);
	emit_str(&l, ",\"hex\":\"");
	for (size_t i = 0; i < h->size; i++) {
		if (l.len > sizeof(l.buf) - 8)
			emit_spill(&l, o->f);
		emit_hex_w(&l, h->match[i], 2);
	}
	emit_char(&l, '"');
	kv_hex(&l, "context_start", h->context_start);
	emit_str(&l, ",\"context\":\"");
	emit_bytes(&l, o->f, (const char *)h->context, h->context_len,
		   emit_json_char);
	emit_char(&l, '"');
	if (h->same_frame_pages > 1) {
		kv_u64(&l, "same_frame_pages", h->same_frame_pages);
		kv_u64(&l, "page_size", h->page_size);
	}
	put(o, &l);
}

void json_search_summary(struct out *o, const struct search_summary *s)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"summary\"");
	kv_u64(&l, "patterns", s->patterns);
	kv_u64(&l, "hits", s->hits);
	kv_u64(&l, "listed", s->listed);
	kv_u64(&l, "bytes_searched", s->bytes_searched);
	kv_u64(&l, "bytes_not_in_image", s->bytes_not_in_image);
	emit_str(&l, ",\"not_in_image\":{");
	for (int i = 1; i < PGW_NABSENCES; i++) {
		emit_str(&l, i > 1 ? ",\"" : "\"");
		/* info's keys: other_file, not other-file */
		for (const char *k = pgw_absence_key((enum pgw_absence)i);
		     *k; k++)
			emit_char(&l, *k == '-' ? '_' : *k);
		emit_str(&l, "\":");
		emit_u64(&l, s->not_in_image[i]);
	}
	emit_char(&l, '}');
	kv_u64(&l, "tables_not_in_image", s->tables_not_in_image);
	kv_bool(&l, "complete", s->complete);
	if (!s->complete)
		kv_str(&l, "reason", s->reason);
	put(o, &l);
}
