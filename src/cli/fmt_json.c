/*
 * JSON Lines: one object per address.  Field names are stable and
 * documented in man/pgwalk.1.
 */
#include "emit.h"
#include "output.h"

static void json_entry_detail(struct line *l, const struct pgw_entry *e)
{
	if (e->kind == PGW_ENT_NOT_PRESENT) {
		emit_str(l, ",\"non_present\":{\"kind\":\"");
		emit_str(l, out_np_kind_name(e->np_kind));
		emit_char(l, '"');
		if (e->np_kind == PGW_NP_PROTNONE) {
			emit_str(l, ",\"pfn\":\"");
			emit_hex(l, e->np_pfn);
			emit_char(l, '"');
		} else if (e->np_kind != PGW_NP_NONE &&
			   e->np_kind != PGW_NP_OTHER) {
			emit_str(l, ",\"swap_type\":");
			emit_u64(l, e->swap_type);
			emit_str(l, ",\"swap_offset\":\"");
			emit_hex(l, e->swap_offset);
			emit_char(l, '"');
		}
		emit_char(l, '}');
		return;
	}
	emit_str(l, ",\"flags\":[");
	emit_flags(l, e->flags, ",", "\"");
	emit_char(l, ']');
	if (e->pkey) {
		emit_str(l, ",\"pkey\":");
		emit_u64(l, e->pkey);
	}
	if (e->reserved) {
		emit_str(l, ",\"reserved\":\"");
		emit_hex(l, e->reserved);
		emit_char(l, '"');
	}
}

static void json_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_str(&l, "{\"va\":\"");
	emit_hex(&l, x->va);
	if (x->status == PGW_X_OK) {
		const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
		emit_str(&l, "\",\"pa\":\"");
		emit_hex(&l, x->pa);
		emit_str(&l, "\",\"size\":");
		emit_u64(&l, x->page_size);
		emit_str(&l, ",\"level\":\"");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_str(&l, "\",\"flags\":[");
		emit_flags(&l, e->flags, ",", "\"");
		emit_str(&l, "],\"effective\":[");
		emit_flags(&l, x->eff_flags, ",", "\"");
		emit_str(&l, x->data_in_image ? "],\"in_image\":true" :
						 "],\"in_image\":false");
	} else {
		emit_str(&l, "\",\"pa\":null,\"error\":\"");
		emit_str(&l, pgw_xlat_status_text(x->status));
		emit_str(&l, "\",\"level\":\"");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_char(&l, '"');
	}
	emit_str(&l, ",\"levels\":[");
	for (unsigned i = 0; i < x->nsteps; i++) {
		const struct pgw_step *s = &x->step[i];
		if (i)
			emit_char(&l, ',');
		emit_str(&l, "{\"level\":\"");
		emit_str(&l, out_level_name(o->mode, s->level));
		emit_str(&l, "\",\"table\":\"");
		emit_hex(&l, s->table);
		emit_str(&l, "\",\"index\":");
		emit_u64(&l, s->index);
		emit_str(&l, ",\"entry_pa\":\"");
		emit_hex(&l, s->entry_pa);
		if (s->read_ok) {
			emit_str(&l, "\",\"entry\":\"");
			emit_hex(&l, s->entry.raw);
			emit_char(&l, '"');
			json_entry_detail(&l, &s->entry);
		} else {
			emit_str(&l, "\",\"entry\":null");
		}
		emit_char(&l, '}');
	}
	emit_str(&l, "]}\n");
	fwrite(l.buf, 1, l.len, o->f);
}

static void json_bad(struct out *o, const char *text)
{
	struct line l;

	l.len = 0;

	emit_str(&l, "{\"input\":\"");
	/* Echo only characters that need no JSON escaping. */
	for (const char *p = text; *p && l.len < 200; p++)
		if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
			emit_char(&l, *p);
	emit_str(&l, "\",\"va\":null,\"pa\":null,\"error\":\"not an "
		     "address\"}\n");
	fwrite(l.buf, 1, l.len, o->f);
}

const struct formatter fmt_json = {
	.name = "json",
	.xlat = json_xlat,
	.bad_addr = json_bad,
};
