/*
 * Translate one virtual address: pgd -> p4d -> pud -> pmd -> pte, skipping
 * folded levels, one pgw_step per level, recording every step.
 */
#include "../lib/err.h"
#include "descend.h"
#include "step.h"

/* Each step goes a level down or stops, so the loop ends. */
enum pgw_stop pgw_descend(const struct pgw_space *space, struct pgw_xlat *out,
			  enum pgw_level *lvl_ret, uint64_t table, uint32_t eff,
			  const uint8_t *page, uint64_t span,
			  struct pgw_entry_memo *memo)
{
	const struct pgw_mode *mode = space->mode;
	struct pgw_image *img = space->img;
	enum pgw_level lvl = *lvl_ret;
	enum pgw_stop why;
	enum pgw_level child;
	struct pgw_err err;

	for (;;) {
		struct pgw_step *s = &out->step[out->nsteps++];
		why = pgw_step_with(img, mode, &space->enc, lvl, table,
				    pgw_level_index(mode, lvl, out->va), page,
				    span, memo, s, &err);
		page = NULL;    /* the next table's page is read */
		if (!s->read_ok)
			out->table_absence = err.absence;
		if (why != PGW_STOP_OK)
			break;
		eff = pgw_perm_combine(mode, eff, s->entry.perm);
		if (s->entry.kind == PGW_ENT_LEAF) {
			pgw_xlat_found(space, out, lvl, s->entry.addr, eff);
			break;
		}
		why = pgw_child_level(mode, lvl, &child);
		if (why != PGW_STOP_OK)
			break;
		table = s->entry.addr;
		lvl = child;
	}
	*lvl_ret = lvl;
	return why;
}

enum pgw_stop pgw_translate_with(const struct pgw_space *space, uint64_t va,
				 struct pgw_xlat *out,
				 struct pgw_entry_memo *memo)
{
	const struct pgw_mode *mode = space->mode;
	enum pgw_level lvl = pgw_next_level(mode, PGW_PGD);
	enum pgw_stop why = pgw_outside_stop(mode);

	uint64_t root = pgw_root_of(space, va);

	pgw_xlat_reset(out, va);
	/* A half without a table faults at its top level, as with EPDn. */
	if (pgw_mode_canonical(mode, va))
		why = mode->root_select_bit && root == 0 ?
			      PGW_STOP_NOT_PRESENT :
			      pgw_descend(space, out, &lvl,
					  pgw_root_table(mode, root,
							 &space->enc),
					  pgw_perm_start(mode), NULL, 0,
					  memo);
	out->level = lvl;
	out->stop = why;
	return why;
}

enum pgw_status pgw_xlat_error(const struct pgw_space *space,
			       const struct pgw_xlat *x, struct pgw_err *err)
{
	if (x->stop != PGW_STOP_READ_ERROR &&
	    x->stop != PGW_STOP_TABLE_NOT_IN_IMAGE &&
	    x->stop != PGW_STOP_TABLE_BEYOND_MEMORY)
		return PGW_OK;
	/* The step that stopped is the last, and failed reading its
	 * table's page: the same read again. */
	const struct pgw_step *s = &x->step[x->nsteps - 1];
	const uint8_t *page;
	if (pgw_image_page(space->img, s->entry_pa >> PGW_PAGE_SHIFT, &page,
			   err) != PGW_OK)
		return err->status;
	return pgw_err_set(err, PGW_E_IO, "the %s table at 0x%llx could not "
			   "be read during the walk, but can now",
			   space->mode->level[s->level].name,
			   (unsigned long long)s->table);
}

void pgw_xlat_answer(const struct pgw_xlat *x, struct pgw_answer *a)
{
	const struct pgw_entry *e =
		x->nsteps ? &x->step[x->nsteps - 1].entry : NULL;

	*a = (struct pgw_answer){ .stop = x->stop, .level = x->level };
	switch (x->stop) {
	case PGW_STOP_OK:
		a->pa = x->pa;
		a->page_size = x->page_size;
		a->absence = x->data_absence;
		a->flags = e->flags;
		a->eff_flags = x->eff_flags;
		a->pkey = e->pkey;
		break;
	case PGW_STOP_TABLE_NOT_IN_IMAGE:
	case PGW_STOP_TABLE_BEYOND_MEMORY:
		a->absence = x->table_absence;
		break;
	case PGW_STOP_NOT_PRESENT:
		/* No step: a half of a two-root space without a table. */
		if (!e)
			break;
		a->np_kind = e->np_kind;
		if (e->np_kind == PGW_NP_PROTNONE) {
			a->np_pfn = e->np_pfn;
		} else if (pgw_np_kind_numbered(e->np_kind)) {
			a->swap_type = e->swap_type;
			a->swap_offset = e->swap_offset;
		}
		break;
	default:
		break;
	}
}
