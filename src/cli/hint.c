/*
 * A user-space address asked of the kernel's own root does not translate:
 * the kernel's page tables map no user memory.  Say which processes' roots
 * (from the task list; without one, the roots a scan finds) and which
 * CPUs' CR3 map it, and how to ask for one.  Only on failure, for a few
 * addresses: the task list (or the scan) is read once, and each hint
 * translates the address once per root.
 */
#include "hint.h"
#include "emit_bytes.h"
#include "exit_codes.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>

#define HINTS_TRIED 16     /* failing addresses looked at */
#define HINTS_SAID 3       /* hints printed */
#define NAMED_MAX 4        /* processes named in one hint */

void hint_init(struct hint *h, const struct session *s)
{
	memset(h, 0, sizeof(*h));
	h->s = s;
	h->on = s->why.root.source == PGW_ROOT_VMCOREINFO ||
		s->why.root.source == PGW_ROOT_SCAN;
}

void hint_free(struct hint *h)
{
	pgw_linux_tasks_free(h->tasks);
	pgw_roots_free(h->roots);
}

/* The task list, else the roots a scan finds: once. */
static void load(struct hint *h)
{
	struct pgw_err err = { 0 };
	const struct session *s = h->s;

	h->loaded = true;
	if (pgw_linux_tasks(&s->space, &h->tasks, &h->ntasks, &err) ==
		    PGW_OK || h->ntasks)
		return;
	pgw_linux_tasks_free(h->tasks);
	h->tasks = NULL;
	if (pgw_roots_scan(s->img, s->space.mode, s->space.root, NULL,
			   &h->roots, &err) != PGW_OK)
		h->roots = NULL;
}

static bool maps(const struct session *s, uint64_t table, uint64_t va)
{
	struct pgw_space sp = { .img = s->img, .mode = s->space.mode,
				.root = table };
	struct pgw_xlat x;

	return pgw_translate(&sp, va, &x) == PGW_STOP_OK;
}

/* In the lower half, where 64-bit kernels keep user space; 32-bit ones
 * place PAGE_OFFSET variously, so every address is looked at there. */
static bool user_half(const struct pgw_mode *mode, uint64_t va)
{
	return mode->va_bits <= 32 || va < (UINT64_C(1) << (mode->va_bits - 1));
}

/* " and N more" past the ones named. */
static void more(struct line *l, size_t found)
{
	if (found <= NAMED_MAX)
		return;
	emit_str(l, " and ");
	emit_u64(l, found - NAMED_MAX);
	emit_str(l, " more");
}

/* The first CPU caught in user mode on a root that maps va, or -1. */
static long user_cpu(const struct session *s, uint64_t va, uint64_t *table)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(s->img, &cpus);

	for (size_t c = 0; c < n; c++) {
		if (!cpus[c].has_cr || strcmp(out_cpu_ring(&cpus[c]), "user"))
			continue;
		*table = pgw_cr3_table(s->space.mode, cpus[c].cr3);
		if (maps(s, *table, va))
			return (long)c;
	}
	return -1;
}

/* Does task k's root, or its PTI user copy (the next 4 KiB page), equal
 * table? */
static bool runs_on(const struct pgw_task *k, uint64_t table)
{
	return k->has_pgd_pa &&
	       (k->pgd_pa == table || (k->pgd_pa | 0x1000) == table);
}

/* ": N processes map it: pid 1 (init), ...": those whose root maps va.
 * *pid: the one on a user-mode CPU (cpu_table), else the first. */
static size_t say_tasks(struct line *l, const struct hint *h, uint64_t va,
			long cpu, uint64_t cpu_table, int32_t *pid)
{
	struct line names;
	size_t found = 0;
	bool on_cpu = false;

	names.len = 0;
	for (size_t t = 0; t < h->ntasks; t++) {
		const struct pgw_task *k = &h->tasks[t];
		if (!k->has_pgd_pa || !maps(h->s, k->pgd_pa, va))
			continue;
		if (found == 0 || (!on_cpu && cpu >= 0 &&
				   runs_on(k, cpu_table))) {
			*pid = k->pid;
			on_cpu = cpu >= 0 && runs_on(k, cpu_table);
		}
		if (found < NAMED_MAX) {
			emit_str(&names, found ? ", pid " : "pid ");
			emit_u64(&names, (uint64_t)(uint32_t)k->pid);
			emit_str(&names, " (");
			emit_text_bytes(&names, k->comm, k->comm_len);
			emit_char(&names, ')');
		}
		found++;
	}
	if (!found)
		return 0;
	emit_str(l, "; ");
	emit_u64(l, found);
	emit_str(l, found == 1 ? " process maps it: " : " processes map it: ");
	for (size_t i = 0; i < names.len; i++)
		emit_char(l, names.buf[i]);
	more(l, found);
	return found;
}

/* The same from the roots a scan found (kind process): *root, the one
 * on a user-mode CPU, else the first. */
static size_t say_roots(struct line *l, const struct hint *h, uint64_t va,
			long cpu, uint64_t cpu_table, uint64_t *root)
{
	size_t found = 0;

	for (size_t i = 0; h->roots && i < h->roots->n; i++) {
		const struct pgw_root_found *r = &h->roots->root[i];
		if (r->kind != PGW_RK_PROCESS || !maps(h->s, r->table, va))
			continue;
		if (found == 0 || (cpu >= 0 && (r->table == cpu_table ||
						r->pti_user == cpu_table)))
			*root = r->table;
		if (found < NAMED_MAX) {
			emit_str(l, found ? ", " : "; the roots that map it: ");
			emit_hex(l, r->table);
		}
		found++;
	}
	more(l, found);
	return found;
}

void hint_user_address(struct hint *h, uint64_t va)
{
	const struct session *s = h->s;
	struct line l;
	int32_t pid = 0;
	uint64_t root = 0, cpu_table = 0;

	if (!h->on || h->said > HINTS_SAID || h->tried == HINTS_TRIED ||
	    !user_half(s->space.mode, va))
		return;
	h->tried++;
	if (!h->loaded)
		load(h);
	l.len = 0;
	emit_str(&l, "pgwalk: hint: ");
	emit_hex(&l, va);
	emit_str(&l, " is not mapped by the kernel's own root, which maps "
		     "no user memory");
	long cpu = user_cpu(s, va, &cpu_table);
	size_t n = h->tasks ? say_tasks(&l, h, va, cpu, cpu_table, &pid) :
			      say_roots(&l, h, va, cpu, cpu_table, &root);
	if (n == 0 && cpu < 0)
		return;
	if (h->said++ == HINTS_SAID) {
		fputs("pgwalk: hint: (more addresses like it: no more "
		      "hints)\n", stderr);
		return;
	}
	if (cpu >= 0) {
		emit_str(&l, "; CPU ");
		emit_u64(&l, (uint64_t)cpu);
		emit_str(&l, ", caught in user mode, runs on one");
	}
	emit_str(&l, n > 1 ? "; give one, e.g. " : "; give ");
	if (n && h->tasks) {
		emit_str(&l, "--pid=");
		emit_u64(&l, (uint64_t)(uint32_t)pid);
	} else if (n) {
		emit_str(&l, "--root=");
		emit_hex(&l, root);
	} else {
		emit_str(&l, "--cpu=");
		emit_u64(&l, (uint64_t)cpu);
	}
	emit_char(&l, '\n');
	fflush(stdout);
	emit_spill(&l, stderr);
}
