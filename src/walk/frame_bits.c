/* Frame bits, found by asking the decoder (frame_bits.h). */
#include "frame_bits.h"
#include "step.h"

static bool same_entry(const struct pgw_entry *a, const struct pgw_entry *b)
{
	return a->raw == b->raw && a->kind == b->kind && a->addr == b->addr &&
	       a->flags == b->flags && a->pkey == b->pkey &&
	       a->reserved == b->reserved && a->perm == b->perm &&
	       a->np_kind == b->np_kind && a->np_pfn == b->np_pfn &&
	       a->swap_type == b->swap_type && a->swap_offset == b->swap_offset;
}

/* The bits of entries like e0 (raw0) at lvl that the decoder copies
 * into the frame address unchanged: flipping one flips that bit of addr
 * and nothing else. */
static uint64_t probe(const struct pgw_mode *mode,
		      const struct pgw_enc_bits *enc, enum pgw_level lvl,
		      uint64_t raw0, const struct pgw_entry *e0)
{
	unsigned top = mode->entry_size * 8;
	uint64_t bits = 0;

	for (unsigned b = PGW_PAGE_SHIFT; b < top && b < 52; b++) {
		uint64_t bit = UINT64_C(1) << b;
		struct pgw_entry e, want = *e0;
		if (pgw_classify(mode, enc, lvl, raw0 ^ bit, &e) !=
		    PGW_STOP_OK)
			continue;
		want.raw = raw0 ^ bit;
		want.addr = e0->addr ^ bit;
		if (same_entry(&e, &want))
			bits |= bit;
	}
	return bits;
}

uint64_t pgw_frame_bits_of(struct pgw_frame_bits_memo *m,
			   const struct pgw_mode *mode,
			   const struct pgw_enc_bits *enc, enum pgw_level lvl,
			   uint64_t raw, const struct pgw_entry *e)
{
	const unsigned mask = (1u << PGW_FRAME_BITS_SLOTS_LOG2) - 1;
	unsigned h = pgw_kind_hash(lvl, raw, PGW_FRAME_BITS_SLOTS_LOG2);
	uint64_t key = raw & PGW_FRAME_KEY_MASK;
	struct pgw_frame_bits_slot *f = &m->slot[h];

	for (unsigned k = 0; k < PGW_KIND_PROBES; k++) {
		struct pgw_frame_bits_slot *t = &m->slot[(h + k) & mask];
		if (t->mode == mode && t->lvl == lvl && t->key == key)
			return t->bits;
		if (!t->mode) {
			f = t;
			break;
		}
	}
	/* New, in an empty slot, else over the first one. */
	f->mode = mode;
	f->lvl = lvl;
	f->key = key;
	f->bits = probe(mode, enc, lvl, raw, e);
	return f->bits;
}

void pgw_entry_memo_keep(struct pgw_entry_memo *m, const struct pgw_mode *mode,
			 const struct pgw_enc_bits *enc, enum pgw_level lvl,
			 uint64_t raw, const struct pgw_entry *e)
{
	const unsigned mask = (1u << PGW_ENTRY_MEMO_SLOTS_LOG2) - 1;
	unsigned h = pgw_kind_hash(lvl, raw, PGW_ENTRY_MEMO_SLOTS_LOG2);
	struct pgw_entry_memo_slot *s = &m->slot[h];
	bool known = false;

	for (unsigned k = 0; k < PGW_KIND_PROBES; k++) {
		struct pgw_entry_memo_slot *t = &m->slot[(h + k) & mask];
		if (!t->used) {
			s = t;
			break;
		}
		if (t->lvl == lvl && !((raw ^ t->raw) & PGW_FRAME_KEY_MASK)) {
			s = t;
			known = true;   /* its kind: the bits are the kind's */
			break;
		}
	}
	if (!known)
		s->bits = probe(mode, enc, lvl, raw, e);
	s->used = true;
	s->lvl = lvl;
	s->raw = raw;
	s->e = *e;
}
