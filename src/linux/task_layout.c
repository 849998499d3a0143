/*
 * Where the task-list walk finds what it reads, from BTF: a table of the
 * members it needs, each with the shape and size the walk assumes, so a
 * kernel whose types differ is refused instead of misread.
 */
#include "../lib/err.h"
#include "pgwalk.h"

#include <stddef.h>

/* The structs the walk reads, whose sizes bound their members. */
enum owner { TASK, LIST, MM, NOWNERS };
static const char *const owner_names[NOWNERS] = {
	[TASK] = "task_struct", [LIST] = "list_head", [MM] = "mm_struct",
};

/* Accepted sizes: ANY, LIST_HEAD (two pointers), or bytes.  A pointer
 * is the kernel's pointer size whatever BTF's guess. */
#define ANY 0
#define LIST_HEAD UINT64_MAX

static const struct field {
	enum owner owner;
	const char *member;
	enum pgw_btf_shape shape;
	uint64_t size, size_alt;
	size_t offset_at, size_at; /* in struct pgw_task_layout (size: 0
				      when not kept) */
} fields[] = {
	{ TASK, "tasks", PGW_BTF_COMPOSITE, LIST_HEAD, LIST_HEAD,
	  offsetof(struct pgw_task_layout, tasks), 0 },
	{ LIST, "next", PGW_BTF_PTR, ANY, ANY,
	  offsetof(struct pgw_task_layout, list_next), 0 },
	{ TASK, "pid", PGW_BTF_INT, 4, 4,
	  offsetof(struct pgw_task_layout, pid), 0 },
	{ TASK, "tgid", PGW_BTF_INT, 4, 4,
	  offsetof(struct pgw_task_layout, tgid), 0 },
	{ TASK, "comm", PGW_BTF_ARRAY, ANY, ANY,
	  offsetof(struct pgw_task_layout, comm),
	  offsetof(struct pgw_task_layout, comm_size) },
	{ TASK, "flags", PGW_BTF_INT, 4, 8,
	  offsetof(struct pgw_task_layout, flags),
	  offsetof(struct pgw_task_layout, flags_size) },
	{ TASK, "mm", PGW_BTF_PTR, ANY, ANY,
	  offsetof(struct pgw_task_layout, mm), 0 },
	{ MM, "pgd", PGW_BTF_PTR, ANY, ANY,
	  offsetof(struct pgw_task_layout, mm_pgd), 0 },
};

static const char *const shape_names[] = {
	[PGW_BTF_INT] = "an integer", [PGW_BTF_PTR] = "a pointer",
	[PGW_BTF_ARRAY] = "an array", [PGW_BTF_COMPOSITE] = "a struct",
	[PGW_BTF_OTHER] = "something else",
};

/* The member's size as the walk reads it, or 0 when it is not one the
 * walk accepts. */
static uint64_t size_read(const struct field *f,
			  const struct pgw_btf_member *m, unsigned ptr_size)
{
	uint64_t want = f->size == LIST_HEAD ? 2 * (uint64_t)ptr_size :
						f->size;
	uint64_t alt = f->size_alt == LIST_HEAD ? 2 * (uint64_t)ptr_size :
						  f->size_alt;

	if (m->shape != f->shape)
		return 0;
	if (f->shape == PGW_BTF_PTR)
		return ptr_size;
	return want == ANY || m->size == want || m->size == alt ? m->size : 0;
}

/* What ps shows beyond the walk, each by the names it has had, with the
 * sizes read; a field BTF lacks, or has in another shape, stays 0
 * (unknown). */
#define LIST_SIZE UINT64_MAX           /* a list_head, not an integer */
static const struct optional {
	const char *member, *within;   /* within: a struct member of
					  task_struct holding it */
	uint64_t size, size_alt;       /* 0: a pointer; LIST_SIZE */
	size_t offset_at, size_at;
	const char *type;              /* NULL: task_struct */
} optionals[] = {
	{ "real_parent", NULL, 0, 0,
	  offsetof(struct pgw_task_layout, real_parent), 0 },
	{ "__state", NULL, 4, 4, offsetof(struct pgw_task_layout, state),
	  offsetof(struct pgw_task_layout, state_size) },
	{ "state", NULL, 8, 4, offsetof(struct pgw_task_layout, state),
	  offsetof(struct pgw_task_layout, state_size) },
	{ "exit_state", NULL, 4, 4,
	  offsetof(struct pgw_task_layout, exit_state), 0 },
	{ "cpu", "thread_info", 4, 4, offsetof(struct pgw_task_layout, cpu),
	  0 },
	{ "cpu", NULL, 4, 4, offsetof(struct pgw_task_layout, cpu), 0 },
	{ "on_cpu", NULL, 4, 4, offsetof(struct pgw_task_layout, on_cpu), 0 },
	{ "start_time", NULL, 8, 8,
	  offsetof(struct pgw_task_layout, start_time), 0 },
	{ "signal", NULL, 0, 0, offsetof(struct pgw_task_layout, signal), 0 },
	{ "stack", NULL, 0, 0, offsetof(struct pgw_task_layout, stack), 0 },
	{ "thread_node", NULL, LIST_SIZE, LIST_SIZE,
	  offsetof(struct pgw_task_layout, thread_node), 0 },
	{ "thread_group", NULL, LIST_SIZE, LIST_SIZE,
	  offsetof(struct pgw_task_layout, thread_group), 0 },
	{ "thread_head", NULL, LIST_SIZE, LIST_SIZE,
	  offsetof(struct pgw_task_layout, signal_thread_head), 0,
	  "signal_struct" },
	{ "active_mm", NULL, 0, 0,
	  offsetof(struct pgw_task_layout, active_mm), 0 },
};

/* Is m the shape f wants? */
static bool optional_shape(const struct optional *f,
			   const struct pgw_btf_member *m, unsigned ptr_size)
{
	if (f->size == LIST_SIZE)
		return m->shape == PGW_BTF_COMPOSITE &&
		       m->size == 2 * (uint64_t)ptr_size;
	if (f->size == 0)
		return m->shape == PGW_BTF_PTR;
	return m->shape == PGW_BTF_INT &&
	       (m->size == f->size || m->size == f->size_alt);
}

static void optional_fields(const struct pgw_kernel_btf *kb,
			    unsigned ptr_size, uint64_t task_size,
			    struct pgw_task_layout *lay)
{
	for (size_t i = 0; i < sizeof(optionals) / sizeof(optionals[0]);
	     i++) {
		const struct optional *f = &optionals[i];
		uint32_t *at = (uint32_t *)((char *)lay + f->offset_at);
		struct pgw_btf_member m, in = { 0 };
		struct pgw_err ignored;
		if (*at)
			continue;      /* an earlier name found it */
		if (f->within &&
		    (pgw_kernel_btf_member(kb, "task_struct", f->within, &in,
					   &ignored) != PGW_OK ||
		     in.shape != PGW_BTF_COMPOSITE))
			continue;
		const char *type = f->type ? f->type : "task_struct";
		uint64_t whole = task_size;
		if (f->type && pgw_kernel_btf_struct_size(kb, f->type, &whole,
							  &ignored) != PGW_OK)
			continue;
		if (pgw_kernel_btf_member(kb, f->within ? f->within : type,
					  f->member, &m, &ignored) != PGW_OK)
			continue;
		uint64_t off = in.offset + m.offset;
		uint64_t size = f->size ? m.size : ptr_size;
		/* 0 stands for "not known": no field read is at byte 0
		 * (signal_struct starts with its counts). */
		if (!optional_shape(f, &m, ptr_size) || off == 0 ||
		    off + size > whole)
			continue;
		*at = (uint32_t)off;
		if (f->size_at)
			*(uint32_t *)((char *)lay + f->size_at) =
				(uint32_t)size;
	}
}

enum pgw_status pgw_task_layout_btf(const struct pgw_kernel_btf *kb,
				    unsigned ptr_size,
				    struct pgw_task_layout *lay,
				    struct pgw_err *err)
{
	uint64_t whole[NOWNERS];
	enum pgw_status st;

	*lay = (struct pgw_task_layout){ .ptr_size = ptr_size };
	if (ptr_size != 4 && ptr_size != 8)
		return pgw_err_set(err, PGW_E_ARG, "pointer size %u",
				   ptr_size);
	for (int o = 0; o < NOWNERS; o++)
		if ((st = pgw_kernel_btf_struct_size(kb, owner_names[o],
						     &whole[o], err)) != PGW_OK)
			return st;
	if (whole[LIST] != 2 * (uint64_t)ptr_size)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: struct list_head is %llu bytes, not "
				   "two %u-byte pointers",
				   (unsigned long long)whole[LIST], ptr_size);
	if (whole[TASK] > UINT32_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: struct task_struct is %llu bytes",
				   (unsigned long long)whole[TASK]);
	lay->task_size = (uint32_t)whole[TASK];
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];
		const char *type = owner_names[f->owner];
		struct pgw_btf_member m;

		if ((st = pgw_kernel_btf_member(kb, type, f->member, &m,
						err)) != PGW_OK)
			return st;
		uint64_t size = size_read(f, &m, ptr_size);
		/* Every kernel gives these members the one shape read here:
		 * another is damage to the BTF, not a kernel to support. */
		if (size == 0)
			return pgw_err_set(
				err, PGW_E_FORMAT,
				"BTF: %s.%s is %s of %llu bytes; the task "
				"walk reads it as %s", type, f->member,
				shape_names[m.shape],
				(unsigned long long)m.size,
				shape_names[f->shape]);
		if (m.offset > whole[f->owner] ||
		    size > whole[f->owner] - m.offset)
			return pgw_err_set(
				err, PGW_E_FORMAT,
				"BTF: %s.%s at byte %llu (%llu bytes) lies "
				"outside the %llu-byte struct", type,
				f->member, (unsigned long long)m.offset,
				(unsigned long long)size,
				(unsigned long long)whole[f->owner]);
		*(uint32_t *)((char *)lay + f->offset_at) = (uint32_t)m.offset;
		if (f->size_at)
			*(uint32_t *)((char *)lay + f->size_at) =
				(uint32_t)size;
	}
	optional_fields(kb, ptr_size, whole[TASK], lay);
	if (lay->comm_size > PGW_TASK_COMM_MAX)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "BTF: task_struct.comm is %u bytes, more "
				   "than %d", lay->comm_size,
				   PGW_TASK_COMM_MAX);
	return PGW_OK;
}
