/*
 * Translate one virtual address: pgd -> p4d -> pud -> pmd -> pte, skipping
 * folded levels, recording every level it reads.
 */
#include "entry_read.h"

const char *pgw_xlat_status_text(enum pgw_xlat_status status)
{
	static const char *const text[] = {
		[PGW_X_OK] = "ok",
		[PGW_X_NONCANONICAL] = "non-canonical address",
		[PGW_X_NOT_PRESENT] = "not present",
		[PGW_X_RESERVED] = "reserved bits set",
		[PGW_X_TABLE_NODATA] = "page table not in image",
		[PGW_X_BAD_LEAF] = "large page where the level allows none",
		[PGW_X_IO] = "read error",
	};
	return (unsigned)status < sizeof(text) / sizeof(text[0]) ?
		       text[status] : "unknown";
}

static enum pgw_xlat_status stop(struct pgw_xlat *out, enum pgw_level lvl,
				 enum pgw_xlat_status status)
{
	out->level = lvl;
	out->status = status;
	return status;
}

enum pgw_xlat_status pgw_translate(const struct pgw_space *space, uint64_t va,
				   struct pgw_xlat *out)
{
	const struct pgw_mode *mode = space->mode;
	uint64_t table = pgw_root_table(mode, space->root);
	uint32_t eff = PGW_EFF_START;

	out->va = va;
	out->pa = 0;
	out->page_size = 0;
	out->data_in_image = false;
	out->eff_flags = 0;
	out->nsteps = 0;
	out->io.status = PGW_OK;
	out->io.msg[0] = '\0';
	if (!pgw_mode_canonical(mode, va))
		return stop(out, PGW_PGD, PGW_X_NONCANONICAL);

	for (enum pgw_level lvl = PGW_PGD; lvl < PGW_NLEVELS; lvl++) {
		const struct pgw_level_desc *d = &mode->level[lvl];
		if (d->bits == 0)
			continue;  /* folded: the entry above passes through */
		struct pgw_step *s = &out->step[out->nsteps++];
		uint64_t raw;
		enum pgw_status st;

		s->level = lvl;
		s->table = table;
		s->index = (unsigned)((va >> d->shift) &
				      ((UINT64_C(1) << d->bits) - 1));
		s->entry_pa = table + (uint64_t)s->index * mode->entry_size;
		st = pgw_read_entry(space->img, s->entry_pa, mode->entry_size,
				    &raw, &out->io);
		s->read_ok = st == PGW_OK;
		if (st != PGW_OK)
			return stop(out, lvl, st == PGW_E_NODATA ?
					  PGW_X_TABLE_NODATA : PGW_X_IO);
		mode->decode(mode, lvl, raw, &s->entry);
		const struct pgw_entry *e = &s->entry;
		if (e->kind == PGW_ENT_NOT_PRESENT)
			return stop(out, lvl, PGW_X_NOT_PRESENT);
		if (e->reserved)
			return stop(out, lvl, PGW_X_RESERVED);
		eff = pgw_eff_apply(eff, e->perm);
		if (e->kind == PGW_ENT_LEAF) {
			uint64_t size = pgw_level_span(mode, lvl);
			out->page_size = size;
			out->pa = e->addr | (va & (size - 1));
			out->eff_flags = eff;
			uint64_t pfn = out->pa >> PGW_PAGE_SHIFT;
			out->data_in_image = pgw_image_page_state(
				space->img, pfn) == PGW_ABSENT_NONE;
			return stop(out, lvl, PGW_X_OK);
		}
		table = e->addr;
	}
	/* Unreachable for a well-formed mode: the last level is a leaf. */
	return stop(out, PGW_PTE, PGW_X_BAD_LEAF);
}
