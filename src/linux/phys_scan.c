/*
 * One look at every page of an image, for the finders that work without
 * symbols.  Pages come from pgw_image_page, so raw, ELF and LiME images
 * are read in place; formats that decompress each page have a budget of
 * their own, and whatever a budget leaves out is said in the stats.
 * The pages are planned as chunks of PGW_SCAN_CHUNK pages, whatever the
 * number of threads, each run as if alone (its image's decoded pages
 * given up first), and merged in physical order: the budgets stop the
 * scan at the same page, and the finder takes the same findings in the
 * same order, on one thread or many.
 */
#include "../lib/err.h"
#include "../formats/image_page.h"
#include "../lib/grow.h"
#include "../lib/chunks.h"
#include "scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stretch of pages in one physical range, [first, end) by frame. */
struct scan_plan {
	uint64_t first, end;
	/* The file holds no bytes of it (pgw_image_unheld_run): counted,
	 * never read; zero: zero-fill (holes), else absent. */
	bool unheld, zero;
};

/* What a chunk's run found; written by the thread that ran it, read by
 * the calling thread once it is done (scan_threads.c says so under its
 * lock). */
struct scan_result {
	uint64_t scanned, absent, holes, decoded;
	/* The decompression budget ran out before frame stop_pfn. */
	bool budget_stop;
	uint64_t stop_pfn;
	/* Findings: each the pa of its page, then rec_size bytes. */
	uint8_t *recs;
	size_t nrecs;
	bool oom;
};

struct pgw_scan_chunk {
	const struct pgw_finder *f;
	struct pgw_image *img;
	void *scratch;
	struct scan_result *res;
};

struct scan_job {
	const struct pgw_finder *f;
	bool decoding;               /* pages are decompressed (kdump, AVML) */
	uint64_t max_decoded;
	const struct scan_plan *plan;
	size_t nplan;
	struct scan_result *res;     /* one per chunk of the plan */
};

/* No budget to check: a chunk run ahead of the merge (see merge). */
#define SCAN_NO_BUDGET UINT64_MAX

/* Formats whose pages are decompressed one at a time (~25 us each). */
static const char *const decoding_formats[] = { "kdump", "avml" };

static bool decodes_pages(const struct pgw_image *img)
{
	const char *name = pgw_image_format(img);

	for (size_t i = 0; i < sizeof(decoding_formats) /
				       sizeof(decoding_formats[0]); i++)
		if (strcmp(name, decoding_formats[i]) == 0)
			return true;
	return false;
}

void pgw_scan_incomplete(struct pgw_scan_stats *stats, const char *fmt, ...)
{
	va_list ap;

	if (!stats->complete)
		return;
	stats->complete = false;
	va_start(ap, fmt);
	vsnprintf(stats->why, sizeof(stats->why), fmt, ap);
	va_end(ap);
}

uint64_t pgw_scan_entry_budget(struct pgw_image *img,
			       const struct pgw_scan_opts *opts)
{
	if (opts && opts->max_entries)
		return opts->max_entries;
	return pgw_default_budget(img);
}

void pgw_scan_emit(struct pgw_scan_chunk *chunk, uint64_t pa,
		   const void *rec)
{
	struct scan_result *r = chunk->res;
	size_t size = sizeof(pa) + chunk->f->rec_size;
	struct pgw_err ignored;

	if (r->oom)
		return;
	if (pgw_grow(&r->recs, r->nrecs, size, &ignored) != PGW_OK) {
		r->oom = true;
		return;
	}
	uint8_t *p = r->recs + r->nrecs * size;
	memcpy(p, &pa, sizeof(pa));
	memcpy(p + sizeof(pa), rec, chunk->f->rec_size);
	r->nrecs++;
}

int pgw_scan_page(const struct pgw_finder *finder, struct pgw_image *img,
		  void *scratch, uint64_t pa, const uint8_t *page, bool *oom)
{
	struct scan_result r = { 0 };
	struct pgw_scan_chunk chunk = {
		.f = finder, .img = img, .scratch = scratch, .res = &r,
	};
	size_t size = sizeof(uint64_t) + finder->rec_size;
	int stop = 0;

	finder->look(finder->arg, &chunk, pa, page);
	*oom = r.oom;
	for (size_t k = 0; k < r.nrecs && !stop && !r.oom; k++)
		stop = finder->take(finder->arg,
				    r.recs + k * size + sizeof(uint64_t));
	free(r.recs);
	return stop || r.oom;
}

void *pgw_scan_scratch(struct pgw_scan_chunk *chunk)
{
	return chunk->scratch;
}

struct pgw_image *pgw_scan_image(struct pgw_scan_chunk *chunk)
{
	return chunk->img;
}

/*
 * Run chunk i of the job through img (used by this thread alone) with
 * scratch (job->f->scratch_size bytes) into job->res[i]; decoded_before:
 * the pages decompressed by the chunks before it, or SCAN_NO_BUDGET.
 * The image's decoded pages are given up first, so the chunk costs the
 * same wherever it runs.
 */
static void scan_run_chunk(const struct scan_job *job, struct pgw_image *img,
			   void *scratch, size_t i, uint64_t decoded_before)
{
	const struct scan_plan *p = &job->plan[i];
	struct scan_result *r = &job->res[i];
	struct pgw_scan_chunk chunk = {
		.f = job->f, .img = img, .scratch = scratch, .res = r,
	};
	const struct pgw_finder *f = job->f;
	bool check = job->decoding && decoded_before != SCAN_NO_BUDGET;

	free(r->recs);
	*r = (struct scan_result){ 0 };
	pgw_image_forget_pages(img);
	/* The finder's own reads (a PAE slot's page directory) decompress
	 * too, and once the cache is full each gives a page up: they count
	 * against the budget with the pages scanned, or forged slots that
	 * each name another directory would decompress without bound. */
	const uint64_t *given_up = pgw_image_page_epoch(img);
	if (f->scratch_size)
		memset(scratch, 0, f->scratch_size);
	if (f->begin)
		f->begin(f->arg, scratch, img);
	for (uint64_t pfn = p->first; pfn < p->end; pfn++) {
		const uint8_t *page;
		struct pgw_err ignored;
		/* Pages a kdump left out cost nothing to skip: only those
		 * decompressed count against that budget. */
		if (check && decoded_before + r->decoded >= job->max_decoded) {
			r->budget_stop = true;
			r->stop_pfn = pfn;
			return;
		}
		bool zero;
		uint64_t run = pgw_image_unheld_run(img, pfn, &zero);
		if (run) {
			/* Counted as looked at, all at once. */
			if (run > p->end - pfn)
				run = p->end - pfn;
			r->scanned += run;
			if (zero)
				r->holes += run;
			else
				r->absent += run;
			pfn += run - 1;
			continue;
		}
		r->scanned++;
		if (pgw_image_page(img, pfn, &page, &ignored) != PGW_OK) {
			r->absent++;
			continue;
		}
		r->decoded++;
		if (pgw_image_page_in_hole(img, page)) {
			/* The rest of the hole too, in one step. */
			uint64_t hole = pgw_image_hole_run(img, pfn);
			if (hole > p->end - pfn)
				hole = p->end - pfn;
			if (hole == 0)
				hole = 1;
			r->scanned += hole - 1;
			r->holes += hole;
			pfn += hole - 1;
			continue;
		}
		uint64_t before = *given_up;
		f->look(f->arg, &chunk, pfn << PGW_PAGE_SHIFT, page);
		r->decoded += *given_up - before;
	}
}

/* The scan's plan and its merge, in the calling thread. */
struct scan {
	struct scan_job job;
	struct pgw_image *img;
	void *scratch;               /* the calling thread's */
	struct scan_plan *plan;
	size_t nplan;
	uint64_t max_pages;
	/* The page budget stopped the plan before frame cut_pfn. */
	bool cut;
	uint64_t cut_pfn;
	uint64_t decoded;            /* by the chunks merged so far */
	struct pgw_scan_stats *stats;
	bool stopped;                /* a finding stopped the scan */
	uint64_t stopped_pa;
	bool oom;
};

static enum pgw_status plan_add(struct scan *s, uint64_t first, uint64_t end,
				bool unheld, bool zero, struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&s->plan, s->nplan, sizeof(*s->plan),
				      err);
	if (st != PGW_OK)
		return st;
	s->plan[s->nplan++] = (struct scan_plan){
		.first = first, .end = end, .unheld = unheld, .zero = zero,
	};
	return PGW_OK;
}

/*
 * Cut the ranges into chunks, within the page budget: a stretch the file
 * holds nothing of is one step however long (a hostile header may claim
 * 2^62 bytes of it), the rest PGW_SCAN_CHUNK pages at a time.
 */
static enum pgw_status plan(struct scan *s, struct pgw_err *err)
{
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(s->img, &ranges);
	uint64_t planned = 0;

	for (size_t r = 0; r < nr; r++) {
		/* Whole pages only: a range's partial first or last page is
		 * not in the image as a page anyway. */
		uint64_t pfn = (ranges[r].start + PGW_PAGE_SIZE - 1) >>
			       PGW_PAGE_SHIFT;
		uint64_t end = (ranges[r].start + ranges[r].size) >>
			       PGW_PAGE_SHIFT;
		if (ranges[r].start + ranges[r].size < ranges[r].start)
			end = UINT64_MAX >> PGW_PAGE_SHIFT;
		while (pfn < end) {
			if (planned == s->max_pages) {
				s->cut = true;
				s->cut_pfn = pfn;
				return PGW_OK;
			}
			bool zero;
			uint64_t n = pgw_image_unheld_run(s->img, pfn, &zero);
			if (!n) {
				/* A hole of a sparse file a chunk long or
				 * more is one step too (512 GiB of hole was
				 * 32768 chunks, 60 ms). */
				n = pgw_image_hole_run(s->img, pfn);
				zero = true;
				if (n < PGW_SCAN_CHUNK)
					n = 0;
			}
			bool unheld = n != 0;
			if (!unheld)
				n = PGW_SCAN_CHUNK;
			if (n > end - pfn)
				n = end - pfn;
			if (n > s->max_pages - planned)
				n = s->max_pages - planned;
			enum pgw_status st = plan_add(s, pfn, pfn + n, unheld,
						      zero, err);
			if (st != PGW_OK)
				return st;
			planned += n;
			pfn += n;
		}
	}
	return PGW_OK;
}

static void budget_ran_out(struct scan *s, uint64_t pfn, bool pages)
{
	pgw_scan_incomplete(s->stats, "scan stopped at physical 0x%llx, after "
			    "%llu of %llu pages: the %s budget (%llu) ran out",
			    (unsigned long long)(pfn << PGW_PAGE_SHIFT),
			    (unsigned long long)s->stats->scanned,
			    (unsigned long long)s->stats->pages,
			    pages ? "page" : "decompression",
			    (unsigned long long)(pages ? s->max_pages :
						 s->job.max_decoded));
}

/* Chunk i into the stats and the finder, in order; non-zero: stop. */
static int merge(void *arg, size_t i)
{
	struct scan *s = arg;
	const struct scan_plan *p = &s->plan[i];
	struct scan_result *r = &s->job.res[i];
	struct pgw_scan_stats *stats = s->stats;
	bool decoding = s->job.decoding;

	if (decoding && s->decoded >= s->job.max_decoded) {
		budget_ran_out(s, p->first, false);
		return 1;
	}
	if (p->unheld) {
		stats->scanned += p->end - p->first;
		if (p->zero)
			stats->holes += p->end - p->first;
		else
			stats->absent += p->end - p->first;
		return 0;
	}
	/* Run ahead of the merge without a budget: where the budget runs
	 * out in this chunk, it is run again with it. */
	if (decoding && s->decoded + r->decoded >= s->job.max_decoded)
		scan_run_chunk(&s->job, s->img, s->scratch, i, s->decoded);
	stats->scanned += r->scanned;
	stats->absent += r->absent;
	stats->holes += r->holes;
	s->decoded += r->decoded;
	if (decoding)
		stats->decoded = s->decoded;
	if (r->oom) {
		s->oom = true;
		return 1;
	}
	size_t size = sizeof(uint64_t) + s->job.f->rec_size;
	for (size_t k = 0; k < r->nrecs; k++) {
		const uint8_t *rec = r->recs + k * size;
		if (s->job.f->take(s->job.f->arg, rec + sizeof(uint64_t))) {
			s->stopped = true;
			memcpy(&s->stopped_pa, rec, sizeof(uint64_t));
			return 1;
		}
	}
	free(r->recs);
	r->recs = NULL;
	if (r->budget_stop) {
		budget_ran_out(s, r->stop_pfn, false);
		return 1;
	}
	return 0;
}

/* The chunks on worker threads: each reads an image of its own. */
struct par {
	struct scan *s;
	struct pgw_image *const *workers;
	void **scratch;
};

static void par_run(void *arg, unsigned w, size_t i)
{
	struct par *p = arg;

	if (!p->s->plan[i].unheld)
		scan_run_chunk(&p->s->job, p->workers[w], p->scratch[w], i,
			       SCAN_NO_BUDGET);
}

static int par_merge(void *arg, size_t i)
{
	struct par *p = arg;

	return merge(p->s, i);
}

static enum pgw_status run_threads(struct scan *s, unsigned threads,
				   struct pgw_err *err)
{
	struct par p = { .s = s };
	struct pgw_chunks c = {
		.n = s->nplan, .workers = threads, .run = par_run,
		.merge = par_merge, .arg = &p,
	};
	size_t size = s->job.f->scratch_size;
	enum pgw_status st = PGW_OK;

	if (pgw_image_workers(s->img, threads, &p.workers, err) != PGW_OK)
		return PGW_E_UNSUPPORTED;
	if (!(p.scratch = calloc(threads, sizeof(*p.scratch))))
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	for (unsigned t = 0; size && t < threads && st == PGW_OK; t++)
		if (!(p.scratch[t] = malloc(size)))
			st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	if (st == PGW_OK)
		st = pgw_chunks_run(&c, err);
	for (unsigned t = 0; t < threads; t++)
		free(p.scratch[t]);
	free(p.scratch);
	return st;
}

static enum pgw_status run(struct scan *s, struct pgw_err *err)
{
	unsigned threads = pgw_image_threads(s->img);
	enum pgw_status st;

	/* More threads than chunks would only open images for nothing. */
	if (threads > s->nplan)
		threads = (unsigned)s->nplan;
	/* Threads are a speed-up only: where the image cannot be opened
	 * again (no descriptors left) or no thread starts, the calling
	 * thread scans alone, to the same answer. */
	if (threads >= 2 &&
	    (st = run_threads(s, threads, err)) != PGW_E_UNSUPPORTED)
		return st;
	for (size_t i = 0; i < s->nplan; i++) {
		if (!s->plan[i].unheld)
			scan_run_chunk(&s->job, s->img, s->scratch, i,
				       s->decoded);
		if (merge(s, i))
			return PGW_OK;
	}
	return PGW_OK;
}

enum pgw_status pgw_phys_scan(struct pgw_image *img,
			      const struct pgw_scan_opts *opts,
			      const struct pgw_finder *finder,
			      struct pgw_scan_stats *stats,
			      struct pgw_err *err)
{
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(img, &ranges);
	struct scan s = {
		.job = {
			.f = finder, .decoding = decodes_pages(img),
			.max_decoded = opts && opts->max_decoded ?
					       opts->max_decoded :
					       PGW_SCAN_MAX_DECODED,
		},
		.img = img, .stats = stats,
		.max_pages = opts && opts->max_pages ? opts->max_pages :
						       PGW_SCAN_MAX_PAGES,
	};
	enum pgw_status st;

	if (opts && opts->only)
		return pgw_phys_scan_only(img, opts, finder, stats, err);
	memset(stats, 0, sizeof(*stats));
	stats->complete = true;
	for (size_t r = 0; r < nr; r++)
		stats->pages += ranges[r].size >> PGW_PAGE_SHIFT;
	st = plan(&s, err);
	if (st == PGW_OK) {
		s.job.plan = s.plan;
		s.job.nplan = s.nplan;
		s.job.res = calloc(s.nplan ? s.nplan : 1, sizeof(*s.job.res));
		s.scratch = finder->scratch_size ?
				    malloc(finder->scratch_size) : NULL;
		if (!s.job.res || (finder->scratch_size && !s.scratch))
			st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	if (st == PGW_OK)
		st = run(&s, err);
	for (size_t i = 0; s.job.res && i < s.nplan; i++)
		free(s.job.res[i].recs);
	free(s.job.res);
	free(s.scratch);
	free(s.plan);
	if (st != PGW_OK)
		return st;
	if (s.oom)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	if (s.stopped)
		return pgw_err_set(err, PGW_E_STOPPED,
				   "scan stopped at physical 0x%llx",
				   (unsigned long long)s.stopped_pa);
	/* The page budget: whatever the plan left out. */
	if (s.cut && stats->complete && stats->scanned == s.max_pages)
		budget_ran_out(&s, s.cut_pfn, true);
	return PGW_OK;
}
