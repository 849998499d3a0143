/*
 * Flag words for every format, remembered: building "present|rw|nx" name
 * by name costs more than the rest of a translate row, and a batch of a
 * million addresses holds a few dozen combinations.  A small
 * direct-mapped table of spelled-out combinations, per separator and
 * quote.
 */
#include "emit.h"

#define NMEMO 64

struct spelled {
	uint64_t key;          /* flags | sep << 16 | quote << 24 | 1 << 32;
				  0: empty */
	uint8_t len;
	char s[PGW_NFLAGS * 12];   /* the longest name, quoted, and a sep */
};

static _Thread_local struct spelled memo[NMEMO];

/* Spelled out once, name by name. */
static void spell(struct line *l, uint32_t flags, char sep, char quote)
{
	bool first = true;

	for (unsigned b = 0; b < PGW_NFLAGS; b++) {
		if (!(flags & (1u << b)))
			continue;
		if (!first && sep)
			emit_char(l, sep);
		if (quote)
			emit_char(l, quote);
		emit_str(l, pgw_flag_name(b));
		if (quote)
			emit_char(l, quote);
		first = false;
	}
}

void emit_flags(struct line *l, uint32_t flags, const char *sep,
		const char *quote)
{
	/* The key is never 0: bit 32 marks it (flags fit in PGW_NFLAGS =
	 * 16 bits). */
	uint64_t key = (flags & 0xffff) | UINT64_C(1) << 32 |
		       (uint64_t)(uint8_t)sep[0] << 16 |
		       (uint64_t)(uint8_t)quote[0] << 24;
	struct spelled *m = &memo[(key * UINT64_C(0x9e3779b97f4a7c15)) >> 58];

	if (m->key != key) {
		struct line tmp;
		tmp.len = 0;
		spell(&tmp, flags, sep[0], quote[0]);
		if (tmp.len > sizeof(m->s)) {   /* cannot be, but spell on */
			emit_mem(l, tmp.buf, tmp.len);
			return;
		}
		memcpy(m->s, tmp.buf, tmp.len);
		m->len = (uint8_t)tmp.len;
		m->key = key;
	}
	emit_mem(l, m->s, m->len);
}
