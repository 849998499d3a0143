/*
 * Every page-table root in physical memory, without symbols: one quick
 * look at each page (PAE: each 32-byte slot, since PAE top tables come
 * from a slab cache), keeping tables whose kernel half mostly equals the
 * kernel root's, plus whatever each CPU's CR3 selects; then each is
 * compared in full, paired with its PTI user copy, walked (roots_jobs.c)
 * and named (roots_kind.c).
 */
#include "../lib/err.h"
#include "roots.h"
#include "scan.h"
#include "../arch/x86.h"
#include "linux.h"
#include "../lib/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for one more root in out->root and the per-root arrays. */
static enum pgw_status add_root(struct roots_ctx *ctx, uint64_t table,
				bool from_cpu, struct pgw_err *err)
{
	struct pgw_roots *out = ctx->out;
	size_t n = out->n;
	enum pgw_status st;

	if ((st = pgw_grow(&out->root, n, sizeof(*out->root), err)) ||
	    (st = pgw_grow(&ctx->user, n, sizeof(*ctx->user), err)) ||
	    (st = pgw_grow(&ctx->from_cpu, n, sizeof(*ctx->from_cpu), err)))
		return st;
	memset(&out->root[n], 0, sizeof(out->root[n]));
	memset(&ctx->user[n], 0, sizeof(ctx->user[n]));
	out->root[n].table = table;
	ctx->from_cpu[n] = from_cpu;
	out->n++;
	return PGW_OK;
}

/* A finding of the scan: a candidate top table, or a freed PAE slot. */
struct finding {
	uint64_t table;
	bool freed;
};

/* A chunk's own copy of the kernel half for PAE, whose test reads the
 * slots' page directories through the chunk's image and remembers them. */
struct pae_scratch {
	struct pgw_khalf kh;
	uint8_t page[PGW_PAGE_SIZE];
};

struct take_state {
	struct roots_ctx *ctx;
	struct pgw_err err;
	bool failed;
};

static int take(void *arg, const void *rec)
{
	struct take_state *ts = arg;
	struct roots_ctx *ctx = ts->ctx;
	struct finding f;

	memcpy(&f, rec, sizeof(f));
	if (f.freed) {
		ctx->out->freed_slots++;
		return 0;
	}
	if (f.table == ctx->out->kernel_root)
		return 0;
	ctx->out->scan.candidates++;
	if (ctx->out->n >= ctx->max_roots) {
		pgw_scan_incomplete(&ctx->out->scan,
				    "more than %llu candidate roots: the rest "
				    "are not listed",
				    (unsigned long long)ctx->max_roots);
		return 0;
	}
	if (add_root(ctx, f.table, false, &ts->err) != PGW_OK) {
		ts->failed = true;
		return 1;
	}
	return 0;
}

static void pae_begin(const void *arg, void *scratch, struct pgw_image *img)
{
	const struct take_state *ts = arg;
	struct pae_scratch *ps = scratch;

	ps->kh = *ts->ctx->kh;
	ps->kh.img = img;
	memset(ps->kh.memo, 0, sizeof(ps->kh.memo));
}

static void look(const void *arg, struct pgw_scan_chunk *chunk, uint64_t pa,
		 const uint8_t *page)
{
	const struct take_state *ts = arg;

	if (pgw_khalf_quick(ts->ctx->kh, page))
		pgw_scan_emit(chunk, pa, &(struct finding){ .table = pa });
}

static void look_pae(const void *arg, struct pgw_scan_chunk *chunk,
		     uint64_t pa, const uint8_t *page)
{
	struct pae_scratch *ps = pgw_scan_scratch(chunk);

	(void)arg;
	/* Comparing a slot's own page directory reads another page, which
	 * may take this one's place in a decompressing image's cache: the
	 * page is copied first then (rarely: few slots point at a directory
	 * not compared yet). */
	bool copied = false;
	for (unsigned off = 0; off < PGW_PAGE_SIZE; off += 32) {
		enum pgw_khalf_slot v = pgw_khalf_quick_pae(&ps->kh,
							    page + off,
							    copied);
		if (v == KH_SLOT_READ) {
			memcpy(ps->page, page, PGW_PAGE_SIZE);
			page = ps->page;
			copied = true;
			v = pgw_khalf_quick_pae(&ps->kh, page + off, true);
		}
		if (v == KH_SLOT_ROOT || v == KH_SLOT_FREED)
			pgw_scan_emit(chunk, pa,
				      &(struct finding){
					      .table = pa + off,
					      .freed = v == KH_SLOT_FREED });
	}
}

static long find_table(const struct pgw_roots *out, size_t from, size_t to,
		       uint64_t table)
{
	if (out->n && out->root[0].table == table)
		return 0;
	while (from < to) {
		size_t mid = from + (to - from) / 2;
		if (out->root[mid].table < table)
			from = mid + 1;
		else if (out->root[mid].table > table)
			to = mid;
		else
			return (long)mid;
	}
	return -1;
}

long pgw_roots_table_index(const struct pgw_roots *roots, uint64_t table)
{
	return find_table(roots, 1, roots->n, table);
}

long pgw_roots_find(const struct pgw_roots *roots, uint64_t table)
{
	long i = find_table(roots, 1, roots->n, table);

	if (i < 0 && (table & LINUX_PTI_USER_BIT)) {
		i = find_table(roots, 1, roots->n, table & ~LINUX_PTI_USER_BIT);
		if (i >= 0 && roots->root[i].pti_user != table)
			i = -1;
	}
	return i;
}

/* The top table a CPU's CR3 selects, or false when it has none. */
static bool cpu_table(const struct roots_ctx *ctx, const struct pgw_cpu *c,
		      uint64_t *table)
{
	if (!c->has_cr || !c->cr3)
		return false;
	*table = pgw_cr3_table(ctx->mode, c->cr3, &ctx->enc);
	return true;
}

/* CPUs whose CR3 is none of the candidates (nor a user copy of one)
 * become roots of their own: a live root the scan did not find is
 * evidence too. */
static enum pgw_status add_cpu_roots(struct roots_ctx *ctx,
				     struct pgw_err *err)
{
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(ctx->img, &cpus);
	size_t ncand = ctx->out->n;

	for (size_t c = 0; c < ncpus; c++) {
		uint64_t t;
		if (!cpu_table(ctx, &cpus[c], &t) ||
		    find_table(ctx->out, 1, ncand, t) >= 0 ||
		    find_table(ctx->out, 1, ncand, t & ~LINUX_PTI_USER_BIT) >= 0)
			continue;
		bool dup = false;
		for (size_t i = ncand; i < ctx->out->n; i++)
			dup |= ctx->out->root[i].table == t;
		enum pgw_status st = dup ? PGW_OK :
					   add_root(ctx, t, true, err);
		if (st != PGW_OK)
			return st;
	}
	return PGW_OK;
}

struct sort_item {
	struct pgw_root_found root;
	struct roots_user user;
	bool from_cpu;
};

static int by_table(const void *a, const void *b)
{
	const struct sort_item *x = a, *y = b;

	return x->root.table < y->root.table ? -1 :
	       x->root.table > y->root.table;
}

/* Roots after the kernel's in address order (the scan found them so;
 * CPU roots were appended). */
static enum pgw_status sort_roots(struct roots_ctx *ctx, struct pgw_err *err)
{
	size_t n = ctx->out->n - 1;
	struct sort_item *items = n ? calloc(n, sizeof(*items)) : NULL;

	if (n && !items)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		items[i].root = ctx->out->root[i + 1];
		items[i].user = ctx->user[i + 1];
		items[i].from_cpu = ctx->from_cpu[i + 1];
	}
	if (n)
		qsort(items, n, sizeof(*items), by_table);
	for (size_t i = 0; i < n; i++) {
		ctx->out->root[i + 1] = items[i].root;
		ctx->user[i + 1] = items[i].user;
		ctx->from_cpu[i + 1] = items[i].from_cpu;
	}
	free(items);
	return PGW_OK;
}

static enum pgw_status map_cpus(struct roots_ctx *ctx, struct pgw_err *err)
{
	const struct pgw_cpu *cpus;
	struct pgw_roots *out = ctx->out;

	out->ncpus = pgw_image_cpus(ctx->img, &cpus);
	if (!out->ncpus)
		return PGW_OK;
	out->cpu_root = calloc(out->ncpus, sizeof(*out->cpu_root));
	if (!out->cpu_root)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	for (size_t c = 0; c < out->ncpus; c++) {
		uint64_t t;
		long i = cpu_table(ctx, &cpus[c], &t) ?
				 pgw_roots_find(out, t) : -1;
		out->cpu_root[c] = i;
		if (i >= 0)
			out->root[i].ncpus++;
	}
	return PGW_OK;
}

void pgw_roots_free(struct pgw_roots *roots)
{
	if (!roots)
		return;
	free(roots->root);
	free(roots->diffs);
	free(roots->cpu_root);
	free(roots);
}

static enum pgw_status scan(struct roots_ctx *ctx,
			    const struct pgw_roots_opts *opts,
			    struct pgw_err *err)
{
	struct take_state ts = { .ctx = ctx };
	bool pae = ctx->kh->pae;
	struct pgw_finder finder = {
		.arg = &ts, .rec_size = sizeof(struct finding),
		.scratch_size = pae ? sizeof(struct pae_scratch) : 0,
		.begin = pae ? pae_begin : NULL,
		.look = pae ? look_pae : look, .take = take,
	};
	enum pgw_status st;
	uint64_t kernel_table = ctx->out->kernel_root;

	st = add_root(ctx, kernel_table, false, err);
	if (st == PGW_OK)
		st = pgw_phys_scan(ctx->img, opts ? &opts->scan : NULL,
				   &finder, &ctx->out->scan, err);
	if (ts.failed)
		st = pgw_err_set(err, ts.err.status, "%s", ts.err.msg);
	if (st != PGW_OK)
		return st;
	/* The scan found candidates in address order; a CPU's CR3 may add
	 * one anywhere. */
	if ((st = add_cpu_roots(ctx, err)) != PGW_OK ||
	    (st = sort_roots(ctx, err)) != PGW_OK)
		return st;
	pgw_roots_find_image(ctx);
	for (ctx->memo.bits = 4;
	     ((size_t)1 << ctx->memo.bits) < 2 * ctx->out->n;)
		ctx->memo.bits++;
	ctx->memo.slot = calloc((size_t)1 << ctx->memo.bits,
				sizeof(*ctx->memo.slot));
	if (!ctx->memo.slot)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	if ((st = pgw_roots_per_root(ctx, err)) != PGW_OK ||
	    (st = map_cpus(ctx, err)) != PGW_OK)
		return st;
	return pgw_roots_classify(ctx, err);
}

enum pgw_status pgw_roots_scan(struct pgw_image *img,
			       const struct pgw_mode *mode,
			       uint64_t kernel_root,
			       const struct pgw_roots_opts *opts,
			       struct pgw_roots **roots_ret,
			       struct pgw_err *err)
{
	struct roots_ctx ctx = {
		.img = img, .mode = mode,
		.enc = opts ? opts->scan.enc : (struct pgw_enc_bits){ 0 },
	};
	enum pgw_status st;

	*roots_ret = NULL;
	if (!mode)
		return pgw_err_set(err, PGW_E_ARG, "roots: no paging mode");
	if (mode->root_select_bit)
		return linux_roots_two(img, mode, kernel_root, opts, roots_ret,
				       err);
	ctx.out = calloc(1, sizeof(*ctx.out));
	ctx.kh = malloc(sizeof(*ctx.kh));
	if (!ctx.out || !ctx.kh) {
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		goto out;
	}
	ctx.out->mode = mode;
	ctx.out->enc = ctx.enc;
	ctx.out->kernel_root = pgw_cr3_table(mode, kernel_root, &ctx.enc);
	st = pgw_khalf_init(ctx.kh, img, mode, &ctx.enc, ctx.out->kernel_root,
			    err);
	if (st != PGW_OK)
		goto out;
	ctx.out->kernel_start = ctx.kh->kernel_start;
	ctx.budget = pgw_scan_entry_budget(img, opts ? &opts->scan : NULL);
	/* One root per page is more than any machine runs; past that a
	 * hostile image is only being repeated. */
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(img, &ranges);
	for (size_t r = 0; r < nr; r++)
		ctx.max_roots += ranges[r].size >> PGW_PAGE_SHIFT;
	if (ctx.max_roots < 1024)
		ctx.max_roots = 1024;
	st = scan(&ctx, opts, err);
out:
	free(ctx.kh);
	free(ctx.memo.slot);
	free(ctx.user);
	free(ctx.from_cpu);
	if (st != PGW_OK) {
		pgw_roots_free(ctx.out);
		return pgw_err_prefix(err, "roots");
	}
	*roots_ret = ctx.out;
	return PGW_OK;
}
