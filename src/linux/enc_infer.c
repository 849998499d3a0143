/*
 * The C-bit of an SME host or SEV guest from the page tables alone (an
 * image without VMCOREINFO: raw, LiME, AVML, a kernel before 4.14).  Such
 * a kernel sets it in nearly every present entry (the direct map, the
 * kernel text, every table pointer; MMIO and the few pages it shares with
 * a device or the host go without), and it lies above the machine's
 * memory, so read as a frame bit it points every table beyond the image.
 * The test: in the top table and up to PGW_ENC_INFER_TABLES tables below
 * it, breadth first, one bit above the image's memory is set in at least
 * 7/8 of the present entries, no other such bit in half of them, and the
 * tables the entries point to, read without it, are in the image.  A
 * normal dump has no such bit (its tables lie in its memory, and the few
 * high MMIO mappings are far from 7/8); reserved garbage fails on the
 * second bit or on the tables.
 */
#include "linux.h"
#include "../walk/step.h"

#include <stdio.h>
#include <string.h>

/* Fewer present entries than this say nothing. */
#define MIN_ENTRIES 16

struct pending {
	uint64_t table;
	enum pgw_level lvl;
};

struct sample {
	struct pgw_image *img;
	const struct pgw_mode *mode;
	uint64_t cand_mask;        /* bits that could be the C-bit */
	struct pgw_enc_bits enc;   /* the candidate, with the caller's shared */
	uint64_t examined, agreed;
	uint64_t pointers, pointers_ok;
	unsigned count[64];        /* entries with each other candidate bit */
	unsigned tables;
	struct pending queue[PGW_ENC_INFER_TABLES];
	unsigned head, tail;
};

static uint64_t bit_range(unsigned lo, unsigned hi)
{
	if (hi <= lo)
		return 0;
	uint64_t top = hi >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << hi) - 1;
	return top & ~((UINT64_C(1) << lo) - 1);
}

static bool in_image(struct pgw_image *img, uint64_t pa)
{
	return pgw_image_page_state(img, pa >> PGW_PAGE_SHIFT) ==
	       PGW_ABSENT_NONE;
}

/* Count the present entries of one table and queue the tables they point
 * to (read without the candidate bit). */
static void sample_table(struct sample *s, uint64_t table, enum pgw_level lvl)
{
	const struct pgw_mode *mode = s->mode;
	unsigned n = 1u << mode->level[lvl].bits;
	enum pgw_level child = pgw_next_level(mode, lvl + 1);
	const uint8_t *page;
	struct pgw_err ignored;

	if (pgw_image_page(s->img, table >> PGW_PAGE_SHIFT, &page,
			   &ignored) != PGW_OK)
		return;
	s->tables++;
	page += table & (PGW_PAGE_SIZE - 1);
	for (unsigned i = 0; i < n; i++) {
		uint64_t raw;
		struct pgw_entry e;
		memcpy(&raw, page + (size_t)i * 8, 8);
		if (!(raw & 1))
			continue;
		s->examined++;
		s->agreed += (raw & s->enc.enc) != 0;
		for (uint64_t x = raw & s->cand_mask & ~s->enc.enc; x;
		     x &= x - 1)
			s->count[__builtin_ctzll(x)]++;
		mode->decode(mode, lvl, raw, &s->enc, &e);
		if (e.kind != PGW_ENT_TABLE || child >= PGW_NLEVELS)
			continue;
		/* Every table below is sampled, the bit's or not, so the
		 * entries without it count against it too. */
		bool with = (raw & s->enc.enc) != 0;
		s->pointers += with;
		if (!in_image(s->img, e.addr))
			continue;
		s->pointers_ok += with;
		if (s->tail < PGW_ENC_INFER_TABLES) {
			s->queue[s->tail].table = e.addr;
			s->queue[s->tail].lvl = child;
			s->tail++;
		}
	}
}

/* The bit set in most present entries of the top table (the lowest of a
 * tie); 0 when none is. */
static uint64_t top_table_bit(struct pgw_image *img,
			      const struct pgw_mode *mode, uint64_t table,
			      uint64_t cand_mask)
{
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	unsigned n = 1u << mode->level[top].bits, count[64] = { 0 };
	unsigned best = 0;
	const uint8_t *page;
	struct pgw_err ignored;

	if (pgw_image_page(img, table >> PGW_PAGE_SHIFT, &page, &ignored) !=
	    PGW_OK)
		return 0;
	page += table & (PGW_PAGE_SIZE - 1);
	for (unsigned i = 0; i < n; i++) {
		uint64_t raw;
		memcpy(&raw, page + (size_t)i * 8, 8);
		if (!(raw & 1))
			continue;
		for (uint64_t x = raw & cand_mask; x; x &= x - 1)
			count[__builtin_ctzll(x)]++;
	}
	for (unsigned b = 1; b < 64; b++)
		if (count[b] > count[best])
			best = b;
	return count[best] ? UINT64_C(1) << best : 0;
}

/* The top table cr3 names, in the image; a CR3 that carries the bit
 * names one beyond memory, and the one bit that brings it back is the
 * candidate (*root_bit). */
static bool find_root(struct pgw_image *img, const struct pgw_mode *mode,
		      uint64_t cr3, uint64_t cand_mask, uint64_t *table_ret,
		      uint64_t *root_bit, char *why, size_t n)
{
	uint64_t table = cr3 & mode->root_mask;
	uint64_t high = table & cand_mask;

	*root_bit = 0;
	if (!in_image(img, table)) {
		if ((high & (high - 1)) || !high ||
		    !in_image(img, table & ~high)) {
			snprintf(why, n, "its root table 0x%llx is not in "
				 "the image", (unsigned long long)table);
			return false;
		}
		*root_bit = high;
		table &= ~high;
	}
	*table_ret = table;
	return true;
}

/* Why sampling did not show one bit; false. */
static bool reject(const struct sample *s, char *why, size_t n)
{
	unsigned b = linux_enc_bit(s->enc.enc);

	for (unsigned k = 0; k < 64 && s->examined; k++)
		if (2 * (uint64_t)s->count[k] >= s->examined) {
			snprintf(why, n, "bits %u and %u are both set in most "
				 "present entries (%llu examined): no one "
				 "encryption bit", b < k ? b : k,
				 b < k ? k : b,
				 (unsigned long long)s->examined);
			return false;
		}
	if (s->examined < MIN_ENTRIES || 8 * s->agreed < 7 * s->examined)
		snprintf(why, n, "no bit above memory in nearly every present "
			 "entry (bit %u in %llu of %llu examined)", b,
			 (unsigned long long)s->agreed,
			 (unsigned long long)s->examined);
	else
		snprintf(why, n, "bit %u is set in %llu of %llu present "
			 "entries, but without it only %llu of the %llu "
			 "tables they point to are in the image", b,
			 (unsigned long long)s->agreed,
			 (unsigned long long)s->examined,
			 (unsigned long long)s->pointers_ok,
			 (unsigned long long)s->pointers);
	return false;
}

static bool accepted(const struct sample *s)
{
	for (unsigned k = 0; k < 64; k++)
		if (2 * (uint64_t)s->count[k] >= s->examined)
			return false;
	return s->examined >= MIN_ENTRIES &&
	       8 * s->agreed >= 7 * s->examined && s->pointers > 0 &&
	       8 * s->pointers_ok >= 7 * s->pointers;
}

static bool infer(struct pgw_image *img, const struct pgw_mode *mode,
		  uint64_t cr3, struct pgw_enc_choice *ch, char *why, size_t n)
{
	uint64_t top = pgw_mem_top(img), table, bit, root_bit;
	/* The lowest bit no address of the image's memory has. */
	unsigned low = top > 1 ? 64u - (unsigned)__builtin_clzll(top - 1) : 0;
	struct sample s = { .img = img, .mode = mode };

	if (mode->entry_size != 8 || !mode->hints.long_mode) {
		snprintf(why, n, "%s entries are not inferred (Linux encrypts "
			 "memory in long mode only)", mode->name);
		return false;
	}
	s.cand_mask = bit_range(low > 12 ? low : 12, 52) & ~ch->bits.shared;
	if (!s.cand_mask) {
		snprintf(why, n, "the image's memory reaches every bit of "
			 "the address field");
		return false;
	}
	cr3 &= ~ch->bits.shared;
	if (!find_root(img, mode, cr3, s.cand_mask, &table, &root_bit, why,
		       n))
		return false;
	bit = root_bit ? root_bit :
			 top_table_bit(img, mode, table, s.cand_mask);
	if (!bit) {
		snprintf(why, n, "no entry of root 0x%llx has a bit above the "
			 "image's memory (top 0x%llx)",
			 (unsigned long long)table, (unsigned long long)top);
		return false;
	}
	s.enc.enc = bit;
	s.enc.shared = ch->bits.shared;
	s.queue[s.tail].table = table;
	s.queue[s.tail++].lvl = pgw_next_level(mode, PGW_PGD);
	for (; s.head < s.tail; s.head++)
		sample_table(&s, s.queue[s.head].table, s.queue[s.head].lvl);
	ch->examined = s.examined;
	ch->agreed = s.agreed;
	if (!accepted(&s))
		return reject(&s, why, n);
	ch->bits.enc = bit;
	ch->source = PGW_ENC_INFERRED;
	snprintf(why, n, "C-bit %u (0x%llx) inferred: set in %llu of %llu "
		 "present entries of %u tables from root 0x%llx%s, above the "
		 "image's memory (top 0x%llx)", linux_enc_bit(bit),
		 (unsigned long long)bit, (unsigned long long)s.agreed,
		 (unsigned long long)s.examined, s.tables,
		 (unsigned long long)table, root_bit ? " (and in its CR3)" : "",
		 (unsigned long long)top);
	return true;
}

bool pgw_enc_infer(struct pgw_image *img, const struct pgw_mode *mode,
		   uint64_t cr3, struct pgw_enc_choice *ch)
{
	char why[sizeof(ch->why)];
	size_t k = strlen(ch->why);
	bool found;

	ch->examined = ch->agreed = 0;
	found = infer(img, mode, cr3, ch, why, sizeof(why));
	/* After what was declared ("no VMCOREINFO NUMBER(sme_mask)"). */
	if (k && k + 2 < sizeof(ch->why))
		snprintf(ch->why + k, sizeof(ch->why) - k, "; %.*s",
			 (int)(sizeof(ch->why) - k - 3), why);
	else
		snprintf(ch->why, sizeof(ch->why), "%s", why);
	return found;
}
