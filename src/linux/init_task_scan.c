/*
 * init_task without kallsyms' data symbols (a kernel built without
 * CONFIG_KALLSYMS_ALL, as Debian's arm64 ones are): the idle task of CPU
 * 0 is a static variable in the kernel image's data, whose comm
 * sched_init's init_idle set to "swapper/0", whose pid and tgid are 0,
 * and whose tasks list runs through every process and back to it.  The
 * image is read from _stext (VMCOREINFO) on, a page at a time, for the
 * name at the task layout's comm offset; each place where it stands is
 * kept only if the list walk from it comes back (pgw_linux_task_list).
 */
#include "../lib/err.h"
#include "linux.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel image's data lies within this distance of _stext. */
#define IMAGE_SPAN (UINT64_C(128) << 20)
/* Candidates walked at most (each a bounded list walk). */
#define MAX_CANDIDATES 16

static const char idle_comm[] = "swapper/0";

/* Does the task at va look like CPU 0's idle task (pid 0, tgid 0, comm
 * NUL-terminated)? */
static bool idle_task(const struct pgw_space *kernel,
		      const struct pgw_task_layout *lay, uint64_t va)
{
	uint32_t pid, tgid;
	char c;
	struct pgw_err e;

	return pgw_read_virt(kernel, va + lay->pid, &pid, 4, NULL, &e) ==
		       PGW_OK &&
	       pgw_read_virt(kernel, va + lay->tgid, &tgid, 4, NULL, &e) ==
		       PGW_OK &&
	       pgw_read_virt(kernel, va + lay->comm + sizeof(idle_comm) - 1,
			     &c, 1, NULL, &e) == PGW_OK &&
	       pid == 0 && tgid == 0 && c == '\0';
}

enum pgw_status linux_init_task_scan(const struct pgw_space *kernel,
				     const struct pgw_task_layout *lay,
				     uint64_t *va_ret, struct pgw_err *err)
{
	uint64_t stext, tried = 0;
	uint8_t page[PGW_PAGE_SIZE + sizeof(idle_comm)];

	if (!pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(_stext)", &stext))
		return pgw_err_set(err, PGW_E_NOTFOUND, "no init_task found "
				   "by scan: VMCOREINFO has no _stext");
	for (uint64_t va = stext & ~(PGW_PAGE_SIZE - 1);
	     va - stext < IMAGE_SPAN && tried < MAX_CANDIDATES;
	     va += PGW_PAGE_SIZE) {
		size_t got = 0;
		struct pgw_err e;
		/* The page and the name's length after it: a name that
		 * straddles two pages is found in the first. */
		(void)pgw_read_virt(kernel, va, page, sizeof(page), &got, &e);
		for (size_t off = 0; off + sizeof(idle_comm) <= got; off++) {
			const uint8_t *hit = memchr(page + off, 's',
						    got - off);
			if (!hit || (size_t)(hit - page) >= PGW_PAGE_SIZE)
				break;
			off = (size_t)(hit - page);
			if (memcmp(hit, idle_comm, sizeof(idle_comm)) != 0)
				continue;
			uint64_t task = va + off - lay->comm;
			/* init_task is cache-line aligned. */
			if (task % 64 || !idle_task(kernel, lay, task))
				continue;
			tried++;
			struct pgw_task *t = NULL;
			size_t n = 0;
			enum pgw_status st = pgw_linux_task_list(
				kernel, task, lay, 0, &t, &n, &e);
			pgw_linux_tasks_free(t);
			if (st == PGW_OK && n > 1) {
				*va_ret = task;
				return PGW_OK;
			}
		}
	}
	return pgw_err_set(err, PGW_E_NOTFOUND, "no init_task found by scan "
			   "(%llu candidate%s named %s within %llu MiB of "
			   "_stext)", (unsigned long long)tried,
			   tried == 1 ? "" : "s", idle_comm,
			   (unsigned long long)(IMAGE_SPAN >> 20));
}
