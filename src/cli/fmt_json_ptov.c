/*
 * ptov as JSON Lines: a `mapping` record per virtual address that maps
 * a physical one, in each root; one with "va" null when none does.
 */
#include "json_kv.h"
#include "read_out.h"

static void put(struct out *o, struct line *l)
{
	emit_str(l, "}\n");
	fwrite(l->buf, 1, l->len, o->f);
}

void json_ptov(struct out *o, const struct ptov_answer *a)
{
	const struct pgw_rmap_hit *h = a->hit;
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"mapping\"");
	kv_hex(&l, "pa", a->pa);
	if (!h) {
		emit_str(&l, ",\"va\":null,\"root\":null,\"pid\":null,"
			     "\"comm\":null");
		put(o, &l);
		return;
	}
	kv_hex(&l, "va", h->va);
	kv_hex(&l, "root", a->root);
	if (a->have_pid) {
		emit_str(&l, ",\"pid\":");
		emit_u64(&l, (uint64_t)a->pid);
		emit_str(&l, ",\"comm\":\"");
		emit_bytes(&l, o->f, (const char *)a->comm, a->comm_len,
			   emit_json_char);
		emit_char(&l, '"');
	} else {
		emit_str(&l, ",\"pid\":null,\"comm\":null");
	}
	if (a->kind)
		kv_str(&l, "kind", a->kind);
	kv_u64(&l, "page_size", h->page_size);
	kv_str(&l, "level", out_level_name(o->mode, h->level));
	emit_str(&l, ",\"flags\":[");
	emit_flags(&l, h->flags, ",", "\"");
	emit_str(&l, "],\"effective\":[");
	emit_flags(&l, h->eff_flags, ",", "\"");
	emit_char(&l, ']');
	if (h->pages > 1)
		kv_u64(&l, "same_frame_pages", h->pages);
	if (h->protnone)
		emit_str(&l, ",\"protnone\":true");
	put(o, &l);
}

void json_ptov_bad(struct out *o, const char *text, size_t n)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"mapping\",\"pa\":null,\"va\":null,"
		     "\"input\":\"");
	emit_bytes(&l, o->f, text, n, emit_json_char);
	emit_str(&l, "\",\"reason\":\"not-an-address\"");
	put(o, &l);
}
