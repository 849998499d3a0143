/*
 * Which task each CPU was running, by the registers the dump saved, not
 * by what the tasks say of themselves (on_cpu can lag a context switch,
 * and the inferred layout has no such field).  A CPU in kernel mode runs
 * on its task's kernel stack; one in user mode runs on its task's page
 * tables.  The other CPUs' idle tasks are on no task list: a CPU idling
 * there marks nothing.
 */
#include "linux.h"
#include "pgwalk.h"

#include <stdlib.h>

#define THREAD_SIZE_64 (UINT64_C(16) << 10)
#define THREAD_SIZE_32 (UINT64_C(8) << 10)

const char *pgw_current_by_key(enum pgw_current_by by)
{
	return by == PGW_CURRENT_STACK ? "stack" :
	       by == PGW_CURRENT_CR3 ? "cr3" :
	       by == PGW_CURRENT_USER_PC ? "user-pc" : NULL;
}

/* The one task whose kernel stack holds sp: its index, or -1. */
static long by_stack(const struct pgw_task *tasks, size_t n, uint64_t sp,
		     uint64_t thread_size)
{
	long found = -1;

	for (size_t i = 0; i < n; i++) {
		if (!tasks[i].stack || sp < tasks[i].stack ||
		    sp - tasks[i].stack >= thread_size)
			continue;
		if (found >= 0)
			return -1;
		found = (long)i;
	}
	return found;
}

/* The task whose root cr3 is: the only one, or of the threads sharing
 * it the only one that says it is on this CPU; else -1. */
static long by_cr3(const struct pgw_space *kernel, const struct pgw_task *tasks,
		   size_t n, uint64_t cr3, uint32_t cpu)
{
	const struct pgw_mode *mode = kernel->mode;
	uint64_t pti = mode->va_bits > 32 ? LINUX_PTI_USER_BIT : 0;
	uint64_t root = cr3 & mode->root_mask & ~pti;
	long found = -1, on = -1;
	size_t sharing = 0, saying = 0;

	for (size_t i = 0; i < n; i++) {
		if (!tasks[i].has_pgd_pa || (tasks[i].pgd_pa & ~pti) != root)
			continue;
		sharing++;
		found = (long)i;
		if (tasks[i].has_on_cpu && tasks[i].on_cpu &&
		    tasks[i].has_cpu && tasks[i].cpu == cpu) {
			saying++;
			on = (long)i;
		}
	}
	return sharing == 1 ? found : saying == 1 ? on : -1;
}

/* The one task i of `of` (the tasks that fit the registers), or of
 * them the only one that says it is on cpu; else -1. */
static long one_or_on_cpu(const struct pgw_task *tasks, const long *of,
			  size_t nof, uint32_t cpu)
{
	long on = -1;
	size_t saying = 0;

	if (nof == 1)
		return of[0];
	for (size_t k = 0; k < nof; k++) {
		const struct pgw_task *t = &tasks[of[k]];
		if (t->has_on_cpu && t->on_cpu && t->has_cpu && t->cpu == cpu) {
			saying++;
			on = of[k];
		}
	}
	return saying == 1 ? on : -1;
}

/* Whether the lower half of root maps va (EL0 reaches nothing above). */
static bool user_maps(const struct pgw_space *kernel, uint64_t root,
		      uint64_t va)
{
	struct pgw_space user = *kernel;
	struct pgw_xlat x;

	user.root = root;
	user.root_upper = 0;
	return pgw_translate(&user, NULL, va, &x) == PGW_STOP_OK;
}

/*
 * An AArch64 CPU in EL0: the notes hold no TTBR0, so the task is one
 * whose tables map both the pc and the stack pointer.  Processes forked
 * from one another map the same addresses, and threads share their
 * tables: among several, the one that says it is on this CPU.
 */
static long by_user_pc(const struct pgw_space *kernel,
		       const struct pgw_task *tasks, size_t n,
		       const struct pgw_arm64_regs *r, uint32_t cpu)
{
	long *of = malloc(n * sizeof(*of));
	size_t nof = 0;
	long found;

	if (!of)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (tasks[i].mm && tasks[i].has_pgd_pa &&
		    user_maps(kernel, tasks[i].pgd_pa, r->pc) &&
		    user_maps(kernel, tasks[i].pgd_pa, r->sp))
			of[nof++] = (long)i;
	found = nof ? one_or_on_cpu(tasks, of, nof, cpu) : -1;
	free(of);
	return found;
}

/* Marks task i as running on cpu, unless another CPU already has it: a
 * task on two CPUs at once is no evidence of either. */
static void mark(struct pgw_task *tasks, long i, uint32_t cpu,
		 enum pgw_current_by by)
{
	if (i < 0 || tasks[i].has_current)
		return;
	tasks[i].has_current = true;
	tasks[i].current_cpu = cpu;
	tasks[i].current_by = by;
}

/*
 * AArch64: QEMU's NT_PRSTATUS holds the stack pointer of the CPU's EL
 * and pstate, no TTBR.  In EL1 the stack pointer lies in the task's
 * kernel stack: THREAD_SIZE is 16 KiB, or the page where pages are
 * 64 KiB (THREAD_SHIFT follows PAGE_SHIFT there, for vmapped stacks).
 */
static size_t arm64_current(const struct pgw_space *kernel,
			    struct pgw_task *tasks, size_t n,
			    const struct pgw_arm64_regs *regs, size_t nregs)
{
	uint64_t thread_size = THREAD_SIZE_64;

	if (kernel->mode->hints.granule > thread_size)
		thread_size = kernel->mode->hints.granule;
	for (size_t c = 0; c < nregs; c++) {
		if (PGW_ARM64_PSTATE_EL(regs[c].pstate) == 0)
			mark(tasks, by_user_pc(kernel, tasks, n, &regs[c],
					       (uint32_t)c),
			     (uint32_t)c, PGW_CURRENT_USER_PC);
		else
			mark(tasks, by_stack(tasks, n, regs[c].sp,
					     thread_size),
			     (uint32_t)c, PGW_CURRENT_STACK);
	}
	return nregs;
}

size_t pgw_linux_task_current(const struct pgw_space *kernel,
			      const struct pgw_task_layout *lay,
			      struct pgw_task *tasks, size_t n)
{
	const struct pgw_prstatus *ps;
	const struct pgw_cpu *cpus;
	size_t nps = pgw_image_prstatus(kernel->img, &ps);
	size_t ncpus = pgw_image_cpus(kernel->img, &cpus);
	size_t with = 0;
	uint64_t thread_size = lay->ptr_size == 8 ? THREAD_SIZE_64 :
						    THREAD_SIZE_32;

	const struct pgw_arm64_regs *a64;
	size_t na64 = pgw_image_arm64_regs(kernel->img, &a64);

	if (na64)
		return arm64_current(kernel, tasks, n, a64, na64);

	for (size_t c = 0; c < nps || c < ncpus; c++) {
		bool regs = c < nps && ps[c].has_regs;
		bool cr3 = c < ncpus && cpus[c].has_cr;
		/* The privilege level: NT_PRSTATUS's cs, else QEMU's. */
		bool cs = regs || (c < ncpus && cpus[c].has_cs);
		uint32_t sel = regs ? ps[c].cs : cs ? cpus[c].cs_selector : 0;
		long i = -1;
		enum pgw_current_by by = PGW_CURRENT_STACK;

		with += regs || cr3;
		if (!cs)
			continue;
		if ((sel & 3) == 0 && regs)
			i = by_stack(tasks, n, ps[c].sp, thread_size);
		else if ((sel & 3) == 3 && cr3) {
			i = by_cr3(kernel, tasks, n, cpus[c].cr3, (uint32_t)c);
			by = PGW_CURRENT_CR3;
		}
		mark(tasks, i, (uint32_t)c, by);
	}
	return with;
}
