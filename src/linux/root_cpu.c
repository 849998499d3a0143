/*
 * A CPU's address space when its notes carry no root register: arm64,
 * whose NT_PRSTATUS (QEMU's, the kernel's) holds x0-x30, sp, pc and
 * pstate but no TTBR.  The task list says which task runs on the CPU
 * (on_cpu set, cpu = N); TTBR0 holds that task's mm->pgd, or for a
 * kernel thread the mm it borrowed (active_mm: the lazy TLB switch
 * leaves TTBR0 alone).  The registers are the check: a CPU stopped in
 * EL0 runs a user task whose tables map its pc; a CPU in EL1 runs on
 * the task's kernel stack unless an interrupt moved it, which is said.
 */
#include "../lib/err.h"
#include "../lib/bytes.h"
#include "linux.h"

#include <stdio.h>
#include <string.h>

/* Pids listed when several tasks claim a CPU. */
#define MAX_LISTED 8

/* arm64 kernel stacks are at most 64 KiB (THREAD_SHIFT 16 on 64 KiB
 * pages, 14 or 15 elsewhere). */
#define STACK_MAX (64u * 1024)

/* The one task the list says runs on cpu, or why not. */
static enum pgw_status running_on(const struct pgw_task *t, size_t n,
				  unsigned cpu, const char *incomplete,
				  size_t *pick_ret, struct pgw_err *err)
{
	size_t found = 0, len = 0;
	char pids[MAX_LISTED * 12 + 8] = "";

	if (n && (!t[0].has_on_cpu || !t[0].has_cpu))
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "--cpu=%u: the task layout has no "
				   "task_struct.on_cpu and cpu, which say "
				   "what runs where", cpu);
	for (size_t i = 0; i < n; i++) {
		if (!t[i].on_cpu || t[i].cpu != cpu)
			continue;
		if (found++ == 0)
			*pick_ret = i;
		if (found <= MAX_LISTED)
			len += (size_t)snprintf(pids + len, sizeof(pids) - len,
						"%s%d", found > 1 ? ", " : "",
						t[i].pid);
	}
	if (found == 1)
		return PGW_OK;
	if (found > 1)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "--cpu=%u: %zu tasks of the kernel's list "
				   "say they run on CPU %u (pids %s%s): a dump "
				   "taken mid-switch, or a damaged list", cpu,
				   found, cpu, pids,
				   found > MAX_LISTED ? ", ..." : "");
	return pgw_err_set(err, PGW_E_NOTFOUND,
			   "--cpu=%u: none of the %zu tasks of the kernel's "
			   "list runs on CPU %u%s (the list holds each "
			   "process's first thread and CPU 0's idle task; "
			   "another thread, or another CPU's idle task, is "
			   "not in it): give --ttbr0, --pid or --comm", cpu,
			   n, cpu, incomplete);
}

/* The physical address of the pgd of the mm at `mm`. */
static enum pgw_status mm_pgd(const struct pgw_space *kernel,
			      const struct pgw_task_layout *lay, uint64_t mm,
			      uint64_t *pgd_ret, uint64_t *pa_ret,
			      struct pgw_err *err)
{
	uint8_t w[8] = { 0 };
	struct pgw_xlat x;

	if (pgw_read_virt(kernel, mm + lay->mm_pgd, w, lay->ptr_size, NULL,
			  err) != PGW_OK)
		return pgw_err_prefix(err, "mm 0x%llx: pgd",
				      (unsigned long long)mm);
	*pgd_ret = pgw_le64(w);
	if (pgw_translate(kernel, NULL, *pgd_ret, &x) != PGW_STOP_OK)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "mm 0x%llx: pgd 0x%llx does not translate "
				   "(%s)", (unsigned long long)mm,
				   (unsigned long long)*pgd_ret,
				   pgw_stop_text(x.stop));
	*pa_ret = x.pa;
	return PGW_OK;
}

/*
 * What the registers say of the task picked: appended to why (size n),
 * or an error when they contradict it.  lower: the task's table.
 */
static enum pgw_status check_regs(const struct pgw_space *kernel,
				  const struct pgw_arm64_regs *r,
				  const struct pgw_task *t, uint64_t lower,
				  unsigned cpu, char *why, size_t n,
				  struct pgw_err *err)
{
	unsigned el = PGW_ARM64_PSTATE_EL(r->pstate);
	size_t len = strlen(why);
	struct pgw_xlat x;

	if (el == 0) {
		/* The lower half alone: EL0 runs nothing above it. */
		struct pgw_space user = *kernel;
		user.root = lower;
		user.root_upper = 0;
		if (!t->mm ||
		    pgw_translate(&user, NULL, r->pc, &x) != PGW_STOP_OK)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "--cpu=%u: the CPU is in EL0 at pc "
					   "0x%llx, which the tables of pid %d, "
					   "the task the list runs there, do "
					   "not map: the notes and the task "
					   "list disagree", cpu,
					   (unsigned long long)r->pc, t->pid);
		snprintf(why + len, n - len, "; EL0 at pc 0x%llx, mapped "
			 "there", (unsigned long long)r->pc);
	} else if (t->stack && r->sp - t->stack < STACK_MAX) {
		snprintf(why + len, n - len, "; EL%u, sp 0x%llx in its "
			 "kernel stack", el, (unsigned long long)r->sp);
	} else {
		snprintf(why + len, n - len, "; EL%u, sp 0x%llx not in its "
			 "kernel stack%s", el, (unsigned long long)r->sp,
			 t->stack ? " (an interrupt or overflow stack)" :
				    " (no task_struct.stack to compare)");
	}
	return PGW_OK;
}

enum pgw_status linux_cpu_task_root(struct pgw_linux_kernel *lk,
				    const struct pgw_space *kernel,
				    unsigned cpu, struct pgw_root *root,
				    struct pgw_err *err)
{
	const struct pgw_arm64_regs *regs;
	size_t nregs = pgw_image_arm64_regs(kernel->img, &regs);
	const struct pgw_task *tasks;
	const struct pgw_tasks_how *how;
	char incomplete[240];
	char comm[4 * PGW_TASK_COMM_MAX + 1];
	size_t n, i = 0;
	uint64_t mm, pgd = 0, pa = 0;

	if (nregs == 0)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "--cpu=%u: the image has no CPU registers "
				   "(no NT_PRSTATUS note)", cpu);
	if (cpu >= nregs)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "--cpu=%u: the image has AArch64 registers "
				   "(NT_PRSTATUS) for %zu CPU%s", cpu, nregs,
				   nregs == 1 ? "" : "s");
	char what[64];
	snprintf(what, sizeof(what), "--cpu=%u (the notes carry no TTBR)",
		 cpu);
	enum pgw_status st = linux_root_tasks(lk, kernel, what, &tasks, &n,
					      &how, incomplete,
					      sizeof(incomplete), err);
	if (st != PGW_OK)
		return st;
	st = running_on(tasks, n, cpu, incomplete, &i, err);
	const struct pgw_task *t = &tasks[i];
	mm = st == PGW_OK ? (t->mm ? t->mm : t->active_mm) : 0;
	if (st == PGW_OK) {
		linux_escape_comm(comm, sizeof(comm), t->comm,
				      t->comm_len);
		if (!mm)
			st = pgw_err_set(err, PGW_E_NOTFOUND,
					 "--cpu=%u: pid %d (%s) runs there, a "
					 "kernel thread with no mm%s", cpu,
					 t->pid, comm, how->layout.active_mm ?
					 " borrowed (active_mm is NULL)" :
					 ", and the task layout has no "
					 "active_mm to say which it borrowed");
		else
			st = mm_pgd(kernel, &how->layout, mm, &pgd, &pa, err);
	}
	if (st == PGW_OK) {
		root->source = PGW_ROOT_CPU;
		root->cpu = (int)cpu;
		root->pid = t->pid;
		memcpy(root->comm, t->comm, sizeof(root->comm));
		root->comm_len = t->comm_len;
		root->table = root->cr3 = pa;
		snprintf(root->why, sizeof(root->why),
			 "CPU %u runs pid %d (%.32s) by the task list (%s); "
			 "%s->pgd 0x%llx", cpu, t->pid, comm,
			 pgw_tasks_method_key(how->method),
			 t->mm ? "mm" : "active_mm", (unsigned long long)pgd);
		st = check_regs(kernel, &regs[cpu], t, pa, cpu, root->why,
				sizeof(root->why), err);
	}
	return st;
}
