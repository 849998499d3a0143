/*
 * The physical scan cut into chunks, shared by phys_scan.c (the plan,
 * one chunk's pages, the merge in physical order) and scan_threads.c
 * (chunks run on worker threads).  Not part of the library's interface.
 */
#ifndef PGW_LINUX_SCAN_CHUNKS_H
#define PGW_LINUX_SCAN_CHUNKS_H

#include "scan.h"

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

/*
 * Run chunk i of the job through img (used by this thread alone) with
 * scratch (job->f->scratch_size bytes) into job->res[i]; decoded_before:
 * the pages decompressed by the chunks before it, or SCAN_NO_BUDGET.
 * The image's decoded pages are given up first, so the chunk costs the
 * same wherever it runs.
 */
void scan_run_chunk(const struct scan_job *job, struct pgw_image *img,
		    void *scratch, size_t i, uint64_t decoded_before);

/*
 * Run the job's chunks on the workers (one image each, nworkers >= 2)
 * while the calling thread calls merge(arg, i) for i = 0, 1, ... as each
 * is done, in order; a non-zero merge stops the scan (chunks after it
 * are dropped).  Workers run at most a few chunks ahead of the merge, so
 * memory stays bounded.  Before any merge: PGW_E_NOMEM, or
 * PGW_E_UNSUPPORTED when no thread could start (the caller then scans
 * alone; threads that do start share the chunks).
 */
enum pgw_status scan_threads_run(const struct scan_job *job,
				 struct pgw_image *const *workers,
				 unsigned nworkers,
				 int (*merge)(void *arg, size_t i), void *arg,
				 struct pgw_err *err);

#endif
