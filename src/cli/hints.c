#include "hints.h"
#include "emit.h"
#include "exit_codes.h"
#include "output.h"

#include <stdlib.h>
#include <string.h>

/* x86-64 CR3 bits 52..60 are reserved (61 and 62 are LAM, 63 NOFLUSH):
 * a value with any of them set is no CR3, and a kernel virtual address
 * (0xffff8...) always has them. */
#define CR3_NEVER_SET (UINT64_C(0x1ff) << 52)

/* The kernel's own space (VMCOREINFO's root, else CPU 0's), mode and
 * encryption bits as the session chose or would choose them. */
static bool kernel_space(struct session *s, struct pgw_space *sp)
{
	struct pgw_space_request req = { .mode = s->opts.space.mode,
					 .enc = s->opts.space.enc };
	struct pgw_space_why why;
	struct pgw_err err = { 0 };

	if (s->why.mode.mode)
		req.mode = s->why.mode.mode->name;
	return pgw_space_open(s->img, &req, sp, &why, &err) == PGW_OK;
}

/* The physical address the kernel's tables give va; false if none. */
static bool kernel_pa(struct session *s, uint64_t va, uint64_t *pa,
		      char *why, size_t n)
{
	struct pgw_space sp;
	struct pgw_xlat x;

	if (!kernel_space(s, &sp)) {
		snprintf(why, n, "no kernel root to translate it with");
		return false;
	}
	if (pgw_translate(&sp, NULL, va, &x) != PGW_STOP_OK) {
		snprintf(why, n, "the kernel's page tables do not map it (%s)",
			 pgw_stop_key(x.stop));
		return false;
	}
	*pa = x.pa;
	return true;
}

bool hint_cr3_virtual(struct session *s)
{
	uint64_t cr3 = s->opts.space.root.cr3, pa;
	char why[160];

	if (!(cr3 & CR3_NEVER_SET))
		return false;
	if (kernel_pa(s, cr3, &pa, why, sizeof(why)))
		pgw_cli_error("--cr3=0x%llx looks like a virtual address (bits "
			      "52-60 are set; crash's vm prints pgd as one): "
			      "the kernel's direct map puts it at physical "
			      "0x%llx: give --cr3=0x%llx",
			      (unsigned long long)cr3, (unsigned long long)pa,
			      (unsigned long long)pa);
	else
		pgw_cli_error("--cr3=0x%llx looks like a virtual address (bits "
			      "52-60 are set; crash's vm prints pgd as one), "
			      "and %s: give the table's physical address",
			      (unsigned long long)cr3, why);
	return true;
}

bool hint_root_failed(struct session *s, const struct pgw_err *err)
{
	const struct pgw_root_request *r = &s->opts.space.root;
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(s->img, &cpus);
	size_t nprs = pgw_image_prstatus_count(s->img);
	const struct pgw_arm64_regs *regs;
	uint64_t pa;
	char why[160];

	if (r->have_cpu && ncpus == 0 && nprs > 0 &&
	    pgw_image_arm64_regs(s->img, &regs) == 0) {
		pgw_cli_error("%s: --cpu=%u: this image's CPU notes are "
			      "NT_PRSTATUS only (%zu), which carry no CR3; "
			      "'pgwalk roots' lists the roots found in "
			      "memory, to give as --cr3", s->path, r->cpu,
			      nprs);
		return true;
	}
	if (r->have_cr3 && err->status == PGW_E_NOTFOUND && s->why.mode.mode &&
	    kernel_pa(s, r->cr3, &pa, why, sizeof(why)) && pa != r->cr3) {
		pgw_cli_error("%s: %s; 0x%llx is mapped as a kernel virtual "
			      "address, at physical 0x%llx: if it is a pgd "
			      "as crash prints it, give --cr3=0x%llx", s->path,
			      err->msg, (unsigned long long)r->cr3,
			      (unsigned long long)pa, (unsigned long long)pa);
		return true;
	}
	return false;
}

/* The region of va in layout, or NULL. */
static const struct pgw_region *region_of(const struct pgw_layout *lay,
					  uint64_t va)
{
	return lay->nregions ? &lay->region[pgw_layout_find(lay, va)] : NULL;
}

static const struct pgw_region *direct_map(const struct pgw_layout *lay)
{
	for (size_t i = 0; i < lay->nregions; i++)
		if (strcmp(lay->region[i].key, "direct_map") == 0)
			return &lay->region[i];
	return NULL;
}

/* The eras whose default direct map holds va: "x86-64-2.6.11 (Linux
 * ...)". */
static void older_eras(struct session *s, const char *current, uint64_t va,
		       char *buf, size_t n)
{
	const char *const *names = pgw_layout_names();
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; names[i] && len < n; i++) {
		uint64_t start, end;
		if (strcmp(names[i], current) == 0 ||
		    !pgw_layout_default_region(names[i], s->space.mode,
					       "direct_map", &start, &end) ||
		    va < start || (end && va >= end))
			continue;
		len += (size_t)snprintf(buf + len, n - len, "%s%s (%s)",
					len ? ", " : "", names[i],
					pgw_layout_describe(names[i]));
	}
}

static void hint_kernel_half(struct session *s, uint64_t va,
			     const struct pgw_layout *lay,
			     const struct pgw_region *r)
{
	const struct pgw_region *dm = direct_map(lay);
	char eras[400], base[400] = "";

	/* In this kernel's own direct map: its frame lies past the memory
	 * the kernel mapped there. */
	if (dm && r == dm) {
		pgw_cli_error("0x%llx is in this kernel's direct map (from "
			      "0x%llx): physical 0x%llx, which it does not "
			      "map", (unsigned long long)va,
			      (unsigned long long)dm->start,
			      (unsigned long long)(va - dm->start));
		return;
	}

	const char *rel = pgw_vmcoreinfo_get(s->img, "OSRELEASE");
	struct line k;
	k.len = 0;
	if (rel) {
		/* From the image: escaped before it reaches a terminal. */
		emit_str(&k, " (Linux ");
		emit_text_strn(&k, rel, 64);
		emit_char(&k, ')');
	}
	k.buf[k.len] = '\0';
	if (dm)
		snprintf(base, sizeof(base), "; this kernel's%.200s direct map "
			 "starts at 0x%llx", k.buf,
			 (unsigned long long)dm->start);
	older_eras(s, lay->name, va, eras, sizeof(eras));
	pgw_cli_error("0x%llx is in the %s region (%s) of layout %s%s%s%s",
		      (unsigned long long)va, r->key, r->name, lay->name,
		      base, eras[0] ? "; it was the direct map in " : "",
		      eras);
}

/*
 * Who maps a user address the kernel's root does not: the processes of
 * the task list (kallsyms and BTF in the image), else the roots a scan
 * finds; read once, on the first address that needs them.
 */
static struct {
	bool loaded;
	struct pgw_task *tasks;      /* NULL: no task list */
	size_t ntasks;
	struct pgw_roots *roots;     /* without a task list: the scan's */
} who;

/* The kernel's memory map, once: inferring its bases walks the kernel's
 * tables. */
static struct {
	bool tried;
	struct pgw_layout *lay;      /* NULL: none */
} map;

#define NAMED_MAX 4                  /* processes or roots named in a hint */

static void load_who(struct session *s)
{
	struct pgw_err err = { 0 };

	who.loaded = true;
	if (pgw_linux_tasks(&s->space, &who.tasks, &who.ntasks, &err) ==
		    PGW_OK || who.ntasks)
		return;
	pgw_linux_tasks_free(who.tasks);
	who.tasks = NULL;
	struct pgw_roots_opts ro = { .scan = { .enc = s->space.enc } };
	if (pgw_roots_scan(s->img, s->space.mode, s->space.root, &ro,
			   &who.roots, &err) != PGW_OK)
		who.roots = NULL;
}

void hints_free(void)
{
	pgw_linux_tasks_free(who.tasks);
	pgw_roots_free(who.roots);
	memset(&who, 0, sizeof(who));
	free(map.lay);
	memset(&map, 0, sizeof(map));
}

static bool maps(const struct session *s, uint64_t table, uint64_t va)
{
	struct pgw_space sp = { .img = s->img, .mode = s->space.mode,
				.root = table, .enc = s->space.enc };
	struct pgw_xlat x;

	return pgw_translate(&sp, NULL, va, &x) == PGW_STOP_OK;
}

/* A CPU caught in user mode: its CR3 holds a process's root. */
static bool in_user_mode(const struct pgw_cpu *c)
{
	return c->has_cr && c->has_cs && (c->cs_selector & 3) == 3;
}

/* The first CPU caught in user mode whose root maps va (its top table
 * in *table), or -1. */
static long user_cpu(const struct session *s, uint64_t va, uint64_t *table)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(s->img, &cpus);

	for (size_t c = 0; c < n; c++) {
		if (!in_user_mode(&cpus[c]))
			continue;
		*table = pgw_cr3_table(s->space.mode, cpus[c].cr3,
				       &s->space.enc);
		if (maps(s, *table, va))
			return (long)c;
	}
	return -1;
}

/* Is task k's root, or its PTI user copy (the next 4 KiB page), table? */
static bool runs_on(const struct pgw_task *k, uint64_t table)
{
	return k->has_pgd_pa &&
	       (k->pgd_pa == table || (k->pgd_pa | 0x1000) == table);
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

/* "; N processes map it: pid 1 (init), ...": the tasks whose root maps
 * va; *pid the one running on the user-mode CPU's table, else the
 * first. */
static size_t say_tasks(struct line *l, const struct session *s,
			uint64_t va, long cpu, uint64_t cpu_table,
			int32_t *pid)
{
	struct line names;
	size_t found = 0;
	bool on_cpu = false;

	names.len = 0;
	for (size_t t = 0; t < who.ntasks; t++) {
		const struct pgw_task *k = &who.tasks[t];
		if (!k->has_pgd_pa || !maps(s, k->pgd_pa, va))
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
			/* From the image: escaped before a terminal sees it. */
			emit_bytes(&names, stderr, (const char *)k->comm,
				   k->comm_len, emit_text_char);
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

/* The same from the roots a scan found (kind process); *root the one on
 * the user-mode CPU, else the first. */
static size_t say_roots(struct line *l, const struct session *s,
			uint64_t va, long cpu, uint64_t cpu_table,
			uint64_t *root)
{
	size_t found = 0;

	for (size_t i = 0; who.roots && i < who.roots->n; i++) {
		const struct pgw_root_found *r = &who.roots->root[i];
		if (r->kind != PGW_RK_PROCESS || !maps(s, r->table, va))
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

/* No process found to map it: the CPUs caught in user mode hold a
 * process's root, else say how to give one.  The same for every user
 * address: once. */
static void hint_no_process(struct session *s, uint64_t va)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(s->img, &cpus);
	char list[120] = "";
	size_t len = 0, found = 0;
	static bool said;

	if (said)
		return;
	said = true;
	for (size_t i = 0; i < n && len < sizeof(list); i++) {
		if (!in_user_mode(&cpus[i]))
			continue;
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s--cpu=%zu", found ? " or " : "", i);
		found++;
	}
	if (found)
		pgw_cli_error("0x%llx is a user address and the root is the "
			      "kernel's, which maps no process; a CPU caught "
			      "in user mode holds one: %s",
			      (unsigned long long)va, list);
	else
		pgw_cli_error("0x%llx is a user address and the root is the "
			      "kernel's, which maps no process: give a "
			      "process's root (--pid, --root from 'pgwalk "
			      "roots', --cr3, or --cpu for a CPU that ran it)",
			      (unsigned long long)va);
}

/* A user address asked of the kernel's own root: the processes (else
 * the roots) that map it, and a CPU caught in user mode running one. */
static void hint_user_half(struct session *s, uint64_t va)
{
	struct line l;
	int32_t pid = 0;
	uint64_t root = 0, cpu_table = 0;

	if (s->why.root.source != PGW_ROOT_VMCOREINFO &&
	    s->why.root.source != PGW_ROOT_SCAN)
		return;
	if (!who.loaded)
		load_who(s);
	l.len = 0;
	emit_str(&l, "pgwalk: ");
	emit_hex(&l, va);
	emit_str(&l, " is a user address and the root is the kernel's, which "
		     "maps no process");
	long cpu = user_cpu(s, va, &cpu_table);
	size_t found = who.tasks ?
		say_tasks(&l, s, va, cpu, cpu_table, &pid) :
		say_roots(&l, s, va, cpu, cpu_table, &root);
	if (!found) {
		hint_no_process(s, va);
		return;
	}
	if (cpu >= 0) {
		emit_str(&l, "; CPU ");
		emit_u64(&l, (uint64_t)cpu);
		emit_str(&l, ", caught in user mode, runs one");
	}
	emit_str(&l, found > 1 ? "; give one, e.g. " : "; give ");
	if (who.tasks) {
		emit_str(&l, "--pid=");
		emit_u64(&l, (uint64_t)(uint32_t)pid);
	} else {
		emit_str(&l, "--root=");
		emit_hex(&l, root);
	}
	emit_char(&l, '\n');
	fflush(stdout);
	emit_spill(&l, stderr);
}

/* A kernel address asked of the user copy of a PTI pair (a CPU caught
 * in user mode runs on it), which maps little of the kernel: when the
 * kernel copy maps it, point at --kernel-root.  True when said. */
static bool hint_pti_user_copy(struct session *s, uint64_t va)
{
	/* The check reads a thousand entries: once per session. */
	static struct pgw_pti pti;
	static uint64_t checked_root = UINT64_MAX;

	if (checked_root != s->space.root) {
		pgw_pti_check(s->img, s->space.mode, &s->space.enc,
			      s->space.root, &pti);
		checked_root = s->space.root;
	}
	if (!pti.is_user_root || !maps(s, pti.kernel_table, va))
		return false;
	pgw_cli_error("0x%llx: root 0x%llx is the user copy of a PTI pair, "
		      "which maps little of the kernel; its kernel copy "
		      "0x%llx maps it: give --kernel-root",
		      (unsigned long long)va,
		      (unsigned long long)s->space.root,
		      (unsigned long long)pti.kernel_table);
	return true;
}

void hint_translate(struct session *s, uint64_t va, enum pgw_stop stop)
{
	const struct pgw_region *r;

	/* Only an empty entry leaves the user guessing; every other reason
	 * (a table the image lacks, reserved bits, non-canonical) says
	 * what happened in the record itself. */
	if (stop != PGW_STOP_NOT_PRESENT)
		return;
	if (!map.tried) {
		struct pgw_layout_request req = { 0 };
		struct pgw_err err = { 0 };
		map.tried = true;
		map.lay = malloc(sizeof(*map.lay));
		if (map.lay && pgw_layout_resolve(&s->space, &req, map.lay,
						  &err) != PGW_OK) {
			free(map.lay);
			map.lay = NULL;
		}
	}
	if (!map.lay || !(r = region_of(map.lay, va)))
		return;
	if (strcmp(r->key, "user") == 0)
		hint_user_half(s, va);
	else if (!hint_pti_user_copy(s, va))
		hint_kernel_half(s, va, map.lay, r);
}
