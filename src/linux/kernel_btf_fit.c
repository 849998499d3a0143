/*
 * How well a BTF blob found by scanning fits the image: memory may hold
 * more than one blob describing task_struct (6.12 keeps a stale copy of
 * .BTF; a forged one may lie anywhere), and without __start_BTF nothing
 * says which is the kernel's.  A blob fits when its task_struct reads,
 * from init_task, a task list that the image proves: init_task's comm
 * "swapper" and pid 0, a ring that comes back to it.  Among blobs that
 * fit, the one under which more tasks' mm->pgd is a page table of the
 * image has more evidence; what each reads is summed up so that blobs
 * which read the same list can be told from blobs which disagree.
 */
#include "../lib/err.h"
#include "kernel_btf.h"
#include "linux.h"

#include <stdio.h>
#include <string.h>

/* FNV-1a over a task's fields, in order: equal sums, equal lists. */
static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h;
}

static uint64_t task_sum(uint64_t h, const struct pgw_task *t)
{
	h = mix(h, &t->task, sizeof(t->task));
	h = mix(h, &t->pid, sizeof(t->pid));
	h = mix(h, &t->tgid, sizeof(t->tgid));
	h = mix(h, &t->ppid, sizeof(t->ppid));
	h = mix(h, t->comm, t->comm_len);
	h = mix(h, &t->kthread, sizeof(t->kthread));
	h = mix(h, &t->mm, sizeof(t->mm));
	h = mix(h, &t->pgd_pa, sizeof(t->pgd_pa));
	h = mix(h, &t->state, sizeof(t->state));
	h = mix(h, &t->cpu, sizeof(t->cpu));
	return mix(h, &t->start_time, sizeof(t->start_time));
}

/* init_task: kallsyms', else the swapper/0 task the layout finds. */
static enum pgw_status init_task_of(const struct pgw_space *kernel,
				    const struct pgw_kallsyms *ks,
				    const struct pgw_task_layout *lay,
				    uint64_t *va, struct pgw_err *err)
{
	if (ks && pgw_kallsyms_lookup(ks, "init_task", va, NULL, err) ==
			  PGW_OK)
		return PGW_OK;
	return linux_init_task_scan(kernel, lay, va, err);
}

void linux_btf_fit(const struct pgw_space *kernel,
		   const struct pgw_kallsyms *ks,
		   const struct pgw_kernel_btf *kb, struct linux_btf_fit *fit)
{
	struct pgw_task_layout lay;
	struct pgw_task *tasks = NULL;
	struct pgw_err err = { 0 };
	uint64_t init_task = 0;
	size_t n = 0;
	enum pgw_status st;

	memset(fit, 0, sizeof(*fit));
	st = pgw_task_layout_btf(kb, kernel->mode->va_bits > 32 ? 8 : 4, &lay,
				 &err);
	if (st == PGW_OK)
		st = init_task_of(kernel, ks, &lay, &init_task, &err);
	if (st == PGW_OK)
		st = pgw_linux_task_list(kernel, init_task, &lay, 0, &tasks,
					 &n, &err);
	if (st != PGW_OK) {
		snprintf(fit->why, sizeof(fit->why), "%.119s", err.msg);
	} else if (n == 0 || tasks[0].pid != 0 || tasks[0].comm_len < 7 ||
		   memcmp(tasks[0].comm, "swapper", 7) != 0) {
		snprintf(fit->why, sizeof(fit->why), "init_task 0x%llx is no "
			 "swapper with pid 0 under it",
			 (unsigned long long)init_task);
	} else {
		fit->fits = true;
		fit->tasks = n;
		fit->sum = UINT64_C(0xcbf29ce484222325);
		for (size_t i = 0; i < n; i++) {
			fit->roots += tasks[i].has_pgd_pa;
			fit->sum = task_sum(fit->sum, &tasks[i]);
		}
	}
	pgw_linux_tasks_free(tasks);
}
