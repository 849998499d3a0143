/*
 * The rules that compare roots rather than walk one: kernel-half entries
 * that are not the kernel root's (kernel-half-mismatch), and the
 * cross-view of roots and tasks (orphan-root, unowned-task).
 */
#include "../lib/err.h"
#include "check.h"
#include "../lib/grow.h"
#include "../lib/bytes.h"

#include <stdio.h>
#include <stdlib.h>

/* The VA a differing entry maps: PAE names a PDPTE, then entries of its
 * directory (the diff list keeps that order). */
static uint64_t diff_va(const struct pgw_mode *mode,
			const struct pgw_root_diff *d, unsigned *pdpte)
{
	uint64_t va;

	if (d->level == PGW_PGD)
		*pdpte = d->index;
	if (d->level == PGW_PMD)
		va = ((uint64_t)*pdpte << mode->level[PGW_PGD].shift) |
		     ((uint64_t)d->index << mode->level[PGW_PMD].shift);
	else
		va = (uint64_t)d->index << mode->level[d->level].shift;
	/* Canonical: the kernel half of x86-64 is sign-extended. */
	if ((mode->quirks & PGW_Q_CANONICAL) &&
	    (va >> (mode->va_bits - 1)) & 1)
		va |= ~((UINT64_C(1) << mode->va_bits) - 1);
	return va;
}

static enum pgw_status mismatches(struct pgw_check *ck, uint64_t root,
				  const struct pgw_root_diff *diffs,
				  unsigned nlisted, unsigned ndiffs,
				  const struct pgw_task *owner,
				  struct pgw_finding **found, size_t *n,
				  struct pgw_err *err)
{
	const struct pgw_mode *mode = ck->kernel.mode;
	unsigned pdpte = 0;
	enum pgw_status st;

	for (unsigned i = 0; i < nlisted; i++) {
		const struct pgw_root_diff *d = &diffs[i];
		uint64_t va = diff_va(mode, d, &pdpte);
		bool ldt = d->level == PGW_PGD && ck->ldt_index >= 0 &&
			   d->index == (unsigned)ck->ldt_index;
		if ((st = pgw_grow(found, *n, sizeof(**found), err)))
			return st;
		struct pgw_finding *f = &(*found)[(*n)++];
		*f = (struct pgw_finding){
			.rule = PGW_RULE_KERNEL_HALF,
			.severity = ldt ? PGW_SEV_INFO : PGW_SEV_HIGH,
			.has_range = true, .va = va,
			.end = va + pgw_level_span(mode, d->level),
			.has_root = true, .root = root, .owner = owner,
			.nevidence = 1,
		};
		f->evidence[0] = (struct pgw_evidence_entry){
			.level = d->level,
			.table = d->entry_pa & ~(PGW_PAGE_SIZE - 1),
			.index = d->index, .entry_pa = d->entry_pa,
			.entry = d->raw,
		};
		/* The kernel root's entry there, as its own walk reads it. */
		struct pgw_xlat x;
		pgw_translate(&ck->kernel, NULL, va, &x);
		for (unsigned s = 0; s < x.nsteps; s++)
			if (x.step[s].level == d->level && x.step[s].read_ok)
				f->evidence[f->nevidence++] =
					(struct pgw_evidence_entry){
						.level = d->level,
						.table = x.step[s].table,
						.index = x.step[s].index,
						.entry_pa = x.step[s].entry_pa,
						.entry = x.step[s].entry.raw,
					};
		snprintf(f->why, sizeof(f->why), "%s%s entry %u is 0x%llx "
			 "where the kernel root's is 0x%llx%s",
			 ldt ? "the LDT remap slot, a process's own by design "
			       "(modify_ldt): " : "",
			 mode->level[d->level].name, d->index,
			 (unsigned long long)d->raw,
			 (unsigned long long)d->kernel_raw,
			 i + 1 == nlisted && ndiffs > nlisted ?
				 " (more differ; the first listed)" : "");
	}
	return PGW_OK;
}

/*
 * Two roots (AArch64): the kernel half is the upper table's whole, which
 * every CPU shares (TTBR1 = swapper_pg_dir); a space whose upper table
 * is another differs wherever its entries do.  Each differing entry is
 * a finding with both entries as evidence.
 */
static enum pgw_status upper_half(struct pgw_check *ck,
				  const struct pgw_space *space,
				  const struct pgw_task *owner,
				  struct pgw_finding **found, size_t *n,
				  struct pgw_err *err)
{
	const struct pgw_mode *mode = space->mode;
	uint64_t theirs = space->root_upper, ours = ck->kernel.root_upper;
	enum pgw_level top = PGW_PGD;
	while (top + 1 < PGW_NLEVELS && mode->level[top].bits == 0)
		top++;
	unsigned shift = mode->level[top].shift;
	size_t nent = (size_t)1 << mode->level[top].bits;
	size_t bytes = nent * mode->entry_size;
	uint8_t *a = malloc(bytes), *b = malloc(bytes);
	enum pgw_status st = PGW_OK;

	if (!a || !b) {
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		goto out;
	}
	/* Both tops are in the image: the walks read them. */
	if ((st = pgw_image_read(space->img, theirs, a, bytes, err)) ||
	    (st = pgw_image_read(space->img, ours, b, bytes, err)))
		goto out;
	for (size_t i = 0; i < nent && !st; i++) {
		uint64_t e = pgw_le64(a + 8 * i), k = pgw_le64(b + 8 * i);
		if (e == k)
			continue;
		uint64_t va = ck->kernel_start + ((uint64_t)i << shift);
		if ((st = pgw_grow(found, *n, sizeof(**found), err)))
			break;
		struct pgw_finding *f = &(*found)[(*n)++];
		*f = (struct pgw_finding){
			.rule = PGW_RULE_KERNEL_HALF, .severity = PGW_SEV_HIGH,
			.has_range = true, .va = va,
			.end = va + ((uint64_t)1 << shift), .has_root = true,
			.root = theirs, .owner = owner, .nevidence = 2,
		};
		f->evidence[0] = (struct pgw_evidence_entry){
			.level = top, .table = theirs, .index = (unsigned)i,
			.entry_pa = theirs + 8 * i, .entry = e,
		};
		f->evidence[1] = (struct pgw_evidence_entry){
			.level = top, .table = ours, .index = (unsigned)i,
			.entry_pa = ours + 8 * i, .entry = k,
		};
		snprintf(f->why, sizeof(f->why), "upper table 0x%llx's %s "
			 "entry %zu is 0x%llx where the kernel's (0x%llx) is "
			 "0x%llx", (unsigned long long)theirs,
			 mode->level[top].name, i, (unsigned long long)e,
			 (unsigned long long)ours, (unsigned long long)k);
	}
out:
	free(a);
	free(b);
	return st;
}

enum pgw_status check_kernel_half(struct pgw_check *ck,
				  const struct pgw_space *space,
				  const struct pgw_task *owner,
				  struct pgw_finding **found, size_t *n,
				  struct pgw_err *err)
{
	if (space->mode->root_select_bit)
		return space->root_upper &&
		       space->root_upper != ck->kernel.root_upper ?
			       upper_half(ck, space, owner, found, n, err) :
			       PGW_OK;

	uint8_t top[PGW_PAGE_SIZE];
	struct pgw_khalf_cmp cmp;
	struct pgw_pti pti;
	uint64_t root = space->root;

	/* A PTI user copy maps little of the kernel by design (diff --pti
	 * shows what): its kernel copy is the one that must match. */
	pgw_pti_check(space->img, space->mode, &space->enc, root, &pti);
	if (pti.is_user_root)
		root = pti.kernel_table;
	if (root == ck->kernel.root)
		return PGW_OK;
	uint64_t page = root & ~(PGW_PAGE_SIZE - 1);
	/* The root's top table is in the image: the walk read it. */
	if (pgw_image_read(space->img, page, top, sizeof(top), err))
		return err->status;
	pgw_khalf_compare(&ck->kh, root, top + (root - page), &cmp);
	return mismatches(ck, root, cmp.diff, cmp.nlisted, cmp.ndiffs, owner,
			  found, n, err);
}

bool pgw_check_kind(enum pgw_root_kind kind)
{
	static const bool walked[PGW_NROOT_KINDS] = {
		[PGW_RK_KERNEL] = true, [PGW_RK_PROCESS] = true,
		[PGW_RK_SHARED_TABLES] = true, [PGW_RK_BAD_USER_HALF] = true,
		[PGW_RK_FOREIGN] = true, [PGW_RK_UNVERIFIED] = true,
	};

	return (unsigned)kind < PGW_NROOT_KINDS && walked[kind];
}

static const struct pgw_task *first_owner(const struct pgw_roots_view *view,
					  const struct pgw_task *tasks,
					  size_t i)
{
	if (!view || view->first_owner[i] == view->first_owner[i + 1])
		return NULL;
	return &tasks[view->owner[view->first_owner[i]]];
}

static enum pgw_status cross_view(struct pgw_check *ck,
				  const struct pgw_roots *roots,
				  const struct pgw_task *tasks,
				  const struct pgw_roots_view *view,
				  struct pgw_finding **found, size_t *n,
				  struct pgw_err *err)
{
	enum pgw_status st;

	for (size_t i = 0; i < roots->n; i++) {
		const struct pgw_root_found *r = &roots->root[i];
		bool suspicious;
		if (!pgw_roots_view_orphan(view, i))
			continue;
		const char *why = pgw_orphan_reason(r->kind, &suspicious);
		if ((st = pgw_grow(found, *n, sizeof(**found), err)))
			return st;
		struct pgw_finding *f = &(*found)[(*n)++];
		*f = (struct pgw_finding){
			.rule = PGW_RULE_ORPHAN,
			.severity = suspicious ? PGW_SEV_HIGH : PGW_SEV_INFO,
			.has_root = true, .root = r->table,
		};
		snprintf(f->why, sizeof(f->why), "no task owns this %s root: "
			 "%s", pgw_root_kind_key(r->kind), why);
	}
	for (size_t t = 0; t < view->ntasks; t++) {
		if (!pgw_roots_view_unowned(view, tasks, t))
			continue;
		if ((st = pgw_grow(found, *n, sizeof(**found), err)))
			return st;
		struct pgw_finding *f = &(*found)[(*n)++];
		*f = (struct pgw_finding){
			.rule = PGW_RULE_UNOWNED, .severity = PGW_SEV_MEDIUM,
			.has_root = tasks[t].has_pgd_pa,
			.root = tasks[t].pgd_pa, .owner = &tasks[t],
		};
		pgw_unowned_reason(ck->kernel.img, roots, &tasks[t], f->why,
				   sizeof(f->why));
	}
	return PGW_OK;
}

enum pgw_status pgw_check_roots(struct pgw_check *ck,
				const struct pgw_roots *roots,
				const struct pgw_task *tasks,
				const struct pgw_roots_view *view,
				pgw_finding_fn fn, void *arg,
				struct pgw_err *err)
{
	struct pgw_finding *found = NULL;
	size_t n = 0;
	enum pgw_status st = PGW_OK;

	for (size_t i = 0; i < roots->n && !st; i++) {
		const struct pgw_root_found *r = &roots->root[i];
		if (r->table == roots->kernel_root || !pgw_check_kind(r->kind))
			continue;
		/* No root differs: no list (an offset on NULL is UB). */
		const struct pgw_root_diff *d = r->ndiffs_listed ?
						roots->diffs + r->diff : NULL;
		st = mismatches(ck, r->table, d, r->ndiffs_listed, r->ndiffs,
				first_owner(view, tasks, i), &found, &n, err);
	}
	if (!st && view)
		st = cross_view(ck, roots, tasks, view, &found, &n, err);
	if (!st)
		st = check_emit(found, n, false, fn, arg, err);
	free(found);
	return st;
}
