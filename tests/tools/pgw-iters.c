/*
 * pgw-iters: the iterators (pgwalk.h: pgw_runs_iter, pgw_diff_iter,
 * pgw_findings_iter, pgw_roots_iter) against the callbacks they stand
 * beside, on one image: the same items in the same order, field by
 * field, and the same end status; and an iterator freed in the middle of
 * its walk (it must stop the walk and return).  Runs of CPU 0's space
 * (coalesced, and one per leaf with non-present entries as their own,
 * which hands over thousands of times); the diff of CPU 0's space
 * against CPU 1's; the check findings of the kernel's root and of CPU
 * 1's; the roots a scan finds.
 *
 * Usage: pgw-iters IMAGE
 * Prints "runs N, leaf runs N, diff ranges N, findings N, roots N: K
 * differ" and the first that differ; exits 0 when none differ, 1 when
 * some do, 2 on an open error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgwalk.h"

static unsigned long bad;

static void differs(const char *what, size_t i)
{
	if (bad++ < 5)
		printf("%s %zu differs\n", what, i);
}

/* Items gathered from callbacks. */
struct list {
	void *v;
	size_t n, size;
};

static int add(struct list *l, const void *item)
{
	void *v = realloc(l->v, (l->n + 1) * l->size);
	if (!v)
		return 1;
	l->v = v;
	memcpy((char *)l->v + l->n++ * l->size, item, l->size);
	return 0;
}

static int on_run(void *arg, const struct pgw_run *r) { return add(arg, r); }
static int on_range(void *arg, const struct pgw_diff_range *r)
{
	return add(arg, r);
}
static int on_finding(void *arg, const struct pgw_finding *f)
{
	return add(arg, f);
}

static bool same_run(const struct pgw_run *a, const struct pgw_run *b)
{
	return a->kind == b->kind && a->va == b->va && a->end == b->end &&
	       a->level == b->level && a->region == b->region &&
	       a->entries == b->entries && a->pa == b->pa &&
	       a->page_size == b->page_size && a->flags == b->flags &&
	       a->eff_flags == b->eff_flags && a->pkey == b->pkey &&
	       a->same_frame == b->same_frame && a->stop == b->stop &&
	       a->np_kind == b->np_kind && a->np_pfn == b->np_pfn &&
	       a->swap_type == b->swap_type &&
	       a->swap_offset == b->swap_offset &&
	       a->entry_pa == b->entry_pa && a->entry_raw == b->entry_raw &&
	       a->absence == b->absence;
}

static bool same_side(const struct pgw_diff_side *a,
		      const struct pgw_diff_side *b)
{
	return a->mapped == b->mapped && a->pa == b->pa &&
	       a->page_size == b->page_size && a->level == b->level &&
	       a->flags == b->flags && a->eff_flags == b->eff_flags &&
	       a->same_frame == b->same_frame;
}

static bool same_range(const struct pgw_diff_range *a,
		       const struct pgw_diff_range *b)
{
	return a->kind == b->kind && a->va == b->va && a->end == b->end &&
	       same_side(&a->a, &b->a) && same_side(&a->b, &b->b) &&
	       a->changes == b->changes && a->absence_a == b->absence_a &&
	       a->absence_b == b->absence_b &&
	       a->table_absent == b->table_absent;
}

static bool same_finding(const struct pgw_finding *a,
			 const struct pgw_finding *b)
{
	if (a->rule != b->rule || a->severity != b->severity ||
	    a->has_range != b->has_range || a->va != b->va ||
	    a->end != b->end || a->has_root != b->has_root ||
	    a->root != b->root || a->owner != b->owner ||
	    a->nevidence != b->nevidence || strcmp(a->why, b->why) != 0)
		return false;
	for (unsigned i = 0; i < a->nevidence; i++)
		if (memcmp(&a->evidence[i], &b->evidence[i],
			   sizeof(a->evidence[i])) != 0)
			return false;
	return true;
}

/* The runs of sp under opts both ways; how many. */
static size_t runs(const struct pgw_space *sp, const struct pgw_run_opts *o)
{
	struct list l = { .size = sizeof(struct pgw_run) };
	struct pgw_run_ops ops = { .run = on_run };
	struct pgw_walk_stats ws, is;
	struct pgw_err e1 = { 0 }, e2 = { 0 };
	enum pgw_status st = pgw_walk_runs(sp, o, &ops, &l, &ws, NULL, &e1);
	struct pgw_runs_iter *it;
	const struct pgw_run *r;
	size_t i = 0;
	enum pgw_status ist = pgw_runs_iter_new(sp, o, &it, &e2);

	while (ist == PGW_OK &&
	       (ist = pgw_runs_iter_next(it, &r, &e2)) == PGW_OK && r) {
		if (i >= l.n || !same_run(r, (struct pgw_run *)l.v + i))
			differs("run", i);
		i++;
	}
	pgw_runs_iter_stats(it, &is);
	if (i != l.n || ist != st || strcmp(e1.msg, e2.msg) != 0 ||
	    memcmp(&ws, &is, sizeof(ws)) != 0)
		differs("runs' end (count, status, stats)", i);
	pgw_runs_iter_free(it);
	/* Freed in the middle: the walk stops, the free returns. */
	if (pgw_runs_iter_new(sp, o, &it, &e2) == PGW_OK) {
		for (int k = 0; k < 100; k++)
			pgw_runs_iter_next(it, &r, &e2);
		pgw_runs_iter_free(it);
	}
	free(l.v);
	return i;
}

static size_t diff(const struct pgw_space *a, const struct pgw_space *b)
{
	struct list l = { .size = sizeof(struct pgw_diff_range) };
	struct pgw_diff_opts o = { .data = true };
	struct pgw_diff_stats ws, is;
	struct pgw_err e1 = { 0 }, e2 = { 0 };
	enum pgw_status st = pgw_diff_spaces(a, b, &o, on_range, &l, &ws, &e1);
	struct pgw_diff_iter *it;
	const struct pgw_diff_range *r;
	size_t i = 0;
	enum pgw_status ist = pgw_diff_iter_new(a, b, &o, &it, &e2);

	while (ist == PGW_OK &&
	       (ist = pgw_diff_iter_next(it, &r, &e2)) == PGW_OK && r) {
		if (i >= l.n || !same_range(r, (struct pgw_diff_range *)l.v + i))
			differs("diff range", i);
		i++;
	}
	pgw_diff_iter_stats(it, &is);
	if (i != l.n || ist != st || memcmp(&ws, &is, sizeof(ws)) != 0)
		differs("diff's end (count, status, stats)", i);
	pgw_diff_iter_free(it);
	free(l.v);
	return i;
}

/* The findings of sp's root, from a check of its own each way (a check
 * remembers the kernel root's tables). */
static size_t findings(const struct pgw_space *kernel,
		       const struct pgw_space *sp)
{
	struct list l = { .size = sizeof(struct pgw_finding) };
	struct pgw_check *c1, *c2;
	struct pgw_err e1 = { 0 }, e2 = { 0 };
	struct pgw_check_stats ws, is;
	struct pgw_check_root_opts o = { .kernel_root = sp->root ==
						       kernel->root };
	size_t i = 0;

	if (pgw_check_open(kernel, &c1, &e1) != PGW_OK ||
	    pgw_check_open(kernel, &c2, &e2) != PGW_OK) {
		differs("check open", 0);
		return 0;
	}
	enum pgw_status st = pgw_check_root(c1, sp, &o, on_finding, &l, &ws,
					    &e1);
	struct pgw_findings_iter *it;
	const struct pgw_finding *f;
	enum pgw_status ist = pgw_findings_iter_new(c2, sp, &o, &it, &e2);
	while (ist == PGW_OK &&
	       (ist = pgw_findings_iter_next(it, &f, &e2)) == PGW_OK && f) {
		if (i >= l.n || !same_finding(f, (struct pgw_finding *)l.v + i))
			differs("finding", i);
		i++;
	}
	pgw_findings_iter_stats(it, &is);
	if (i != l.n || ist != st || memcmp(&ws, &is, sizeof(ws)) != 0)
		differs("findings' end (count, status, stats)", i);
	pgw_findings_iter_free(it);
	pgw_check_close(c1);
	pgw_check_close(c2);
	free(l.v);
	return i;
}

static size_t roots(struct pgw_image *img, const struct pgw_space *kernel)
{
	struct pgw_roots *rs;
	struct pgw_roots_iter *it;
	struct pgw_err err = { 0 };
	const struct pgw_root_found *f;
	const struct pgw_root_diff *d;
	size_t i = 0;

	if (pgw_roots_scan(img, kernel->mode, kernel->root, NULL, &rs,
			   &err) != PGW_OK ||
	    pgw_roots_iter_new(rs, &it, &err) != PGW_OK) {
		differs("roots scan", 0);
		return 0;
	}
	while (pgw_roots_iter_next(it, &f, &d) == PGW_OK && f) {
		if (i >= rs->n || f != &rs->root[i] ||
		    (f->ndiffs_listed ? d != &rs->diffs[f->diff] : d != NULL))
			differs("root", i);
		i++;
	}
	if (i != rs->n)
		differs("roots' end", i);
	pgw_roots_iter_free(it);
	pgw_roots_free(rs);
	return i;
}

static bool open_space(struct pgw_image *img, int cpu, struct pgw_space *sp)
{
	struct pgw_space_request req = { 0 };
	struct pgw_space_why why;
	struct pgw_err err = { 0 };

	if (cpu < 0) {
		req.root.kernel = true;
	} else {
		req.root.have_cpu = true;
		req.root.cpu = (unsigned)cpu;
	}
	if (pgw_space_open(img, &req, sp, &why, &err) != PGW_OK) {
		fprintf(stderr, "pgw-iters: space: %s\n", err.msg);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_space k, s0, s1;

	if (argc != 2) {
		fputs("usage: pgw-iters IMAGE\n", stderr);
		return 2;
	}
	if (pgw_image_open(&img, argv[1], NULL, &err) != PGW_OK) {
		fprintf(stderr, "pgw-iters: %s\n", err.msg);
		return 2;
	}
	if (!open_space(img, -1, &k) || !open_space(img, 0, &s0) ||
	    !open_space(img, 1, &s1))
		return 2;
	struct pgw_run_opts coalesced = { 0 };
	struct pgw_run_opts leaves = { .leaves = true, .non_present = true };
	size_t nr = runs(&s0, &coalesced), nl = runs(&s0, &leaves);
	size_t nd = diff(&s0, &s1);
	size_t nf = findings(&k, &k) + findings(&k, &s1);
	size_t nroots = roots(img, &k);
	printf("runs %zu, leaf runs %zu, diff ranges %zu, findings %zu, "
	       "roots %zu: %lu differ\n", nr, nl, nd, nf, nroots, bad);
	pgw_image_close(img);
	return bad ? 1 : 0;
}
