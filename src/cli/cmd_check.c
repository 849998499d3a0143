/*
 * pgwalk check: what is wrong in an address space (or in every one, with
 * --all-roots), one finding per record with the entries that show it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr_names.h"
#include "budget_jobs.h"
#include "check_out.h"
#include "commands.h"
#include "exit_codes.h"
#include "lists.h"
#include "output.h"
#include "session.h"

enum { OPT_ALL_ROOTS = 1024, OPT_RULE, OPT_SEVERITY };

struct check_args {
	struct image_args in;
	bool all_roots;
	unsigned rules;              /* bit per enum pgw_rule; 0: all */
	enum pgw_severity threshold;
};

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

struct check_run {
	struct out *out;
	const struct check_args *args;
	struct check_summary sum;
	struct pgw_check *ck;
	const struct pgw_space *kernel;
	struct pgw_linux_mm *lm;     /* the VMA reader, opened at the first
					process root */
	struct addr_names *names;    /* the findings' names (NULL: none) */
	bool lm_tried;
	char vmas_why[300];
	/* One entry budget for the whole command (--max-entries, else the
	 * image's default): the roots scan's walks and every root's walk
	 * draw on it, so a thousand roots sharing one huge user half cost
	 * one budget, not a thousand. */
	uint64_t entries_left;
	uint64_t entries;            /* examined by the roots' walks */
	uint64_t scan_entries;       /* and by the roots scan's */
	size_t unwalked;             /* roots the budget left unwalked */
	enum pgw_status walk_st;     /* the worst walk: PGW_E_LIMIT */
	int names_exit;              /* the task list could not be read: 65
					damaged, 69 unsupported (0: read,
					absent, or cut short) */
};

static int on_finding(void *arg, const struct pgw_finding *f)
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
static void vma_reader(struct check_run *c)
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
static int walked(struct check_run *c, const struct session *s,
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
static int check_one(struct check_run *c, const struct session *s,
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
		vma_reader(c);
	enum pgw_status rc = pgw_check_root(c->ck, space, &budgeted,
					    on_finding, c, &st, &err);
	return walked(c, s, space, ro, rc, &st, &err);
}

/* The VMA rules of a process root: 0 or an exit status (message
 * printed).  Without its task or the VMA reader, the summary says they
 * were not checked, and why. */
static int check_vmas(struct check_run *c, const struct session *s,
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
	vma_reader(c);
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
			    on_finding, c, &err);
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
static struct pgw_check_root_opts
pti_user_opts(const struct pgw_check_root_opts *like)
{
	struct pgw_check_root_opts ro = *like;

	ro.kernel_root = false;
	ro.user_half_only = false;
	ro.compare_kernel_half = false;
	ro.kernel_half_only = true;
	return ro;
}

static int check_pti_user(struct check_run *c, const struct session *s,
			  uint64_t user_copy,
			  const struct pgw_check_root_opts *like)
{
	struct pgw_space sp = { s->img, s->space.mode, user_copy,
				s->space.enc };
	struct pgw_check_root_opts ro = pti_user_opts(like);

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
static int summary(struct check_run *c, const struct session *s, bool cut,
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

/* The roots --all-roots checks, their owners' tasks, and who owns
 * which (view; NULL without a task list). */
struct root_set {
	const struct pgw_roots *roots;
	const struct pgw_task *tasks;
	const struct pgw_roots_view *view;
};

/* Root i's check: its options and space; false: not checked (a kind
 * Linux makes by design without a process, which orphan-root says). */
static bool root_opts(const struct session *s, const struct root_set *set,
		      size_t i, struct pgw_check_root_opts *ro,
		      struct pgw_space *sp)
{
	const struct pgw_root_found *f = &set->roots->root[i];
	const struct pgw_roots_view *view = set->view;
	bool kernel = f->table == set->roots->kernel_root;

	if (!pgw_check_kind(f->kind))
		return false;
	*sp = (struct pgw_space){ s->img, s->space.mode, f->table,
				  s->space.enc };
	*ro = (struct pgw_check_root_opts){
		.kernel_root = kernel, .user_half_only = !kernel,
	};
	if (view && view->first_owner[i] < view->first_owner[i + 1])
		ro->owner = &set->tasks[view->owner[view->first_owner[i]]];
	return true;
}

/* Root i's VMA rules, when it is a process's. */
static int root_vmas(struct check_run *c, const struct session *s,
		     const struct root_set *set, size_t i,
		     const struct pgw_space *sp,
		     const struct pgw_check_root_opts *ro)
{
	if (ro->kernel_root || set->roots->root[i].kind != PGW_RK_PROCESS)
		return 0;
	return check_vmas(c, s, sp, ro->owner);
}

/*
 * The roots checked one after another before the rest go to threads: up
 * to the kernel root's (pt-writable looks for its tables in every root
 * after it) and at least one (no-nx comes with the first walk), so the
 * threads' checks only read what the check holds.
 */
static size_t serial_roots(const struct pgw_roots *roots)
{
	size_t first = roots->n;

	for (size_t i = 0; i < roots->n; i++) {
		if (!pgw_check_kind(roots->root[i].kind))
			continue;
		if (roots->root[i].table == roots->kernel_root)
			return i + 1;
		if (first == roots->n)
			first = i;
	}
	return first == roots->n ? roots->n : first + 1;
}

/* A walk on a thread: root's, or its PTI user copy's, and what it found
 * for its turn. */
struct root_job {
	size_t root;
	bool pti;
	struct pgw_check_root_opts ro;
	struct pgw_finding *found;
	size_t nfound, room;
	struct pgw_check_stats st;
};

struct root_jobs {
	struct check_run *c;
	const struct session *s;
	const struct root_set *set;
	struct root_job *job;
	struct pgw_space *spaces;
	size_t n;
	int rc;
};

static int keep_finding(void *arg, const struct pgw_finding *f)
{
	struct root_job *j = arg;

	if (j->nfound == j->room) {
		size_t room = j->room ? 2 * j->room : 16;
		struct pgw_finding *p = realloc(j->found, room * sizeof(*p));
		if (!p)
			return 1;   /* stopped: done again in turn */
		j->found = p;
		j->room = room;
	}
	j->found[j->nfound++] = *f;
	return 0;
}

static enum pgw_status root_ahead(void *arg, size_t i,
				  const struct pgw_space *space,
				  uint64_t max_entries, uint64_t *spent_ret,
				  struct pgw_err *err)
{
	struct root_jobs *a = arg;
	struct root_job *j = &a->job[i];
	struct pgw_check_root_opts ro = j->ro;

	ro.max_entries = max_entries;
	enum pgw_status st = pgw_check_root(a->c->ck, space, &ro,
					    keep_finding, j, &j->st, err);
	*spent_ret = j->st.walk.entries;
	return st;
}

/* A walk run ahead, taken: its findings said, as check_one would. */
static int took(struct check_run *c, const struct session *s,
		const struct pgw_space *space, const struct root_job *j)
{
	struct pgw_err err = { 0 };
	enum pgw_status rc = PGW_OK;

	if (j->ro.owner && j->ro.owner->mm)
		vma_reader(c);
	for (size_t k = 0; k < j->nfound && rc == PGW_OK; k++)
		if (on_finding(c, &j->found[k]))
			rc = PGW_E_STOPPED;
	return walked(c, s, space, &j->ro, rc, &j->st, &err);
}

static int root_turn(void *arg, size_t i, bool taken, uint64_t spent)
{
	struct root_jobs *a = arg;
	struct root_job *j = &a->job[i];
	const struct pgw_space *sp = &a->spaces[i];
	int rc;

	(void)spent;   /* the walk's stats hold it */
	rc = taken ? took(a->c, a->s, sp, j) : check_one(a->c, a->s, sp,
							   &j->ro);
	if (!rc && !j->pti)
		rc = root_vmas(a->c, a->s, a->set, j->root, sp, &j->ro);
	free(j->found);
	j->found = NULL;
	a->rc = rc;
	return rc != 0;
}

/* Roots first .. on the image's threads: each root's walk, and its PTI
 * user copy's, a job (budget_jobs.h: the command's budget spent in
 * order); the VMA rules in turn, in the calling thread (the VMA reader
 * is its own).  0 or an exit status (message printed). */
static int check_rest(struct check_run *c, const struct session *s,
		      const struct root_set *set, size_t first)
{
	const struct pgw_roots *roots = set->roots;
	size_t most = 2 * (roots->n - first);
	struct pgw_err err = { 0 };
	struct root_jobs a = {
		.c = c, .s = s, .set = set,
		.job = calloc(most + 1, sizeof(*a.job)),
		.spaces = calloc(most + 1, sizeof(*a.spaces)),
	};
	enum pgw_status st = PGW_OK;

	if (!a.job || !a.spaces)
		st = pgw_cli_out_of_memory(&err);
	for (size_t i = first; i < roots->n && st == PGW_OK; i++) {
		struct pgw_check_root_opts ro;
		if (!root_opts(s, set, i, &ro, &a.spaces[a.n]))
			continue;
		a.job[a.n++] = (struct root_job){ .root = i, .ro = ro };
		uint64_t user_copy = roots->root[i].pti_user;
		if (!user_copy)
			continue;
		a.spaces[a.n] = a.spaces[a.n - 1];
		a.spaces[a.n].root = user_copy;
		a.job[a.n++] = (struct root_job){
			.root = i, .pti = true, .ro = pti_user_opts(&ro),
		};
	}
	struct budget_jobs jobs = {
		.spaces = a.spaces, .n = a.n, .left = &c->entries_left,
		.ahead = root_ahead, .turn = root_turn, .arg = &a,
	};
	if (st == PGW_OK)
		st = budget_jobs_run(&jobs, &err);
	for (size_t i = 0; a.job && i < a.n; i++)
		free(a.job[i].found);
	free(a.job);
	free(a.spaces);
	if (st != PGW_OK) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		return pgw_exit_for(st);
	}
	return a.rc;
}

static int check_all(struct check_run *c, const struct session *s)
{
	struct pgw_roots *roots = NULL;
	struct pgw_task *tasks = NULL;
	struct pgw_roots_view *view = NULL;
	struct pgw_err err = { 0 }, terr = { 0 };
	size_t ntasks = 0;
	int rc = 0;
	struct pgw_roots_opts opts = {
		.scan = { .max_entries = c->entries_left,
			  .enc = s->space.enc },
	};
	enum pgw_status st = pgw_roots_scan(s->img, s->space.mode,
					    s->space.root, &opts, &roots, &err);

	if (st != PGW_OK) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		return pgw_exit_for(st);
	}
	c->scan_entries = roots->scan.entries;
	c->entries_left -= roots->scan.entries < c->entries_left ?
			   roots->scan.entries : c->entries_left;
	enum pgw_status tst = pgw_linux_tasks(&s->space, &tasks, &ntasks,
					      &terr);
	if (ntasks && (st = pgw_roots_view_build(roots, tasks, ntasks, &view,
						 &err)) != PGW_OK) {
		pgw_cli_error("%s", err.msg);
		rc = pgw_exit_for(st);
		goto out;
	}
	if (tst != PGW_OK) {
		c->sum.names_why = terr.msg;
		pgw_cli_error("%s: roots are named as far as the task list "
			      "was read (%zu tasks): %s", s->path, ntasks,
			      terr.msg);
	}
	if (!roots->scan.complete)
		c->walk_st = PGW_E_LIMIT;
	struct root_set set = { roots, tasks, view };
	size_t first = serial_roots(roots);
	for (size_t i = 0; i < first && !rc; i++) {
		struct pgw_check_root_opts ro;
		struct pgw_space sp;
		if (!root_opts(s, &set, i, &ro, &sp))
			continue;
		rc = check_one(c, s, &sp, &ro);
		if (!rc)
			rc = root_vmas(c, s, &set, i, &sp, &ro);
		if (!rc && roots->root[i].pti_user)
			rc = check_pti_user(c, s, roots->root[i].pti_user, &ro);
	}
	if (!rc)
		rc = check_rest(c, s, &set, first);
	if (!rc && (st = pgw_check_roots(c->ck, roots, tasks, view,
					 on_finding, c, &err)) &&
	    st != PGW_E_STOPPED) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		rc = pgw_exit_for(st);
	}
	if (tst == PGW_E_LIMIT)
		c->walk_st = PGW_E_LIMIT;
	/* A list cut short by a page the image lacks is partial evidence;
	 * a kernel without kallsyms or BTF leaves the cross-view unchecked
	 * (names_why says why); a list, kallsyms or BTF the image damaged
	 * leaves it unrun, and the check incomplete: the hidden process it
	 * exists to find could be there (exit 65, as roots). */
	bool cut = tst == PGW_E_NODATA || tst == PGW_E_UNMAPPED;
	bool unread = tst != PGW_OK && tst != PGW_E_NOTFOUND &&
		      tst != PGW_E_LIMIT && !cut;
	if (unread)
		c->names_exit = pgw_exit_for(tst);
	if (!rc)
		rc = summary(c, s, cut, unread);   /* before the lists go */
out:
	pgw_roots_view_free(view);
	pgw_linux_tasks_free(tasks);
	pgw_roots_free(roots);
	return rc;
}

/*
 * A mode with two roots (AArch64): no process table shares the kernel's
 * half, so there is no scan for roots to compare; the kernel's space,
 * then each process's lower half from the task list, once per table
 * (threads and vfork children share one).  The cross-view rules need the
 * scan: not run.
 */
static int check_tasks(struct check_run *c, const struct session *s)
{
	struct pgw_task *tasks = NULL;
	struct pgw_err terr = { 0 };
	size_t ntasks = 0;
	struct pgw_check_root_opts kro = { .kernel_root = true };
	int rc = check_one(c, s, &s->space, &kro);
	enum pgw_status tst = pgw_linux_tasks(&s->space, &tasks, &ntasks,
					      &terr);

	if (tst != PGW_OK) {
		c->sum.names_why = terr.msg;
		pgw_cli_error("%s: processes are checked as far as the task "
			      "list was read (%zu tasks): %s", s->path, ntasks,
			      terr.msg);
	}
	for (size_t i = 0; i < ntasks && !rc; i++) {
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = tasks[k].has_pgd_pa &&
			       tasks[k].pgd_pa == tasks[i].pgd_pa;
		if (!tasks[i].has_pgd_pa || seen)
			continue;
		struct pgw_space sp = s->space;
		sp.root = tasks[i].pgd_pa;
		struct pgw_check_root_opts ro = {
			.user_half_only = true, .owner = &tasks[i],
		};
		rc = check_one(c, s, &sp, &ro);
		if (!rc)
			rc = check_vmas(c, s, &sp, &tasks[i]);
	}
	if (tst == PGW_E_LIMIT)
		c->walk_st = PGW_E_LIMIT;
	bool cut = tst == PGW_E_NODATA || tst == PGW_E_UNMAPPED;
	bool unread = tst != PGW_OK && tst != PGW_E_NOTFOUND &&
		      tst != PGW_E_LIMIT && !cut;
	if (unread)
		c->names_exit = pgw_exit_for(tst);
	if (!rc)
		rc = summary(c, s, cut, unread);
	pgw_linux_tasks_free(tasks);
	return rc;
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
