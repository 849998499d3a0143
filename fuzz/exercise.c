#include "exercise.h"
#include "../src/formats/image_page.h"
#include "../tests/tools/xlat_equal.h"
#include "../src/walk/runs_bulk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void fz_fail(const char *what, uint64_t a, uint64_t b)
{
	fprintf(stderr, "fuzz invariant broken: %s (0x%llx, 0x%llx)\n", what,
		(unsigned long long)a, (unsigned long long)b);
	abort();
}

int fz_memfile(const uint8_t *data, size_t len, char *path, size_t pathlen)
{
	int fd = memfd_create("pgwalk-fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, data + done, len - done);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

/* ---- walks ---- */

#define CHECK_ITEMS 16

struct walk_check {
	const struct pgw_space *sp;
	uint64_t start, end;       /* end 0 = 2^64 */
	uint64_t last_end;         /* end of the previous item */
	bool any, at_top;          /* an item seen; the last one ended at 2^64 */
	unsigned items, checked, stop_after;
	uint64_t tables;
};

/* Items come in address order and never overlap. */
static void check_order(struct walk_check *c, uint64_t va, uint64_t end)
{
	if (c->any && (c->at_top || va < c->last_end))
		fz_fail("walk items out of order", va, c->last_end);
	c->any = true;
	c->last_end = end;
	c->at_top = end == 0 || end < va;
}

static int stop_now(struct walk_check *c)
{
	c->items++;
	return c->stop_after && c->items >= c->stop_after ? 7 : 0;
}

static int on_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct walk_check *c = arg;
	struct pgw_xlat x;

	if (leaf->size == 0 || (leaf->size & (leaf->size - 1)) ||
	    (leaf->va & (leaf->size - 1)) || leaf->count == 0)
		fz_fail("leaf size, alignment or count", leaf->va, leaf->size);
	/* A shared uniform table reports `count` pages of one frame; the
	 * span may reach 2^64 exactly (end 0). */
	uint64_t span = leaf->count * leaf->size;
	if (span / leaf->size != leaf->count ||
	    (leaf->va + span != 0 && leaf->va + span < leaf->va))
		fz_fail("leaf span wraps", leaf->va, leaf->count);
	check_order(c, leaf->va, leaf->va + span);
	if (c->checked++ < CHECK_ITEMS) {
		uint64_t off = leaf->size > 0x1000 ? leaf->size / 2 + 0x123 :
						     0x123;
		/* The first page, and for a repeat one in the middle: each
		 * maps the same frame. */
		for (uint64_t k = 0; k < 2 && (k == 0 || leaf->count > 1);
		     k++) {
			uint64_t va = leaf->va + k * (leaf->count / 2) *
							 leaf->size + off;
			if (pgw_translate(c->sp, NULL, va, &x) != PGW_STOP_OK)
				fz_fail("walk leaf does not translate", va,
					x.stop);
			if (x.pa != leaf->pa + off ||
			    x.page_size != leaf->size ||
			    x.level != leaf->level ||
			    x.eff_flags != leaf->eff_flags)
				fz_fail("walk leaf and translate disagree",
					x.pa, leaf->pa + off);
		}
	}
	return stop_now(c);
}

static bool tagged_alias(const struct pgw_mode *mode, uint64_t va)
{
	/* The untagged address has a top byte copied from bit 55 (the
	 * half it selects); any other top byte is a tag. */
	uint64_t top = va >> 56;
	uint64_t untagged = (va >> 55 & 1) ? 0xff : 0;

	return (mode->quirks & PGW_Q_TBI) && top != untagged;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct walk_check *c = arg;
	struct pgw_xlat x;

	if (h->end != 0 && h->end <= h->va)
		fz_fail("empty or inverted hole", h->va, h->end);
	if (h->va < c->start || (c->end && (h->end == 0 || h->end > c->end)))
		fz_fail("hole outside the walked range", h->va, h->end);
	if (h->stop == PGW_STOP_OK || h->stop >= PGW_NSTOPS ||
	    !pgw_stop_text(h->stop)[0])
		fz_fail("hole stop reason", h->stop, 0);
	check_order(c, h->va, h->end);
	/* One vocabulary: translate stops for the same reason, except at a
	 * cycle, which it follows as the CPU does. */
	if (c->checked++ < CHECK_ITEMS && h->stop != PGW_STOP_CYCLE) {
		uint64_t probe[2] = { h->va, h->end ? h->end - 1 : UINT64_MAX };
		for (int i = 0; i < 2; i++)
			/* Under top-byte-ignore a tagged address aliases an
			 * untagged one: the range walk lists each page once,
			 * untagged, and the tagged rest as the gap. */
			if (!tagged_alias(c->sp->mode, probe[i]) &&
			    pgw_translate(c->sp, NULL, probe[i], &x) != h->stop)
				fz_fail("walk hole and translate disagree",
					probe[i], x.stop);
	}
	return stop_now(c);
}

static int on_table(void *arg, enum pgw_level lvl, uint64_t table_pa,
		    uint64_t va)
{
	struct walk_check *c = arg;

	if ((unsigned)lvl >= PGW_NLEVELS)
		fz_fail("table level", lvl, table_pa);
	(void)va;
	c->tables++;
	return stop_now(c);
}

void fz_exercise_space(const struct pgw_space *sp, uint64_t start,
		       uint64_t end, const uint64_t *vas, size_t nvas,
		       unsigned stop_after)
{
	struct pgw_walk_ops ops = { on_leaf, on_hole, on_table };
	struct pgw_walk_opts opts = { start, end, FZ_MAX_ENTRIES };
	struct walk_check c = { .sp = sp, .start = start, .end = end,
				.stop_after = stop_after };
	struct pgw_walk_stats stats;
	struct pgw_err err = { 0 };
	struct pgw_xlat x;
	int stopped = 0;

	struct pgw_xlat_cache *cache = pgw_xlat_cache_new();
	struct pgw_xlat y;
	/* Three times through the cache: filling it, then from it with
	 * every step, then with the last (pgw_translate_last; the first
	 * pass asks that way every other address too); each time briefly
	 * as well (pgw_translate_brief), where it answers; then all of them
	 * as a batch (pgw_translate_many). */
	for (size_t pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < nvas; i++) {
			enum pgw_stop xs = pgw_translate(sp, NULL, vas[i], &x);
			if (x.nsteps > PGW_NLEVELS || xs >= PGW_NSTOPS)
				fz_fail("translate result", vas[i], x.nsteps);
			if (xs == PGW_STOP_OK &&
			    (x.page_size == 0 ||
			     (x.pa & ~(x.page_size - 1)) !=
				     x.step[x.nsteps - 1].entry.addr))
				fz_fail("translate frame", x.pa, x.page_size);
			bool last = pass == 2 || (pass == 0 && (i & 1));
			unsigned first;
			if (cache && last &&
			    (pgw_translate_last(sp, cache, vas[i], &y,
						&first) != xs ||
			     !xe_same_last(&x, &y, first)))
				fz_fail("last step of a cached translation "
					"differs", vas[i], pass);
			if (cache && !last &&
			    (pgw_translate(sp, cache, vas[i], &y) != xs ||
			     !xe_same_xlat(&x, &y)))
				fz_fail("cached translation differs", vas[i],
					pass);
			struct pgw_answer b;
			bool same_brief;
			if (cache &&
			    xe_brief(sp, cache, vas[i], &x, &b, &same_brief) &&
			    !same_brief)
				fz_fail("brief translation differs", vas[i], pass);
		}
	/* And as one batch, through the cache the passes filled. */
	struct pgw_answer *many = malloc(nvas * sizeof(*many) + 1);
	if (cache && many) {
		pgw_translate_many(sp, cache, vas, nvas, many);
		for (size_t i = 0; i < nvas; i++) {
			pgw_translate(sp, NULL, vas[i], &x);
			if (!xe_same_answer(&x, &many[i]))
				fz_fail("batch answer differs", vas[i], i);
		}
	}
	free(many);
	pgw_xlat_cache_free(cache);
	enum pgw_status st = pgw_walk_range(sp, &opts, &ops, &c, &stats,
					    &stopped, &err);
	if (stats.entries > FZ_MAX_ENTRIES + 1)
		fz_fail("entry budget overrun", stats.entries, FZ_MAX_ENTRIES);
	if ((stopped != 0) != (st == PGW_E_STOPPED))
		fz_fail("stop reported wrongly", (uint64_t)stopped, st);
	if (st == PGW_E_LIMIT && stats.entries <= FZ_MAX_ENTRIES)
		fz_fail("budget error before the budget", stats.entries, 0);
	if (st != PGW_OK && !err.msg[0])
		fz_fail("error without a message", st, 0);
	if (stats.tables != c.tables)
		fz_fail("table count", stats.tables, c.tables);
}

/* ---- runs (coalesced walks, as dump prints them) ---- */

struct run_check {
	const struct pgw_layout *layout;
	uint64_t last_end;
	bool any, at_top;
	size_t last_region;
};

static int on_run(void *arg, const struct pgw_run *run)
{
	struct run_check *c = arg;

	if (run->end != 0 && run->end <= run->va)
		fz_fail("empty or inverted run", run->va, run->end);
	if (c->any && (c->at_top || run->va < c->last_end))
		fz_fail("runs out of order", run->va, c->last_end);
	if (c->layout && run->region >= c->layout->nregions)
		fz_fail("run region out of range", run->region,
			c->layout->nregions);
	if (run->kind == PGW_RUN_MAP &&
	    (run->page_size == 0 || run->entries == 0))
		fz_fail("map run without pages", run->va, run->entries);
	if (run->kind == PGW_RUN_HOLE &&
	    (run->stop == PGW_STOP_OK || run->stop >= PGW_NSTOPS))
		fz_fail("run stop reason", run->stop, 0);
	c->any = true;
	c->last_end = run->end;
	c->at_top = run->end == 0;
	return 0;
}

/* --leaves in bulk: n one-leaf runs, each checked as on_run checks it. */
static int on_leaf_runs(void *arg, const struct pgw_run *first, uint64_t n)
{
	struct pgw_run r = *first;

	if (n < 2 || first->kind != PGW_RUN_MAP || first->entries != 1 ||
	    first->end - first->va != first->page_size)
		fz_fail("leaf_runs contract", n, first->entries);
	for (uint64_t k = 0; k < n; k++) {
		on_run(arg, &r);
		r.va += r.page_size;
		r.end += r.page_size;
		r.pa += r.page_size;
	}
	return 0;
}

static int on_region(void *arg, size_t idx)
{
	struct run_check *c = arg;

	if (c->layout && idx >= c->layout->nregions)
		fz_fail("region index out of range", idx, 0);
	c->last_region = idx;
	return 0;
}

/* Layout inference from the tables, then a coalesced walk of a window in
 * every mode of reporting. */
void fz_exercise_runs(const struct pgw_space *sp, uint64_t start,
		      uint64_t end)
{
	struct pgw_layout layout;
	struct pgw_layout_request req = { 0 };
	struct pgw_err err = { 0 };
	bool have = pgw_layout_resolve(sp, &req, &layout, &err) == PGW_OK;

	if (have) {
		uint64_t prev = 0;
		if (layout.nregions == 0 ||
		    layout.nregions > PGW_LAYOUT_MAX_REGIONS ||
		    layout.nbases > PGW_LAYOUT_MAX_BASES)
			fz_fail("layout sizes", layout.nregions, layout.nbases);
		for (size_t i = 0; i < layout.nregions; i++) {
			if (i && layout.region[i].start < prev)
				fz_fail("layout regions unsorted", i, prev);
			prev = layout.region[i].start;
			if (pgw_layout_find(&layout, layout.region[i].start) >
			    i)
				fz_fail("layout find", i, prev);
		}
	} else if (!err.msg[0]) {
		fz_fail("layout error without a message", 0, 0);
	}
	for (int mode = 0; mode < 3; mode++) {
		struct pgw_run_opts o = {
			.walk = { start, end, FZ_MAX_ENTRIES },
			.leaves = mode == 1,
			.non_present = mode == 2,
			.layout = have ? &layout : NULL,
		};
		struct run_check c = { .layout = o.layout };
		struct pgw_run_ops ops = { .run = on_run,
					   .region = on_region };
		struct pgw_walk_stats st;
		int stopped = 0;
		(void)pgw_walk_runs_bulk(sp, &o, &ops, on_leaf_runs, &c, &st,
					 &stopped, &err);
		if (st.entries > FZ_MAX_ENTRIES + 1)
			fz_fail("runs: entry budget overrun", st.entries, 0);
	}
}

/* ---- images ---- */

/*
 * page_state agrees with page(): a page read is NONE; a page absent says
 * the same reason both ways, except damage only decoding finds (NONE
 * there, corrupt when read).  absent_bytes of the page says it too.
 */
static void check_page(struct pgw_image *img, uint64_t pfn)
{
	static uint8_t sink[PGW_PAGE_SIZE];
	const uint8_t *page;
	struct pgw_err err = { 0 };
	enum pgw_status st = pgw_image_page(img, pfn, &page, &err);
	enum pgw_absence state = pgw_image_page_state(img, pfn);

	if (st == PGW_OK) {
		memcpy(sink, page, PGW_PAGE_SIZE);  /* ASan checks it all */
		if (state != PGW_ABSENT_NONE)
			fz_fail("page read but page_state says absent", pfn,
				state);
	} else {
		if (!err.msg[0])
			fz_fail("page error without a message", pfn, st);
		if (st == PGW_E_NODATA && err.absence == PGW_ABSENT_NONE)
			fz_fail("NODATA without a reason", pfn, 0);
		if (st == PGW_E_NODATA && state != err.absence &&
		    !(state == PGW_ABSENT_NONE &&
		      err.absence == PGW_ABSENT_CORRUPT))
			fz_fail("page_state disagrees with page", pfn,
				state);
	}
	if (pfn <= (UINT64_MAX >> PGW_PAGE_SHIFT)) {
		uint64_t counts[PGW_NABSENCES];
		uint64_t absent = pgw_image_absent_bytes(
			img, pfn << PGW_PAGE_SHIFT, PGW_PAGE_SIZE, counts);
		if (counts[state] != PGW_PAGE_SIZE ||
		    absent != (state == PGW_ABSENT_NONE ? 0 : PGW_PAGE_SIZE))
			fz_fail("absent_bytes disagrees with page_state", pfn,
				state);
	}
}

static void exercise_pages(struct pgw_image *img)
{
	const struct pgw_phys_range *r;
	size_t nr = pgw_image_ranges(img, &r);
	uint64_t prev_end = 0;
	uint8_t buf[64];
	struct pgw_err err;

	for (size_t i = 0; i < nr; i++) {
		if (r[i].size == 0 || r[i].start + r[i].size - 1 < r[i].start ||
		    (i && r[i].start < prev_end))
			fz_fail("ranges empty, wrapping or unsorted",
				r[i].start, r[i].size);
		prev_end = r[i].start + r[i].size;
	}
	/* Every range: its first pages, its last page, either side. */
	for (size_t i = 0; i < nr && i < 64; i++) {
		uint64_t first = r[i].start >> PGW_PAGE_SHIFT;
		uint64_t last = (r[i].start + r[i].size - 1) >> PGW_PAGE_SHIFT;
		for (uint64_t p = first; p <= last && p - first < 16; p++)
			check_page(img, p);
		check_page(img, last);
		check_page(img, last + 1);
		if (first)
			check_page(img, first - 1);
		(void)pgw_image_read(img, r[i].start + r[i].size - 32, buf,
				     sizeof(buf), &err);
		(void)pgw_image_read(img, r[i].start, buf, sizeof(buf), &err);
	}
	check_page(img, 0);
	check_page(img, UINT64_MAX >> PGW_PAGE_SHIFT);
	check_page(img, UINT64_MAX);
	/* Counting: every range's bytes once, by reason; the evidence adds
	 * up; the budget's base is no more than the file holds. */
	for (size_t i = 0; i < nr && i < 64; i++) {
		uint64_t counts[PGW_NABSENCES], sum = 0;
		uint64_t absent = pgw_image_absent_bytes(img, r[i].start,
							 r[i].size, counts);
		for (size_t k = 0; k < PGW_NABSENCES; k++)
			sum += counts[k];
		if (sum != r[i].size ||
		    absent != r[i].size - counts[PGW_ABSENT_NONE])
			fz_fail("absent_bytes does not add up", r[i].start,
				sum);
	}
	struct pgw_evidence ev;
	pgw_image_evidence(img, &ev);
	uint64_t pages = ev.pages_dumped;
	for (size_t k = 0; k < PGW_NABSENCES; k++)
		pages += ev.pages_absent[k];
	if (pages != ev.pages_ram || ev.pages_absent[PGW_ABSENT_NONE] ||
	    (ev.complete && ev.pages_dumped != ev.pages_ram) ||
	    (ev.complete && !ev.intact))
		fz_fail("evidence does not add up", ev.pages_ram, pages);
	(void)pgw_image_held_pages(img);
}

static void exercise_meta(struct pgw_image *img)
{
	static const char *const keys[] = {
		"OSRELEASE", "NUMBER(phys_base)", "SYMBOL(init_top_pgt)",
		"SYMBOL(swapper_pg_dir)", "KERNELOFFSET", "CONFIG_X86_PAE",
		"NUMBER(pgtable_l5_enabled)", "",
	};
	const struct pgw_cpu *cpus;
	const char *const *fk, *const *fv;
	size_t n;
	uint64_t v;

	if (!pgw_image_path(img)[0] || !pgw_image_format(img)[0])
		fz_fail("image path or format empty", 0, 0);
	(void)pgw_image_machine(img);
	(void)pgw_image_class(img);
	(void)pgw_image_prstatus_count(img);
	(void)pgw_image_cpus(img, &cpus);
	n = pgw_image_facts(img, &fk, &fv);
	for (size_t i = 0; i < n; i++) {
		if (strlen(fk[i]) + strlen(fv[i]) == 0)
			fz_fail("empty fact", i, 0);
		for (size_t j = 0; j < i; j++)
			if (strcmp(fk[i], fk[j]) == 0)
				fz_fail("fact key repeated", i, j);
	}
	size_t ncpus = pgw_image_cpus(img, &cpus);
	if (ncpus > PGW_MAX_CPUS)
		fz_fail("CPU count beyond the cap", ncpus, 0);
	for (size_t i = 0; i < ncpus; i++)
		if (!cpus[i].has_cr && (cpus[i].cr0 | cpus[i].cr3 |
					cpus[i].cr4 | cpus[i].has_rip))
			fz_fail("CPU without registers has some", i, 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *s = pgw_vmcoreinfo_get(img, keys[i]);
		if (s)
			(void)strlen(s);
		struct pgw_err err = { 0 };
		uint64_t w = 0x5a5a5a5a;
		enum pgw_status st = pgw_vmcoreinfo_number(img, keys[i], &w,
							   &err);
		if (pgw_vmcoreinfo_u64(img, keys[i], &v) != (st == PGW_OK))
			fz_fail("vmcoreinfo_u64 and _number disagree", i, st);
		if (st != PGW_OK && (w != 0x5a5a5a5a || !err.msg[0]))
			fz_fail("vmcoreinfo_number failed but wrote, or "
				"gave no reason", i, st);
	}
	(void)pgw_vmcoreinfo_count(img);
}

/* Addresses worth translating in any mode. */
static const uint64_t probe_vas[] = {
	0, 0x1000, 0x400123, 0xc0000000, 0xc0001234, 0xffffffff,
	UINT64_C(0xffff888000000000), UINT64_C(0xffff888000003008),
	UINT64_C(0xffffffff81000000), UINT64_C(0xff11000000000000),
	UINT64_C(0x0000800000000000), UINT64_MAX,
};
#define NPROBE (sizeof(probe_vas) / sizeof(probe_vas[0]))

/* Windows worth walking in any mode: user, i386 kernel, direct map,
 * kernel text. */
static const uint64_t windows[] = {
	0x400000, 0xc0000000, UINT64_C(0xffff888000000000),
	UINT64_C(0xffffffff81000000),
};

/* Resolve a root as req asks; walk windows of it when full, else only
 * translate (the walker target is where whole walks are fuzzed). */
static void walk_root(struct pgw_image *img, const struct pgw_mode *mode,
		      const struct pgw_root_request *req, bool full)
{
	struct pgw_root root;
	struct pgw_err err = { 0 };

	if (pgw_root_resolve(img, mode, req, &root, &err) != PGW_OK) {
		if (!err.msg[0])
			fz_fail("root error without a message", 0, 0);
		return;
	}
	struct pgw_space sp = { .img = img, .mode = mode, .root = root.table };
	if (!full) {
		struct pgw_xlat x;
		for (size_t i = 0; i < NPROBE; i++)
			(void)pgw_translate(&sp, NULL, probe_vas[i], &x);
		return;
	}
	for (size_t i = 0; i < sizeof(windows) / sizeof(windows[0]); i++)
		fz_exercise_space(&sp, windows[i], windows[i] + 0x10000,
				  i ? NULL : probe_vas, i ? 0 : NPROBE, 0);
	fz_exercise_runs(&sp, windows[2], windows[2] + 0x400000);
}

void fz_exercise_image(struct pgw_image *img)
{
	struct pgw_mode_choice ch;
	struct pgw_err err = { 0 };
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(img, &cpus);

	exercise_meta(img);
	exercise_pages(img);

	/* Detection from the image alone, then the way --cr3 helps it. */
	if (pgw_detect_mode(img, 0, false, NULL, &ch, &err) == PGW_OK) {
		struct pgw_root_request req = { 0 };
		walk_root(img, ch.mode, &req, true);
		req.kernel_half = true;
		walk_root(img, ch.mode, &req, false);
		req.kernel_half = false;
		req.have_cpu = true;
		req.cpu = (unsigned)ncpus;   /* one past the last: NOTFOUND */
		walk_root(img, ch.mode, &req, false);
		if (ncpus > 1) {
			req.cpu = (unsigned)ncpus - 1;
			walk_root(img, ch.mode, &req, false);
		}
		struct pgw_pti pti;
		for (size_t i = 0; i < ncpus && i < 2; i++)
			pgw_pti_check(img, ch.mode, NULL,
				      pgw_cr3_table(ch.mode, cpus[i].cr3, NULL),
				      &pti);
	} else if (!err.msg[0]) {
		fz_fail("detect error without a message", 0, 0);
	}
	/* The whole choice as the CLI makes it, from a --cr3. */
	struct pgw_space_request sreq = { .root = { .have_cr3 = true,
						    .cr3 = 0x1000 } };
	struct pgw_space sp;
	struct pgw_space_why why;
	if (pgw_space_open(img, &sreq, &sp, &why, &err) == PGW_OK) {
		if (sp.mode != why.mode.mode || sp.root != why.root.table)
			fz_fail("space and its reasons disagree", sp.root,
				why.root.table);
		walk_root(img, sp.mode, &sreq.root, false);
		fz_exercise_linux(img, &sp);
	} else if (!err.msg[0]) {
		fz_fail("space error without a message", 0, 0);
	}
}
