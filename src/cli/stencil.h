/*
 * A record spelled once and then copied for leaf after leaf: dump --leaves
 * prints a line per 4 KiB page, millions of them, and a stretch of leaves
 * of one table differs only in va, end and pa.  While a stencil is set on
 * the output (out.stencil), fast_map (fast_rows.h) marks where it spells
 * those three numbers (stencil_hex); each next leaf's record is a copy
 * with that leaf's digits put there (stencil_plan, stencil_put).
 */
#ifndef PGW_STENCIL_H
#define PGW_STENCIL_H

#include "emit.h"

enum stencil_slot { ST_VA, ST_END, ST_PA, ST_NSLOTS };

struct stencil {
	struct line tmpl;           /* the first record, newline included */
	size_t at[ST_NSLOTS];       /* where each number's "0x" begins */
	size_t to[ST_NSLOTS];       /* and where its last digit ends */
	int digits[ST_NSLOTS];      /* at least this many digits (padding) */
	unsigned marked;            /* bit per slot marked */
	/* stencil_plan's, per slot: the bytes of its last 16 that are
	 * digits, its upper 8 digits already masked, and whether its digits
	 * fit in its last 8 bytes (an address first on a line has no 16) */
	uint64_t mask[ST_NSLOTS][2];
	uint64_t hi_digits[ST_NSLOTS];
	bool narrow[ST_NSLOTS];
};

/* emit_hex_min, marking where it went when building a stencil. */
static inline void stencil_hex(struct stencil *s, struct line *l,
			       enum stencil_slot slot, uint64_t v, int digits)
{
	if (s) {
		s->at[slot] = l->len;
		s->digits[slot] = digits;
	}
	emit_hex_min(l, v, digits);
	if (s) {
		s->to[slot] = l->len;
		s->marked |= 1u << slot;
	}
}

/* Whether the formatter marked all three numbers, in order. */
bool stencil_ready(const struct stencil *s);

/*
 * Ready stencil_put for the leaves whose numbers run from first to last
 * (ascending): true when every one of them is spelled with the template's
 * digits and upper 32 bits (then only the lower digits change).  False:
 * spell each record anew.
 */
bool stencil_plan(struct stencil *s, const uint64_t first[ST_NSLOTS],
		  const uint64_t last[ST_NSLOTS]);

/* The record again at the end of l with the numbers v (stencil_plan said
 * they fit): the template copied 32 bytes at a time (fixed-size copies
 * are moves; up to 31 bytes past the record are written too, inside l,
 * and overwritten by what follows) and each number's lower 8 digits
 * blended into its last 16 bytes (8 if narrow), from the template (never
 * read back from l: loading bytes just stored stalls), last slot first
 * (a window reaching back over the slot before is put right by that
 * slot). */
static inline void stencil_put(struct line *l, const struct stencil *s,
			       const uint64_t v[ST_NSLOTS])
{
	char *p = l->buf + l->len;

	for (size_t off = 0; off < s->tmpl.len; off += 32)
		memcpy(p + off, s->tmpl.buf + off, 32);
	for (int i = ST_NSLOTS - 1; i >= 0; i--) {
		uint64_t cur[2], lo = emit_hex8(v[i] & 0xffffffff);
		if (s->narrow[i]) {
			memcpy(cur, s->tmpl.buf + s->to[i] - 8, 8);
			cur[0] = (cur[0] & ~s->mask[i][1]) |
				 (lo & s->mask[i][1]);
			memcpy(p + s->to[i] - 8, cur, 8);
			continue;
		}
		memcpy(cur, s->tmpl.buf + s->to[i] - 16, 16);
		cur[0] = (cur[0] & ~s->mask[i][0]) | s->hi_digits[i];
		cur[1] = (cur[1] & ~s->mask[i][1]) | (lo & s->mask[i][1]);
		memcpy(p + s->to[i] - 16, cur, 16);
	}
	l->len += s->tmpl.len;
}

#endif
