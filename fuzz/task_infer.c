/*
 * The task layout inferred without BTF (src/linux/task_infer.c) and the
 * task list read with it, on arbitrary physical memory.  Input layout
 * (little-endian):
 *
 *   0      mode index (modulo the number of modes)
 *   1..8   the kernel root (a top table's physical address)
 *   9..16  _stext (where the search for init_task's comm begins)
 *   17..   physical memory from 0
 *
 * The memory is a raw image given VMCOREINFO text naming _stext and, as
 * init_uts_ns, the end of memory past it: the window the kallsyms scan
 * (src/linux/kallsyms_scan.c) searches, through pgw_linux_tasks_how.  Seeds:
 * a small written kernel (tests/tools/pgw-linux-seeds).  Invariants: a
 * layout accepted has its fields inside the bound it gives, the list read
 * with it begins at init_task with pid 0 and holds distinct tasks; every
 * error carries a message.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exercise.h"
#include "../src/lib/bytes.h"

#define HDR 17
#define MAX_TASKS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_layout(const struct pgw_task_layout *l, unsigned ptr)
{
	const uint32_t end[] = {
		l->tasks + 2 * ptr, l->pid + 4, l->tgid + 4,
		l->comm + l->comm_size, l->flags + l->flags_size,
		l->mm + ptr, l->real_parent + ptr,
	};

	if (l->ptr_size != ptr || l->comm_size != 16)
		fz_fail("inferred layout: sizes", l->ptr_size, l->comm_size);
	for (size_t i = 0; i < sizeof(end) / sizeof(end[0]); i++)
		if (end[i] > l->task_size)
			fz_fail("inferred layout: a field past its bound", i,
				end[i]);
}

static void check_list(const struct pgw_space *sp, uint64_t init_task,
		       const struct pgw_task_layout *l)
{
	struct pgw_task *t = NULL;
	struct pgw_err err = { 0 };
	size_t n = 0;
	enum pgw_status st = pgw_linux_task_list(sp, init_task, l, MAX_TASKS,
						 &t, &n, &err);

	if (st != PGW_OK && !err.msg[0])
		fz_fail("task list error without message", st, n);
	if (n > MAX_TASKS)
		fz_fail("task list past max_tasks", n, MAX_TASKS);
	if (n && (t[0].task != init_task || t[0].pid != 0))
		fz_fail("task list does not begin at init_task", t[0].task,
			init_task);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (t[i].task == t[j].task)
				fz_fail("task list repeats a task", i, j);
	pgw_linux_tasks_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pgw_mode *const *modes = pgw_modes();
	size_t nmodes = 0;
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	char path[64], text[160];

	if (size <= HDR)
		return 0;
	while (modes[nmodes])
		nmodes++;
	const struct pgw_mode *mode = modes[data[0] % nmodes];
	uint64_t root = pgw_le64(data + 1), stext = pgw_le64(data + 9);
	struct pgw_image_open_opts opts = { .format = "raw" };
	int fd = fz_memfile(data + HDR, size - HDR, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (pgw_image_open(&img, path, &opts, &err) != PGW_OK) {
		close(fd);
		return 0;
	}
	int len = snprintf(text, sizeof(text), "OSRELEASE=fuzz\nPAGESIZE=4096\n"
			   "SYMBOL(_stext)=%llx\nSYMBOL(init_uts_ns)=%llx\n",
			   (unsigned long long)stext,
			   (unsigned long long)(stext + (size - HDR)));
	if (pgw_image_adopt_vmcoreinfo(img, text, (size_t)len, 0, &err) !=
	    PGW_OK)
		fz_fail("adopting VMCOREINFO text", err.status, 0);
	struct pgw_space sp = { img, mode, pgw_cr3_table(mode, root, NULL) };
	struct pgw_task_layout lay;
	uint64_t init_task = 0;
	char why[480] = "";
	enum pgw_status st = pgw_task_layout_infer(&sp, NULL, &init_task, &lay,
						   why, sizeof(why), &err);
	if (st == PGW_OK) {
		unsigned ptr = mode->va_bits > 32 ? 8 : 4;
		if (!why[0] || !init_task)
			fz_fail("inferred layout without why or init_task",
				init_task, 0);
		check_layout(&lay, ptr);
		check_list(&sp, init_task, &lay);
	} else if (!err.msg[0]) {
		fz_fail("inference error without message", st, 0);
	}
	struct pgw_task *t = NULL;
	size_t n = 0;
	struct pgw_tasks_how how;
	st = pgw_linux_tasks_how(&sp, &t, &n, &how, &err);
	if (st != PGW_OK && !err.msg[0])
		fz_fail("tasks error without message", st, n);
	pgw_linux_tasks_free(t);
	pgw_image_close(img);
	close(fd);
	return 0;
}
