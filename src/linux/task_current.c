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

#define THREAD_SIZE_64 (UINT64_C(16) << 10)
#define THREAD_SIZE_32 (UINT64_C(8) << 10)

const char *pgw_current_by_key(enum pgw_current_by by)
{
	return by == PGW_CURRENT_STACK ? "stack" :
	       by == PGW_CURRENT_CR3 ? "cr3" : NULL;
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
		/* A task on two CPUs at once is no evidence of either. */
		if (i < 0 || tasks[i].has_current)
			continue;
		tasks[i].has_current = true;
		tasks[i].current_cpu = (uint32_t)c;
		tasks[i].current_by = by;
	}
	return with;
}
