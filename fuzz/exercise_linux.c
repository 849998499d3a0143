/*
 * What the CLI builds on top of a walk, fuzzed with the same images: the
 * roots scan and the budgets it promises (pages decompressed, entries),
 * the task list and its cross-view with the roots (a damaged list is an
 * error with a message, never a crash), every check rule on each root
 * it finds and the cross-view, the reverse map ptov uses, a diff of a space with itself, and VMCOREINFO conflicts.
 * The fuzzers only walked and translated before; an outside attack found
 * its failures here (issue 32): an empty reverse map (qsort of nothing),
 * decompressions outside the scan's budget, cycles and table pointers
 * past RAM that check skipped, and two VMCOREINFO notes.
 */
#include "exercise.h"

#include <string.h>

/* Small budgets, so an input still runs in a few milliseconds. */
#define FZ_SCAN_PAGES 256
#define FZ_SCAN_DECODED 16
/* The one page whose slots a PAE scan judges may overshoot the decode
 * budget by the directories those slots name. */
#define FZ_PAE_SLOTS 128
#define FZ_MAX_ROOTS 8

static int on_finding(void *arg, const struct pgw_finding *f)
{
	unsigned *n = arg;

	if ((unsigned)f->rule >= PGW_NRULES ||
	    (unsigned)f->severity >= PGW_NSEVERITIES)
		fz_fail("finding rule or severity", f->rule, f->severity);
	if (f->has_range && f->end != 0 && f->end <= f->va)
		fz_fail("finding range empty or inverted", f->va, f->end);
	if (f->nevidence > PGW_FINDING_MAX_EVIDENCE || !f->why[0] ||
	    strnlen(f->why, sizeof(f->why)) == sizeof(f->why))
		fz_fail("finding evidence or why", f->nevidence, 0);
	(*n)++;
	return 0;
}

/* check on every root found (a few), then the cross-view without a task
 * list: the walks keep to the budget, every finding is well formed. */
static void check_roots(struct pgw_image *img, const struct pgw_roots *roots,
			const struct pgw_enc_bits *enc,
			const struct pgw_task *tasks,
			const struct pgw_roots_view *view)
{
	struct pgw_space ks = { img, roots->mode, roots->kernel_root, *enc };
	struct pgw_check *ck = NULL;
	struct pgw_err err = { 0 };
	unsigned n = 0;

	if (pgw_check_open(&ks, &ck, &err) != PGW_OK) {
		if (!err.msg[0])
			fz_fail("check open error without a message", 0, 0);
		return;
	}
	(void)pgw_check_text_why(ck);
	for (size_t i = 0; i < roots->n && i < FZ_MAX_ROOTS; i++) {
		const struct pgw_root_found *r = &roots->root[i];
		struct pgw_space sp = { img, roots->mode, r->table, *enc };
		struct pgw_check_root_opts o = {
			.kernel_root = i == 0, .user_half_only = i > 0,
			.compare_kernel_half = i > 0,
			.max_entries = FZ_MAX_ENTRIES,
		};
		struct pgw_check_stats st;
		enum pgw_status s = pgw_check_root(ck, &sp, &o, on_finding,
						   &n, &st, &err);
		if (st.walk.entries > FZ_MAX_ENTRIES + 1)
			fz_fail("check: entry budget overrun",
				st.walk.entries, i);
		if (s != PGW_OK && s != PGW_E_LIMIT && !err.msg[0])
			fz_fail("check error without a message", s, i);
		if (r->pti_user) {
			struct pgw_space u = { img, roots->mode, r->pti_user,
					       *enc };
			o.kernel_root = o.user_half_only = false;
			o.compare_kernel_half = false;
			o.kernel_half_only = true;
			(void)pgw_check_root(ck, &u, &o, on_finding, &n, &st,
					     &err);
		}
	}
	(void)pgw_check_roots(ck, roots, tasks, view, on_finding, &n, &err);
	pgw_check_close(ck);
}

/* The roots scan within its budgets, and check on what it found. */
static void scan_roots(struct pgw_image *img, const struct pgw_space *sp)
{
	struct pgw_roots_opts o = {
		.scan = { .max_pages = FZ_SCAN_PAGES,
			  .max_decoded = FZ_SCAN_DECODED,
			  .max_entries = FZ_MAX_ENTRIES, .enc = sp->enc },
	};
	struct pgw_roots *roots = NULL;
	struct pgw_err err = { 0 };

	if (pgw_roots_scan(img, sp->mode, sp->root, &o, &roots, &err) !=
	    PGW_OK) {
		if (!err.msg[0])
			fz_fail("roots scan error without a message", 0, 0);
		return;
	}
	const struct pgw_scan_stats *s = &roots->scan;
	if (s->scanned > FZ_SCAN_PAGES)
		fz_fail("roots scan: page budget overrun", s->scanned, 0);
	if (s->decoded > FZ_SCAN_DECODED + FZ_PAE_SLOTS)
		fz_fail("roots scan: decompression budget overrun",
			s->decoded, 0);
	/* One budget for every validation walk, each stopping one entry
	 * past its share at most. */
	if (s->entries > FZ_MAX_ENTRIES + roots->n + 1)
		fz_fail("roots scan: entry budget overrun", s->entries,
			roots->n);
	if (roots->n == 0 || roots->root[0].table != roots->kernel_root)
		fz_fail("roots scan: the kernel root is not first", roots->n,
			0);
	struct pgw_task *tasks = NULL;
	struct pgw_roots_view *view = NULL;
	size_t ntasks = 0;
	enum pgw_status ts = pgw_linux_tasks(sp, &tasks, &ntasks, &err);
	if (ts != PGW_OK && !err.msg[0])
		fz_fail("task list error without a message", ts, ntasks);
	if (ntasks && pgw_roots_view_build(roots, tasks, ntasks, &view,
					   &err) != PGW_OK)
		view = NULL;
	check_roots(img, roots, &sp->enc, view ? tasks : NULL, view);
	pgw_roots_view_free(view);
	pgw_linux_tasks_free(tasks);
	pgw_roots_free(roots);
}

/* ptov's reverse map of one space (an empty one too): every hit
 * translates back to the frame looked up, or, PROT_NONE, stops at a
 * PROT_NONE entry (which holds the frame). */
static void reverse_map(const struct pgw_space *sp)
{
	static const uint64_t pas[] = { 0, 0x1000, 0x2000, 0x8000, 0x100000,
					0x1000000 };
	struct pgw_walk_opts wo = { .max_entries = FZ_MAX_ENTRIES };
	struct pgw_rmap *rm = NULL;
	struct pgw_rmap_hit hits[8];
	struct pgw_walk_stats st;
	struct pgw_err err = { 0 };
	struct pgw_xlat x;

	if (pgw_rmap_new(&rm, &err) != PGW_OK)
		return;
	(void)pgw_rmap_add(rm, sp, &wo, 0, &st, &err);
	pgw_rmap_finish(rm);
	for (size_t i = 0; i < sizeof(pas) / sizeof(pas[0]); i++) {
		size_t n = pgw_rmap_lookup(rm, pas[i], hits, 8);
		for (size_t k = 0; k < n && k < 8; k++) {
			enum pgw_stop stop =
				pgw_translate(sp, NULL, hits[k].va, &x);
			bool back = hits[k].protnone ?
				    stop == PGW_STOP_NOT_PRESENT && x.nsteps &&
				    x.step[x.nsteps - 1].entry.np_kind ==
				    PGW_NP_PROTNONE :
				    stop == PGW_STOP_OK && x.pa == pas[i];
			if (!back)
				fz_fail("reverse map hit does not translate "
					"back", hits[k].va, pas[i]);
		}
	}
	pgw_rmap_free(rm);
}

static int on_self_diff(void *arg, const struct pgw_diff_range *r)
{
	(void)arg;
	if (r->kind != PGW_DIFF_UNCOMPARED)
		fz_fail("a space differs from itself", r->va, r->kind);
	return 0;
}

/* A space against itself, bytes too, in two windows of 4 MiB (a 1 GiB
 * page compared byte by byte would cost the input seconds): nothing
 * added, removed or changed; what is uncompared is what the image lacks,
 * whichever way. */
static void self_diff(const struct pgw_space *sp)
{
	static const uint64_t windows[] = { 0x400000,
					    UINT64_C(0xffff888000000000) };
	struct pgw_diff_stats st;
	struct pgw_err err = { 0 };

	for (size_t i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
		struct pgw_diff_opts o = {
			.walk = { .start = windows[i],
				  .end = windows[i] + 0x400000,
				  .max_entries = FZ_MAX_ENTRIES },
			.data = true,
		};
		(void)pgw_diff_spaces(sp, sp, &o, on_self_diff, NULL, &st,
				      &err);
	}
}

void fz_exercise_linux(struct pgw_image *img, const struct pgw_space *sp)
{
	const char *conflict = pgw_vmcoreinfo_conflict(img);

	if (conflict && !conflict[0])
		fz_fail("an empty VMCOREINFO conflict", 0, 0);
	reverse_map(sp);
	self_diff(sp);
	scan_roots(img, sp);
}
