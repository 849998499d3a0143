/*
 * ptov as text: a table, a row per mapping (PA, VA, page size, level,
 * access, root, pid, comm), "-" for a physical address nobody maps.
 */
#include "emit.h"
#include "read_out.h"
#include "text_cells.h"

/* Pad the cell begun at `from` to `width` columns, then a space. */
static void pad(struct line *l, size_t from, size_t width)
{
	do
		emit_char(l, ' ');
	while (l->len - from <= width);
}

static void put(struct out *o, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

/* The columns: PA, VA, PAGE (right-aligned), LEVEL, ACCESS, ROOT, PID,
 * COMM; each cell padded to its width and a space. */
enum { W_PA = 12, W_VA = 18, W_PAGE = 4, W_LEVEL = 5, W_ACCESS = 15,
       W_ROOT = 12, W_PID = 5 };

static void cell(struct line *l, const char *s, size_t width)
{
	size_t at = l->len;

	emit_str(l, s);
	pad(l, at, width);
}

void text_ptov_begin(struct out *o)
{
	struct line l;
	l.len = 0;

	cell(&l, "PA", W_PA);
	cell(&l, "VA", W_VA);
	cell(&l, "PAGE", W_PAGE);
	cell(&l, "LEVEL", W_LEVEL);
	cell(&l, "ACCESS", W_ACCESS);
	cell(&l, "ROOT", W_ROOT);
	cell(&l, "PID", W_PID);
	emit_str(&l, "COMM");
	put(o, &l);
}

void text_ptov(struct out *o, const struct ptov_answer *a)
{
	const struct pgw_rmap_hit *h = a->hit;
	struct line l;
	l.len = 0;

	emit_hex(&l, a->pa);
	pad(&l, 0, W_PA);
	size_t at = l.len;
	if (!h) {
		emit_str(&l, "- (no root maps it)");
		put(o, &l);
		return;
	}
	emit_hex(&l, h->va);
	pad(&l, at, W_VA);
	text_size(&l, h->page_size, W_PAGE);
	emit_char(&l, ' ');
	cell(&l, out_level_name(o->mode, h->level), W_LEVEL);
	at = l.len;
	if (h->protnone)
		emit_str(&l, "protnone");
	else
		text_access(&l, h->eff_flags);
	pad(&l, at, W_ACCESS);
	at = l.len;
	emit_hex(&l, a->root);
	pad(&l, at, W_ROOT);
	if (a->have_pid) {
		at = l.len;
		emit_u64(&l, (uint64_t)a->pid);
		pad(&l, at, W_PID);
		emit_bytes(&l, o->f, (const char *)a->comm, a->comm_len,
			   emit_text_char);
	} else {
		cell(&l, "-", W_PID);
		emit_char(&l, '-');
	}
	if (h->pages > 1) {
		emit_str(&l, " (and the next ");
		emit_u64(&l, h->pages - 1);
		emit_str(&l, " pages: one frame everywhere)");
	}
	put(o, &l);
}

void text_ptov_bad(struct out *o, const char *text, size_t n)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "not an address: '");
	emit_bytes(&l, o->f, text, n, emit_text_char);
	emit_char(&l, '\'');
	put(o, &l);
}
