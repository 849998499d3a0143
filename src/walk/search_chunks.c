/*
 * pgw_search of physical memory in pieces of 4096 frames, each searched by a scanner of
 * its own through an image of its own, then reported in address order.
 * A piece searches its frames and, where the stream goes on, the frame
 * after them too, so a match that starts in it and runs into the next
 * is found whole; it keeps the matches that start in it.  The frames and
 * the bytes of every match are those the one-thread search reads, so
 * the hits are the same, in the same order.
 */
#include "search_chunks.h"
#include "search_feed.h"
#include "search_pieces.h"
#include "../formats/image_page.h"
#include "../lib/chunks.h"
#include "../lib/grow.h"
#include "search_stream.h"

#include <stdlib.h>
#include <string.h>

#define PIECE_FRAMES 4096
/* More frames than the scans look at (PGW_SCAN_MAX_PAGES): one thread,
 * as before, rather than a plan of that size. */
#define MAX_FRAMES (UINT64_C(1) << 26)

struct job {
	struct search_piece *pieces;
	size_t n;
	struct search_worker *w;
	struct scanner *sc;          /* the caller's: patterns, hit, counts */
	uint64_t *not_in_image;
	const int *stopped;
};

static void keep_hit(void *arg, const struct scan_hit *h)
{
	struct search_worker *w = arg;

	if (h->addr >= w->piece->end << PGW_PAGE_SHIFT)
		return;   /* the next piece's */
	search_worker_hit(w, h);
}

static void run_piece(void *arg, unsigned wi, size_t i)
{
	struct job *j = arg;
	struct search_worker *w = &j->w[wi];
	struct search_piece *p = &j->pieces[i];

	if (!w->ready) {
		p->oom = true;
		return;
	}
	w->piece = p;
	uint64_t before = w->sc.bytes;
	struct search_feed own, next;
	search_feed_init(&own, w->img, &w->sc, p->not_in_image);
	search_feed_frames(&own, p->first, p->end);
	/* The frame after the piece is the next piece's to count. */
	search_feed_init(&next, w->img, &w->sc, NULL);
	bool ahead = p->more && search_feed_frame(&next, p->end);
	scan_break(&w->sc);
	p->bytes = w->sc.bytes - before - (ahead ? PGW_PAGE_SIZE : 0);
	p->oom |= w->sc.oom;
	w->sc.oom = false;
}

static int merge_piece(void *arg, size_t i)
{
	struct job *j = arg;
	struct search_piece *p = &j->pieces[i];

	search_piece_take(p, j->sc, j->not_in_image, j->stopped);
	free(p->hits);
	p->hits = NULL;
	return *j->stopped;
}

static int by_start(const void *a, const void *b)
{
	const struct pgw_phys_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The frames the one-thread search feeds (each frame a range touches,
 * once), as streams of frames that follow one another: false when there
 * are too many, or at 2^64 (one thread, as before), or no memory. */
static bool streams(const struct pgw_phys_range *r0, size_t n,
		    struct search_frames *f)
{
	struct pgw_phys_range *r = malloc((n ? n : 1) * sizeof(*r));
	uint64_t frames = 0;
	bool ok = r && (f->stream = malloc((n ? n : 1) * sizeof(*f->stream)));

	f->nstreams = 0;
	if (ok && n) {
		memcpy(r, r0, n * sizeof(*r));
		qsort(r, n, sizeof(*r), by_start);
	}
	for (size_t i = 0; ok && i < n;) {
		uint64_t first = r[i].start >> PGW_PAGE_SHIFT, end = first;
		/* One stream: ranges that touch or overlap. */
		for (; i < n && r[i].start >> PGW_PAGE_SHIFT <= end; i++) {
			/* Every frame below the range's end from its start's
			 * on (an empty range at an unaligned start too, as
			 * the one-thread loop has it). */
			uint64_t last = r[i].start + r[i].size;
			if (last < r[i].start || last > UINT64_MAX - PGW_PAGE_SIZE)
				ok = false;   /* at 2^64: one thread */
			uint64_t e = (last + PGW_PAGE_SIZE - 1) >> PGW_PAGE_SHIFT;
			if (e > end)
				end = e;
		}
		frames += end - first;
		if (frames > MAX_FRAMES)
			ok = false;
		f->stream[f->nstreams++] = (struct search_stream){ first, end };
	}
	free(r);
	if (!ok) {
		free(f->stream);
		f->stream = NULL;
	}
	return ok;
}

/* The streams in pieces of PIECE_FRAMES frames, in order. */
static bool plan(struct pgw_image *img, const struct search_frames *f,
		 struct search_piece **pieces_ret, size_t *n_ret)
{
	struct search_piece *pieces = NULL;
	size_t np = 0;
	struct pgw_err ignored;

	for (size_t i = 0; i < f->nstreams; i++) {
		uint64_t end = f->stream[i].end;
		for (uint64_t s = f->stream[i].first; s < end;) {
			if (pgw_grow(&pieces, np, sizeof(*pieces), &ignored) !=
			    PGW_OK) {
				free(pieces);
				return false;
			}
			uint64_t e = end - s > PIECE_FRAMES ? s + PIECE_FRAMES :
							       end;
			/* A run the feed passes in one step is one piece. */
			uint64_t run = search_feed_run(img, s);
			if (run > e - s)
				e = run < end - s ? s + run : end;
			pieces[np++] = (struct search_piece){
				.first = s, .end = e, .more = e < end,
			};
			s = e;
		}
	}
	*pieces_ret = pieces;
	*n_ret = np;
	return true;
}

static bool only_literals(const struct scanner *sc)
{
	for (size_t i = 0; i < sc->npat; i++)
		if (sc->pat[i]->kind == PGW_PATTERN_REGEX ||
		    sc->pat[i]->kind == PGW_PATTERN_YARA)
			return false;
	return true;
}

bool search_phys_threads(struct pgw_image *img,
			 const struct pgw_phys_range *ranges, size_t n,
			 struct scanner *sc,
			 uint64_t not_in_image[PGW_NABSENCES],
			 const int *stopped)
{
	unsigned threads = pgw_image_threads(img);
	struct job j = {
		.sc = sc, .not_in_image = not_in_image, .stopped = stopped,
	};
	struct pgw_err err;

	struct search_frames f;
	bool ok;

	if (threads < 2 || !streams(ranges, n, &f))
		return false;
	if (!only_literals(sc)) {
		ok = search_stream_threads(img, &f, threads, sc, not_in_image,
					   stopped);
		free(f.stream);
		return ok;
	}
	ok = plan(img, &f, &j.pieces, &j.n);
	free(f.stream);
	if (!ok)
		return false;
	if (!(j.w = search_workers_open(img, &threads, j.n, sc, keep_hit))) {
		free(j.pieces);
		return false;
	}
	struct pgw_chunks c = {
		.n = j.n, .workers = threads, .run = run_piece,
		.merge = merge_piece, .arg = &j,
	};
	/* Anything but PGW_OK comes before any piece is run or merged. */
	enum pgw_status st = pgw_chunks_run(&c, &err);
	search_workers_close(j.w, threads, sc);
	for (size_t i = 0; i < j.n; i++)
		free(j.pieces[i].hits);
	free(j.pieces);
	return st == PGW_OK;
}
