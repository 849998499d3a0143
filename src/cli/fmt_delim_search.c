/*
 * search as CSV and TSV rows (delimited.h): columns
 *   type, pa, va, root, pid, comm, pattern, size, hex, context_start,
 *   context, same_frame_pages, complete, reason, detail
 * with the summary's counts as key=value words in detail.
 */
#include "delim_cells.h"
#include "search_out.h"

void delim_search_begin(struct out *o, const struct delim *d)
{
	header(o, d, "type,pa,va,root,pid,comm,pattern,size,hex,"
		     "context_start,context,same_frame_pages,complete,reason,"
		     "detail");
}

void delim_search_hit(struct out *o, const struct delim *d,
		      const struct search_hit *h)
{
	struct line l;
	l.len = 0;

	word(&l, d, "hit");
	hex(&l, d, h->pa);
	if (h->have_va)
		hex(&l, d, h->va);
	else
		empty(&l, d, 1);
	if (h->have_root)
		hex(&l, d, h->root);
	else
		empty(&l, d, 1);
	if (h->have_pid) {
		num(&l, d, (uint64_t)h->pid);
		bytes_cell(&l, d, (const char *)h->comm, h->comm_len);
	} else {
		empty(&l, d, 2);
	}
	char label[PATTERN_LABEL_MAX];
	bytes_cell(&l, d, label, pattern_label(h->pattern, h->rule,
					       h->rule_string, label,
					       sizeof(label)));
	num(&l, d, h->size);
	for (size_t i = 0; i < h->size; i++) {
		if (l.len > sizeof(l.buf) - 8)
			emit_spill(&l, o->f);
		emit_hex_w(&l, h->match[i], 2);
	}
	sep(&l, d);
	hex(&l, d, h->context_start);
	bytes_cell(&l, d, (const char *)h->context, h->context_len);
	if (h->same_frame_pages > 1)
		num(&l, d, h->same_frame_pages);
	else
		empty(&l, d, 1);
	empty(&l, d, 2);
	if (h->same_frame_pages > 1) {
		emit_str(&l, "page_size=");
		emit_u64(&l, h->page_size);
		sep(&l, d);
	} else {
		empty(&l, d, 1);
	}
	row_end(o, &l);
}

static void kv(struct line *l, size_t from, const char *key,
	       const char *v, uint64_t n)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	if (v)
		emit_str(l, v);
	else
		emit_u64(l, n);
}

void delim_search_summary(struct out *o, const struct delim *d,
			  const struct search_summary *s)
{
	struct line l;
	l.len = 0;

	word(&l, d, "summary");
	empty(&l, d, 11);
	word(&l, d, s->complete ? "true" : "false");
	word(&l, d, s->complete ? "" : s->reason);
	size_t from = l.len;
	kv(&l, from, "patterns", NULL, s->patterns);
	kv(&l, from, "hits", NULL, s->hits);
	kv(&l, from, "listed", NULL, s->listed);
	kv(&l, from, "bytes_searched", NULL, s->bytes_searched);
	kv(&l, from, "bytes_not_in_image", NULL, s->bytes_not_in_image);
	for (int i = 1; i < PGW_NABSENCES; i++) {
		emit_str(&l, " not_in_image_");
		for (const char *k = pgw_absence_key((enum pgw_absence)i);
		     *k; k++)
			emit_char(&l, *k == '-' ? '_' : *k);
		emit_char(&l, '=');
		emit_u64(&l, s->not_in_image[i]);
	}
	kv(&l, from, "tables_not_in_image", NULL, s->tables_not_in_image);
	sep(&l, d);
	row_end(o, &l);
}
