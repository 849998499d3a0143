/*
 * The cross-view of the roots a scan found and the kernel's task list:
 * each root's owners, the roots no task owns, the tasks whose root the
 * scan did not find, and why each of those is so.
 */
#include "../lib/err.h"
#include "kernel_half.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *reason;
	bool suspicious;
} orphans[PGW_NROOT_KINDS] = {
	[PGW_RK_KERNEL] = { "the kernel's own root belongs to init_mm, "
			    "which no task owns", false },
	[PGW_RK_PROCESS] = { "it maps user pages, yet no task on the "
			     "kernel's task list has it as mm->pgd: a "
			     "process unlinked from the list (hidden), an "
			     "mm being set up or torn down, or a list cut "
			     "short", true },
	[PGW_RK_EMPTY] = { "expected: a freed table, or one not yet "
			   "filled, belongs to no task", false },
	[PGW_RK_TABLES_ONLY] = { "expected: text_poke's poking_mm, or an "
				 "mm torn down, belongs to no task", false },
	[PGW_RK_SUPERVISOR_ONLY] = { "expected: an identity map "
				     "(trampoline_pgd, efi_mm, i386 "
				     "initial_page_table) belongs to no "
				     "task", false },
	[PGW_RK_KERNEL_IMAGE] = { "expected: a table inside the kernel "
				  "image (early boot tables) belongs to no "
				  "task", false },
	[PGW_RK_SHARED_TABLES] = { "a stale copy of another root's table, "
				   "sharing its user tables", false },
	[PGW_RK_BAD_USER_HALF] = { "its user half holds entries no kernel "
				   "writes, and no task owns it", true },
	[PGW_RK_FOREIGN] = { "a CPU runs on it, its kernel half is not the "
			     "kernel's, and no task owns it", true },
	[PGW_RK_UNVERIFIED] = { "its user half was not walked, and no task "
				"owns it", false },
};

const char *pgw_orphan_reason(enum pgw_root_kind kind, bool *suspicious_ret)
{
	bool known = (unsigned)kind < PGW_NROOT_KINDS;

	if (suspicious_ret)
		*suspicious_ret = known && orphans[kind].suspicious;
	return known ? orphans[kind].reason : "no task owns it";
}

bool pgw_roots_view_orphan(const struct pgw_roots_view *v, size_t i)
{
	return i > 0 && v->first_owner[i] == v->first_owner[i + 1];
}

bool pgw_roots_view_unowned(const struct pgw_roots_view *v,
			    const struct pgw_task *tasks, size_t i)
{
	return tasks[i].mm && v->task_root[i] < 0;
}

void pgw_roots_view_free(struct pgw_roots_view *v)
{
	if (!v)
		return;
	free(v->first_owner);
	free(v->owner);
	free(v->task_root);
	free(v);
}

static bool owned(const struct pgw_roots_view *v, size_t i)
{
	return v->first_owner[i] < v->first_owner[i + 1];
}

/*
 * The scan called a root sharing user tables with another a stale copy
 * unless a CPU ran on it; a task owning it says it is live as well.  The
 * one sharing with a live root that no task owns is no stale copy: live
 * processes do not share these tables, so it maps a live process's
 * memory from outside the task list.  (Each root's answer rests on its
 * own kind and on who owns what, which this does not change.)
 */
static void name_live(struct pgw_roots *roots,
		      const struct pgw_roots_view *v)
{
	for (size_t i = 1; i < roots->n; i++) {
		struct pgw_root_found *r = &roots->root[i];
		if (r->kind != PGW_RK_SHARED_TABLES || r->other >= roots->n)
			continue;
		if (!owned(v, i) && !owned(v, r->other))
			continue;
		uint64_t other = roots->root[r->other].table;
		r->kind = PGW_RK_PROCESS;
		if (owned(v, i))
			snprintf(r->why, sizeof(r->why), "its user half maps "
				 "user pages (a task owns it; root 0x%llx "
				 "uses its page tables too)",
				 (unsigned long long)other);
		else
			snprintf(r->why, sizeof(r->why), "its user half maps "
				 "user pages through page tables the live "
				 "root 0x%llx uses too (processes do not share "
				 "these): a process outside the task list",
				 (unsigned long long)other);
	}
}

enum pgw_status pgw_roots_view_build(struct pgw_roots *roots,
				     const struct pgw_task *tasks,
				     size_t ntasks,
				     struct pgw_roots_view **view_ret,
				     struct pgw_err *err)
{
	struct pgw_roots_view *v = calloc(1, sizeof(*v));

	*view_ret = NULL;
	if (!v ||
	    !(v->first_owner = calloc(roots->n + 1, sizeof(*v->first_owner))) ||
	    !(v->owner = calloc(ntasks ? ntasks : 1, sizeof(*v->owner))) ||
	    !(v->task_root = calloc(ntasks ? ntasks : 1,
				    sizeof(*v->task_root)))) {
		pgw_roots_view_free(v);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	v->nroots = roots->n;
	v->ntasks = ntasks;
	/* Count per root, then place: owners grouped by root, each group in
	 * task-list order. */
	for (size_t t = 0; t < ntasks; t++) {
		long r = tasks[t].mm && tasks[t].has_pgd_pa ?
				 pgw_roots_find(roots, tasks[t].pgd_pa) : -1;
		v->task_root[t] = r;
		if (r >= 0)
			v->first_owner[r + 1]++;
		else if (tasks[t].mm)
			v->nunowned++;
	}
	for (size_t i = 0; i < roots->n; i++)
		v->first_owner[i + 1] += v->first_owner[i];
	size_t *next = calloc(roots->n ? roots->n : 1, sizeof(*next));
	if (!next) {
		pgw_roots_view_free(v);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	for (size_t t = 0; t < ntasks; t++) {
		long r = v->task_root[t];
		if (r >= 0)
			v->owner[v->first_owner[r] + next[r]++] = t;
	}
	free(next);
	name_live(roots, v);
	for (size_t i = 1; i < roots->n; i++) {
		bool suspicious;
		if (!pgw_roots_view_orphan(v, i))
			continue;
		v->norphans++;
		pgw_orphan_reason(roots->root[i].kind, &suspicious);
		v->nsuspicious += suspicious;
	}
	*view_ret = v;
	return PGW_OK;
}

/* How much of the table's kernel half is the kernel root's. */
static void compare_kernel_half(struct pgw_image *img,
				const struct pgw_roots *roots, uint64_t table,
				char *why, size_t n)
{
	struct pgw_khalf *kh = malloc(sizeof(*kh));
	struct pgw_khalf_cmp cmp;
	uint8_t top[PGW_PAGE_SIZE];
	struct pgw_err e = { 0 };

	if (!kh || pgw_khalf_init(kh, img, roots->mode, &roots->enc,
				  roots->kernel_root, &e) != PGW_OK) {
		snprintf(why, n, "its top table 0x%llx was not found by the "
			 "scan (%s)", (unsigned long long)table,
			 kh ? e.msg : "out of memory");
		free(kh);
		return;
	}
	size_t bytes = (size_t)kh->nent * kh->esize;
	if (pgw_image_read(img, table, top, bytes, &e) != PGW_OK) {
		snprintf(why, n, "its top table 0x%llx cannot be read: %s",
			 (unsigned long long)table, e.msg);
	} else {
		pgw_khalf_compare(kh, table, top, &cmp);
		snprintf(why, n, "its top table 0x%llx shares %u of %u "
			 "kernel-half entries with the kernel root's (the "
			 "scan keeps tables that share at least half): a "
			 "kernel half of its own", (unsigned long long)table,
			 cmp.same, cmp.entries);
	}
	free(kh);
}

void pgw_unowned_reason(struct pgw_image *img, const struct pgw_roots *roots,
			const struct pgw_task *t, char *why, size_t n)
{
	if (!t->has_pgd_pa) {
		snprintf(why, n, "no root to find: %s", t->why);
		return;
	}
	enum pgw_absence a = pgw_image_page_state(img,
						  t->pgd_pa >> PGW_PAGE_SHIFT);
	if (a != PGW_ABSENT_NONE)
		snprintf(why, n, "its top table 0x%llx is not in the image "
			 "(%s)", (unsigned long long)t->pgd_pa,
			 pgw_absence_key(a));
	else if (!roots->scan.complete)
		snprintf(why, n, "its top table 0x%llx was not found: the "
			 "scan was cut short (%s)",
			 (unsigned long long)t->pgd_pa, roots->scan.why);
	else
		compare_kernel_half(img, roots, t->pgd_pa, why, n);
}
