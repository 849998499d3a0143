/*
 * pgwalk roots: every page-table root in physical memory (the kernel
 * root's kernel half found copied in each top table), named by the
 * kernel's own task list where the image carries kallsyms and BTF, with
 * the cross-view of the two: roots no task owns, tasks whose root the
 * scan did not find.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../formats/image_page.h"
#include "commands.h"
#include "exit_codes.h"
#include "output.h"
#include "roots_out.h"
#include "session.h"

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct image_args *a = state->input;
	const struct pgw_root_request *r = &a->opts.space.root;

	switch (key) {
	case ARGP_KEY_SUCCESS:
		if (r->have_cpu || r->have_pid || r->comm || r->kernel_half)
			pgw_usage_error(state, "roots lists every root; only "
					"--root or --cr3 may name the kernel's "
					"(the one the others are compared "
					"with)");
		break;
	default:
		return session_parse_image(a, "roots", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"List every page-table root in IMAGE's physical memory: the kernel's, "
	"and every top table whose kernel half is a copy of it (each "
	"process's, PTI pairs as one), with the CPUs whose CR3 selects it, "
	"what its user half maps and a kind (kernel, process, or a doubtful "
	"kind with its reason).  Where the image carries kallsyms and BTF "
	"(Linux 6.0+ with CONFIG_DEBUG_INFO_BTF), the kernel's task list "
	"names each root (pid, comm), and the cross-view lists roots no task "
	"owns (orphan) and tasks whose root the scan did not find "
	"(unowned-task).\v"
	"The kernel root comes from VMCOREINFO (the image's note, or found in "
	"memory), else from the kernel-root scan; --root or --cr3 names it "
	"instead.  -v says on stderr how the kernel root was chosen, what the "
	"scan looked at and how long it took, how many pages were "
	"decompressed (a kdump's), and how the task list was read.  Output: text (a table), json (JSON Lines: root, orphan, "
	"unowned-task, names and summary records), csv or tsv (the same "
	"columns, a header row).  Exit status: 0, 2 the task list was cut "
	"short by a page the image lacks, 3 no mode or kernel root, 4 a "
	"budget cut the scan or the list short, 64 usage, 65 bad image (or a "
	"task list, kallsyms or BTF the image damaged), 66 cannot open, 74 "
	"cannot write.";

static const struct argp roots_argp = {
	NULL, parse_opt, "IMAGE", doc, session_children, NULL, NULL
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The exit status for a task list that ended with st (PGW_E_NOTFOUND: a
 * kernel without kallsyms or BTF, which is no failure). */
static int names_status(enum pgw_status st)
{
	switch (st) {
	case PGW_OK:
	case PGW_E_NOTFOUND:
		return PGW_EXIT_OK;
	case PGW_E_NODATA:
	case PGW_E_UNMAPPED:
		return PGW_EXIT_EVIDENCE;
	default:
		return pgw_exit_for(st);
	}
}

static void count(struct roots_report *r)
{
	for (size_t i = 0; i < r->roots->n; i++) {
		r->kinds[r->roots->root[i].kind]++;
		if (r->view && r->view->first_owner[i] <
				       r->view->first_owner[i + 1])
			r->named++;
	}
	for (size_t t = 0; t < r->ntasks; t++)
		r->processes += r->tasks[t].mm != 0;
}

/* -v: how the kernel root was chosen (session_say), then what the scan
 * and the task list cost. */
static void say(const struct session *s, const struct pgw_roots *roots,
		double scan_ms, const struct roots_report *r,
		double names_ms)
{
	const struct pgw_scan_stats *st = &roots->scan;

	if (!s->opts.verbose)
		return;
	session_say(s);
	fprintf(stderr, "pgwalk: scan: %llu of %llu pages looked at (%llu "
		"not in the image, %llu in holes of the sparse file or zero-filled), %llu "
		"candidates, %llu entries walked, %.1f ms\n",
		(unsigned long long)st->scanned,
		(unsigned long long)st->pages, (unsigned long long)st->absent,
		(unsigned long long)st->holes,
		(unsigned long long)st->candidates,
		(unsigned long long)st->entries, scan_ms);
	if (r->view && !r->names_why)
		fprintf(stderr, "pgwalk: task list: %zu tasks, %.1f ms\n",
			r->ntasks, names_ms);
	/* Decompressing is what a kdump's scans cost: each page once is
	 * the aim, so the count is said beside the pages held. */
	uint64_t filled = pgw_image_pages_filled(s->img);
	struct pgw_evidence ev;
	pgw_image_evidence(s->img, &ev);
	if (filled)
		fprintf(stderr, "pgwalk: pages decompressed: %llu, of %llu "
			"pages in the image\n", (unsigned long long)filled,
			(unsigned long long)ev.pages_dumped);
	if (r->method)
		out_text_line(stderr, "pgwalk: names: ", r->method_why, "\n");
}

int cmd_roots(int argc, char **argv)
{
	struct image_args a = { 0 };
	struct session s = { 0 };
	struct pgw_roots *roots = NULL;
	struct pgw_task *tasks = NULL;
	struct pgw_roots_view *view = NULL;
	struct pgw_err err = { 0 }, terr = { 0 };
	int rc;

	pgw_argp_parse(&roots_argp, argc, argv, &a);
	const struct formatter *fmt = formatter_by_name(a.opts.output_format);
	/* Every other root is compared with the kernel's. */
	rc = session_start_kernel(&s, &a);
	if (rc)
		return rc;
	struct pgw_roots_opts ro = {
		.scan = { .max_entries = a.opts.max_entries,
			  .enc = s.space.enc },
	};
	double t0 = now_ms();
	enum pgw_status st = pgw_roots_scan(s.img, s.space.mode, s.space.root,
					    &ro, &roots, &err);
	double scan_ms = now_ms() - t0;
	if (st != PGW_OK) {
		pgw_cli_error("%s: %s", s.path, err.msg);
		session_close(&s);
		return pgw_exit_for(st);
	}

	size_t ntasks = 0;
	t0 = now_ms();
	struct pgw_tasks_how how;
	enum pgw_status tst = pgw_linux_tasks_how(&s.space, &tasks, &ntasks,
						  &how, &terr);
	double names_ms = now_ms() - t0;
	if (ntasks && (st = pgw_roots_view_build(roots, tasks, ntasks, &view,
						 &err)) != PGW_OK) {
		pgw_cli_error("%s", err.msg);
		rc = pgw_exit_for(st);
		goto out;
	}
	struct roots_report r = {
		.img = s.img, .roots = roots, .tasks = tasks,
		.ntasks = ntasks, .view = view,
		.names_why = tst == PGW_OK ? NULL : terr.msg,
		.method = ntasks ? pgw_tasks_method_key(how.method) : NULL,
		.method_why = ntasks ? how.why : NULL,
		.complete = roots->scan.complete,
		.reason = "budget",
		.why = roots->scan.why,
	};
	/* The summary says whether a budget cut the answer short (the
	 * scan's, or the task list's bound); the names record, why the
	 * roots are not all named (no kallsyms or BTF, a list cut short by
	 * a page the image lacks or by damage). */
	if (tst == PGW_E_LIMIT && r.complete) {
		r.complete = false;
		r.why = terr.msg;
	}
	/* Two notes naming two kernels: the kernel root, and every
	 * comparison with it, came from the first (exit 65). */
	const char *conflict = pgw_vmcoreinfo_conflict(s.img);
	if (conflict) {
		r.complete = false;
		r.reason = "vmcoreinfo-conflict";
		r.why = conflict;
	}
	count(&r);
	say(&s, roots, scan_ms, &r, names_ms);
	if (tst != PGW_OK && ntasks == 0)
		pgw_cli_error("%s: roots are unnamed: %s", s.path, terr.msg);
	else if (tst != PGW_OK)
		pgw_cli_error("%s: roots are named as far as the task list was "
			      "read (%zu tasks): %s", s.path, ntasks,
			      terr.msg);

	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { stdout, fmt, s.space.mode, NULL };
	roots_say(&out, &r);
	rc = !roots->scan.complete ? PGW_EXIT_LIMIT : names_status(tst);
	if (conflict)
		rc = PGW_EXIT_BADIMAGE;
	rc = pgw_cli_flush(rc);
out:
	pgw_roots_view_free(view);
	pgw_linux_tasks_free(tasks);
	pgw_roots_free(roots);
	session_close(&s);
	return rc;
}
