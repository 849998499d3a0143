/*
 * Translate one virtual address: pgd -> p4d -> pud -> pmd -> pte, skipping
 * folded levels, recording every level it reads.
 */
#include "entry_read.h"

static enum pgw_stop stop(struct pgw_xlat *out, enum pgw_level lvl,
				 enum pgw_stop status)
{
	out->level = lvl;
	out->stop = status;
	return status;
}

enum pgw_stop pgw_translate(const struct pgw_space *space, uint64_t va,
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
		return stop(out, PGW_PGD, PGW_STOP_NONCANONICAL);

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
			return stop(out, lvl,
				    pgw_table_stop(pgw_mem_top(space->img),
						   table, st));
		mode->decode(mode, lvl, raw, &s->entry);
		const struct pgw_entry *e = &s->entry;
		if (e->kind == PGW_ENT_NOT_PRESENT)
			return stop(out, lvl, PGW_STOP_NOT_PRESENT);
		if (e->reserved)
			return stop(out, lvl, PGW_STOP_RESERVED);
		eff = pgw_eff_apply(eff, e->perm);
		if (e->kind == PGW_ENT_LEAF) {
			uint64_t size = pgw_level_span(mode, lvl);
			out->page_size = size;
			out->pa = e->addr | (va & (size - 1));
			out->eff_flags = eff;
			out->data_in_image = pgw_image_has_page(
				space->img, out->pa >> PGW_PAGE_SHIFT);
			return stop(out, lvl, PGW_STOP_OK);
		}
		table = e->addr;
	}
	/* Unreachable for a well-formed mode: the last level is a leaf. */
	return stop(out, PGW_PTE, PGW_STOP_BAD_LEAF);
}
