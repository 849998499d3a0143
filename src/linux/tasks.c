/*
 * The kernel's task list: init_task.tasks links every thread-group
 * leader (each process once, and init_task itself) in a circular list.
 * Each task is read with one read spanning the fields needed; its mm's
 * pgd is read and translated through the kernel's page tables, giving
 * the physical root of the process's address space.
 *
 * Hostile images: the walk remembers every task it has seen, so a list
 * looping anywhere but back to init_task is caught when it first repeats;
 * it also stops after max_tasks, and after more tasks than the image's
 * memory could hold; each ends the walk with an error and keeps what was
 * read.
 */
#include "../lib/err.h"
#include "pgwalk.h"
#include "linux.h"
#include "memo.h"
#include "../lib/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fields one task read covers. */
struct span {
	uint32_t lo, len;
};

static struct span task_span(const struct pgw_task_layout *l)
{
	const uint32_t at[][2] = {
		{ l->tasks + l->list_next, l->ptr_size },
		{ l->pid, 4 }, { l->tgid, 4 }, { l->comm, l->comm_size },
		{ l->flags, l->flags_size }, { l->mm, l->ptr_size },
		{ l->real_parent ? l->real_parent : l->mm, l->ptr_size },
		{ l->state ? l->state : l->mm, l->state ? l->state_size : 1 },
		{ l->exit_state ? l->exit_state : l->mm, 4 },
		{ l->cpu ? l->cpu : l->mm, 4 },
		{ l->on_cpu ? l->on_cpu : l->mm, 4 },
		{ l->start_time ? l->start_time : l->mm, 8 },
		{ l->active_mm ? l->active_mm : l->mm, l->ptr_size },
		{ l->stack ? l->stack : l->mm, l->ptr_size },
	};
	uint64_t lo = UINT32_MAX, hi = 0;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		if (at[i][0] < lo)
			lo = at[i][0];
		if ((uint64_t)at[i][0] + at[i][1] > hi)
			hi = (uint64_t)at[i][0] + at[i][1];
	}
	return (struct span){ (uint32_t)lo, (uint32_t)(hi - lo) };
}

/* The fields one read spans are at most this far apart (6.1: 2 KiB). */
#define SPAN_MAX (64u * 1024)

static uint64_t le_n(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* mm->pgd and its physical address; failures are kept in t->why. */
static void read_pgd(const struct pgw_space *kernel,
		     const struct pgw_task_layout *l, struct pgw_task *t)
{
	uint8_t word[8];
	struct pgw_err err;
	struct pgw_xlat x;

	if (pgw_read_virt(kernel, t->mm + l->mm_pgd, word, l->ptr_size, NULL,
			  &err) != PGW_OK) {
		snprintf(t->why, sizeof(t->why), "mm 0x%llx: pgd: %.120s",
			 (unsigned long long)t->mm, err.msg);
		return;
	}
	t->pgd = le_n(word, l->ptr_size);
	if (pgw_translate(kernel, NULL, t->pgd, &x) != PGW_STOP_OK) {
		snprintf(t->why, sizeof(t->why),
			 "mm 0x%llx: pgd 0x%llx does not translate: %s at %s",
			 (unsigned long long)t->mm, (unsigned long long)t->pgd,
			 pgw_stop_text(x.stop),
			 kernel->mode->level[x.level].name);
		return;
	}
	t->has_pgd_pa = true;
	t->pgd_pa = x.pa;
}

/* The field at offset off of a task read into buf from sp.lo on (every
 * field read lies in the span). */
static const uint8_t *at(const uint8_t *buf, struct span sp, uint32_t off)
{
	return buf + (off - sp.lo);
}

/* Read the task at va into t; its tasks.next into *next. */
static enum pgw_status read_task_span(const struct pgw_space *kernel,
				 const struct pgw_task_layout *l,
				 struct span sp, uint64_t va,
				 struct pgw_task *t, uint64_t *next,
				 struct pgw_err *err)
{
	uint8_t buf[SPAN_MAX];

	if (pgw_read_virt(kernel, va + sp.lo, buf, sp.len, NULL, err) !=
	    PGW_OK)
		return err->status;
	memset(t, 0, sizeof(*t));
	t->task = va;
	*next = le_n(at(buf, sp, l->tasks + l->list_next), l->ptr_size);
	t->pid = (int32_t)le_n(at(buf, sp, l->pid), 4);
	t->tgid = (int32_t)le_n(at(buf, sp, l->tgid), 4);
	t->flags = (uint32_t)le_n(at(buf, sp, l->flags), l->flags_size);
	t->kthread = t->flags & PGW_PF_KTHREAD;
	memcpy(t->comm, at(buf, sp, l->comm), l->comm_size);
	t->comm_len = strnlen((const char *)t->comm, l->comm_size);
	t->mm = le_n(at(buf, sp, l->mm), l->ptr_size);
	t->ppid = -1;
	if (l->real_parent)
		t->real_parent = le_n(at(buf, sp, l->real_parent),
				      l->ptr_size);
	if ((t->has_state = l->state != 0)) {
		t->state = (uint32_t)le_n(at(buf, sp, l->state),
					  l->state_size);
		if (l->exit_state)
			t->exit_state = (uint32_t)le_n(
				at(buf, sp, l->exit_state), 4);
	}
	if ((t->has_cpu = l->cpu != 0))
		t->cpu = (uint32_t)le_n(at(buf, sp, l->cpu), 4);
	if ((t->has_on_cpu = l->on_cpu != 0))
		t->on_cpu = le_n(at(buf, sp, l->on_cpu), 4) != 0;
	if ((t->has_start_time = l->start_time != 0))
		t->start_time = le_n(at(buf, sp, l->start_time), 8);
	if (l->active_mm)
		t->active_mm = le_n(at(buf, sp, l->active_mm), l->ptr_size);
	if (l->stack)
		t->stack = le_n(at(buf, sp, l->stack), l->ptr_size);
	if (t->mm)
		read_pgd(kernel, l, t);
	return PGW_OK;
}

enum pgw_status linux_task_read(const struct pgw_space *kernel,
				const struct pgw_task_layout *lay, uint64_t va,
				struct pgw_task *t, struct pgw_err *err)
{
	uint64_t next;

	return read_task_span(kernel, lay, task_span(lay), va, t, &next, err);
}

/*
 * The kernel's list only links task_structs, which lie in mapped RAM: a
 * link to an address that does not translate, or to a frame outside
 * every range of RAM, is a damaged list (PGW_E_FORMAT), not a page the
 * image lacks.  Only a page the image left out or lost stays
 * PGW_E_NODATA (partial evidence).
 */
bool linux_task_damaged_link(struct pgw_err *err)
{
	if (err->status != PGW_E_UNMAPPED &&
	    !(err->status == PGW_E_NODATA &&
	      err->absence == PGW_ABSENT_OUTSIDE))
		return false;
	err->status = PGW_E_FORMAT;
	err->absence = PGW_ABSENT_NONE;
	return true;
}

static int by_task(const void *a, const void *b)
{
	const struct pgw_task *x = a, *y = b;
	return x->task < y->task ? -1 : x->task > y->task;
}

/* ppid: the tgid of real_parent, from the list when it is a leader there
 * (a sorted copy of the addresses), else read from its task_struct (a
 * thread's); -1 when it cannot be read. */
void linux_resolve_ppids(const struct pgw_space *kernel,
			 const struct pgw_task_layout *l,
			 struct pgw_task *tasks, size_t n)
{
	struct pgw_task *sorted;

	if (!l->real_parent || !n || !(sorted = malloc(n * sizeof(*sorted))))
		return;
	memcpy(sorted, tasks, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_task);
	for (size_t i = 0; i < n; i++) {
		struct pgw_task key = { .task = tasks[i].real_parent };
		const struct pgw_task *p = bsearch(&key, sorted, n,
						   sizeof(*sorted), by_task);
		uint8_t w[4];
		struct pgw_err e;
		if (p)
			tasks[i].ppid = p->tgid;
		else if (tasks[i].real_parent &&
			 pgw_read_virt(kernel, tasks[i].real_parent + l->tgid,
				       w, 4, NULL, &e) == PGW_OK)
			tasks[i].ppid = (int32_t)le_n(w, 4);
	}
	/* init_task is its own parent: the kernel's ps says 0. */
	if (tasks[0].real_parent == tasks[0].task)
		tasks[0].ppid = 0;
	free(sorted);
}

/* At most one task per task_struct-sized piece of the image's memory. */
static size_t image_cap(struct pgw_image *img, uint32_t task_size)
{
	const struct pgw_phys_range *r;
	size_t n = pgw_image_ranges(img, &r);
	uint64_t bytes = 0;

	for (size_t i = 0; i < n; i++)
		bytes += r[i].size;
	uint64_t cap = bytes / (task_size ? task_size : 1) + 1;
	return cap < SIZE_MAX ? (size_t)cap : SIZE_MAX;
}

enum pgw_status pgw_linux_task_list(const struct pgw_space *kernel,
				    uint64_t init_task,
				    const struct pgw_task_layout *lay,
				    size_t max_tasks,
				    struct pgw_task **tasks_ret, size_t *n_ret,
				    struct pgw_err *err)
{
	struct span sp = task_span(lay);
	struct linux_seen seen = { 0 };
	struct pgw_task *tasks = NULL;
	size_t n = 0, cap = max_tasks ? max_tasks : PGW_TASKS_MAX;
	const char *cap_why = max_tasks ? "the most asked for" :
					  "the bound on processes";
	uint64_t va = init_task, head = init_task + lay->tasks, next = 0;
	enum pgw_status st = PGW_OK;
	bool nomem = false;

	*tasks_ret = NULL;
	*n_ret = 0;
	if (sp.len > SPAN_MAX || (lay->ptr_size != 4 && lay->ptr_size != 8) ||
	    (lay->flags_size != 4 && lay->flags_size != 8) ||
	    lay->comm_size > PGW_TASK_COMM_MAX)
		return pgw_err_set(err, PGW_E_ARG,
				   "task list: a layout it cannot read (fields "
				   "spread over %u bytes, pointers of %u, "
				   "flags of %u, comm of %u)", sp.len,
				   lay->ptr_size, lay->flags_size,
				   lay->comm_size);
	if (image_cap(kernel->img, lay->task_size) < cap) {
		cap = image_cap(kernel->img, lay->task_size);
		cap_why = "as many as the image's memory can hold";
	}
	for (;;) {
		if (!linux_seen_add(&seen, va, &nomem)) {
			st = nomem ? pgw_err_set(err, PGW_E_NOMEM,
						 "task list") :
				     pgw_err_set(err, PGW_E_FORMAT,
						 "task list loops: entry %zu, "
						 "task 0x%llx, was seen "
						 "before, and the list never "
						 "came back to init_task "
						 "0x%llx", n,
						 (unsigned long long)va,
						 (unsigned long long)
							 init_task);
			break;
		}
		if (n == cap) {
			st = pgw_err_set(err, PGW_E_LIMIT,
					 "task list: more than %zu tasks (%s) "
					 "without coming back to init_task",
					 cap, cap_why);
			break;
		}
		if ((st = pgw_grow(&tasks, n, sizeof(*tasks), err)) != PGW_OK)
			break;
		st = read_task_span(kernel, lay, sp, va, &tasks[n], &next,
				    err);
		if (st != PGW_OK) {
			bool broken = linux_task_damaged_link(err);
			st = pgw_err_prefix(err, "task list: entry %zu, task "
					    "0x%llx%s", n,
					    (unsigned long long)va, broken ?
					    " (a damaged list: no task_struct "
					    "there)" : "");
			break;
		}
		n++;
		if (next == head)
			break;
		va = next - lay->tasks;
		if (next == 0 || va == 0) {
			st = pgw_err_set(err, PGW_E_FORMAT,
					 "task list: entry %zu, task 0x%llx: "
					 "tasks.next is 0x%llx, no task",
					 n - 1,
					 (unsigned long long)tasks[n - 1].task,
					 (unsigned long long)next);
			break;
		}
	}
	free(seen.slot);
	linux_resolve_ppids(kernel, lay, tasks, n);
	*tasks_ret = tasks;
	*n_ret = n;
	return st;
}

void pgw_linux_tasks_free(struct pgw_task *tasks)
{
	free(tasks);
}

const char *pgw_task_state_key(const struct pgw_task *t)
{
	/* The bits every kernel since 2.6 gives the same meaning
	 * (include/linux/sched.h); the others moved between versions. */
	enum {
		INTERRUPTIBLE = 1, UNINTERRUPTIBLE = 2, STOPPED = 4,
		TRACED = 8, EXIT_DEAD = 0x10, EXIT_ZOMBIE = 0x20,
		NOLOAD = 0x400,
	};

	if (!t->has_state)
		return NULL;
	if (t->exit_state & EXIT_ZOMBIE)
		return "ZO";
	if (t->exit_state & EXIT_DEAD)
		return "DE";
	if (t->state == 0)
		return "RU";
	if ((t->state & (UNINTERRUPTIBLE | NOLOAD)) ==
	    (UNINTERRUPTIBLE | NOLOAD))
		return "ID";
	if (t->state & INTERRUPTIBLE)
		return "IN";
	if (t->state & UNINTERRUPTIBLE)
		return "UN";
	if (t->state & STOPPED)
		return "ST";
	if (t->state & TRACED)
		return "TR";
	return "??";
}

/* init_task from kallsyms, or why it is not there. */
static enum pgw_status find_init_task(const struct pgw_kallsyms *ks,
				      uint64_t *va, struct pgw_err *err)
{
	struct pgw_kallsyms_info ki;

	if (pgw_kallsyms_lookup(ks, "init_task", va, NULL, err) == PGW_OK)
		return PGW_OK;
	pgw_kallsyms_info(ks, &ki);
	if (ki.data_symbols <= ki.symbols / 100)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no init_task: kallsyms holds text symbols "
				   "only (%u of %u symbols are data): the "
				   "kernel was built without "
				   "CONFIG_KALLSYMS_ALL", ki.data_symbols,
				   ki.symbols);
	return pgw_err_set(err, PGW_E_NOTFOUND,
			   "no init_task in kallsyms (%u symbols)",
			   ki.symbols);
}

const char *pgw_tasks_method_key(enum pgw_tasks_method method)
{
	static const char *const keys[] = {
		[PGW_TASKS_BTF] = "vmcoreinfo+btf",
		[PGW_TASKS_SCANNED_BTF] = "scanned-kallsyms+btf",
		[PGW_TASKS_INFERRED] = "inferred-layout",
	};

	return (unsigned)method < sizeof(keys) / sizeof(keys[0]) ?
		       keys[method] : "unknown";
}

/* Without BTF (or init_task): the layout inferred, said in how. */
static enum pgw_status infer(const struct pgw_space *kernel,
			     const struct pgw_kallsyms *ks,
			     struct pgw_task **tasks_ret, size_t *n_ret,
			     struct pgw_tasks_how *how, struct pgw_err *err)
{
	struct pgw_err e = { 0 };
	enum pgw_status st;

	how->method = PGW_TASKS_INFERRED;
	st = pgw_task_layout_infer(kernel, ks, &how->init_task, &how->layout,
				   how->why, sizeof(how->why), &e);
	if (st != PGW_OK) {
		/* Both reasons: why not BTF, and why the guess failed. */
		size_t n = strlen(err->msg);
		snprintf(err->msg + n, sizeof(err->msg) - n, "; %s", e.msg);
		return st == PGW_E_NOMEM ? (*err = e, st) : err->status;
	}
	return pgw_linux_task_list(kernel, how->init_task, &how->layout, 0,
				   tasks_ret, n_ret, err);
}

enum pgw_status linux_tasks_read(struct pgw_linux_kernel *lk,
				 struct pgw_task **tasks_ret, size_t *n_ret,
				 struct pgw_tasks_how *how, struct pgw_err *err)
{
	const struct pgw_space *kernel = &lk->kernel;
	const struct pgw_kallsyms *ks = NULL;
	const struct pgw_kernel_btf *kb = NULL;
	struct pgw_err no_init = { 0 };
	enum pgw_status st;

	*tasks_ret = NULL;
	*n_ret = 0;
	memset(how, 0, sizeof(*how));
	if ((st = linux_kernel_kallsyms(lk, &ks, err)) != PGW_OK) {
		/* No kallsyms: the guess can still anchor on "swapper/0". */
		if (st == PGW_E_NOTFOUND)
			st = infer(kernel, NULL, tasks_ret, n_ret, how, err);
		return st;
	}
	/* Both missing (i386 distribution kernels): say both. */
	enum pgw_status init_st = find_init_task(ks, &how->init_task,
						 &no_init);
	if ((st = linux_kernel_btf(lk, &kb, err)) != PGW_OK) {
		if (init_st != PGW_OK) {
			size_t n = strlen(err->msg);
			snprintf(err->msg + n, sizeof(err->msg) - n, "; and %s",
				 no_init.msg);
		}
		if (st == PGW_E_NOTFOUND)
			st = infer(kernel, ks, tasks_ret, n_ret, how, err);
	} else if (init_st != PGW_OK) {
		/* No init_task symbol (a kernel without CONFIG_KALLSYMS_ALL):
		 * the task itself is looked for with BTF's layout; failing
		 * that, the layout is inferred. */
		struct pgw_err scan = { 0 };
		if ((st = pgw_task_layout_btf(kb, kernel->mode->va_bits > 32 ?
						      8 : 4, &how->layout,
					      &scan)) == PGW_OK &&
		    (st = linux_init_task_scan(kernel, &how->layout,
					       &how->init_task, &scan)) ==
			    PGW_OK) {
			struct pgw_kallsyms_info ki;
			pgw_kallsyms_info(ks, &ki);
			how->method = ki.scanned ? PGW_TASKS_SCANNED_BTF :
						   PGW_TASKS_BTF;
			snprintf(how->why, sizeof(how->why), "init_task 0x%llx "
				 "found in the kernel's data (the swapper/0 "
				 "task whose list comes back to it); the "
				 "layout from BTF",
				 (unsigned long long)how->init_task);
			st = pgw_linux_task_list(kernel, how->init_task,
						 &how->layout, 0, tasks_ret,
						 n_ret, err);
		} else {
			*err = no_init;
			size_t n = strlen(err->msg);
			snprintf(err->msg + n, sizeof(err->msg) - n, "; %s",
				 scan.msg);
			memset(&how->layout, 0, sizeof(how->layout));
			st = infer(kernel, ks, tasks_ret, n_ret, how, err);
		}
	} else if ((st = pgw_task_layout_btf(kb, kernel->mode->va_bits > 32 ?
						     8 : 4, &how->layout,
					     err)) == PGW_OK) {
		struct pgw_kallsyms_info ki;
		pgw_kallsyms_info(ks, &ki);
		how->method = ki.scanned ? PGW_TASKS_SCANNED_BTF :
					   PGW_TASKS_BTF;
		if (!ki.scanned)
			snprintf(how->why, sizeof(how->why), "kallsyms "
				 "(VMCOREINFO) init_task 0x%llx; the layout "
				 "from BTF", (unsigned long long)how->init_task);
		else
			snprintf(how->why, sizeof(how->why), "kallsyms found "
				 "by scan (names at 0x%llx, token_index at "
				 "0x%llx%s; _stext as VMCOREINFO's) init_task "
				 "0x%llx; the layout from BTF",
				 (unsigned long long)ki.tables.names,
				 (unsigned long long)ki.tables.token_index,
				 ki.absolute ? ", absolute addresses" : "",
				 (unsigned long long)how->init_task);
		st = pgw_linux_task_list(kernel, how->init_task, &how->layout,
					 0, tasks_ret, n_ret, err);
	}
	/* Which BTF: memory may hold a stale copy besides the one between
	 * __start_BTF and __stop_BTF. */
	if (kb && how->method != PGW_TASKS_INFERRED) {
		struct pgw_kernel_btf_info bi;
		pgw_kernel_btf_info(kb, &bi);
		size_t n = strlen(how->why);
		snprintf(how->why + n, sizeof(how->why) - n, " (BTF: %s)",
			 bi.how);
	}
	return st;
}

enum pgw_status pgw_linux_tasks_how(const struct pgw_space *kernel,
				    struct pgw_task **tasks_ret, size_t *n_ret,
				    struct pgw_tasks_how *how_ret,
				    struct pgw_err *err)
{
	struct pgw_linux_kernel *lk;
	struct pgw_tasks_how local;
	enum pgw_status st;

	*tasks_ret = NULL;
	*n_ret = 0;
	if ((st = pgw_linux_kernel_new(&lk, err)) != PGW_OK)
		return st;
	linux_kernel_bind(lk, kernel);
	st = linux_tasks_read(lk, tasks_ret, n_ret,
			      how_ret ? how_ret : &local, err);
	pgw_linux_kernel_free(lk);
	return st;
}

enum pgw_status pgw_linux_tasks(const struct pgw_space *kernel,
				struct pgw_task **tasks_ret, size_t *n_ret,
				struct pgw_err *err)
{
	return pgw_linux_tasks_how(kernel, tasks_ret, n_ret, NULL, err);
}
