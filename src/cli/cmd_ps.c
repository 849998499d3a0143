/*
 * pgwalk ps: the kernel's task list, kernel threads included, each task
 * with its pid, tgid, parent, comm, state, CPU and root, read through the
 * kernel's own page tables (kallsyms and BTF, or the layout inferred
 * without BTF); the list links thread-group leaders, and each one's
 * other threads follow it, as crash's ps lists them.
 */
#include <stdlib.h>

#include "commands.h"
#include "exit_codes.h"
#include "output.h"
#include "ps_out.h"
#include "session.h"

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct image_args *a = state->input;
	const struct pgw_root_request *r = &a->opts.space.root;

	if (key == ARGP_KEY_SUCCESS &&
	    (r->have_cpu || r->have_pid || r->comm || r->kernel_half))
		pgw_usage_error(state, "ps reads the task list through the "
				"kernel's root; only --root or --cr3 may name "
				"it");
	return key == ARGP_KEY_SUCCESS ? 0 :
		session_parse_image(a, "ps", key, arg, state);
}

static const char doc[] =
	"List the kernel's tasks in IMAGE, kernel threads included: pid, "
	"tgid, ppid (real_parent's tgid), state (as crash spells it: RU, IN, "
	"UN, ID, ST, TR, ZO, DE), the CPU it runs or last ran on, whether a "
	"CPU's saved registers show it running there (its stack pointer in "
	"the task's kernel stack, or in user mode CR3 its root, on arm64 "
	"its pc and stack pointer mapped by the task's tables; marked > in "
	"text, as crash marks it; without saved registers, as its on_cpu "
	"says), comm, its mm's root (none for "
	"kernel threads), its task_struct and, where the layout has it, its "
	"start time (ns since boot).  The task list is read through the "
	"kernel's root: init_task from kallsyms and the layout from BTF, or "
	"without BTF the layout inferred from the image and cross-checked; "
	"fields the layout does not have are left empty.  Every thread is "
	"listed, as crash's ps does: each process's other threads follow it "
	"(a leader's pid is its tgid); without thread links in the layout "
	"(the inferred one) only the leaders, said in the summary.\v"
	"-v says how the kernel root was chosen and how the task list was "
	"read.  Output: text (a table and a # summary line), json (JSON "
	"Lines: task records, then a summary), csv or tsv (the same columns, "
	"a header row).  Exit status: 0 (also without a task list: the "
	"summary says why), 2 the list was cut short by a page the image "
	"lacks, 3 no mode or kernel root, 4 the list "
	"ran past its bound, 64 usage, 65 a task list, kallsyms or BTF the "
	"image damaged (the tasks read before are listed), 66 cannot open, "
	"74 cannot write.";

static const struct argp ps_argp = {
	NULL, parse_opt, "IMAGE", doc, session_children, NULL, NULL
};

/* No task list (no kallsyms or layout to read it with) is an answer, as
 * roots' unnamed roots are: the summary says why, exit 0. */
/* A task's record: a field the kernel's layout does not have is
 * absent. */
static void say_task(struct out *o, const struct pgw_task *t,
		     size_t cpu_regs)
{
	const char *st = pgw_task_state_key(t);
	struct task_rec r = {
		.pid = (uint32_t)t->pid,
		.tgid = (uint32_t)t->tgid,
		.ppid = { (uint32_t)t->ppid, t->ppid >= 0 },
		.comm = { (const char *)t->comm, t->comm_len },
		.state = st,
		.state_value = { t->state, st != NULL },
		.cpu = { t->cpu, t->has_cpu },
		.running = { t->on_cpu, t->has_on_cpu },
		.current_cpu = { t->current_cpu, t->has_current },
		.current_by = t->has_current ?
			pgw_current_by_key(t->current_by) : NULL,
		.marked = cpu_regs ? t->has_current :
				     t->has_on_cpu && t->on_cpu,
		.kthread = t->kthread,
		.task = t->task,
		.mm = { t->mm, t->mm != 0 },
		.root = { t->pgd_pa, t->has_pgd_pa },
		.start_time = { t->start_time, t->has_start_time },
		.why = t->mm && !t->has_pgd_pa ? t->why : NULL,
	};
	out_record(o, &task_rec_type, &r);
}

static int list_status(enum pgw_status st)
{
	if (st == PGW_OK || st == PGW_E_NOTFOUND)
		return PGW_EXIT_OK;
	if (st == PGW_E_NODATA || st == PGW_E_UNMAPPED)
		return PGW_EXIT_EVIDENCE;
	return pgw_exit_for(st);
}

int cmd_ps(int argc, char **argv)
{
	struct image_args a = { 0 };
	struct session s = { 0 };
	struct pgw_task *tasks = NULL;
	struct pgw_tasks_how how;
	struct pgw_err err = { 0 };
	size_t n = 0;
	int rc;

	pgw_argp_parse(&ps_argp, argc, argv, &a);
	const struct formatter *fmt = formatter_by_name(a.opts.output_format);
	rc = session_start_kernel(&s, &a);
	if (rc)
		return rc;
	session_say(&s);
	enum pgw_status st = session_tasks(&s, &tasks, &n, &how, &err);
	if (n == 0)
		pgw_cli_error("%s: no task list: %s", s.path, err.msg);
	else if (st != PGW_OK)
		pgw_cli_error("%s: the task list is cut short after %zu tasks: "
			      "%s", s.path, n, err.msg);
	session_say_kernel_cache(&s);
	if (n && s.opts.verbose)
		out_text_line(stderr, "pgwalk: names: ", how.why, "\n");
	/* Each process's other threads after it, as crash's ps lists them. */
	struct pgw_task *all = NULL;
	struct pgw_err terr = { 0 };
	size_t nall = 0;
	enum pgw_status tst = n ? pgw_linux_task_threads(&s.space, &how.layout,
							 tasks, n, &all, &nall,
							 &terr) :
				  PGW_E_UNSUPPORTED;
	if (n && tst != PGW_OK && tst != PGW_E_UNSUPPORTED)
		pgw_cli_error("%s: the thread lists are cut short: %s", s.path,
			      terr.msg);
	if (all && nall >= n) {
		pgw_linux_tasks_free(tasks);
		tasks = all;
		n = nall;
	} else {
		pgw_linux_tasks_free(all);
	}
	if (st == PGW_OK && tst != PGW_OK && tst != PGW_E_UNSUPPORTED) {
		st = tst;
		err = terr;
	}
	size_t cpu_regs = n ? pgw_linux_task_current(&s.space, &how.layout,
						     tasks, n) : 0;
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { stdout, fmt, s.space.mode, NULL };
	struct ps_summary_rec sum = {
		.tasks = n, .cpu_registers = cpu_regs,
		.method = n ? pgw_tasks_method_key(how.method) : NULL,
		.method_why = n ? how.why : NULL, .complete = st == PGW_OK,
		.why = st == PGW_OK ? NULL : err.msg,
		.threads = n && tst != PGW_E_UNSUPPORTED,
	};
	out_table(&out, &ps_table, NULL);
	for (size_t i = 0; i < n; i++) {
		say_task(&out, &tasks[i], cpu_regs);
		sum.processes += tasks[i].mm && tasks[i].pid == tasks[i].tgid;
		sum.kernel_threads += !tasks[i].mm;
	}
	out_record(&out, &ps_summary_rec_type, &sum);
	rc = pgw_cli_flush(list_status(st));
	pgw_linux_tasks_free(tasks);
	session_close(&s);
	return rc;
}
