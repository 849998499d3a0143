/*
 * search's records (search_out.h) and their text: a row per hit (PA, VA,
 * ROOT, PID, COMM, the pattern, and the context with the match in
 * [[ ]]), '#' summary lines.
 */
#include "search_out.h"
#include "text_cells.h"

enum { W_PA = 12, W_VA = 18, W_ROOT = 12, W_PID = 5, W_COMM = 16 };

static void text_head(struct out *o, const void *ctx)
{
	static const struct text_col col[] = {
		{ "PA", W_PA }, { "VA", W_VA }, { "ROOT", W_ROOT },
		{ "PID", W_PID }, { "COMM", W_COMM },
	};

	(void)ctx;
	text_heads(o, col, sizeof(col) / sizeof(col[0]), "PATTERN CONTEXT");
}

static void hex_cell(struct line *l, const struct rec_opt *v, size_t width)
{
	size_t at = l->len;

	if (v->has)
		emit_hex(l, v->v);
	else
		emit_char(l, '-');
	text_pad(l, at, width);
}

static void text_hit(struct out *o, const void *rec)
{
	const struct hit_rec *h = rec;
	size_t before = h->before;
	struct line l;
	l.len = 0;

	hex_cell(&l, &(struct rec_opt){ h->pa, true }, W_PA);
	hex_cell(&l, &h->va, W_VA);
	hex_cell(&l, &h->root, W_ROOT);
	if (h->pid.has) {
		size_t at = l.len;
		emit_u64(&l, h->pid.v);
		text_pad(&l, at, W_PID);
		at = l.len;
		emit_bytes(&l, o->f, h->comm.s, h->comm.n, emit_text_char);
		text_pad(&l, at, W_COMM);
	} else {
		text_cell(&l, "-", W_PID);
		text_cell(&l, "-", W_COMM);
	}
	emit_bytes(&l, o->f, h->pattern.s, h->pattern.n, emit_text_char);
	emit_char(&l, ' ');
	const char *c = h->context.s;
	emit_bytes(&l, o->f, c, before, emit_text_char);
	emit_str(&l, "[[");
	emit_bytes(&l, o->f, c + before, h->size, emit_text_char);
	emit_str(&l, "]]");
	emit_bytes(&l, o->f, c + before + h->size,
		   h->context.n - before - h->size, emit_text_char);
	if (h->same_frame_pages.has) {
		emit_str(&l, " (and the next ");
		emit_u64(&l, h->same_frame_pages.v - 1);
		emit_str(&l, " pages of ");
		emit_u64(&l, h->page_size.v);
		emit_str(&l, " bytes: one frame everywhere)");
	}
	text_name_rec(&l, h->name);
	text_put(o, &l);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct search_summary_rec *s = rec;
	const struct rec_counts *c = &s->not_in_image;
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
	for (unsigned i = c->from; i < c->to; i++) {
		if (!c->v[i])
			continue;
		emit_str(&l, " (");
		emit_str(&l, c->key(i));
		emit_char(&l, ' ');
		emit_u64(&l, c->v[i]);
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
	text_put(o, &l);
}

RECORD_TYPE(hit_rec, "hit", HIT_FIELDS, text_hit);
RECORD_TYPE(search_summary_rec, "summary", SEARCH_SUMMARY_FIELDS,
	    text_summary);

static const struct rec_type *const search_types[] = {
	&hit_rec_type, &search_summary_rec_type, NULL,
};

const struct rec_table search_table = {
	"type,pa,va,root,pid,comm,pattern,size,hex,context_start,context,"
	"same_frame_pages,complete,reason,detail",
	search_types, text_head,
};

void search_say_hit(struct out *o, const struct search_hit *h)
{
	char label[SEARCH_LABEL_MAX];
	bool shared = h->same_frame_pages > 1;
	struct hit_rec r = {
		.pa = h->pa,
		.va = { h->va, h->have_va },
		.root = { h->root, h->have_root },
		.pid = { (uint64_t)h->pid, h->have_pid },
		.comm = { h->have_pid ? (const char *)h->comm : NULL,
			  h->comm_len },
		.pattern = { label, search_label(h, label, sizeof(label)) },
		.size = h->size,
		.hex = { (const char *)h->match, h->size },
		.context_start = h->context_start,
		.context = { (const char *)h->context, h->context_len },
		.same_frame_pages = { h->same_frame_pages, shared },
		.page_size = { h->page_size, shared },
		.before = h->before,
	};
	struct addr_name nm;
	struct name_rec name;
	if (h->have_va)
		r.name = name_rec_of(o, h->have_pid ? h->pid : -1, h->va,
				     &nm, &name);

	out_record(o, &hit_rec_type, &r);
}

static const char *absence_key(unsigned i)
{
	return pgw_absence_key((enum pgw_absence)i);
}

void search_say_summary(struct out *o, const struct search_summary *s)
{
	struct search_summary_rec r = {
		.patterns = s->patterns, .hits = s->hits,
		.listed = s->listed, .bytes_searched = s->bytes_searched,
		.bytes_not_in_image = s->bytes_not_in_image,
		.not_in_image = { s->not_in_image, 1, PGW_NABSENCES,
				  absence_key },
		.tables_not_in_image = s->tables_not_in_image,
		.complete = s->complete,
		.reason = s->complete ? NULL : s->reason,
	};

	out_record(o, &search_summary_rec_type, &r);
}
