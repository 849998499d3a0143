/*
 * search --phys for regular expressions and YARA rules on threads.  What
 * they find depends on more than the bytes: a rule's condition holds
 * over one chunk of the scanner (SCAN_PAGES pages from where the stream
 * of readable pages began, and the carry), and a regular expression's
 * search goes on past its last match.  So the pieces are cut where one
 * scanner begins a chunk (a look at each frame's state, no read, finds
 * those places), and each piece starts from the state one scanner would
 * most likely be in there: the carry of the frame before, no regular
 * expression's match running on.  The calling thread, merging in order,
 * compares that with the state the piece before left: alike, the
 * piece's hits are the one scanner's; not alike (a match that runs over
 * the cut, a page that would not decode and moved the chunks), it
 * searches the piece again itself from the true state.  Either way the
 * hits, their order and the counts are one thread's.
 */
#include "search_stream.h"
#include "search_feed.h"
#include "search_pieces.h"
#include "scan_state.h"
#include "yara_rules.h"
#include "../formats/image_page.h"
#include "../lib/chunks.h"
#include "../lib/grow.h"

#include <stdlib.h>
#include <string.h>

#define PIECE_FRAMES 4096

struct piece {
	struct search_piece s;       /* its frames; what its search found */
	bool prime;                  /* the stream runs on from first - 1 */
	const char *failed;          /* libyara could not scan it: why */
	struct scan_state start;     /* the state its search began from */
	struct scan_state end_state; /* the state its search left */
};

struct job {
	struct piece *pieces;
	size_t n;
	struct search_worker *w;
	struct pgw_image *img;       /* the caller's, for its searches */
	struct scanner *sc;          /* the caller's: patterns, hit, counts */
	struct scan_state truth;     /* the state the merged pieces left */
	uint64_t *not_in_image;
	const int *stopped;
};

/* What feeding frame pfn does to sc before its bytes count: the chunk
 * held is searched (with the carry kept when pfn is read, whole when it
 * is not), the frame itself left for the next piece. */
static void look_ahead(struct scanner *sc, struct pgw_image *img,
		       uint64_t pfn)
{
	struct pgw_err err = { 0 };
	uint64_t pa = pfn << PGW_PAGE_SHIFT;

	if (pgw_image_page_state(img, pfn) == PGW_ABSENT_NONE &&
	    pgw_image_read_page(img, pfn, scan_slot(sc, pa, pa), &err) ==
		    PGW_OK)
		return;
	scan_break(sc);
}

/* Frame pfn read into buf: not absent, and it decodes. */
static bool readable(struct pgw_image *img, uint64_t pfn, uint8_t *buf)
{
	struct pgw_err err = { 0 };

	return pgw_image_page_state(img, pfn) == PGW_ABSENT_NONE &&
	       pgw_image_read_page(img, pfn, buf, &err) == PGW_OK;
}

/* The state one scanner is in at the piece's first frame, before it
 * reads it, when a chunk ended just before (the piece was cut there):
 * the carry of the frame before when both frames are read, else
 * nothing held. */
static void guess_start(struct scanner *sc, struct pgw_image *img,
			const struct piece *p)
{
	sc->carry = 0;
	sc->npages = 0;
	memset(sc->resume, 0, sc->npat * sizeof(*sc->resume));
	if (!p->prime || !readable(img, p->s.first, sc->buf) ||
	    !readable(img, p->s.first - 1, sc->buf))
		return;
	memmove(sc->buf, sc->buf + PGW_PAGE_SIZE - sc->keep, sc->keep);
	sc->carry = sc->keep;
	sc->carry_addr = sc->carry_pa = (p->s.first << PGW_PAGE_SHIFT) -
					sc->keep;
	/* A regular expression's last try took nothing (search_scan.c):
	 * it goes on at the first multiple of REGEX_MAX in the carry. */
	for (size_t i = 0; i < sc->npat; i++)
		if (sc->pat[i]->kind == PGW_PATTERN_REGEX)
			sc->resume[i] = (REGEX_MAX - sc->carry_addr % REGEX_MAX) %
					REGEX_MAX;
}

/* The piece's frames through sc from the state it holds, one by one as
 * the one-thread search feeds them (search.c), then the look at the next
 * frame; false: out of memory for the end's state. */
static bool search_piece(struct scanner *sc, struct pgw_image *img,
			 struct piece *p, uint64_t not_in_image[PGW_NABSENCES],
			 const int *stopped)
{
	struct search_feed f;

	search_feed_init(&f, img, sc, not_in_image);
	for (uint64_t pfn = p->s.first; pfn < p->s.end && !*stopped; pfn++)
		search_feed_frame(&f, pfn);
	if (p->s.more)
		look_ahead(sc, img, p->s.end);
	else
		scan_break(sc);
	return scan_state_save(sc, &p->end_state);
}

static void run_piece(void *arg, unsigned wi, size_t i)
{
	static const int go_on = 0;
	struct job *j = arg;
	struct search_worker *w = &j->w[wi];
	struct piece *p = &j->pieces[i];
	uint64_t before = w->sc.bytes;

	w->piece = &p->s;
	if (w->ready) {
		guess_start(&w->sc, w->img, p);
		if (!scan_state_save(&w->sc, &p->start) ||
		    !search_piece(&w->sc, w->img, p, p->s.not_in_image,
				  &go_on))
			p->s.oom = true;
	} else {
		p->s.oom = true;
	}
	p->s.bytes = w->sc.bytes - before;
	p->s.oom |= w->sc.oom;
	p->failed = w->sc.failed;
	w->sc.oom = false;
	w->sc.failed = NULL;
}

/* The piece searched by the caller's scanner from the truth (the state
 * the pieces before it left), its hits reported as found. */
static void search_again(struct job *j, struct piece *p)
{
	struct scanner *sc = j->sc;

	scan_state_restore(sc, &j->truth);
	if (!search_piece(sc, j->img, p, j->not_in_image, j->stopped) ||
	    !scan_state_save(sc, &j->truth))
		sc->oom = true;
}

/* The piece's own search, started from the truth: its findings. */
static void take_piece(struct job *j, struct piece *p)
{
	struct scanner *sc = j->sc;

	search_piece_take(&p->s, sc, j->not_in_image, j->stopped);
	if (p->failed)
		sc->failed = p->failed;
	scan_state_free(&j->truth);
	j->truth = p->end_state;
	p->end_state = (struct scan_state){ 0 };
}

static int merge_piece(void *arg, size_t i)
{
	struct job *j = arg;
	struct piece *p = &j->pieces[i];

	/* A piece short of memory is searched again too: one scanner's
	 * search might not have been. */
	if (!p->s.oom && scan_state_same(&j->truth, &p->start))
		take_piece(j, p);
	else
		search_again(j, p);
	free(p->s.hits);
	p->s.hits = NULL;
	scan_state_free(&p->start);
	scan_state_free(&p->end_state);
	return *j->stopped;
}

static bool add_piece(struct piece **pieces, size_t *np, uint64_t first,
		      uint64_t end, bool prime, bool more)
{
	struct pgw_err ignored;

	if (pgw_grow(pieces, *np, sizeof(**pieces), &ignored) != PGW_OK)
		return false;
	(*pieces)[(*np)++] = (struct piece){
		.s = { .first = first, .end = end, .more = more },
		.prime = prime,
	};
	return true;
}

/* The stream [first, end) in pieces of PIECE_FRAMES frames or a little
 * more, each cut where one scanner begins a chunk: after a frame that
 * is not in the image, or SCAN_PAGES frames on from the last such. */
static bool cut_stream(struct pgw_image *img, uint64_t first, uint64_t end,
		       struct piece **pieces, size_t *np)
{
	uint64_t from = first, run = 0;

	for (uint64_t pfn = first; pfn < end; pfn++) {
		if (pfn - from >= PIECE_FRAMES && run % SCAN_PAGES == 0) {
			if (!add_piece(pieces, np, from, pfn, from > first,
				       true))
				return false;
			from = pfn;
		}
		run = pgw_image_page_state(img, pfn) == PGW_ABSENT_NONE ?
			      run + 1 : 0;
	}
	return end == from ||
	       add_piece(pieces, np, from, end, from > first, false);
}

static bool plan(struct pgw_image *img, const struct search_frames *f,
		 struct piece **pieces_ret, size_t *n_ret)
{
	struct piece *pieces = NULL;
	size_t np = 0;

	for (size_t i = 0; i < f->nstreams; i++)
		if (!cut_stream(img, f->stream[i].first, f->stream[i].end,
				&pieces, &np)) {
			free(pieces);
			return false;
		}
	*pieces_ret = pieces;
	*n_ret = np;
	return true;
}

bool search_stream_threads(struct pgw_image *img,
			   const struct search_frames *frames,
			   unsigned threads, struct scanner *sc,
			   uint64_t not_in_image[PGW_NABSENCES],
			   const int *stopped)
{
	struct job j = {
		.img = img, .sc = sc, .not_in_image = not_in_image,
		.stopped = stopped,
	};
	struct pgw_err err;

	for (size_t i = 0; i < sc->npat; i++)
		if (sc->pat[i]->kind == PGW_PATTERN_YARA &&
		    threads > yara_rules_threads())
			threads = yara_rules_threads();
	if (threads < 2 || !plan(img, frames, &j.pieces, &j.n))
		return false;
	if (!(j.w = search_workers_open(img, &threads, j.n, sc,
					search_worker_hit))) {
		free(j.pieces);
		return false;
	}
	struct pgw_chunks c = {
		.n = j.n, .workers = threads, .run = run_piece,
		.merge = merge_piece, .arg = &j,
	};
	/* The truth before the first piece: nothing held. */
	bool ok = scan_state_save(sc, &j.truth);
	/* Anything but PGW_OK comes before any piece is run or merged. */
	ok = ok && pgw_chunks_run(&c, &err) == PGW_OK;
	search_workers_close(j.w, threads, sc);
	for (size_t i = 0; i < j.n; i++) {
		free(j.pieces[i].s.hits);
		scan_state_free(&j.pieces[i].start);
		scan_state_free(&j.pieces[i].end_state);
	}
	scan_state_free(&j.truth);
	free(j.pieces);
	return ok;
}
