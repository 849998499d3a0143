/*
 * The BTF reader on an arbitrary blob (the input): libbpf's parse, member
 * lookups through anonymous structs and unions, and the task layout for
 * 8- and 4-byte kernels, and struct module's layout for the module walk.
 * Seeds: task_struct, mm_struct and list_head cut
 * from the real x86-64 dumps' BTF, and written ones (tests/tools/
 * pgw-linux-seeds).  Invariants: errors carry a message; a layout that is
 * accepted can be read (every field inside its struct, sizes the walk
 * reads); the scan's header check agrees with what it claims.
 */
#include <string.h>

#include "exercise.h"
#include "linux/kernel_btf.h"
#include "linux/modules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_layout(const struct pgw_task_layout *l, unsigned ptr)
{
	const uint64_t end[] = {
		(uint64_t)l->tasks + 2 * ptr, (uint64_t)l->pid + 4,
		(uint64_t)l->tgid + 4, (uint64_t)l->comm + l->comm_size,
		(uint64_t)l->flags + l->flags_size, (uint64_t)l->mm + ptr,
	};

	for (size_t i = 0; i < sizeof(end) / sizeof(end[0]); i++)
		if (end[i] > l->task_size)
			fz_fail("task layout: a field past task_struct", i,
				end[i]);
	if (l->ptr_size != ptr || l->comm_size > PGW_TASK_COMM_MAX ||
	    l->comm_size == 0 || (l->flags_size != 4 && l->flags_size != 8) ||
	    l->list_next + ptr > 2 * ptr)
		fz_fail("task layout: sizes", l->comm_size, l->flags_size);
}

/* An accepted module layout can be read: every field inside the span
 * read, the span inside one read's buffer. */
static void check_module_layout(const struct module_layout *l, unsigned ptr)
{
	if (l->span > 65536 || l->name_size == 0 ||
	    l->name_size > PGW_MODULE_NAME_MAX ||
	    l->nranges > PGW_MODULE_RANGES_MAX || l->ptr_size != ptr)
		fz_fail("module layout: sizes", l->span, l->nranges);
	const uint64_t end[] = {
		(uint64_t)l->list_next + ptr, (uint64_t)l->list_prev + ptr,
		(uint64_t)l->name + l->name_size, (uint64_t)l->state + 4,
	};
	for (size_t i = 0; i < sizeof(end) / sizeof(end[0]); i++)
		if (end[i] > l->span)
			fz_fail("module layout: a field past the span", i,
				end[i]);
	for (unsigned i = 0; i < l->nranges; i++)
		if ((uint64_t)l->range[i].base + ptr > l->span ||
		    (uint64_t)l->range[i].size + 4 > l->span ||
		    !l->range[i].kind)
			fz_fail("module layout: a range past the span", i,
				l->span);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const members[][2] = {
		{ "task_struct", "tasks" }, { "task_struct", "pid" },
		{ "task_struct", "comm" }, { "task_struct", "bits" },
		{ "mm_struct", "pgd" }, { "list_head", "next" },
		{ "loop", "x" }, { "task_struct", "" },
	};
	struct pgw_kernel_btf *kb;
	struct pgw_err err = { 0 };
	uint64_t total;

	if (pgw_btf_header_plausible(data, size, &total) &&
	    total > PGW_KERNEL_BTF_MAX)
		fz_fail("BTF header: plausible beyond the bound", total, 0);
	if (pgw_kernel_btf_from_blob(data, size, &kb, &err) != PGW_OK) {
		if (!err.msg[0] || kb)
			fz_fail("BTF error without message", err.status, 0);
		return 0;
	}
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		struct pgw_btf_member m;
		err.msg[0] = '\0';
		if (pgw_kernel_btf_member(kb, members[i][0], members[i][1], &m,
					  &err) != PGW_OK && !err.msg[0])
			fz_fail("BTF member error without message", i, 0);
	}
	for (unsigned ptr = 4; ptr <= 8; ptr += 4) {
		struct pgw_task_layout l;
		err.msg[0] = '\0';
		if (pgw_task_layout_btf(kb, ptr, &l, &err) == PGW_OK)
			check_layout(&l, ptr);
		else if (!err.msg[0])
			fz_fail("task layout error without message", ptr, 0);
	}
	for (unsigned ptr = 4; ptr <= 8; ptr += 4) {
		struct module_layout ml;
		err.msg[0] = '\0';
		if (linux_module_layout_btf(kb, ptr, &ml, &err) == PGW_OK)
			check_module_layout(&ml, ptr);
		else if (!err.msg[0])
			fz_fail("module layout error without message", ptr, 0);
	}
	struct pgw_kernel_btf_info info;
	pgw_kernel_btf_info(kb, &info);
	if (info.size != size)
		fz_fail("BTF info size", info.size, size);
	pgw_kernel_btf_close(kb);
	return 0;
}
