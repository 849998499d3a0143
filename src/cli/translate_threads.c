/*
 * A batch on stdin on the image's threads (issue 39), the calling one
 * among them: each thread reads the next piece of the input (whole
 * lines, PIECE_BYTES at most, with read(2): a file cut short under an
 * mmap would kill us) and parses, translates and formats it with its
 * own image, table cache and spelled tails (kept for the whole batch)
 * into its slot's lines (rows_sink.h); whichever thread finds the next
 * piece in input order done writes its lines (writev, no copy) and says
 * its bad lines (pgw_chunks_stream_run), so that output, messages and
 * exit status are those of one thread.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../formats/image_page.h"
#include "../lib/chunks.h"
#include "exit_codes.h"
#include "lines.h"
#include "output.h"
#include "rows_sink.h"
#include "translate_batch.h"

/* Lines a thread formats a piece's records into, its own for the whole
 * batch (so that they stay in its caches), free again once the piece is
 * written by whichever thread writes it. */
struct kept_sink {
	struct rows_sink s;
	atomic_bool busy;
};


/* A piece's input: a few thousand addresses a hand-off, and room for
 * the lines of LINES_BUF - 1 bytes or more that a line may not be. */
#define PIECE_BYTES (1 << 16)
/* A piece of --levels' input: its records, whose walks run to 2 KiB
 * each, would not stay in a thread's caches from 64 KiB of lines (json
 * --levels on 2 threads: 1.8x one thread's CPU time at 64 KiB, 1.15x at
 * 4-16 KiB). */
#define LEVELS_PIECE (1 << 13)
/* Pieces held at once per thread: its own and one done, waiting for the
 * one before it. */
#define SLOTS_PER_THREAD 2
/* Pieces the calling thread runs alone before the others start (each
 * about 0.1 ms of one thread's time): their images, caches and lines,
 * and giving the map's pages up on threads at close, cost about 1 ms of
 * CPU, which a batch shorter than that does not win back. */
#define PIECES_ALONE 4

struct feed {
	size_t want;            /* a piece's bytes, at least (<= PIECE_BYTES) */
	char *carry;            /* the start of the next piece, read */
	size_t carry_len;
	bool skipping;          /* the rest of an overlong line to drop */
	bool eof;
	int err;                /* reading failed with errno err */
};

/* What each thread of a batch holds for the whole of it. */
struct thread_kit {
	struct kept_sink *sinks;   /* as many as there are slots: one is
				      free whenever a piece is to run */
	size_t nsinks;
	bool own_cache;            /* b.cache is the kit's (else the
				      calling thread's batch's) */
	struct batch b;
	struct out out;
	struct rows rows;
	struct pgw_space space;
};

struct threaded {
	struct batch *b;        /* the calling thread's, as it came */
	unsigned nthreads;
	/* Per thread, each apart (a cache line or more: written a run of
	 * addresses at a time). */
	struct thread_kit **kit;
	struct piece *pieces;   /* slots: piece i in i % npieces */
	size_t npieces;
	struct feed feed;
	bool read_failed;       /* feed.err says why */
	unsigned long lines;    /* lines before the piece merged next */
	unsigned long bad_lines;
	int rc;
};

/* The next piece of stdin into p: 1, 0 at the end of the input, -1 when
 * it cannot be read (fd->err; the whole lines read before go first). */
static int feed_piece(struct feed *fd, struct piece *p)
{
	enum { MOST = PIECE_BYTES };
	size_t len = fd->carry_len;

	p->len = 0;
	p->overlong = false;
	if (fd->err)
		return -1;
	memcpy(p->in, fd->carry, len);
	fd->carry_len = 0;
	/* want bytes or more, up to a newline; a line MOST bytes long
	 * unless the input ends. */
	while (len < MOST && !fd->eof &&
	       !(len >= fd->want && memrchr(p->in, '\n', len))) {
		size_t ask = len < fd->want ? fd->want - len : fd->want;
		if (ask > MOST - len)
			ask = MOST - len;
		ssize_t n = read(STDIN_FILENO, p->in + len, ask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fd->err = errno;
			char *nl = memrchr(p->in, '\n', len);
			if (!nl || fd->skipping)
				return -1;
			p->len = (size_t)(nl + 1 - p->in);
			return 1;
		}
		if (n == 0) {
			fd->eof = true;
			break;
		}
		if (fd->skipping) {
			char *nl = memchr(p->in + len, '\n', (size_t)n);
			if (!nl)
				continue;
			/* The overlong line's newline: the next line on. */
			size_t from = (size_t)(nl + 1 - p->in);
			memmove(p->in + len, nl + 1, len + (size_t)n - from);
			n = (ssize_t)(len + (size_t)n - from);
			fd->skipping = false;
		}
		len += (size_t)n;
	}
	if (fd->eof) {                          /* the end of the input */
		p->len = len;
		return len > 0;
	}
	char *nl = memrchr(p->in, '\n', len);
	if (!nl) {                              /* a line too long */
		memcpy(p->overlong_start, p->in, sizeof(p->overlong_start));
		p->overlong = true;
		fd->skipping = true;
		return 1;
	}
	p->len = (size_t)(nl + 1 - p->in);
	fd->carry_len = len - p->len;
	memcpy(fd->carry, nl + 1, fd->carry_len);
	return 1;
}

static void piece_run(void *arg, unsigned w, size_t i)
{
	struct threaded *t = arg;
	struct batch *b = &t->kit[w]->b;
	struct piece *p = &t->pieces[i % t->npieces];

	p->nbad = 0;
	p->lines = 0;
	p->out = NULL;
	for (size_t k = 0; k < t->kit[w]->nsinks && !p->out; k++)
		if (!atomic_load_explicit(&t->kit[w]->sinks[k].busy,
					  memory_order_acquire))
			p->out = &t->kit[w]->sinks[k];
	if (!p->out || !rows_sink_take(&p->out->s, b->out->rows)) {
		p->rc = -1;
		return;
	}
	atomic_store_explicit(&p->out->busy, true, memory_order_relaxed);
	b->piece = p;
	b->rc = 0;
	p->lines = block_lines(&(struct line_reader){
		translate_line, translate_addrs, translate_overlong, b }, p->in, p->len);
	if (p->overlong)
		translate_overlong(b, p->overlong_start, sizeof(p->overlong_start),
		    ++p->lines);
	rows_sink_done(&p->out->s, b->out->rows);
	p->rc = p->out->s.nomem ? -1 : b->rc;
}

static bool piece_feed(void *arg, size_t i)
{
	struct threaded *t = arg;
	int got = feed_piece(&t->feed, &t->pieces[i % t->npieces]);

	t->read_failed = got < 0;
	return got > 0;
}

static int piece_merge(void *arg, size_t i)
{
	struct threaded *t = arg;
	struct piece *p = &t->pieces[i % t->npieces];
	int e = p->rc < 0 ? ENOMEM : 0;

	if (!e && !pgw_output_failed())
		e = rows_sink_write(&p->out->s, STDOUT_FILENO);
	/* Its lines to the thread that formats into them again. */
	if (p->out)
		atomic_store_explicit(&p->out->busy, false,
				      memory_order_release);
	if (e)
		pgw_output_error(e);
	if (p->rc < 0)
		return 1;
	t->rc = pgw_exit_worst(t->rc, p->rc);
	for (unsigned long k = 0; k < p->nbad && k < 10; k++) {
		const struct bad_said *s = &p->bad[k];
		if (++t->bad_lines <= 10)
			stdin_bad_say(s->text, s->n, s->nul,
				      t->lines + s->lineno, "an address");
	}
	if (p->nbad > 10)
		t->bad_lines += p->nbad - 10;
	t->lines += p->lines;
	return pgw_output_failed();
}

/* Thread w's kit, reading img with the table cache cache (NULL: one of
 * its own): false when out of memory. */
static bool kit_new(struct threaded *t, unsigned w, struct pgw_image *img,
		    struct pgw_xlat_cache *cache)
{
	const struct batch *b = t->b;
	struct thread_kit *k = t->kit[w] = calloc(1, sizeof(*k));

	if (!k || !(k->sinks = calloc(t->npieces, sizeof(*k->sinks))))
		return false;
	k->nsinks = t->npieces;
	k->space = *b->space;
	k->space.img = img;
	k->out = *b->out;
	/* Always at a sink's lines: its own stay untouched. */
	k->rows.at = k->rows.line = k->rows.own;
	k->rows.end = k->rows.own + ROWS_LINES;
	/* Compact records (< 300 bytes; --levels ones and echoes go
	 * through out.f, a line at a time): lines filled to all but 1 KiB,
	 * half the memory. */
	k->rows.fill = b->out->levels ? sizeof(k->rows.own[0].buf) / 2 :
			sizeof(k->rows.own[0].buf) - 1024;
	k->out.rows = &k->rows;
	k->own_cache = !cache;
	k->b = (struct batch){ .s = b->s, .space = &k->space, .out = &k->out,
			       .cache = cache ? cache : pgw_xlat_cache_new() };
	return (k->out.f = rows_sink_stream(&k->out)) != NULL;
}

static void kit_free(struct thread_kit *k)
{
	if (!k)
		return;
	if (k->own_cache)
		pgw_xlat_cache_free(k->b.cache);
	if (k->out.f)
		fclose(k->out.f);
	for (size_t i = 0; k->sinks && i < k->nsinks; i++)
		rows_sink_free(&k->sinks[i].s);
	free(k->sinks);
	free(k);
}

/* The other threads' kits, each with an image of its own: false, they
 * do not start (the calling thread goes on alone). */
static bool others_start(void *arg)
{
	struct threaded *t = arg;
	struct pgw_image *const *images;
	struct pgw_err ignored;

	if (pgw_image_workers(t->b->space->img, t->nthreads - 1, &images,
			      &ignored) != PGW_OK)
		return false;
	for (unsigned w = 1; w < t->nthreads; w++)
		if (!kit_new(t, w, images[w - 1], NULL))
			return false;
	return true;
}

int translate_threaded(struct batch *b, unsigned n)
{
	size_t npieces = (size_t)n * SLOTS_PER_THREAD;
	struct threaded t = {
		.b = b, .nthreads = n, .npieces = npieces,
		.bad_lines = b->bad_lines,   /* "-" given twice */
		.feed = { .carry = malloc(PIECE_BYTES),
			  .want = b->out->levels ? LEVELS_PIECE : PIECE_BYTES },
		.kit = calloc(n, sizeof(*t.kit)),
		.pieces = calloc(npieces, sizeof(*t.pieces)),
	};
	struct pgw_err err;
	int rc = -1;

	if (!t.kit || !t.pieces || !t.feed.carry)
		goto out;
	for (size_t i = 0; i < npieces; i++)
		if (!(t.pieces[i].in = malloc(PIECE_BYTES + LINES_AFTER)))
			goto out;
	/* The calling thread: b's image and cache. */
	if (!kit_new(&t, 0, b->space->img, b->cache))
		goto out;
	out_rows_flush(b->out);
	if (fflush(stdout) != 0) {
		pgw_output_error(errno);
		rc = 0;
		goto out;
	}
	struct pgw_chunks_stream c = {
		.workers = n, .slots = npieces, .alone = PIECES_ALONE,
		.start = others_start, .feed = piece_feed, .run = piece_run,
		.merge = piece_merge, .arg = &t,
	};
	enum pgw_status st = pgw_chunks_stream_run(&c, &err);
	if (st != PGW_OK)   /* nothing was read */
		goto out;
	rc = 0;
	if (t.read_failed) {
		pgw_cli_error("cannot read standard input: %s",
			      strerror(t.feed.err));
		rc = PGW_EXIT_NOINPUT;
	}
	b->rc = pgw_exit_worst(b->rc, t.rc);
	b->bad_lines = t.bad_lines;
out:
	for (unsigned w = 0; t.kit && w < n; w++)
		kit_free(t.kit[w]);
	for (size_t i = 0; t.pieces && i < npieces; i++)
		free(t.pieces[i].in);
	free(t.kit);
	free(t.pieces);
	free(t.feed.carry);
	return rc;
}
