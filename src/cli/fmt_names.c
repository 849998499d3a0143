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

void text_name(struct line *l, const struct addr_name *nm)
{
	char sym[PGW_KSYM_NAME_MAX + 24];

	if (nm->has_symbol) {
		names_symbol_text(nm, sym, sizeof(sym));
		emit_lit(l, " symbol=");
		emit_text_strn(l, sym, sizeof(sym));
	}
	if (nm->path) {
		emit_lit(l, " path=");
		for (size_t i = 0; i < nm->path_len; i++)
			emit_text_char(l, (unsigned char)nm->path[i]);
		if (nm->path_truncated)
			emit_lit(l, "...(truncated)");
	}
	if (nm->has_file_offset) {
		emit_lit(l, " file_offset=");
		emit_hex(l, nm->file_offset);
	}
}
