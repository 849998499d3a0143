/*
 * search as text: a row per hit (PA, VA, ROOT, PID, COMM, the pattern,
 * and the context with the match in [[ ]]), '#' summary lines.
 */
#include "search_out.h"

static void put(struct out *o, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

static void pad(struct line *l, size_t from, size_t width)
{
	do
		emit_char(l, ' ');
	while (l->len - from <= width);
}

enum { W_PA = 12, W_VA = 18, W_ROOT = 12, W_PID = 5, W_COMM = 16 };

static void cell(struct line *l, const char *s, size_t width)
{
	size_t at = l->len;

	emit_str(l, s);
	pad(l, at, width);
}

void text_search_begin(struct out *o)
{
	struct line l;
	l.len = 0;

	cell(&l, "PA", W_PA);
	cell(&l, "VA", W_VA);
	cell(&l, "ROOT", W_ROOT);
	cell(&l, "PID", W_PID);
	cell(&l, "COMM", W_COMM);
	emit_str(&l, "PATTERN CONTEXT");
	put(o, &l);
}

static void hex_cell(struct line *l, bool have, uint64_t v, size_t width)
{
	size_t at = l->len;

	if (have)
		emit_hex(l, v);
	else
		emit_char(l, '-');
	pad(l, at, width);
}

void text_search_hit(struct out *o, const struct search_hit *h)
{
	size_t before = h->before;
	struct line l;
	l.len = 0;

	hex_cell(&l, true, h->pa, W_PA);
	hex_cell(&l, h->have_va, h->va, W_VA);
	hex_cell(&l, h->have_root, h->root, W_ROOT);
	if (h->have_pid) {
		size_t at = l.len;
		emit_u64(&l, (uint64_t)h->pid);
		pad(&l, at, W_PID);
		at = l.len;
		emit_bytes(&l, o->f, (const char *)h->comm, h->comm_len,
			   emit_text_char);
		pad(&l, at, W_COMM);
	} else {
		cell(&l, "-", W_PID);
		cell(&l, "-", W_COMM);
	}
	char label[PATTERN_LABEL_MAX];
	emit_bytes(&l, o->f, label,
		   pattern_label(h->pattern, h->rule, h->rule_string, label,
				 sizeof(label)),
		   emit_text_char);
	emit_char(&l, ' ');
	const char *c = (const char *)h->context;
	emit_bytes(&l, o->f, c, before, emit_text_char);
	emit_str(&l, "[[");
	emit_bytes(&l, o->f, c + before, h->size, emit_text_char);
	emit_str(&l, "]]");
	emit_bytes(&l, o->f, c + before + h->size,
		   h->context_len - before - h->size, emit_text_char);
	if (h->same_frame_pages > 1) {
		emit_str(&l, " (and the next ");
		emit_u64(&l, h->same_frame_pages - 1);
		emit_str(&l, " pages of ");
		emit_u64(&l, h->page_size);
		emit_str(&l, " bytes: one frame everywhere)");
	}
	put(o, &l);
}

void text_search_summary(struct out *o, const struct search_summary *s)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "# ");
	emit_u64(&l, s->hits);
	emit_str(&l, s->hits == 1 ? " hit" : " hits");
	if (s->listed < s->hits) {
		emit_str(&l, " (");
		emit_u64(&l, s->listed);
		emit_str(&l, " listed: --max-hits)");
	}
	emit_str(&l, " of ");
	emit_u64(&l, s->patterns);
	emit_str(&l, s->patterns == 1 ? " pattern; " : " patterns; ");
	emit_u64(&l, s->bytes_searched);
	emit_str(&l, " bytes searched, ");
	emit_u64(&l, s->bytes_not_in_image);
	emit_str(&l, " not in the image");
	for (int i = 1; i < PGW_NABSENCES; i++) {
		if (!s->not_in_image[i])
			continue;
		emit_str(&l, " (");
		emit_str(&l, pgw_absence_key((enum pgw_absence)i));
		emit_char(&l, ' ');
		emit_u64(&l, s->not_in_image[i]);
		emit_char(&l, ')');
	}
	if (s->tables_not_in_image) {
		emit_str(&l, "; ");
		emit_u64(&l, s->tables_not_in_image);
		emit_str(&l, " page tables not in the image");
	}
	if (!s->complete) {
		emit_str(&l, "; INCOMPLETE: ");
		emit_str(&l, s->reason);
	}
	put(o, &l);
}
