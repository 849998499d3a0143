/*
 * ptov's records (ptov_out.h) and their text: a table, a row per mapping
 * (PA, VA, page size, level, access, root, pid, comm), "-" for a
 * physical address nobody maps.
 */
#include "output.h"
#include "ptov_out.h"
#include "text_cells.h"

/* The columns: PA, VA, PAGE (right-aligned), LEVEL, ACCESS, ROOT, PID,
 * COMM; each cell padded to its width and a space. */
enum { W_PA = 12, W_VA = 18, W_PAGE = 4, W_LEVEL = 5, W_ACCESS = 15,
       W_ROOT = 12, W_PID = 5 };

static void text_head(struct out *o, const void *ctx)
{
	static const struct text_col col[] = {
		{ "PA", W_PA }, { "VA", W_VA }, { "PAGE", W_PAGE },
		{ "LEVEL", W_LEVEL }, { "ACCESS", W_ACCESS },
		{ "ROOT", W_ROOT }, { "PID", W_PID },
	};

	(void)ctx;
	text_heads(o, col, sizeof(col) / sizeof(col[0]), "COMM");
}

static void text_mapping(struct out *o, const void *rec)
{
	const struct mapping_rec *m = rec;
	struct line l;
	l.len = 0;

	emit_hex(&l, m->pa);
	text_pad(&l, 0, W_PA);
	size_t at = l.len;
	if (!m->va.has) {
		emit_str(&l, "- (no root maps it)");
		text_put(o, &l);
		return;
	}
	emit_hex(&l, m->va.v);
	text_pad(&l, at, W_VA);
	text_size(&l, m->page_size.v, W_PAGE);
	emit_char(&l, ' ');
	text_cell(&l, m->level, W_LEVEL);
	at = l.len;
	if (m->protnone.has)
		emit_str(&l, "protnone");
	else
		text_access(&l, (uint32_t)m->effective.v);
	text_pad(&l, at, W_ACCESS);
	at = l.len;
	emit_hex(&l, m->root.v);
	text_pad(&l, at, W_ROOT);
	if (m->pid.has) {
		at = l.len;
		emit_u64(&l, m->pid.v);
		text_pad(&l, at, W_PID);
		emit_bytes(&l, o->f, m->comm.s, m->comm.n, emit_text_char);
	} else {
		text_cell(&l, "-", W_PID);
		emit_char(&l, '-');
	}
	if (m->same_frame_pages.has) {
		emit_str(&l, " (and the next ");
		emit_u64(&l, m->same_frame_pages.v - 1);
		emit_str(&l, " pages: one frame everywhere)");
	}
	if (m->name)
		emit_char(&l, ' ');
	text_name_rec(&l, m->name);
	text_put(o, &l);
}

static void text_bad(struct out *o, const void *rec)
{
	const struct ptov_bad_rec *b = rec;
	struct line l;
	l.len = 0;

	emit_str(&l, "not an address: '");
	emit_bytes(&l, o->f, b->input.s, b->input.n, emit_text_char);
	emit_char(&l, '\'');
	text_put(o, &l);
}

RECORD_TYPE(mapping_rec, "mapping", MAPPING_FIELDS, text_mapping);
RECORD_TYPE(ptov_bad_rec, "mapping", PTOV_BAD_FIELDS, text_bad);

static const struct rec_type *const ptov_types[] = {
	&mapping_rec_type, &ptov_bad_rec_type, NULL,
};

const struct rec_table ptov_table = {
	"pa,va,root,pid,comm,kind,page_size,level,flags,effective,"
	"same_frame_pages,input,reason,protnone",
	ptov_types, text_head,
};
