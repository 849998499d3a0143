/*
 * pgwalk maps: each process's VMAs as its /proc/PID/maps would show
 * them, read from the image through the kernel's BTF (the task list, each
 * mm's maple tree or VMA list, the files' dentries and mounts).
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_codes.h"
#include "maps_out.h"
#include "session.h"

enum { OPT_ALL = 1024, OPT_SMAPS, OPT_PAGES, OPT_ADDR };

struct maps_args {
	struct image_args in;
	bool all, smaps, pages;
	const char *addr_arg;        /* --addr, parsed once --hex is known */
	bool have_addr;
	uint64_t addr;
	bool have_pid;
	int32_t pid;
	const char *comm;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Which processes (default: --all):", 4 },
	{ "all", OPT_ALL, NULL, 0,
	  "Every process with an mm (kernel threads have none)", 4 },
	{ NULL, 0, NULL, 0, "What to show:", 5 },
	{ "smaps", OPT_SMAPS, NULL, 0,
	  "Measure each VMA against the page tables, as smaps does: Rss, "
	  "present, PROT_NONE, swapped, empty, huge pages (THP, hugetlb, "
	  "KernelPageSize), not in the image", 5 },
	{ "pages", OPT_PAGES, NULL, 0,
	  "With --smaps, each page's state (a run for an unmapped stretch)", 5 },
	{ "addr", OPT_ADDR, "ADDR", 0,
	  "Only the VMA holding the user address ADDR (each process's)", 5 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct maps_args *a = state->input;
	struct pgw_root_request *r = &a->in.opts.space.root;

	switch (key) {
	case OPT_ALL:
		a->all = true;
		break;
	case OPT_SMAPS:
		a->smaps = true;
		break;
	case OPT_PAGES:
		a->smaps = a->pages = true;
		break;
	case OPT_ADDR:
		a->addr_arg = arg;
		break;
	case ARGP_KEY_SUCCESS:
		if (a->addr_arg && !pgw_parse_u64(a->addr_arg, &a->addr))
			pgw_bad_addr_option(state, "addr", a->addr_arg);
		a->have_addr = a->addr_arg != NULL;
		if (r->have_cpu || r->kernel_half)
			pgw_usage_error(state, "maps reads the task list "
					"through the kernel's root; --root or "
					"--cr3 may name it, no --cpu or "
					"--kernel-root");
		if (a->all && (r->have_pid || r->comm))
			pgw_usage_error(state, "--all, --pid and --comm each "
					"choose the processes; give one");
		/* The processes, not a root: the task list is read
		 * through the kernel's own. */
		a->have_pid = r->have_pid;
		a->pid = r->pid;
		a->comm = r->comm;
		r->have_pid = false;
		r->comm = NULL;
		r->kernel = !r->have_cr3 && !r->have_table;
		break;
	default:
		return session_parse_image(&a->in, "maps", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"List each process's memory map as its /proc/PID/maps would show it: "
	"every VMA (virtual memory area) in address order with its range, "
	"permissions, file offset, device, inode and path, read from the "
	"kernel's own structures in IMAGE through its BTF type information "
	"(Linux 6.0+ with CONFIG_DEBUG_INFO_BTF): the task list, each mm's "
	"maple tree (6.1+) or VMA list, each file's dentries up through its "
	"mounts.  --pid or --comm chooses the processes (every one whose comm "
	"it is), else all; --addr names the VMA of an address.\v"
	"Paths are d_path's: \" (deleted)\" for an unlinked file, the pseudo "
	"names of memfd, shared anonymous and hugetlb files, and [heap], "
	"[stack], [vdso], [vvar], [anon:NAME] where the kernel prints them; "
	"a name the image does not give is unknown, with why.  Without BTF "
	"there are no VMAs to show: the message says why.  Output: text (a "
	"# line per process, then its VMAs exactly as /proc prints them), "
	"json (JSON Lines: process, vma and summary records, vm_flags "
	"decoded), csv or tsv (the same columns, a header row).  Exit status: "
	"0, 1 no VMA holds --addr, 2 a page the image lacks cut a process's VMAs (or the task list) "
	"short, or held kallsyms or BTF, 3 no mode or kernel root, no such process, no kallsyms or "
	"BTF, 4 a bound stopped a walk, 64 usage, 65 bad image (a VMA tree "
	"or list the image damaged), 66 cannot open, 69 a kernel whose "
	"structs pgwalk cannot read, 74 cannot write.";

static const struct argp maps_argp = {
	options, parse_opt, "IMAGE", doc, session_children, NULL, NULL
};

const char *maps_reason(enum pgw_status st)
{
	switch (st) {
	case PGW_E_NODATA:
		return "data-not-in-image";
	case PGW_E_UNMAPPED:
		return "not-present";
	case PGW_E_LIMIT:
		return "budget";
	default:
		return "corrupt";
	}
}

/* The exit status for a set (or list) cut short by st. */
static int cut_status(enum pgw_status st)
{
	switch (st) {
	case PGW_E_NODATA:
	case PGW_E_UNMAPPED:
		return PGW_EXIT_EVIDENCE;
	case PGW_E_LIMIT:
		return PGW_EXIT_LIMIT;
	default:
		return pgw_exit_for(st);
	}
}

static bool chosen(const struct maps_args *a, const struct pgw_task *t)
{
	if (a->have_pid)
		return t->pid == a->pid;
	if (a->comm)
		return strlen(a->comm) == t->comm_len &&
		       memcmp(a->comm, t->comm, t->comm_len) == 0;
	return t->mm != 0;
}

struct pages_arg {
	struct out *o;
	const struct maps_proc *p;
};

static int page_out(void *arg, const struct pgw_vma_page *pg)
{
	struct pages_arg *a = arg;

	maps_say_page(a->o, a->p, pg);
	return 0;
}

/* --smaps: the VMA's record with its measure, --pages its pages; the
 * exit status it adds (2 a page table the image lacks, 4 a budget). */
static int measured(struct out *o, const struct maps_args *a,
		    const struct maps_proc *p, const struct pgw_space *user,
		    const struct pgw_vma *v)
{
	struct pgw_vma_usage u;
	struct pgw_err err;
	struct pages_arg pa = { o, p };
	enum pgw_status st = pgw_vma_measure(user, v, &u, NULL, NULL, &err);

	if (st != PGW_OK && st != PGW_E_LIMIT) {
		maps_say_vma(o, p, v, NULL);
		pgw_cli_error("pid %d: VMA 0x%llx-0x%llx not measured: %s",
			      (int)p->task->pid, (unsigned long long)v->start,
			      (unsigned long long)v->end, err.msg);
		return pgw_exit_for(st);
	}
	maps_say_vma(o, p, v, &u);
	if (a->pages)
		pgw_vma_measure(user, v, &u, page_out, &pa, &err);
	return st == PGW_E_LIMIT ? PGW_EXIT_LIMIT :
	       u.unknown ? PGW_EXIT_EVIDENCE : PGW_EXIT_OK;
}

/* One process: its record and VMAs; the exit status it adds. */
static int one(struct out *o, const struct maps_args *a,
	       struct pgw_linux_mm *lm, const struct pgw_task *t,
	       struct maps_summary *sum)
{
	struct maps_proc p = { .task = t, .smaps = a->smaps };
	struct pgw_space user = *o->space;
	struct pgw_vmas *vmas = NULL;
	struct pgw_err err;
	int rc = PGW_EXIT_OK;

	if (!t->mm) {
		pgw_cli_error("pid %d has no mm (a kernel thread, or "
			      "exiting): no VMAs", (int)t->pid);
		return PGW_EXIT_NOROOT;
	}
	enum pgw_status st = pgw_linux_vmas(lm, t->mm, &vmas, &err);
	if (st != PGW_OK) {
		p.why = err.msg;
		p.reason = maps_reason(st);
		rc = cut_status(st);
	} else if (!vmas->complete) {
		p.why = vmas->why;
		p.reason = maps_reason(vmas->status);
		rc = cut_status(vmas->status);
	}
	p.vmas = vmas;
	maps_say_process(o, &p);
	if (a->smaps && !t->has_pgd_pa) {
		pgw_cli_error("pid %d: its VMAs cannot be measured: %s",
			      (int)t->pid, t->why);
		rc = rc > PGW_EXIT_EVIDENCE ? rc : PGW_EXIT_EVIDENCE;
	}
	user.root = t->pgd_pa;
	/* --addr: the one VMA holding it, if any. */
	const struct pgw_vma *only = vmas && a->have_addr ?
		pgw_vmas_find(vmas, a->addr) : NULL;
	for (size_t i = 0; vmas && i < vmas->n; i++) {
		const struct pgw_vma *v = &vmas->vma[i];
		if (a->have_addr && v != only)
			continue;
		sum->shown++;
		if (!a->smaps || !t->has_pgd_pa) {
			maps_say_vma(o, &p, v, NULL);
			continue;
		}
		int r = measured(o, a, &p, &user, v);
		rc = rc > r ? rc : r;
	}
	sum->processes++;
	if (p.why) {
		sum->incomplete++;
		if (sum->complete) {
			static char why[300];
			snprintf(why, sizeof(why), "pid %d: %.250s",
				 (int)t->pid, p.why);
			sum->complete = false;
			sum->reason = p.reason;
			sum->why = why;
		}
	}
	pgw_vmas_free(vmas);
	return rc;
}

int cmd_maps(int argc, char **argv)
{
	struct maps_args a = { 0 };
	struct session s = { 0 };
	struct pgw_linux_mm *lm = NULL;
	struct pgw_err err = { 0 }, terr = { 0 };
	int rc;

	pgw_argp_parse(&maps_argp, argc, argv, &a);
	const struct formatter *fmt = formatter_by_name(a.in.opts.output_format);
	rc = session_start(&s, &a.in);
	if (rc) {
		session_close(&s);
		return rc;
	}
	session_say(&s);
	enum pgw_status st = pgw_linux_mm_open(&s.space, &lm, &err);
	if (st != PGW_OK) {
		pgw_cli_error("%s: no VMAs: %s", s.path, err.msg);
		session_close(&s);
		return st == PGW_E_NOTFOUND ? PGW_EXIT_NOROOT : cut_status(st);
	}
	size_t ntasks;
	enum pgw_status tst;
	const struct pgw_task *tasks = pgw_linux_mm_tasks(lm, &ntasks, &tst,
							  &terr);
	if (tst != PGW_OK)
		pgw_cli_error("%s: the task list was read in part (%zu "
			      "tasks): %s", s.path, ntasks, terr.msg);

	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { stdout, fmt, s.space.mode, NULL };
	out.space = &s.space;
	struct maps_summary sum = { .complete = true };
	size_t matched = 0;
	rc = PGW_EXIT_OK;
	out_table(&out, &maps_table, NULL);
	for (size_t i = 0; i < ntasks; i++) {
		if (!chosen(&a, &tasks[i]))
			continue;
		matched++;
		int r = one(&out, &a, lm, &tasks[i], &sum);
		rc = rc > r ? rc : r;
	}
	if (tst != PGW_OK && sum.complete) {
		sum.complete = false;
		sum.reason = maps_reason(tst);
		sum.why = terr.msg;
	}
	if (tst != PGW_OK)
		rc = rc > cut_status(tst) ? rc : cut_status(tst);
	sum.vmas = sum.shown;
	if (a.have_addr && !sum.shown && matched) {
		pgw_cli_error("%s: no VMA holds 0x%llx", s.path,
			      (unsigned long long)a.addr);
		rc = rc > PGW_EXIT_NOANSWER ? rc : PGW_EXIT_NOANSWER;
	}
	maps_say_summary(&out, &sum);
	if (!matched && (a.have_pid || a.comm)) {
		if (a.have_pid)
			pgw_cli_error("%s: no process with pid %d%s", s.path,
				      (int)a.pid, tst == PGW_OK ? "" :
				      " in the part of the task list read");
		else
			pgw_cli_error("%s: no process whose comm is '%.80s'%s",
				      s.path, a.comm, tst == PGW_OK ? "" :
				      " in the part of the task list read");
		rc = rc > PGW_EXIT_NOROOT ? rc : PGW_EXIT_NOROOT;
	}
	rc = pgw_cli_flush(rc);
	pgw_linux_mm_close(lm);
	session_close(&s);
	return rc;
}
