/*
 * check's rules that only a process's VMAs make possible: what its page
 * tables map against what its mm says it mapped.  The kernel fills page
 * tables only inside VMAs, with at most the VMA's permissions (a
 * private writable VMA's pages start read-only for copy-on-write: less,
 * never more), so a user leaf outside every VMA, or writable or
 * executable where its VMA is not, was written behind the kernel's back.
 * Executable memory without a file is what JITs and injected code
 * have; a running program whose file is gone is what fileless malware
 * leaves (memfd execution, or a deleted binary).
 */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vma_walk {
	const struct pgw_space *user;
	const struct pgw_vmas *vmas;
	const struct pgw_task *owner;
	bool nx;
	struct pgw_finding *found;
	size_t nfound;
	size_t next;                 /* the first VMA that may meet a run */
	struct pgw_err *err;
	enum pgw_status failed;
};

static struct pgw_finding *add(struct vma_walk *w, enum pgw_rule rule,
			       enum pgw_severity sev, uint64_t va,
			       uint64_t end, bool evidence)
{
	return check_add(&w->found, &w->nfound, &w->failed, w->err, w->user,
			 w->owner, rule, sev, va, end, evidence);
}

static void outside(struct vma_walk *w, uint64_t va, uint64_t end,
		    const struct pgw_run *r)
{
	struct pgw_finding *f = add(w, PGW_RULE_OUTSIDE_VMA, PGW_SEV_HIGH, va,
				    end, true);

	if (f)
		snprintf(f->why, sizeof(f->why), "user-accessible %s%s "
			 "mapping (frame 0x%llx) that no VMA of the process "
			 "covers: page tables written behind the kernel's "
			 "back", r->eff_flags & PGW_F_RW ? "writable" :
			 "read-only", w->nx && check_executable(r->eff_flags) ?
			 ", executable" : "",
			 (unsigned long long)(r->pa + (r->same_frame ? 0 :
						       va - r->va)));
}

/* The part [va, end) of run r that VMA v covers. */
static void beyond(struct vma_walk *w, const struct pgw_vma *v,
		   uint64_t va, uint64_t end, const struct pgw_run *r)
{
	bool rw = (r->eff_flags & PGW_F_RW) && !(v->flags & PGW_VM_WRITE);
	bool x = w->nx && check_executable(r->eff_flags) &&
		 !(v->flags & PGW_VM_EXEC);
	char perms[5];

	if (!rw && !x)
		return;
	struct pgw_finding *f = add(w, PGW_RULE_BEYOND_VMA, PGW_SEV_HIGH, va,
				    end, true);
	if (!f)
		return;
	pgw_vma_perms(v->flags, perms);
	snprintf(f->why, sizeof(f->why), "mapped %s%s%s in a %s VMA "
		 "[0x%llx, 0x%llx) (vm_area_struct 0x%llx): the page tables "
		 "grant what the VMA does not", rw ? "writable" : "",
		 rw && x ? " and " : "", x ? "executable" : "", perms,
		 (unsigned long long)v->start, (unsigned long long)v->end,
		 (unsigned long long)v->vma);
}

static int on_run(void *arg, const struct pgw_run *r)
{
	struct vma_walk *w = arg;
	const struct pgw_vmas *s = w->vmas;
	uint64_t va = r->va, end = r->end;

	if (r->kind == PGW_RUN_HOLE || !(r->eff_flags & PGW_F_USER))
		return 0;
	while (w->next < s->n && s->vma[w->next].end <= va)
		w->next++;
	for (size_t i = w->next; va < end && !w->failed; i++) {
		const struct pgw_vma *v = i < s->n ? &s->vma[i] : NULL;
		if (!v || v->start >= end) {
			outside(w, va, end, r);
			break;
		}
		if (v->start > va) {
			outside(w, va, v->start, r);
			va = v->start;
		}
		uint64_t stop = v->end < end ? v->end : end;
		beyond(w, v, va, stop, r);
		va = stop;
	}
	return w->failed ? 1 : 0;
}

/* Special mappings ([vdso]) are the kernel's own code. */
static bool special(const struct pgw_vmas *s, const struct pgw_vma *v)
{
	return v->naming == PGW_VMA_NAMED && v->name_len > 1 &&
	       s->names[v->name_at] == '[' &&
	       !(v->name_len > 6 && !memcmp(s->names + v->name_at, "[anon:", 6));
}

static void vma_rules(struct vma_walk *w)
{
	const struct pgw_vmas *s = w->vmas;
	static const char deleted[] = " (deleted)";
	const size_t nd = sizeof(deleted) - 1;

	for (size_t i = 0; i < s->n; i++) {
		const struct pgw_vma *v = &s->vma[i];
		if (!(v->flags & PGW_VM_EXEC) || v->file || special(s, v))
			continue;
		struct pgw_finding *f = add(w, PGW_RULE_ANON_EXEC, PGW_SEV_INFO,
					    v->start, v->end, false);
		if (f)
			snprintf(f->why, sizeof(f->why), "an executable VMA "
				 "with no file (vm_area_struct 0x%llx, "
				 "vm_flags 0x%llx): code made at run time, by "
				 "a JIT or injected",
				 (unsigned long long)v->vma,
				 (unsigned long long)v->flags);
	}
	if (s->exe_len < nd ||
	    memcmp(s->names + s->exe_at + s->exe_len - nd, deleted, nd))
		return;
	/* The range: the VMAs mapping the executable's file, if any. */
	const char *exe = s->names + s->exe_at;
	for (size_t i = 0; i < s->n; i++) {
		const struct pgw_vma *v = &s->vma[i];
		if (v->naming != PGW_VMA_PATH || v->name_len != s->exe_len ||
		    memcmp(s->names + v->name_at, exe, s->exe_len))
			continue;
		struct pgw_finding *f = add(w, PGW_RULE_DELETED_EXE,
					    PGW_SEV_MEDIUM, v->start, v->end,
					    false);
		if (f)
			snprintf(f->why, sizeof(f->why), "the running "
				 "executable's file is gone: mm->exe_file is "
				 "%.*s", (int)(s->exe_len < 180 ? s->exe_len :
							       180), exe);
		break;
	}
}

enum pgw_status pgw_check_vmas(struct pgw_check *ck,
			       const struct pgw_space *user,
			       const struct pgw_vmas *vmas,
			       const struct pgw_task *owner,
			       uint64_t max_entries, pgw_finding_fn fn,
			       void *arg, struct pgw_err *err)
{
	struct vma_walk w = {
		.user = user, .vmas = vmas, .owner = owner, .nx = ck->nx,
		.err = err,
	};
	struct pgw_run_opts ro = {
		.walk = { .max_entries = max_entries, .end = ck->kernel_start },
	};
	struct pgw_run_ops ops = { .run = on_run };

	enum pgw_status st = pgw_walk_runs(user, &ro, &ops, &w, NULL, NULL,
					   err);
	if (st == PGW_E_STOPPED && w.failed)
		st = w.failed;
	if (st == PGW_OK || st == PGW_E_LIMIT) {
		vma_rules(&w);
		enum pgw_status est = w.failed ? w.failed :
				      check_emit(w.found, w.nfound, true, fn,
						 arg, err);
		if (est)
			st = est;
	}
	free(w.found);
	return st;
}
