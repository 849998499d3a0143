/*
 * pgwalk check: what is wrong in an address space, each finding with the
 * entries that show it.  One coalesced walk per root (the ptdump rule,
 * as dump prints it) feeds the rules that look at mappings; the kernel
 * half is compared entry by entry (kernel_half.c), and the cross-view
 * rules read what roots_view.c built (check_roots.c).
 */
#include "../lib/err.h"
#include "check.h"
#include "../lib/grow.h"
#include "../walk/step.h"
#include "../lib/names.h"
#include "../walk/step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rule_keys[PGW_NRULES] = {
	[PGW_RULE_WX] = "wx",
	[PGW_RULE_USER_KERNEL] = "user-kernel",
	[PGW_RULE_KERNEL_HALF] = "kernel-half-mismatch",
	[PGW_RULE_TEXT_ALIAS] = "text-writable-alias",
	[PGW_RULE_PT_WRITABLE] = "pt-writable",
	[PGW_RULE_RESERVED] = "reserved-bits",
	[PGW_RULE_BEYOND_RAM] = "beyond-ram",
	[PGW_RULE_ORPHAN] = "orphan-root",
	[PGW_RULE_UNOWNED] = "unowned-task",
	[PGW_RULE_NO_NX] = "no-nx",
	[PGW_RULE_OUTSIDE_VMA] = "outside-vma",
	[PGW_RULE_BEYOND_VMA] = "beyond-vma",
	[PGW_RULE_ANON_EXEC] = "anon-exec",
	[PGW_RULE_DELETED_EXE] = "deleted-exe",
};

const char *pgw_rule_key(enum pgw_rule rule)
{
	return PGW_NAME(rule_keys, rule, "unknown");
}

static const char *const severity_keys[PGW_NSEVERITIES] = {
	[PGW_SEV_INFO] = "info", [PGW_SEV_LOW] = "low",
	[PGW_SEV_MEDIUM] = "medium", [PGW_SEV_HIGH] = "high",
};

const char *pgw_severity_key(enum pgw_severity sev)
{
	return PGW_NAME(severity_keys, sev, "unknown");
}

/* The walk of one root: findings kept until the walk ends, so those
 * found late (pt-writable needs every table) still go out in order. */
struct root_walk {
	struct pgw_check *ck;
	const struct pgw_space *space;
	const struct pgw_check_root_opts *opts;
	struct pgw_finding *found;
	size_t nfound;
	uint64_t *tables;
	size_t ntables;
	struct pgw_run *user_runs;   /* user-accessible maps, for
					pt-writable */
	size_t nuser;
	struct pgw_check_stats *stats;
	struct pgw_err *err;
	enum pgw_status failed;      /* out of memory in a callback */
};

void check_evidence_path(const struct pgw_space *space, uint64_t va,
			 struct pgw_finding *f)
{
	struct pgw_xlat x;

	pgw_translate(space, NULL, va, &x);
	for (unsigned i = 0; i < x.nsteps &&
	     f->nevidence < PGW_FINDING_MAX_EVIDENCE; i++) {
		const struct pgw_step *s = &x.step[i];
		if (!s->read_ok)
			break;
		f->evidence[f->nevidence++] = (struct pgw_evidence_entry){
			.level = s->level, .table = s->table,
			.index = s->index, .entry_pa = s->entry_pa,
			.entry = s->entry.raw,
		};
	}
}

struct pgw_finding *check_add(struct pgw_finding **found, size_t *n,
			      enum pgw_status *failed, struct pgw_err *err,
			      const struct pgw_space *space,
			      const struct pgw_task *owner,
			      enum pgw_rule rule, enum pgw_severity sev,
			      uint64_t va, uint64_t end, bool evidence)
{
	if (*failed || (*failed = pgw_grow(found, *n, sizeof(**found), err)))
		return NULL;
	struct pgw_finding *f = &(*found)[(*n)++];
	*f = (struct pgw_finding){
		.rule = rule, .severity = sev, .has_range = true,
		.va = va, .end = end, .has_root = true,
		.root = pgw_root_of(space, va), .owner = owner,
	};
	if (evidence)
		check_evidence_path(space, va, f);
	return f;
}

static struct pgw_finding *add(struct root_walk *w, enum pgw_rule rule,
			       enum pgw_severity sev, uint64_t va,
			       uint64_t end)
{
	return check_add(&w->found, &w->nfound, &w->failed, w->err, w->space,
			 w->opts->owner, rule, sev, va, end, true);
}

static uint64_t run_bytes(const struct pgw_run *r)
{
	return r->end - r->va;   /* end 0 (2^64) wraps to the right size */
}

/* Physical bytes a map run covers: one page when it maps one frame. */
static uint64_t run_pa_end(const struct pgw_run *r)
{
	return r->pa + (r->same_frame ? r->page_size : run_bytes(r));
}

static bool within(uint64_t va, uint64_t end, const uint64_t range[2])
{
	return range[1] && va >= range[0] && end != 0 && end <= range[1];
}

static void wx_rule(struct root_walk *w, const struct pgw_run *r)
{
	struct pgw_check *ck = w->ck;
	bool kernel = r->va >= ck->kernel_start || w->opts->kernel_root;
	bool bios = kernel && within(r->va, r->end, ck->pcibios);
	struct pgw_finding *f;

	if (w->opts->kernel_root && !bios && !within(r->va, r->end, ck->guard))
		w->stats->kernel_wx_pages += run_bytes(r) >> PGW_PAGE_SHIFT;
	if (!ck->nx)
		return;                  /* said once: no-nx */
	if (!kernel && !(r->eff_flags & PGW_F_USER))
		return;                  /* an identity map's (trampoline) */
	f = add(w, PGW_RULE_WX, bios ? PGW_SEV_INFO :
			kernel ? PGW_SEV_HIGH : PGW_SEV_LOW, r->va, r->end);
	if (!f)
		return;
	snprintf(f->why, sizeof(f->why), "%s",
		 bios ? "kernel W+X in the PCI BIOS area, which the kernel "
			"forces W+X when it uses the PCI BIOS and its own "
			"check exempts" :
		 kernel ? "kernel mapping writable and executable (the "
			  "kernel's own W+X check counts it)" :
			  "user mapping writable and executable (a JIT's, or "
			  "injected code)");
}

/*
 * The legacy vsyscall page is user-readable by design (vsyscall=emulate),
 * but only as the kernel's own frame, __vsyscall_page: any other frame
 * there is code of someone else's that every process can run.  Without
 * that symbol the frame cannot be told apart: medium, said why.
 */
static void user_kernel_rule(struct root_walk *w, const struct pgw_run *r)
{
	const struct pgw_check *ck = w->ck;
	bool at_vsyscall = w->space->mode->va_bits > 32 &&
			   r->va >= LINUX_VSYSCALL_PAGE &&
			   r->end == LINUX_VSYSCALL_PAGE + PGW_PAGE_SIZE &&
			   !(r->eff_flags & PGW_F_RW);
	bool ours = at_vsyscall && ck->vsyscall_known &&
		    r->pa + (LINUX_VSYSCALL_PAGE - r->va) == ck->vsyscall_pa;
	struct pgw_finding *f = add(w, PGW_RULE_USER_KERNEL,
				    ours ? PGW_SEV_INFO :
				    at_vsyscall && !ck->vsyscall_known ?
				    PGW_SEV_MEDIUM : PGW_SEV_HIGH,
				    r->va, r->end);

	if (!f)
		return;
	if (ours)
		snprintf(f->why, sizeof(f->why), "the legacy vsyscall page "
			 "(the kernel's __vsyscall_page), user-readable by "
			 "design (vsyscall=emulate)");
	else if (at_vsyscall && ck->vsyscall_known)
		snprintf(f->why, sizeof(f->why), "user-accessible page at "
			 "the legacy vsyscall address, but not the kernel's "
			 "vsyscall frame (0x%llx): code every process can run",
			 (unsigned long long)ck->vsyscall_pa);
	else if (at_vsyscall)
		snprintf(f->why, sizeof(f->why), "user-accessible page at "
			 "the legacy vsyscall address; kallsyms has no "
			 "__vsyscall_page to tell the kernel's frame from "
			 "another");
	else
		snprintf(f->why, sizeof(f->why), "user-accessible mapping in "
			 "the kernel half");
}

static void alias_rule(struct root_walk *w, const struct pgw_run *r)
{
	const struct pgw_check *ck = w->ck;
	uint64_t pa_end = run_pa_end(r);

	for (unsigned i = 0; i < CHECK_NTEXT; i++) {
		const struct check_text *t = &ck->text[i];
		uint64_t lo = r->pa > t->pa ? r->pa : t->pa;
		uint64_t hi = pa_end < t->pa + t->len ? pa_end :
							 t->pa + t->len;
		if (!t->len || lo >= hi)
			continue;
		/* The kernel's own mapping of it is no alias. */
		if (!r->same_frame && r->va - r->pa == t->va - t->pa)
			continue;
		uint64_t va = r->same_frame ? r->va : r->va + (lo - r->pa);
		uint64_t end = r->same_frame ? r->end : va + (hi - lo);
		struct pgw_finding *f = add(w, PGW_RULE_TEXT_ALIAS,
					    PGW_SEV_HIGH, va, end);
		if (f)
			snprintf(f->why, sizeof(f->why), "writable mapping of "
				 "the kernel's %s (physical 0x%llx-0x%llx, "
				 "mapped at 0x%llx)", t->name,
				 (unsigned long long)lo,
				 (unsigned long long)hi,
				 (unsigned long long)(t->va + (lo - t->pa)));
	}
}

/* The first stretch of [lo, hi) outside every range of RAM the image
 * describes, in [*out_lo, *out_hi); false when there is none. */
static bool outside_ram(struct pgw_image *img, uint64_t lo, uint64_t hi,
			uint64_t *out_lo, uint64_t *out_hi)
{
	const struct pgw_phys_range *rg;
	size_t n = pgw_image_ranges(img, &rg);

	for (bool moved = true; moved && lo < hi;) {
		moved = false;
		for (size_t i = 0; i < n; i++)
			if (lo >= rg[i].start && lo - rg[i].start < rg[i].size) {
				lo = rg[i].start + rg[i].size;
				moved = true;
			}
	}
	if (lo >= hi)
		return false;
	*out_lo = lo;
	*out_hi = hi;
	for (size_t i = 0; i < n; i++)
		if (rg[i].start > lo && rg[i].start < *out_hi)
			*out_hi = rg[i].start;
	return true;
}

/* AArch64: the linear map maps RAM and nothing else (devices are
 * ioremapped into vmalloc): a frame of it outside RAM is not the
 * kernel's doing. */
static void linear_beyond_rule(struct root_walk *w, const struct pgw_run *r)
{
	const uint64_t *lin = w->ck->linear;
	uint64_t lo, hi;
	struct pgw_finding *f;

	if (r->va >= lin[1] || (r->end && r->end <= lin[0]))
		return;
	uint64_t va = r->va > lin[0] ? r->va : lin[0];
	uint64_t end = r->end == 0 || r->end > lin[1] ? lin[1] : r->end;
	uint64_t pa = r->same_frame ? r->pa : r->pa + (va - r->va);
	uint64_t pa_end = r->same_frame ? r->pa + r->page_size :
					  pa + (end - va);
	if (!outside_ram(w->space->img, pa, pa_end, &lo, &hi))
		return;
	if (!r->same_frame) {
		va += lo - pa;
		end = va + (hi - lo);
	}
	if (!(f = add(w, PGW_RULE_BEYOND_RAM, PGW_SEV_MEDIUM, va, end)))
		return;
	snprintf(f->why, sizeof(f->why), "the linear map, which maps RAM "
		 "alone, maps physical 0x%llx-0x%llx, outside every range of "
		 "RAM the image describes", (unsigned long long)lo,
		 (unsigned long long)hi);
}

static void beyond_ram_rule(struct root_walk *w, const struct pgw_run *r)
{
	uint64_t limit = w->ck->ram_limit;
	struct pgw_finding *f;

	if (w->ck->linear[1])
		linear_beyond_rule(w, r);
	if (run_pa_end(r) <= limit)
		return;
	uint64_t va = r->pa >= limit || r->same_frame ? r->va :
			r->va + (limit - r->pa);
	if (!(f = add(w, PGW_RULE_BEYOND_RAM, PGW_SEV_MEDIUM, va, r->end)))
		return;
	snprintf(f->why, sizeof(f->why), "frames at or above 0x%llx: past "
		 "the memory the image describes and the 32-bit device "
		 "window below 4 GiB", (unsigned long long)limit);
}

/*
 * An entry that points back at a table on its own path maps that table
 * (and the tables below it) as data, with the permissions of the path
 * down to it: user-writable page tables, or W+X ones.  The range walk
 * does not descend there (it would never end), so this is said here,
 * from the entries the CPU reads for the hole's first address.
 */
static void cycle_rule(struct root_walk *w, const struct pgw_run *r)
{
	const struct pgw_mode *mode = w->space->mode;
	uint32_t eff = pgw_perm_start(mode);
	struct pgw_xlat x;
	struct pgw_finding *f;

	pgw_translate(w->space, NULL, r->va, &x);
	for (unsigned i = 0; i < x.nsteps && x.step[i].read_ok; i++) {
		eff = pgw_perm_combine(mode, eff, x.step[i].entry.perm);
		if (x.step[i].entry_pa == r->entry_pa)
			break;
	}
	bool user = eff & PGW_F_USER, rw = eff & PGW_F_RW;
	bool exec = !(eff & PGW_F_NX);
	if (!user && !(rw && exec && w->ck->nx))
		return;
	f = add(w, user ? PGW_RULE_PT_WRITABLE : PGW_RULE_WX,
		user && !rw ? PGW_SEV_MEDIUM : PGW_SEV_HIGH, r->va, r->end);
	if (f)
		snprintf(f->why, sizeof(f->why), "the entry 0x%llx at 0x%llx "
			 "points back at a table on its own path: the page "
			 "tables are mapped %s%s%s through it",
			 (unsigned long long)r->entry_raw,
			 (unsigned long long)r->entry_pa,
			 user ? "at user level, " : "",
			 rw ? "writable" : "read-only",
			 exec && w->ck->nx ? " and executable" : "");
}

/* A table pointer past RAM: the CPU reads whatever answers there (a
 * device, or nothing) as page tables. */
static void table_beyond_rule(struct root_walk *w, const struct pgw_run *r)
{
	struct pgw_finding *f = add(w, PGW_RULE_BEYOND_RAM, PGW_SEV_MEDIUM,
				    r->va, r->end);

	if (f)
		snprintf(f->why, sizeof(f->why), "the entry 0x%llx at 0x%llx "
			 "points at a page table past the memory the image "
			 "describes: what it maps is unknown",
			 (unsigned long long)r->entry_raw,
			 (unsigned long long)r->entry_pa);
}

static int on_run(void *arg, const struct pgw_run *r)
{
	struct root_walk *w = arg;
	struct pgw_finding *f;

	if (r->kind == PGW_RUN_HOLE) {
		if (r->stop == PGW_STOP_TABLE_NOT_IN_IMAGE)
			w->stats->tables_not_in_image++;
		if (r->stop == PGW_STOP_CYCLE)
			cycle_rule(w, r);
		if (r->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
			table_beyond_rule(w, r);
		if (r->stop == PGW_STOP_RESERVED &&
		    (f = add(w, PGW_RULE_RESERVED, PGW_SEV_MEDIUM, r->va,
			     r->end)))
			snprintf(f->why, sizeof(f->why), "an entry has "
				 "reserved bits set: the CPU faults on every "
				 "access (entry 0x%llx at 0x%llx)",
				 (unsigned long long)r->entry_raw,
				 (unsigned long long)r->entry_pa);
		return w->failed ? 1 : 0;
	}
	uint32_t eff = r->eff_flags;
	if ((eff & PGW_F_RW) && check_executable(eff))
		wx_rule(w, r);
	if ((eff & PGW_F_USER) && r->va >= w->ck->kernel_start)
		user_kernel_rule(w, r);
	if (eff & PGW_F_RW)
		alias_rule(w, r);
	beyond_ram_rule(w, r);
	if ((eff & PGW_F_USER) && !w->failed &&
	    !(w->failed = pgw_grow(&w->user_runs, w->nuser,
				   sizeof(*w->user_runs), w->err)))
		w->user_runs[w->nuser++] = *r;
	return w->failed ? 1 : 0;
}

static int on_table(void *arg, enum pgw_level lvl, uint64_t table_pa,
		    uint64_t va)
{
	struct root_walk *w = arg;

	(void)lvl;
	(void)va;
	if (w->failed ||
	    (w->failed = pgw_grow(&w->tables, w->ntables,
				  sizeof(*w->tables), w->err)))
		return 1;
	w->tables[w->ntables++] = table_pa & ~(PGW_PAGE_SIZE - 1);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The lowest table page in [pa, end) of a sorted list, or none. */
static bool table_in(const uint64_t *t, size_t n, uint64_t pa, uint64_t end,
		     uint64_t *found)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t[mid] + PGW_PAGE_SIZE <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && t[lo] < end) {
		*found = t[lo];
		return true;
	}
	return false;
}

/* pt-writable: user-accessible pages that are page tables, this root's
 * or the kernel root's. */
static void pt_rule(struct root_walk *w)
{
	const struct pgw_check *ck = w->ck;

	for (size_t i = 0; i < w->nuser; i++) {
		const struct pgw_run *r = &w->user_runs[i];
		uint64_t pa_end = run_pa_end(r), table;
		if (!table_in(w->tables, w->ntables, r->pa, pa_end, &table) &&
		    !table_in(ck->ktables, ck->nktables, r->pa, pa_end,
			      &table))
			continue;
		bool rw = r->eff_flags & PGW_F_RW;
		uint64_t va = r->same_frame ? r->va :
			      r->va + (table > r->pa ? table - r->pa : 0);
		struct pgw_finding *f = add(w, PGW_RULE_PT_WRITABLE,
					    rw ? PGW_SEV_HIGH : PGW_SEV_MEDIUM,
					    va, r->same_frame ? r->end :
					    va + PGW_PAGE_SIZE);
		if (f)
			snprintf(f->why, sizeof(f->why), "the page table at "
				 "0x%llx is mapped %s at user level",
				 (unsigned long long)table,
				 rw ? "writable" : "read-only");
	}
}

static int cmp_finding(const void *a, const void *b)
{
	const struct pgw_finding *x = a, *y = b;

	if (x->va != y->va)
		return x->va < y->va ? -1 : 1;
	return x->rule < y->rule ? -1 : x->rule > y->rule;
}

enum pgw_status check_emit(struct pgw_finding *f, size_t n, bool sort,
			   pgw_finding_fn fn, void *arg, struct pgw_err *err)
{
	if (sort && n > 1)
		qsort(f, n, sizeof(*f), cmp_finding);
	for (size_t i = 0; i < n; i++)
		if (fn(arg, &f[i]))
			return pgw_err_set(err, PGW_E_STOPPED,
					   "check stopped by caller");
	return PGW_OK;
}

/* no-nx, once per check: without NX every mapping is executable. */
static enum pgw_status no_nx(struct pgw_check *ck,
			     const struct pgw_space *space, pgw_finding_fn fn,
			     void *arg, struct pgw_err *err)
{
	struct pgw_finding f = {
		.rule = PGW_RULE_NO_NX, .severity = PGW_SEV_MEDIUM,
		.has_root = true, .root = space->root,
	};

	if (ck->nx || ck->no_nx_said)
		return PGW_OK;
	ck->no_nx_said = true;
	snprintf(f.why, sizeof(f.why), "%s paging has no NX bit: every "
		 "mapping is executable, so every writable one is W+X (wx "
		 "is not reported range by range)", space->mode->name);
	return check_emit(&f, 1, false, fn, arg, err);
}

enum pgw_status pgw_check_root(struct pgw_check *ck,
			       const struct pgw_space *space,
			       const struct pgw_check_root_opts *opts,
			       pgw_finding_fn fn, void *arg,
			       struct pgw_check_stats *stats_ret,
			       struct pgw_err *err)
{
	struct pgw_check_stats stats = { 0 };
	struct root_walk w = {
		.ck = ck, .space = space, .opts = opts, .stats = &stats,
		.err = err,
	};
	struct pgw_run_opts ro = {
		.walk = { .max_entries = opts->max_entries,
			  .start = opts->kernel_half_only ? ck->kernel_start :
							    0,
			  .end = opts->user_half_only ? ck->kernel_start : 0 },
	};
	struct pgw_run_ops ops = { .run = on_run, .table = on_table };
	enum pgw_status st;

	if ((st = no_nx(ck, space, fn, arg, err)))
		return st;
	st = pgw_walk_runs(space, &ro, &ops, &w, &stats.walk, NULL, err);
	if (st == PGW_E_STOPPED && w.failed)
		st = w.failed;
	if (st == PGW_OK || st == PGW_E_LIMIT) {
		if (w.ntables > 1)
			qsort(w.tables, w.ntables, sizeof(*w.tables),
			      cmp_u64);
		pt_rule(&w);
		if (opts->compare_kernel_half && !w.failed)
			w.failed = check_kernel_half(ck, space, opts->owner,
						     &w.found, &w.nfound, err);
		if (w.failed) {
			st = w.failed;
		} else {
			enum pgw_status est = check_emit(w.found, w.nfound,
							 true, fn, arg, err);
			if (est)
				st = est;
		}
	}
	if (opts->kernel_root && !ck->ktables) {
		/* pt-writable looks for the kernel's tables in every
		 * root walked after it. */
		ck->ktables = w.tables;
		ck->nktables = w.ntables;
		w.tables = NULL;
	}
	free(w.tables);
	free(w.user_runs);
	free(w.found);
	if (stats_ret)
		*stats_ret = stats;
	return st;
}
