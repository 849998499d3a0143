/*
 * The inside of pgw_linux_kernel (kernel_memo.c): what one command has
 * read of the kernel, for the readers that share it (tasks.c, vmas.c,
 * root_task.c, root_cpu.c).
 */
#ifndef PGW_LINUX_MEMO_H
#define PGW_LINUX_MEMO_H

#include "pgwalk.h"

struct pgw_linux_kernel {
	bool bound;
	struct pgw_space kernel;     /* what everything is read through */
	bool ks_tried, kb_tried, tasks_tried;
	enum pgw_status ks_st, kb_st, tasks_st;
	struct pgw_err ks_err, kb_err, tasks_err;
	struct pgw_kallsyms *ks;
	struct pgw_kernel_btf *kb;
	struct pgw_task *tasks;
	size_t ntasks;
	struct pgw_tasks_how how;
	const struct pgw_kernel_facts *hint;
	struct pgw_kernel_hint_use use;
	bool have_found;
	struct pgw_kernel_facts found;  /* what the next command is given */
};

/* Read through kernel from now on (the first space given stays: see
 * kernel_memo.c); the space everything is read through. */
const struct pgw_space *linux_kernel_bind(struct pgw_linux_kernel *lk,
					  const struct pgw_space *kernel);
/* Each read once, then the same answer (status and err included); the
 * results stay lk's.  linux_kernel_btf finds BTF with kallsyms when it
 * opened, else without. */
enum pgw_status linux_kernel_kallsyms(struct pgw_linux_kernel *lk,
				      const struct pgw_kallsyms **ks_ret,
				      struct pgw_err *err);
enum pgw_status linux_kernel_btf(struct pgw_linux_kernel *lk,
				 const struct pgw_kernel_btf **kb_ret,
				 struct pgw_err *err);
const struct pgw_task *linux_kernel_tasks(struct pgw_linux_kernel *lk,
					  size_t *n_ret,
					  const struct pgw_tasks_how **how_ret,
					  enum pgw_status *st,
					  struct pgw_err *err);

/* The task list from lk's hint, when every check holds (kernel_facts.c):
 * true with *tasks_ret (the caller's) and how; else false, why in
 * lk->use.why_not. */
bool linux_kernel_tasks_hinted(struct pgw_linux_kernel *lk,
			       struct pgw_task **tasks_ret, size_t *n_ret,
			       struct pgw_tasks_how *how);
/* After a whole read: lk->found from its kallsyms, BTF and how, when
 * they can be a hint. */
void linux_kernel_facts_note(struct pgw_linux_kernel *lk);
/* Does a list hold to what every kernel's does (see pgw_kernel_facts)? */
bool linux_tasks_plausible(const struct pgw_task *t, size_t n,
			   char *why, size_t size);

/* The task list as pgw_linux_tasks_how reads it, from lk's kallsyms and
 * BTF (tasks.c); the caller frees *tasks_ret. */
enum pgw_status linux_tasks_read(struct pgw_linux_kernel *lk,
				 struct pgw_task **tasks_ret, size_t *n_ret,
				 struct pgw_tasks_how *how,
				 struct pgw_err *err);

#endif
