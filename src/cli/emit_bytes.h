/*
 * Raw bytes from the image (a comm) written as the output contract says:
 * in text, printable ASCII passes and every other byte is \xNN, the
 * backslash \\ (TSV: a tab \t, a newline \n); in JSON, printable ASCII but `"` and `\` passes and every
 * other byte is \u00NN (the bytes read as Latin-1: valid JSON, and
 * reversible).  Nothing an image holds reaches a terminal unescaped.
 */
#ifndef PGW_EMIT_BYTES_H
#define PGW_EMIT_BYTES_H

#include "emit.h"

static inline void emit_text_bytes(struct line *l, const uint8_t *p,
				   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\\') {
			emit_str(l, "\\\\");
		} else if (p[i] >= 0x20 && p[i] < 0x7f) {
			emit_char(l, (char)p[i]);
		} else {
			emit_str(l, "\\x");
			emit_char(l, "0123456789abcdef"[p[i] >> 4]);
			emit_char(l, "0123456789abcdef"[p[i] & 0xf]);
		}
	}
}

/* TSV: as text, but a tab and a newline as \t and \n, so that a cell
 * never holds one and reads back as the contract spells it. */
static inline void emit_tsv_bytes(struct line *l, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\t')
			emit_str(l, "\\t");
		else if (p[i] == '\n')
			emit_str(l, "\\n");
		else
			emit_text_bytes(l, p + i, 1);
	}
}

static inline void emit_json_bytes(struct line *l, const uint8_t *p,
				   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '"' || p[i] == '\\') {
			emit_char(l, '\\');
			emit_char(l, (char)p[i]);
		} else if (p[i] >= 0x20 && p[i] < 0x7f) {
			emit_char(l, (char)p[i]);
		} else {
			emit_str(l, "\\u00");
			emit_char(l, "0123456789abcdef"[p[i] >> 4]);
			emit_char(l, "0123456789abcdef"[p[i] & 0xf]);
		}
	}
}

#endif
