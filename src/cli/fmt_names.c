/* An address's name in JSON, CSV/TSV and text (name_cells.h). */
#include "delim_cells.h"
#include "name_cells.h"

void json_name(struct line *l, const struct addr_name *nm)
{
	char sym[PGW_KSYM_NAME_MAX + 24];

	if (nm->has_symbol) {
		names_symbol_text(nm, sym, sizeof(sym));
		emit_lit(l, ",\"symbol\":\"");
		emit_json_str(l, sym);
		emit_char(l, '"');
	}
	if (nm->path) {
		emit_lit(l, ",\"path\":\"");
		for (size_t i = 0; i < nm->path_len; i++)
			emit_json_char(l, (unsigned char)nm->path[i]);
		emit_char(l, '"');
		if (nm->path_truncated)
			emit_lit(l, ",\"path_truncated\":true");
	}
	if (nm->has_file_offset) {
		emit_lit(l, ",\"file_offset\":\"");
		emit_hex(l, nm->file_offset);
		emit_char(l, '"');
	}
}

void delim_name(struct line *l, const struct delim *d,
		const struct addr_name *nm)
{
	char sym[PGW_KSYM_NAME_MAX + 24];

	if (nm && nm->has_symbol) {
		names_symbol_text(nm, sym, sizeof(sym));
		text(l, d, sym);
	} else {
		empty(l, d, 1);
	}
	if (nm && nm->path)
		bytes_cell(l, d, nm->path, nm->path_len);
	else
		empty(l, d, 1);
	if (nm && nm->has_file_offset)
		hex(l, d, nm->file_offset);
	else
		empty(l, d, 1);
	if (nm && nm->path_truncated)
		word(l, d, "true");
	else
		empty(l, d, 1);
}

RECORD_TYPE(name_rec, "name", NAME_FIELDS, NULL);

/* nm as a name_rec (its symbol spelled in nm). */
static const struct name_rec *rec_of(struct addr_name *nm,
				     struct name_rec *r)
{
	if (nm->has_symbol)
		names_symbol_text(nm, nm->symbol, sizeof(nm->symbol));
	*r = (struct name_rec){
		.symbol = nm->has_symbol ? nm->symbol : NULL,
		.path = { nm->path, nm->path_len },
		.file_offset = { nm->file_offset, nm->has_file_offset },
		.path_truncated = { true, nm->path_truncated },
	};
	return r;
}

const struct name_rec *name_rec_of(const struct out *o, int32_t pid,
				   uint64_t va, struct addr_name *nm,
				   struct name_rec *r)
{
	return out_name(o, pid, va, nm) ? rec_of(nm, r) : NULL;
}

void text_name(struct line *l, struct addr_name *nm)
{
	struct name_rec r;

	text_name_rec(l, rec_of(nm, &r));
}

void text_name_rec(struct line *l, const struct name_rec *r)
{
	if (!r)
		return;
	if (r->symbol) {
		emit_lit(l, " symbol=");
		emit_text_strn(l, r->symbol, PGW_KSYM_NAME_MAX + 24);
	}
	if (r->path.s) {
		emit_lit(l, " path=");
		for (size_t i = 0; i < r->path.n; i++)
			emit_text_char(l, (unsigned char)r->path.s[i]);
		if (r->path_truncated.has)
			emit_lit(l, "...(truncated)");
	}
	if (r->file_offset.has) {
		emit_lit(l, " file_offset=");
		emit_hex(l, r->file_offset.v);
	}
}
