/*
 * The work of each root after the scan: its kernel half compared in full
 * with the kernel root's, its PTI user copy paired, its user half walked.
 * The roots are cut into units run on the image's threads (each reading
 * an image of its own) and merged in root order on the calling thread,
 * where the differences are listed, the walk budget spent and the memo of
 * walked halves filled in that order: the answer is one thread's.
 *
 * A worker walks a user half ahead with the first walk's cap, the largest
 * any walk gets; the merge takes it by the rule of src/walk/walk_ahead.h,
 * else walks again (pgw_roots_walk_user).  What the walks ahead
 * spend comes out of one shared count of the scan's entry budget, so a
 * hostile image's thousands of copies of one table (the merge takes them
 * from the memo) cost the workers no more than that budget.
 */
#include "../lib/err.h"
#include "roots.h"
#include "scan.h"
#include "linux.h"
#include "../formats/image_page.h"
#include "../lib/chunks.h"
#include "../lib/grow.h"

#include <stdlib.h>
#include <string.h>

/* Roots per unit: enough that a unit outweighs claiming it, few enough
 * that a hundred roots still spread over the threads. */
#define ROOTS_PER_UNIT 8

/* What running one root found, for its merge. */
struct root_job {
	bool top_read;
	struct pgw_khalf_cmp cmp;
	uint64_t pti_user;
	bool has_key;
	uint64_t key;
	struct roots_walk walk;      /* ran.cap > 0: walked ahead */
};

struct jobs {
	struct roots_ctx *ctx;
	size_t nunits;
	struct root_job **unit;      /* per unit, from its run to its merge */
	struct pgw_image *const *images;   /* per worker */
	struct pgw_khalf **kh;       /* per worker: a copy reading its image */
	/* Per worker: the user halves (by pgw_roots_half_key) it walked
	 * ahead to the end; a copy met again is left to the memo. */
	struct pgw_table *seen;
	uint64_t ahead_cap;
	uint64_t ahead_left;         /* shared: entries walks ahead may use */
	enum pgw_status st;
	struct pgw_err *err;
};

/* The PTI user copy of the root at `table`: PTI gives each mm two top
 * tables in an 8 KiB-aligned pair, the user one at +4 KiB. */
static uint64_t pti_partner(const struct roots_ctx *ctx, struct pgw_image *img,
			    uint64_t table)
{
	struct pgw_pti pti;

	/* A page that is a root itself (full kernel half) is no user copy;
	 * the test costs a thousand entry reads, so skip it there. */
	if ((table & (2 * PGW_PAGE_SIZE - 1)) ||
	    pgw_roots_table_index(ctx->out, table | LINUX_PTI_USER_BIT) >= 0)
		return 0;
	pgw_pti_check(img, ctx->mode, &ctx->enc, table | LINUX_PTI_USER_BIT,
		      &pti);
	return pti.is_user_root && pti.kernel_table == table ?
		       table | LINUX_PTI_USER_BIT : 0;
}

/* Root i through img and kh (the thread's own); its user half walked
 * ahead (seen: the thread's; NULL: not ahead) unless this thread walked
 * a copy of it already, while j->ahead_left lasts.  Units are claimed in
 * order, so the first of a set of copies is always walked ahead. */
static void run_root(struct jobs *j, struct pgw_image *img,
		     struct pgw_khalf *kh, struct pgw_table *seen, size_t i,
		     struct root_job *out)
{
	const struct roots_ctx *ctx = j->ctx;
	uint64_t table = ctx->out->root[i].table;
	uint8_t top[PGW_PAGE_SIZE];
	size_t bytes = (size_t)kh->nent * kh->esize;
	struct pgw_err ignored;

	memset(out, 0, sizeof(*out));
	/* Not in the image: said when it is named. */
	if (pgw_image_read(img, table, top, bytes, &ignored) == PGW_OK) {
		pgw_khalf_compare(kh, table, top, &out->cmp);
		out->top_read = true;
	}
	out->pti_user = pti_partner(ctx, img, table);
	out->has_key = pgw_roots_half_key(ctx, img, table, &out->key);
	if (!seen || (out->has_key && pgw_table_get(seen, out->key)) ||
	    pgw_image_page_state(img, table >> PGW_PAGE_SHIFT) !=
		    PGW_ABSENT_NONE ||
	    __atomic_load_n(&j->ahead_left, __ATOMIC_RELAXED) == 0)
		return;
	pgw_roots_walk_half(ctx, img, table, j->ahead_cap, &out->walk);
	uint64_t left = __atomic_load_n(&j->ahead_left, __ATOMIC_RELAXED);
	uint64_t spent = out->walk.ran.entries;
	while (!__atomic_compare_exchange_n(&j->ahead_left, &left,
					    spent < left ? left - spent : 0,
					    false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
	if (out->has_key && out->walk.st == PGW_OK)
		pgw_table_add(seen, out->key, 1);
}

static size_t unit_end(const struct jobs *j, size_t u)
{
	size_t end = (u + 1) * ROOTS_PER_UNIT;

	return end < j->ctx->out->n ? end : j->ctx->out->n;
}

static void par_run(void *arg, unsigned w, size_t u)
{
	struct jobs *j = arg;
	size_t first = u * ROOTS_PER_UNIT, n = unit_end(j, u) - first;
	struct root_job *jobs = calloc(n, sizeof(*jobs));

	/* Without room, the merge runs the unit itself. */
	for (size_t k = 0; jobs && k < n; k++)
		run_root(j, j->images[w], j->kh[w], &j->seen[w], first + k,
			 &jobs[k]);
	j->unit[u] = jobs;
}

/* Root i's results into the answer, in root order. */
static enum pgw_status merge_root(struct roots_ctx *ctx, size_t i,
				  const struct root_job *job,
				  struct pgw_err *err)
{
	struct pgw_root_found *r = &ctx->out->root[i];

	if (job->top_read) {
		r->kernel_entries = job->cmp.entries;
		r->kernel_same = job->cmp.same;
		r->ndiffs = job->cmp.ndiffs;
		r->diff = ctx->out->ndiffs;
		for (unsigned d = 0; d < job->cmp.nlisted; d++) {
			enum pgw_status st = pgw_grow(&ctx->out->diffs,
						      ctx->out->ndiffs,
						      sizeof(*ctx->out->diffs),
						      err);
			if (st != PGW_OK)
				return st;
			ctx->out->diffs[ctx->out->ndiffs++] = job->cmp.diff[d];
		}
		r->ndiffs_listed = job->cmp.nlisted;
	}
	r->pti_user = job->pti_user;
	pgw_roots_walk_user(ctx, i, &job->walk, job->has_key, job->key);
	return PGW_OK;
}

/* Unit u's roots, run by a worker or (images NULL, or it found no room)
 * here, on the calling thread's image. */
static int merge_unit(struct jobs *j, size_t u)
{
	struct roots_ctx *ctx = j->ctx;
	struct root_job *jobs = j->unit ? j->unit[u] : NULL;
	struct root_job here;

	for (size_t i = u * ROOTS_PER_UNIT; i < unit_end(j, u); i++) {
		const struct root_job *job = &here;
		if (jobs)
			job = &jobs[i - u * ROOTS_PER_UNIT];
		else
			run_root(j, ctx->img, ctx->kh, NULL, i, &here);
		if ((j->st = merge_root(ctx, i, job, j->err)) != PGW_OK)
			break;
	}
	free(jobs);
	if (j->unit)
		j->unit[u] = NULL;
	return j->st != PGW_OK;
}

static int par_merge(void *arg, size_t u)
{
	return merge_unit(arg, u);
}

/* The units on `threads` workers; PGW_E_UNSUPPORTED: none could start
 * (nothing was merged). */
static enum pgw_status run_threads(struct jobs *j, unsigned threads)
{
	struct roots_ctx *ctx = j->ctx;
	struct pgw_chunks c = {
		.n = j->nunits, .workers = threads, .run = par_run,
		.merge = par_merge, .arg = j,
	};
	enum pgw_status st = PGW_OK;

	if (pgw_image_workers(ctx->img, threads, &j->images, j->err) != PGW_OK)
		return PGW_E_UNSUPPORTED;
	j->unit = calloc(j->nunits, sizeof(*j->unit));
	j->kh = calloc(threads, sizeof(*j->kh));
	j->seen = calloc(threads, sizeof(*j->seen));
	for (unsigned t = 0; j->kh && j->seen && t < threads && st == PGW_OK;
	     t++) {
		/* As many slots as the memo: at most half full. */
		j->seen[t].bits = ctx->memo.bits;
		j->seen[t].slot = calloc((size_t)1 << ctx->memo.bits,
					 sizeof(*j->seen[t].slot));
		if (!j->seen[t].slot ||
		    !(j->kh[t] = malloc(sizeof(*j->kh[t])))) {
			st = PGW_E_NOMEM;
			break;
		}
		*j->kh[t] = *ctx->kh;
		j->kh[t]->img = j->images[t];
		memset(j->kh[t]->memo, 0, sizeof(j->kh[t]->memo));
	}
	if (!j->unit || !j->kh || !j->seen || st != PGW_OK)
		st = pgw_err_set(j->err, PGW_E_NOMEM, "out of memory");
	else if ((st = pgw_chunks_run(&c, j->err)) == PGW_OK)
		st = j->st;
	for (size_t u = 0; j->unit && u < j->nunits; u++)
		free(j->unit[u]);
	free(j->unit);
	j->unit = NULL;
	for (unsigned t = 0; j->kh && t < threads; t++)
		free(j->kh[t]);
	free(j->kh);
	for (unsigned t = 0; j->seen && t < threads; t++)
		free(j->seen[t].slot);
	free(j->seen);
	return st;
}

enum pgw_status pgw_roots_per_root(struct roots_ctx *ctx,
				   struct pgw_err *err)
{
	struct jobs j = {
		.ctx = ctx, .err = err,
		.nunits = (ctx->out->n + ROOTS_PER_UNIT - 1) / ROOTS_PER_UNIT,
		.ahead_cap = pgw_roots_walk_cap(ctx->budget),
		.ahead_left = ctx->budget,
	};
	unsigned threads = pgw_image_threads(ctx->img);
	enum pgw_status st;

	if (threads > j.nunits)
		threads = (unsigned)j.nunits;
	/* Threads are a speed-up only: where no worker image opens or no
	 * thread starts, the calling thread does it all, to the same
	 * answer. */
	if (threads >= 2 && (st = run_threads(&j, threads)) !=
				    PGW_E_UNSUPPORTED)
		return st;
	for (size_t u = 0; u < j.nunits; u++)
		if (merge_unit(&j, u))
			break;
	return j.st;
}
