#include <stdlib.h>

#include "exit_codes.h"
#include "owned_roots.h"

enum pgw_status owned_roots_open(struct session *s, uint64_t max_entries,
				 struct owned_roots *o, struct pgw_err *err)
{
	struct pgw_roots_opts ro = {
		.scan = { .max_entries = max_entries, .enc = s->space.enc },
	};
	enum pgw_status st = pgw_roots_scan(s->img, s->space.mode,
					    s->space.root, &ro, &o->roots,
					    err);
	if (st != PGW_OK)
		return st;
	o->names = pgw_linux_tasks(&s->space, &o->tasks, &o->ntasks,
				   &o->names_err);
	if (o->ntasks && (st = pgw_roots_view_build(o->roots, o->tasks,
						    o->ntasks, &o->view,
						    err)) != PGW_OK)
		return st;
	const struct pgw_roots *roots = o->roots;
	if (!(o->owners = calloc(roots->n ? roots->n : 1,
				 sizeof(*o->owners))))
		return pgw_cli_out_of_memory(err);
	o->nowners = roots->n;
	for (size_t i = 0; i < roots->n; i++) {
		struct owner *w = &o->owners[i];
		w->root = roots->root[i].table;
		w->kind = pgw_root_kind_key(roots->root[i].kind);
		if (o->view && o->view->first_owner[i] <
				       o->view->first_owner[i + 1]) {
			const struct pgw_task *t =
				&o->tasks[o->view->owner
						  [o->view->first_owner[i]]];
			w->pid = t->pid;
			w->comm = t->comm;
			w->comm_len = t->comm_len;
		}
	}
	return PGW_OK;
}

size_t owned_root_walks(const struct owned_roots *o,
			const struct pgw_mode *mode, size_t i,
			struct root_walk w[2])
{
	const struct pgw_roots *roots = o->roots;
	const struct pgw_root_found *f = &roots->root[i];

	if (i == 0 && mode->root_select_bit) {
		/* The kernel's table is the upper root's. */
		w[0] = (struct root_walk){ 0, f->table, 0, 0 };
		return 1;
	}
	if (i == 0) {
		w[0] = (struct root_walk){ f->table, 0, 0, 0 };
		return 1;
	}
	/* PTI: the user half as user mode sees it, through the user copy
	 * (the kernel copy's is NX). */
	w[0] = (struct root_walk){ f->pti_user ? f->pti_user : f->table, 0,
				   0, roots->kernel_start };
	if (f->ndiffs == 0)
		return 1;
	w[1] = (struct root_walk){ f->table, 0, roots->kernel_start, 0 };
	return 2;
}

int owned_roots_status(const struct owned_roots *o)
{
	int rc = 0;

	if (o->roots && o->names != PGW_OK && o->names != PGW_E_NOTFOUND)
		rc = o->names == PGW_E_NODATA || o->names == PGW_E_UNMAPPED ?
			     PGW_EXIT_EVIDENCE : pgw_exit_for(o->names);
	if (o->roots && !o->roots->scan.complete)
		rc = PGW_EXIT_LIMIT;
	return rc;
}

void owned_roots_say(const struct owned_roots *o, const char *path)
{
	if (o->roots && o->names != PGW_OK && o->ntasks == 0)
		pgw_cli_error("%s: roots are unnamed: %s", path,
			      o->names_err.msg);
	else if (o->roots && o->names != PGW_OK)
		pgw_cli_error("%s: roots are named as far as the task list was "
			      "read (%zu tasks): %s", path, o->ntasks,
			      o->names_err.msg);
}

void owned_roots_free(struct owned_roots *o)
{
	free(o->owners);
	pgw_roots_view_free(o->view);
	pgw_linux_tasks_free(o->tasks);
	pgw_roots_free(o->roots);
}
