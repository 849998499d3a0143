/*
 * pgwalk check --all-roots: every root the roots scan finds (or, in a
 * mode with two roots, every process's table from the task list), the
 * roots after the kernel's on the image's threads.
 */
#include <stdlib.h>

#include "budget_jobs.h"
#include "check_run.h"
#include "exit_codes.h"

/*
 * The summary, with what the task list's status (tst) calls for: a list
 * cut short by a page the image lacks is partial evidence; a kernel
 * without kallsyms or BTF leaves the cross-view unchecked (names_why
 * says why); a list, kallsyms or BTF the image damaged leaves it unrun,
 * and the check incomplete: the hidden process it exists to find could
 * be there (exit 65, as roots).  Returns -1: written.
 */
static int task_list_said(struct check_run *c, const struct session *s,
			  enum pgw_status tst)
{
	bool cut = tst == PGW_E_NODATA || tst == PGW_E_UNMAPPED;
	bool unread = tst != PGW_OK && tst != PGW_E_NOTFOUND &&
		      tst != PGW_E_LIMIT && !cut;

	if (tst == PGW_E_LIMIT)
		c->walk_st = PGW_E_LIMIT;
	if (unread)
		c->names_exit = pgw_exit_for(tst);
	return check_summary_out(c, s, cut, unread);
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
		check_vma_reader(c);
	for (size_t k = 0; k < j->nfound && rc == PGW_OK; k++)
		if (check_on_finding(c, &j->found[k]))
			rc = PGW_E_STOPPED;
	return check_walked(c, s, space, &j->ro, rc, &j->st, &err);
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
			.root = i, .pti = true, .ro = check_pti_opts(&ro),
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

int check_all(struct check_run *c, const struct session *s)
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
					 check_on_finding, c, &err)) &&
	    st != PGW_E_STOPPED) {
		pgw_cli_error("%s: %s", s->path, err.msg);
		rc = pgw_exit_for(st);
	}
	if (!rc)
		rc = task_list_said(c, s, tst);   /* before the lists go */
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
int check_tasks(struct check_run *c, const struct session *s)
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
	if (!rc)
		rc = task_list_said(c, s, tst);
	pgw_linux_tasks_free(tasks);
	return rc;
}
