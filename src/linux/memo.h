/*
 * The inside of pgw_linux_kernel (kernel_memo.c): what one command has
 * read of the kernel, for the readers that share it (tasks.c, vmas.c,
 * root_task.c, root_cpu.c).
 */
#ifndef PGW_LINUX_MEMO_H
#define PGW_LINUX_MEMO_H

#include "pgwalk.h"

struct linux_kernel_facts;

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
	const struct linux_kernel_facts *hint;
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

/* The task list as pgw_linux_tasks_how reads it, from lk's kallsyms and
 * BTF (tasks.c); the caller frees *tasks_ret. */
enum pgw_status linux_tasks_read(struct pgw_linux_kernel *lk,
				 struct pgw_task **tasks_ret, size_t *n_ret,
				 struct pgw_tasks_how *how,
				 struct pgw_err *err);

#endif
