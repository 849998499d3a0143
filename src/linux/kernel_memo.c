/*
 * The kernel's metadata read once per command (pgw_linux_kernel):
 * kallsyms, BTF and the task list, each read when first asked for and
 * kept, with how it went, until the memo is freed.  A --pid command asks
 * for the task list to choose its root and again to name addresses; the
 * second ask is the memo's answer, not a second parse.
 */
#include "../lib/err.h"
#include "memo.h"

#include <stdlib.h>
#include <string.h>

enum pgw_status pgw_linux_kernel_new(struct pgw_linux_kernel **lk_ret,
				     struct pgw_err *err)
{
	*lk_ret = calloc(1, sizeof(**lk_ret));
	return *lk_ret ? PGW_OK : pgw_err_set(err, PGW_E_NOMEM,
					      "the kernel's metadata");
}

/* Everything read, dropped (the memo stays, unbound). */
static void forget(struct pgw_linux_kernel *lk)
{
	pgw_kernel_btf_close(lk->kb);
	pgw_kallsyms_close(lk->ks);
	pgw_linux_tasks_free(lk->tasks);
	const struct pgw_kernel_facts *hint = lk->hint;
	memset(lk, 0, sizeof(*lk));
	lk->hint = hint;
}

void pgw_linux_kernel_free(struct pgw_linux_kernel *lk)
{
	if (!lk)
		return;
	forget(lk);
	free(lk);
}

/* Kernel memory reads alike through every root of one kernel: the first
 * space given is kept; another image, mode or encryption starts over. */
const struct pgw_space *linux_kernel_bind(struct pgw_linux_kernel *lk,
					  const struct pgw_space *kernel)
{
	if (lk->bound && (lk->kernel.img != kernel->img ||
			  lk->kernel.mode != kernel->mode ||
			  memcmp(&lk->kernel.enc, &kernel->enc,
				 sizeof(kernel->enc))))
		forget(lk);
	if (!lk->bound) {
		lk->kernel = *kernel;
		lk->bound = true;
	}
	return &lk->kernel;
}

enum pgw_status linux_kernel_kallsyms(struct pgw_linux_kernel *lk,
				      const struct pgw_kallsyms **ks_ret,
				      struct pgw_err *err)
{
	if (!lk->ks_tried) {
		lk->ks_tried = true;
		lk->ks_st = pgw_kallsyms_open(&lk->kernel, &lk->ks,
					      &lk->ks_err);
	}
	*ks_ret = lk->ks;
	if (lk->ks_st != PGW_OK)
		*err = lk->ks_err;
	return lk->ks_st;
}

enum pgw_status linux_kernel_btf(struct pgw_linux_kernel *lk,
				 const struct pgw_kernel_btf **kb_ret,
				 struct pgw_err *err)
{
	if (!lk->kb_tried) {
		const struct pgw_kallsyms *ks;
		struct pgw_err e;
		lk->kb_tried = true;
		if (linux_kernel_kallsyms(lk, &ks, &e) != PGW_OK)
			ks = NULL;
		lk->kb_st = pgw_kernel_btf_open(&lk->kernel, ks, &lk->kb,
						&lk->kb_err);
	}
	*kb_ret = lk->kb;
	if (lk->kb_st != PGW_OK)
		*err = lk->kb_err;
	return lk->kb_st;
}

const struct pgw_task *linux_kernel_tasks(struct pgw_linux_kernel *lk,
					  size_t *n_ret,
					  const struct pgw_tasks_how **how_ret,
					  enum pgw_status *st,
					  struct pgw_err *err)
{
	if (!lk->tasks_tried) {
		lk->tasks_tried = true;
		if (lk->hint && linux_kernel_tasks_hinted(lk, &lk->tasks,
							  &lk->ntasks,
							  &lk->how)) {
			lk->tasks_st = PGW_OK;
		} else {
			lk->tasks_st = linux_tasks_read(lk, &lk->tasks,
							&lk->ntasks, &lk->how,
							&lk->tasks_err);
			if (lk->tasks_st == PGW_OK)
				linux_kernel_facts_note(lk);
		}
	}
	*n_ret = lk->ntasks;
	*st = lk->tasks_st;
	if (how_ret)
		*how_ret = &lk->how;
	if (lk->tasks_st != PGW_OK && err)
		*err = lk->tasks_err;
	return lk->tasks;
}

const struct pgw_task *pgw_linux_kernel_tasks(struct pgw_linux_kernel *lk,
					      const struct pgw_space *kernel,
					      size_t *n_ret,
					      struct pgw_tasks_how *how_ret,
					      enum pgw_status *st,
					      struct pgw_err *err)
{
	const struct pgw_tasks_how *how;

	linux_kernel_bind(lk, kernel);
	const struct pgw_task *t = linux_kernel_tasks(lk, n_ret, &how, st,
						      err);
	if (how_ret)
		*how_ret = *how;
	return t;
}

enum pgw_status pgw_linux_kernel_kallsyms(struct pgw_linux_kernel *lk,
					  const struct pgw_space *kernel,
					  const struct pgw_kallsyms **ks_ret,
					  struct pgw_err *err)
{
	linux_kernel_bind(lk, kernel);
	return linux_kernel_kallsyms(lk, ks_ret, err);
}
