/*
 * pgwalk check: what is wrong in an address space (or in every one, with
 * --all-roots), one finding per record with the entries that show it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr_names.h"
#include "check_out.h"
#include "check_run.h"
#include "commands.h"
#include "exit_codes.h"
#include "lists.h"
#include "output.h"
#include "session.h"

enum { OPT_ALL_ROOTS = 1024, OPT_RULE, OPT_SEVERITY };

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "What to check:", 5 },
	{ "all-roots", OPT_ALL_ROOTS, NULL, 0,
	  "Every root in the image (as `pgwalk roots` finds them), and the "
	  "cross-view of roots and tasks", 5 },
	{ "rule", OPT_RULE, "RULE[,RULE...]", 0, "Only these rules", 5 },
	{ "severity", OPT_SEVERITY, "LEVEL", 0,
	  "Only findings at or above LEVEL (default low)", 5 },
	{ 0 }
};

static enum pgw_rule rule_arg(struct argp_state *state, const char *s,
			      size_t n)
{
	char names[256];

	for (unsigned i = 0; i < PGW_NRULES; i++)
		if (strlen(pgw_rule_key(i)) == n &&
		    strncmp(pgw_rule_key(i), s, n) == 0)
			return (enum pgw_rule)i;
	pgw_usage_error(state, "--rule: no rule '%.*s' (%s)", (int)n, s,
			list_join(names, sizeof(names), list_rule, ", "));
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct check_args *a = state->input;
	const struct pgw_root_request *r = &a->in.opts.space.root;
	char names[128];

	switch (key) {
	case OPT_ALL_ROOTS:
		a->all_roots = true;
		break;
	case OPT_RULE:
		for (const char *s = arg;; s++) {
			size_t n = strcspn(s, ",");
			a->rules |= 1u << rule_arg(state, s, n);
			s += n;
			if (!*s)
				break;
		}
		break;
	case OPT_SEVERITY: {
		unsigned i = 0;
		while (i < PGW_NSEVERITIES &&
		       strcmp(pgw_severity_key(i), arg) != 0)
			i++;
		if (i == PGW_NSEVERITIES)
			pgw_usage_error(state, "--severity: no level '%s' (%s)",
					arg, list_join(names, sizeof(names),
						       list_severity, ", "));
		a->threshold = (enum pgw_severity)i;
		break;
	}
	case ARGP_KEY_INIT:
		a->threshold = PGW_SEV_LOW;
		return session_parse_image(&a->in, "check", key, arg, state);
	case ARGP_KEY_SUCCESS:
		if (a->all_roots && (r->have_cpu || r->have_pid || r->comm ||
				     r->kernel_half || r->have_cr3 ||
				     r->have_table))
			pgw_usage_error(state, "--all-roots checks every root; "
					"give no --cr3, --cpu, --root, --pid, "
					"--comm or --kernel-root with it");
		break;
	default:
		return session_parse_image(&a->in, "check", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"Check an address space for what should not be there: W+X mappings, "
	"user-accessible pages in the kernel half, kernel-half entries that "
	"are not the kernel root's, writable aliases of the kernel text, page "
	"tables mapped at user level, reserved bits, frames beyond RAM; for a "
	"process whose task is known (--pid, --comm, --all-roots), its page "
	"tables against its VMAs: mappings outside every VMA or beyond a "
	"VMA's permissions, executable VMAs without a file, a deleted "
	"executable; with "
	"--all-roots every root in the image, and the roots no task owns and "
	"the tasks whose root the scan did not find.  Each finding names its "
	"rule, severity, range and root and the page-table entries that show "
	"it.\v"
	"man pgwalk (CHECK RULES) says what each rule looks at and what it "
	"exempts.  The root is chosen as for dump (--cr3, --cpu, --root, --pid, --comm, else the "
	"kernel's).  Output: text (a line per finding, its evidence below "
	"it), json (JSON Lines: finding and summary records), csv or tsv "
	"(the same columns, a header row).  Exit status: 0 no finding at or "
	"above --severity, 1 findings, 2 a page table the image lacks left "
	"part of a space unchecked (or the task list was cut short), 3 no "
	"root or mode, 4 the entry budget ran out, 64 usage, 65 bad image "
	"(or, with --all-roots, a task list, kallsyms or BTF the image "
	"damaged: the cross-view did not run), 66 cannot open, 69 a "
	"library it needs is not installed, 74 cannot write.";

/* --rule's and --severity's values, from the tables (and so for the
 * completion, which reads them here). */
static char *help_filter(int key, const char *text, void *input)
{
	char names[256];
	char *out = NULL;
	int n = -1;

	(void)input;
	if (key == OPT_RULE)
		n = asprintf(&out, "Only these rules: %s",
			     list_join(names, sizeof(names), list_rule, ", "));
	else if (key == OPT_SEVERITY)
		n = asprintf(&out, "Only findings at or above this severity: "
			     "%s (default low)",
			     list_join(names, sizeof(names), list_severity,
				       ", "));
	return n < 0 ? (char *)text : out;
}

static const struct argp check_argp = {
	options, parse_opt, "IMAGE", doc, session_children, help_filter, NULL
};

int check_on_finding(void *arg, const struct pgw_finding *f)
{
	struct check_run *c = arg;

	if ((c->args->rules && !(c->args->rules & (1u << f->rule))) ||
	    f->severity < c->args->threshold)
		return 0;
	c->sum.findings++;
	c->sum.by_severity[f->severity]++;
	c->sum.by_rule[f->rule]++;
	check_say_finding(c->out, f);
	return pgw_output_failed();
}

/* The VMA reader, opened once, at the first process root (its findings
 * are named by VMA from their first, with it). */
void check_vma_reader(struct check_run *c)
{
	struct pgw_err err = { 0 };

	if (c->lm_tried)
		return;
	c->lm_tried = true;
	if (pgw_linux_mm_open(c->kernel, &c->lm, &err) != PGW_OK)
		snprintf(c->vmas_why, sizeof(c->vmas_why), "no VMAs: %.250s",
			 err.msg);
	else if (c->names)
		names_lend_vmas(c->names, c->lm);
}

/* What a root's walk came to (rc, its stats), in the run's counts;
 * 0 or an exit status (message printed). */
int check_walked(struct check_run *c, const struct session *s,
		  const struct pgw_space *space,
		  const struct pgw_check_root_opts *ro, enum pgw_status rc,
		  const struct pgw_check_stats *st, const struct pgw_err *err)
{
	c->entries += st->walk.entries;
	c->entries_left -= st->walk.entries < c->entries_left ?
			   st->walk.entries : c->entries_left;
	c->sum.roots++;
	c->sum.tables_not_in_image += st->tables_not_in_image;
	if (ro->kernel_root) {
		c->sum.have_kernel_wx = true;
		c->sum.kernel_wx_pages = st->kernel_wx_pages;
	}
	if (rc == PGW_E_LIMIT) {
		c->walk_st = PGW_E_LIMIT;
		return 0;
	}
	if (rc == PGW_OK || rc == PGW_E_STOPPED)
		return 0;
	pgw_cli_error("%s: root 0x%llx: %s", s->path,
		      (unsigned long long)space->root, err->msg);
	return pgw_exit_for(rc);
}

/* One root's walk; 0 or an exit status (message printed). */
int check_one(struct check_run *c, const struct session *s,
		     const struct pgw_space *space,
		     const struct pgw_check_root_opts *ro)
{
	struct pgw_check_stats st = { 0 };
	struct pgw_err err = { 0 };
	struct pgw_check_root_opts budgeted = *ro;

	if (c->entries_left == 0) {
		c->unwalked++;
		c->walk_st = PGW_E_LIMIT;
		return 0;
	}
	budgeted.max_entries = c->entries_left;
	if (ro->owner && ro->owner->mm)
		check_vma_reader(c);
	enum pgw_status rc = pgw_check_root(c->ck, space, &budgeted,
					    check_on_finding, c, &st, &err);
	return check_walked(c, s, space, ro, rc, &st, &err);
}

/* The VMA rules of a process root: 0 or an exit status (message
 * printed).  Without its task or the VMA reader, the summary says they
 * were not checked, and why. */
int check_vmas(struct check_run *c, const struct session *s,
		      const struct pgw_space *user,
		      const struct pgw_task *owner)
{
	struct pgw_err err = { 0 };
	struct pgw_vmas *vmas = NULL;
	enum pgw_status st;

	/* The rules walk the user half again: with the budget spent (0
	 * would be the library's default budget), they are not checked and
	 * the summary's budget reason says so. */
	if (c->entries_left == 0) {
		c->walk_st = PGW_E_LIMIT;
		return 0;
	}
	check_vma_reader(c);
	if (c->lm && (!owner || !owner->mm))
		snprintf(c->vmas_why, sizeof(c->vmas_why), "root 0x%llx: its "
			 "process is not known (--pid or --comm name it)",
			 (unsigned long long)user->root);
	if (!c->lm || !owner || !owner->mm) {
		c->sum.vmas_why = c->vmas_why;
		return 0;
	}
	if ((st = pgw_linux_vmas(c->lm, owner->mm, &vmas, &err)) != PGW_OK ||
	    !vmas->complete) {
		snprintf(c->vmas_why, sizeof(c->vmas_why), "pid %d: %.250s",
			 (int)owner->pid, st != PGW_OK ? err.msg : vmas->why);
		c->sum.vmas_why = c->vmas_why;
		pgw_vmas_free(vmas);
		return 0;
	}
	st = pgw_check_vmas(c->ck, user, vmas, owner, c->entries_left,
			    check_on_finding, c, &err);
	pgw_vmas_free(vmas);
	if (st == PGW_E_LIMIT)
		c->walk_st = PGW_E_LIMIT;
	if (st == PGW_OK || st == PGW_E_LIMIT || st == PGW_E_STOPPED)
		return 0;
	pgw_cli_error("%s: root 0x%llx: %s", s->path,
		      (unsigned long long)user->root, err.msg);
	return pgw_exit_for(st);
}

/*
 * A PTI pair is two roots: the kernel copy, walked as asked, and the user
 * copy user mode runs on, whose kernel half (the entry text, meant to be
 * all it maps there) is walked too: what it maps beyond that, user mode
 * reaches.  Its user half is the kernel copy's.
 */
struct pgw_check_root_opts
check_pti_opts(const struct pgw_check_root_opts *like)
{
	struct pgw_check_root_opts ro = *like;

	ro.kernel_root = false;
	ro.user_half_only = false;
	ro.compare_kernel_half = false;
	ro.kernel_half_only = true;
	return ro;
}

int check_pti_user(struct check_run *c, const struct session *s,
			  uint64_t user_copy,
			  const struct pgw_check_root_opts *like)
{
	struct pgw_space sp = { s->img, s->space.mode, user_copy,
				s->space.enc };
	struct pgw_check_root_opts ro = check_pti_opts(like);

	return check_one(c, s, &sp, &ro);
}

/* The session's root's PTI user copy (0: none; the root is no kernel
 * copy, or is itself the user copy, walked whole). */
static uint64_t session_pti_user(const struct session *s)
{
	struct pgw_pti p;
	uint64_t t = s->space.root + PGW_PAGE_SIZE;

	pgw_pti_check(s->img, s->space.mode, &s->space.enc, t, &p);
	return p.is_user_root && p.kernel_table == s->space.root ? t : 0;
}

/* The task that owns the chosen root, for the findings (--pid, --comm). */
static const struct pgw_task *chosen_task(const struct pgw_task *tasks,
					  size_t n, const struct session *s)
{
	if (s->why.root.source != PGW_ROOT_TASK)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (tasks[i].pid == s->why.root.pid)
			return &tasks[i];
	return NULL;
}

static int check_single(struct check_run *c, const struct session *s,
			const struct pgw_space *kernel)
{
	struct pgw_task *tasks = NULL;
	size_t ntasks = 0;
	struct pgw_err terr = { 0 };

	/* The session found the process through this list; read again, it
	 * names the findings' owner (without it they are unnamed, no
	 * less true). */
	if (s->why.root.source == PGW_ROOT_TASK)
		(void)pgw_linux_tasks(kernel, &tasks, &ntasks, &terr);
	bool is_kernel = s->space.root == kernel->root &&
			 s->space.root_upper == kernel->root_upper;
	struct pgw_check_root_opts ro = {
		.kernel_root = is_kernel,
		/* Two roots: the upper table, when it is not the
		 * kernel's (--ttbr1). */
		.compare_kernel_half = !is_kernel,
		.owner = chosen_task(tasks, ntasks, s),
	};
	int rc = check_one(c, s, &s->space, &ro);
	if (!rc && !ro.kernel_root)
		rc = check_vmas(c, s, &s->space, ro.owner);
	uint64_t user_copy = session_pti_user(s);
	if (!rc && user_copy)
		rc = check_pti_user(c, s, user_copy, &ro);
	pgw_linux_tasks_free(tasks);
	return rc;
}

/* Two VMCOREINFO notes naming two kernels: the kernel root, its text
 * and every comparison with it came from the first, so the check may be
 * of the wrong kernel: incomplete, exit 65 (the session said which key). */
static void check_conflict(struct check_run *c, const struct session *s)
{
	if (!pgw_vmcoreinfo_conflict(s->img))
		return;
	c->sum.reason = "vmcoreinfo-conflict";
	c->sum.complete = false;
	c->names_exit = PGW_EXIT_BADIMAGE;
}

/* The summary of every root checked: cut, a task list cut short by a
 * page the image lacks (partial evidence); unread, one that could not be
 * read.  Returns -1: written. */
int check_summary_out(struct check_run *c, const struct session *s, bool cut,
		   bool unread)
{
	c->sum.complete = c->walk_st == PGW_OK &&
			  !c->sum.tables_not_in_image && !cut && !unread;
	c->sum.reason = c->sum.complete ? NULL :
			c->walk_st == PGW_E_LIMIT ? "budget" :
			c->sum.tables_not_in_image ?
			pgw_stop_key(PGW_STOP_TABLE_NOT_IN_IMAGE) :
			cut ? "data-not-in-image" : "task-list-unread";
	check_conflict(c, s);
	check_say_summary(c->out, &c->sum);
	return -1;
}

/* The kernel's own root, which every root is compared with: the
 * session's when it is the kernel's, else opened as such.  Without one,
 * the chosen root stands in (said on stderr). */
static struct pgw_space kernel_space(const struct session *s)
{
	struct pgw_space_request req = s->opts.space;
	struct pgw_space_why why;
	struct pgw_space kernel;
	struct pgw_err err = { 0 };

	memset(&req.root, 0, sizeof(req.root));
	req.root.kernel = true;
	if (pgw_space_open(s->img, &req, &kernel, &why, &err) == PGW_OK)
		return kernel;
	pgw_cli_error("%s: no kernel root to compare with (%s): the kernel "
		      "half is checked as this root's own", s->path, err.msg);
	return s->space;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { 0 };
	struct session s = { 0 };
	struct pgw_err err = { 0 };
	int rc;

	pgw_argp_parse(&check_argp, argc, argv, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	a.in.opts.space.root.kernel |= a.all_roots;
	if ((rc = session_start(&s, &a.in))) {
		session_close(&s);
		return rc;
	}
	session_say(&s);
	struct pgw_space kernel = a.all_roots ? s.space : kernel_space(&s);
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { stdout, fmt, s.space.mode, NULL, false };
	struct check_run c = {
		.out = &out, .args = &a,
		.sum = { .threshold = a.threshold },
		.entries_left = a.in.opts.max_entries ?
				a.in.opts.max_entries :
				pgw_default_budget(s.img),
	};
	enum pgw_status st = pgw_check_open(&kernel, &c.ck, &err);
	if (st != PGW_OK) {
		pgw_cli_error("%s: %s", s.path, err.msg);
		session_close(&s);
		return pgw_exit_for(st);
	}
	c.sum.text_why = pgw_check_text_why(c.ck);
	c.kernel = &kernel;
	/* Findings named: kallsyms is read for the check already (the
	 * kernel text's bounds), and the VMA reader once a process root
	 * opens it. */
	struct addr_names names;
	names_open_kernel(&names, &kernel);
	out.names = c.names = &names;
	out_table(&out, &check_table, NULL);
	uint64_t budget = c.entries_left;
	rc = !a.all_roots ? check_single(&c, &s, &kernel) :
	     s.space.mode->root_select_bit ? check_tasks(&c, &s) :
					     check_all(&c, &s);
	if (c.unwalked)
		pgw_cli_error("%s: the entry budget (%llu, --max-entries) ran "
			      "out: %zu roots not walked", s.path,
			      (unsigned long long)budget, c.unwalked);
	if (a.in.opts.verbose)
		fprintf(stderr, "pgwalk: check: %zu roots walked, %llu "
			"entries, and %llu by the roots scan (one budget of "
			"%llu for the command)\n", c.sum.roots,
			(unsigned long long)c.entries,
			(unsigned long long)c.scan_entries,
			(unsigned long long)budget);
	if (rc == 0) {
		c.sum.complete = c.walk_st == PGW_OK &&
				 !c.sum.tables_not_in_image;
		c.sum.reason = c.walk_st == PGW_E_LIMIT ? "budget" :
			       c.sum.tables_not_in_image ?
			       pgw_stop_key(PGW_STOP_TABLE_NOT_IN_IMAGE) :
			       NULL;
		check_conflict(&c, &s);
		check_say_summary(&out, &c.sum);
	}
	if (rc <= 0) {
		/* The highest of 1 (findings), 2 and 4 (docs/output.md). */
		rc = c.walk_st == PGW_E_LIMIT ? PGW_EXIT_LIMIT :
		     c.sum.tables_not_in_image || !c.sum.complete ?
		     PGW_EXIT_EVIDENCE :
		     c.sum.findings ? PGW_EXIT_NOANSWER : PGW_EXIT_OK;
		rc = pgw_cli_flush(pgw_exit_worst(rc, c.names_exit));
	}
	names_close(&names);
	pgw_linux_mm_close(c.lm);
	pgw_check_close(c.ck);
	session_close(&s);
	return rc;
}
