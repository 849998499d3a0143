/*
 * Every root of a mode with two roots (AArch64), without symbols.  A
 * process's top table there holds only its own (TTBR0) half, nothing of
 * the kernel's to recognise it by, so the evidence is its own: a table
 * whose entries are all table descriptors into memory the image holds,
 * which no other table reaches (the kernel's own tables, and every
 * candidate's lower levels, are reached from somewhere), and whose walk
 * finds pages.  Its kind says what the walk found: EL0 pages (process),
 * tables only, or pages EL0 may not touch.  The kernel's root
 * (swapper_pg_dir, TTBR1's) comes first.
 */
#include "../lib/err.h"
#include "roots.h"
#include "scan.h"
#include "linux.h"
#include "arm64.h"
#include "../lib/grow.h"
#include "../walk/step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Candidates walked at most; entries each walk may examine. */
#define MAX_CANDIDATES 65536
#define WALK_ENTRIES (UINT64_C(1) << 20)

struct cand {
	uint64_t table;
	uint64_t leaves, user_leaves, bytes, tables;
};

struct two_ctx {
	struct pgw_image *img;
	const struct pgw_mode *mode;
	uint64_t kernel_root;
	unsigned top_bytes;         /* the top table's size */
	struct cand *cand;
	size_t ncand;
	uint64_t *reached;          /* lower-level tables walks went into */
	size_t nreached;
	uint8_t *buf;               /* a top table larger than a page */
	struct pgw_err err;
	bool failed;
	struct pgw_scan_stats *scan;
};

/* Bits 9..2 of a table descriptor are ignored by the CPU and left zero
 * by Linux; a page descriptor has its AttrIndx and SH there, so a last-
 * level table (whose pages look like tables a level up) is no
 * candidate. */
#define TABLE_LOW_BITS UINT64_C(0x3fc)

/* Is this a top table of a lower half: every entry empty or a table
 * descriptor into memory the image holds, and at least one of them? */
static bool looks_top(const struct two_ctx *c, struct pgw_image *img,
		      const uint8_t *t)
{
	const struct pgw_mode *mode = c->mode;
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	unsigned n = c->top_bytes / 8, present = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t raw;
		struct pgw_entry e;
		memcpy(&raw, t + 8 * i, sizeof(raw));
		if (!raw)
			continue;
		if (raw & TABLE_LOW_BITS)
			return false;
		mode->decode(mode, top, raw, NULL, &e);
		if (e.kind != PGW_ENT_TABLE || e.reserved ||
		    pgw_image_page_state(img, e.addr >> PGW_PAGE_SHIFT) !=
			    PGW_ABSENT_NONE)
			return false;
		present++;
	}
	return present > 0;
}

static int add_cand(void *arg, const void *rec)
{
	struct two_ctx *c = arg;
	uint64_t table;

	memcpy(&table, rec, sizeof(table));
	if (table == c->kernel_root)
		return 0;
	c->scan->candidates++;
	if (c->ncand >= MAX_CANDIDATES) {
		pgw_scan_incomplete(c->scan, "more than %d candidate roots: "
				    "the rest are not listed", MAX_CANDIDATES);
		return 0;
	}
	if ((c->failed = pgw_grow(&c->cand, c->ncand, sizeof(*c->cand),
				  &c->err) != PGW_OK))
		return 1;
	c->cand[c->ncand++] = (struct cand){ .table = table };
	return 0;
}

/* Candidates in a worker: each found through the chunk's image (a top
 * table of several pages read into the chunk's scratch). */
static void look(const void *arg, struct pgw_scan_chunk *chunk, uint64_t pa,
		 const uint8_t *page)
{
	const struct two_ctx *c = arg;
	struct pgw_image *img = pgw_scan_image(chunk);

	if (c->top_bytes <= PGW_PAGE_SIZE) {
		for (unsigned off = 0; off < PGW_PAGE_SIZE; off += c->top_bytes)
			if (looks_top(c, img, page + off))
				pgw_scan_emit(chunk, pa, &(uint64_t){ pa + off });
		return;
	}
	/* A table of several pages starts at its own alignment. */
	if (pa % c->top_bytes)
		return;
	struct pgw_err e;
	uint8_t *buf = pgw_scan_scratch(chunk);
	if (pgw_image_read(img, pa, buf, c->top_bytes, &e) == PGW_OK &&
	    looks_top(c, img, buf))
		pgw_scan_emit(chunk, pa, &pa);
}

struct walk_count {
	struct two_ctx *c;
	struct cand *k;             /* NULL: the kernel's walk */
	uint64_t top;
};

static int note_reached(struct two_ctx *c, uint64_t table_pa)
{
	if ((c->failed = pgw_grow(&c->reached, c->nreached,
				  sizeof(*c->reached), &c->err) != PGW_OK))
		return 1;
	c->reached[c->nreached++] = table_pa;
	return 0;
}

/* The kernel's walk marks every table it reaches; a candidate's walk
 * only counts (a table that is no root is marked by its parent's
 * entries instead, see children). */
static int on_table(void *arg, enum pgw_level lvl, uint64_t table_pa,
		    uint64_t va)
{
	struct walk_count *w = arg;

	(void)lvl;
	(void)va;
	if (w->k) {
		w->k->tables++;
		return 0;
	}
	return table_pa == w->top ? 0 : note_reached(w->c, table_pa);
}

/* The tables a candidate's entries point to: none of them is a root
 * (a process's lower tables are candidates too, each its parent's
 * child). */
static void children(struct two_ctx *c, uint64_t table)
{
	enum pgw_level top = pgw_next_level(c->mode, PGW_PGD);
	struct pgw_err e;

	if (c->top_bytes > PGW_PAGE_SIZE &&
	    pgw_image_read(c->img, table, c->buf, c->top_bytes, &e) != PGW_OK)
		return;
	const uint8_t *t = c->buf;
	const uint8_t *page;
	if (c->top_bytes <= PGW_PAGE_SIZE) {
		if (pgw_image_page(c->img, table >> PGW_PAGE_SHIFT, &page,
				   &e) != PGW_OK)
			return;
		t = page + (table & (PGW_PAGE_SIZE - 1));
	}
	for (unsigned i = 0; i < c->top_bytes / 8 && !c->failed; i++) {
		uint64_t raw;
		struct pgw_entry en;
		memcpy(&raw, t + 8 * i, sizeof(raw));
		if (!raw)
			continue;
		c->mode->decode(c->mode, top, raw, NULL, &en);
		if (en.kind == PGW_ENT_TABLE)
			note_reached(c, en.addr);
	}
}

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	struct walk_count *w = arg;

	if (!w->k)
		return 0;
	w->k->leaves += l->count;
	w->k->bytes += l->size * l->count;
	if (l->eff_flags & PGW_F_USER)
		w->k->user_leaves += l->count;
	return 0;
}

/* Walk one half (upper: the kernel's) from table, noting every lower
 * table it reaches. */
static void walk(struct two_ctx *c, struct cand *k, uint64_t table,
		 bool upper)
{
	struct pgw_space sp = { .img = c->img, .mode = c->mode };
	struct walk_count w = { c, k, table };
	struct pgw_walk_ops ops = { .leaf = on_leaf, .table = on_table };
	uint64_t half = UINT64_C(1) << c->mode->va_bits;
	struct pgw_walk_opts o = {
		.start = upper ? 0 - half : 0, .end = upper ? 0 : half,
		.max_entries = WALK_ENTRIES,
	};
	struct pgw_err e;

	if (upper)
		sp.root_upper = table;
	else
		sp.root = table;
	(void)pgw_walk_range(&sp, &o, &ops, &w, NULL, NULL, &e);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool reached(const struct two_ctx *c, uint64_t table)
{
	return c->nreached && bsearch(&table, c->reached, c->nreached,
				      sizeof(table), cmp_u64) != NULL;
}

/* The kind of a candidate by what its walk found. */
static enum pgw_root_kind kind_of(const struct cand *k, char *why, size_t n)
{
	if (k->user_leaves) {
		snprintf(why, n, "maps %llu pages EL0 may access in its lower "
			 "half", (unsigned long long)k->user_leaves);
		return PGW_RK_PROCESS;
	}
	if (!k->leaves) {
		snprintf(why, n, "%llu tables, no page mapped",
			 (unsigned long long)k->tables);
		return PGW_RK_TABLES_ONLY;
	}
	snprintf(why, n, "maps %llu pages, none EL0 may access",
		 (unsigned long long)k->leaves);
	return PGW_RK_SUPERVISOR_ONLY;
}

static enum pgw_status fill(struct two_ctx *c, struct pgw_roots *out,
			    struct pgw_err *err)
{
	size_t n = 1;

	for (size_t i = 0; i < c->ncand; i++)
		n += !reached(c, c->cand[i].table);
	if (!(out->root = calloc(n, sizeof(*out->root))))
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	out->root[0].table = c->kernel_root;
	out->root[0].kind = PGW_RK_KERNEL;
	snprintf(out->root[0].why, sizeof(out->root[0].why), "the kernel's "
		 "root (TTBR1's table), from VMCOREINFO");
	out->n = 1;
	for (size_t i = 0; i < c->ncand; i++) {
		struct cand *k = &c->cand[i];
		struct pgw_root_found *f;
		if (reached(c, k->table))
			continue;   /* a lower level of another's */
		f = &out->root[out->n++];
		f->table = k->table;
		f->kind = kind_of(k, f->why, sizeof(f->why));
		f->user_bytes = k->bytes;
		f->user_leaves = k->leaves;
		f->user_access_leaves = k->user_leaves;
		f->user_tables = k->tables;
	}
	return PGW_OK;
}

enum pgw_status linux_roots_two(struct pgw_image *img,
				const struct pgw_mode *mode,
				uint64_t kernel_root,
				const struct pgw_roots_opts *opts,
				struct pgw_roots **roots_ret,
				struct pgw_err *err)
{
	struct pgw_roots *out = calloc(1, sizeof(*out));
	struct two_ctx c = { .img = img, .mode = mode };
	struct pgw_vmci_source src = pgw_vmci_image(img);
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	const struct pgw_cpu *cpus;
	enum pgw_status st = PGW_OK;
	char why[200];

	if (!out)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	out->mode = mode;
	out->kernel_start = 0 - (UINT64_C(1) << mode->va_bits);
	c.scan = &out->scan;
	c.top_bytes = (1u << mode->level[top].bits) * 8;
	if (!kernel_root && !linux_arm64_swapper(&src, &kernel_root, why,
						 sizeof(why))) {
		pgw_roots_free(out);
		return pgw_err_set(err, PGW_E_NOTFOUND, "roots: no kernel "
				   "root (SYMBOL(swapper_pg_dir) and "
				   "NUMBER(kimage_voffset) in VMCOREINFO)");
	}
	c.kernel_root = out->kernel_root = kernel_root;
	out->ncpus = pgw_image_cpus(img, &cpus);
	if (out->ncpus && !(out->cpu_root = malloc(out->ncpus *
						   sizeof(*out->cpu_root))))
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	for (size_t i = 0; st == PGW_OK && i < out->ncpus; i++)
		out->cpu_root[i] = -1;   /* the notes carry no TTBR */
	if (st == PGW_OK && c.top_bytes > PGW_PAGE_SIZE &&
	    !(c.buf = malloc(c.top_bytes)))
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	if (st == PGW_OK)
		walk(&c, NULL, kernel_root, true);
	if (st == PGW_OK) {
		struct pgw_finder finder = {
			.arg = &c, .rec_size = sizeof(uint64_t),
			.scratch_size = c.top_bytes > PGW_PAGE_SIZE ?
						c.top_bytes : 0,
			.look = look, .take = add_cand,
		};
		st = pgw_phys_scan(img, opts ? &opts->scan : NULL, &finder,
				   &out->scan, err);
		if (st == PGW_E_STOPPED && c.failed)
			st = PGW_E_NOMEM, *err = c.err;
	}
	for (size_t i = 0; st == PGW_OK && i < c.ncand && !c.failed; i++)
		children(&c, c.cand[i].table);
	if (st == PGW_OK && !c.failed && c.nreached)  /* qsort: never NULL */
		qsort(c.reached, c.nreached, sizeof(*c.reached), cmp_u64);
	/* Only the roots are walked whole. */
	for (size_t i = 0; st == PGW_OK && i < c.ncand && !c.failed; i++)
		if (!reached(&c, c.cand[i].table))
			walk(&c, &c.cand[i], c.cand[i].table, false);
	if (st == PGW_OK && c.failed) {
		st = PGW_E_NOMEM;
		*err = c.err;
	}
	if (st == PGW_OK)
		st = fill(&c, out, err);
	free(c.cand);
	free(c.reached);
	free(c.buf);
	if (st != PGW_OK) {
		pgw_roots_free(out);
		return st;
	}
	*roots_ret = out;
	return PGW_OK;
}
