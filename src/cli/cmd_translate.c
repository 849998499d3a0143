/* pgwalk translate: virtual to physical, one record per address. */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../formats/image_page.h"
#include "../lib/chunks.h"
#include "addr_names.h"
#include "commands.h"
#include "emit.h"
#include "exit_codes.h"
#include "fast_rows.h"
#include "hints.h"
#include "lines.h"
#include "output.h"
#include "rows_sink.h"
#include "session.h"
#include "xlat_out.h"

enum { OPT_LEVELS = 1024, OPT_NAMES };

/* Hints (hints.c) for at most this many addresses given as arguments:
 * a batch on stdin wants records, not advice. */
#define MAX_HINTS 4

/* Addresses given as arguments from which a table cache is kept. */
#define CACHE_FROM_ADDRS 64

struct translate_args {
	struct image_args in;
	char **addrs;
	int naddrs;
	bool levels;
	bool names;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Translate:", 5 },
	{ "levels", OPT_LEVELS, NULL, 0,
	  "Show the walk, level by level (table, index, entry address and "
	  "value, flags): JSON \"levels\", a CSV/TSV column, text's full "
	  "walk (which a single ADDR gets anyway)", 5 },
	{ "names", OPT_NAMES, NULL, 0, NAMES_DOC, 5 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct translate_args *a = state->input;

	switch (key) {
	case OPT_LEVELS:
		a->levels = true;
		break;
	case OPT_NAMES:
		a->names = true;
		break;
	case ARGP_KEY_ARG:
		if (!a->in.image) {
			a->in.image = arg;
			break;
		}
		return ARGP_ERR_UNKNOWN;   /* the ADDRs: ARGP_KEY_ARGS */
	case ARGP_KEY_ARGS:
		a->addrs = state->argv + state->next;
		a->naddrs = state->argc - state->next;
		break;
	case ARGP_KEY_END:
		if (!a->in.image || a->naddrs == 0)
			pgw_usage_error(state, "give an IMAGE and at least one "
				   "ADDR (or - to read addresses from stdin)");
		break;
	default:
		return session_parse_image(&a->in, "translate", key, arg,
					   state);
	}
	return 0;
}

static const char doc[] =
	"Translate virtual addresses to physical: one record per address "
	"(JSON: va, pa, page_size, level, flags, effective, in_image; or pa "
	"null and the reason).\v"
	"ADDR is hex with 0x (bare hex with --hex) or decimal with 0d; - "
	"reads one address per line from stdin.  Text shows the whole walk, "
	"like crash's vtop, for a single ADDR or with --levels, else one "
	"line per address.  Without --cr3, --cpu, --root, --pid or --comm "
	"the kernel's own root is walked; a user address it does not map "
	"gets a hint on stderr naming the processes that do.  Exit status: 0 "
	"all translated, 1 some did not, 2 some stopped at a page table the "
	"image lacks, 3 no root or mode (or no such process), 64 usage, 65 "
	"bad image, 66 cannot open or read, 74 cannot write.";

static const struct argp translate_argp = {
	options, parse_opt, "IMAGE ADDR...", doc, session_children, NULL,
	NULL
};

/* A batch line that is not an address, kept by a worker for the calling
 * thread to say (its number counted from its piece's first line). */
struct bad_said {
	unsigned long lineno;
	unsigned char n;
	bool nul;
	char text[80];
};

/* Lines a thread formats a piece's records into, its own for the whole
 * batch (so that they stay in its caches), free again once the piece is
 * written by whichever thread writes it. */
struct kept_sink {
	struct rows_sink s;
	atomic_bool busy;
};

/* A piece of a batch on threads: whole lines of the input, and what a
 * thread made of them. */
struct piece {
	char *in;               /* PIECE_BYTES + LINES_AFTER bytes */
	size_t len;             /* bytes of lines: whole ones, the last
				   without its newline only at the end of
				   the input */
	bool overlong;          /* after them, a line too long: its start */
	char overlong_start[80];
	/* The thread's that ran it: */
	struct kept_sink *out;  /* the records, in that thread's lines */
	int rc;                 /* -1: out of memory for the records */
	unsigned long lines;    /* lines in it (an overlong one counts) */
	unsigned long nbad;     /* lines not addresses; the first ten: */
	struct bad_said bad[10];
};

struct batch {
	struct session *s;
	const struct pgw_space *space;   /* s's, or a worker image's */
	struct piece *piece;    /* on a worker: bad lines kept here */
	struct out *out;
	struct pgw_xlat_cache *cache;   /* NULL: every walk from the root */
	int rc;                 /* the worst of 0, 1 and 2 so far */
	unsigned long bad_lines;
	unsigned hints;
};

/* The status an address's answer calls for: a table the image lacks is
 * partial evidence (2), any other stop no answer (1). */
static int status_of(enum pgw_stop stop)
{
	if (stop == PGW_STOP_OK)
		return PGW_EXIT_OK;
	return stop == PGW_STOP_TABLE_NOT_IN_IMAGE ? PGW_EXIT_EVIDENCE :
						     PGW_EXIT_NOANSWER;
}

/* The record of x's whole walk (o->levels), with the image's message
 * when the walk could not read a table. */
static void walk_record(struct batch *b, const struct pgw_xlat *x,
			struct pgw_answer *a)
{
	struct pgw_err why;

	why.msg[0] = '\0';
	/* Asked only of the stops it speaks of: a batch pays for a call. */
	if (x->stop == PGW_STOP_READ_ERROR ||
	    x->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    x->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		pgw_xlat_error(b->space, x, &why);
	pgw_xlat_answer(x, a);
	xlat_print(b->out, x->va, a, x, why.msg);
}

static void one(struct batch *b, uint64_t va, bool hint)
{
	struct pgw_answer a;

	if (b->out->levels) {
		struct pgw_xlat x;
		pgw_translate(b->space, b->cache, va, &x);
		walk_record(b, &x, &a);
	} else {
		pgw_translate_many(b->space, b->cache, &va, 1, &a);
		xlat_print(b->out, va, &a, NULL, NULL);
	}
	b->rc = pgw_exit_worst(b->rc, status_of(a.stop));
	if (hint && a.stop != PGW_STOP_OK && b->hints < MAX_HINTS) {
		b->hints++;
		hint_translate(b->s, va, a.stop);
	}
}

/* A line that is not an address: said on stderr (the first ten), and a
 * record of its own with the line echoed (escaped, at most ECHO_MAX
 * bytes; a NUL inside it shows). */
static void bad(struct batch *b, const char *text, size_t n,
		unsigned long lineno)
{
	if (n > ECHO_MAX)
		n = ECHO_MAX;
	b->rc = pgw_exit_worst(b->rc, PGW_EXIT_NOANSWER);
	if (b->piece) {
		struct piece *p = b->piece;
		if (p->nbad < 10) {
			struct bad_said *k = &p->bad[p->nbad];
			k->lineno = lineno;
			k->n = (unsigned char)(n < 80 ? n : 80);
			k->nul = memchr(text, '\0', n) != NULL;
			memcpy(k->text, text, k->n);
		}
		p->nbad++;
	} else {
		stdin_bad_line(&b->bad_lines, text, n, lineno);
	}
	out_record(b->out, &xlat_rec_type, &(struct xlat_rec){
		.input = { text, n }, .reason = "not-an-address" });
}

/* One input line (lines.h). */
static void stdin_line(void *arg, char *line, size_t n, unsigned long lineno)
{
	struct batch *b = arg;
	uint64_t va;

	/* The usual line first: 0x and hex digits, no general parser. */
	if (pgw_parse_hex0x(line, n, &va)) {
		one(b, va, false);
		return;
	}
	if (!memchr(line, '\0', n) && pgw_parse_u64(line, &va))
		one(b, va, false);
	else
		bad(b, line, n, lineno);
}

/* Usual input lines, parsed by the reader: their answers a run at a
 * time, and the records of the run together. */
static void stdin_addrs(void *arg, const uint64_t *va, size_t n)
{
	struct batch *b = arg;

	if (b->out->levels) {
		for (size_t i = 0; i < n; i++)
			one(b, va[i], false);
		return;
	}
	struct pgw_answer a[64];   /* a reader's run */
	const size_t most = sizeof(a) / sizeof(a[0]);
	int rc = b->rc;

	for (size_t i = 0; i < n; i += most) {
		size_t k = n - i < most ? n - i : most;
		pgw_translate_many(b->space, b->cache, va + i, k, a);
		for (size_t j = 0; j < k; j++)
			rc = pgw_exit_worst(rc, status_of(a[j].stop));
		if (!fast_xlat(b->out, va + i, a, k))
			for (size_t j = 0; j < k; j++)
				xlat_print(b->out, va[i + j], &a[j], NULL,
					   NULL);
	}
	b->rc = rc;
}

static void overlong(void *arg, const char *start, size_t n,
		     unsigned long lineno)
{
	bad(arg, start, n, lineno);
}

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
		stdin_line, stdin_addrs, overlong, b }, p->in, p->len);
	if (p->overlong)
		bad(b, p->overlong_start, sizeof(p->overlong_start),
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

/* The batch on stdin on n threads, as stdin_lines would give it to b
 * alone: 0, PGW_EXIT_NOINPUT (said), or -1 when out of memory before
 * anything was read (b does it alone). */
static int stdin_threaded(struct batch *b, unsigned n)
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

int cmd_translate(int argc, char **argv)
{
	struct translate_args a = { 0 };
	struct session s = { 0 };
	bool from_stdin_too = false;
	int rc;

	pgw_argp_parse(&translate_argp, argc, argv, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	if ((rc = addr_args_check(a.addrs, a.naddrs, &from_stdin_too)))
		return rc;
	rc = session_start(&s, &a.in);
	if (rc) {
		session_close(&s);
		return rc;
	}
	session_say(&s);

	static char obuf[1 << 16];
	static struct rows rows = ROWS_INIT(rows);
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	/* Text shows one address's whole walk; a batch, a line each. */
	bool single = a.naddrs == 1 && !from_stdin_too;
	bool text = fmt->kind == OUT_TEXT;
	struct out out = {
		.f = stdout, .fmt = fmt, .mode = s.space.mode,
		.levels = a.levels || (single && text),
		.rows = &rows,
	};
	/* The cache pays for its pages over a batch, not for a few
	 * addresses (each of its pages is a fault at start-up).  Without it,
	 * or out of memory for it: the same answers, walked from the root
	 * each time. */
	bool batch = from_stdin_too || a.naddrs > CACHE_FROM_ADDRS;
	/* Names where asked, or where the task list was read anyway. */
	struct addr_names names;
	bool by_task = s.why.root.source == PGW_ROOT_TASK;
	if (a.names || by_task) {
		names_open(&names, &s, true, a.names);
		out.names = &names;
	}
	struct batch b = { .s = &s, .space = &s.space, .out = &out,
			   .cache = batch ? pgw_xlat_cache_new() : NULL };
	/* Names are looked up as they are met, by one thread. */
	unsigned threads = out.names ? 1 : pgw_image_threads(s.space.img);
	out_table(&out, xlat_table(&out), NULL);
	rc = 0;
	for (int i = 0; i < a.naddrs && !rc; i++) {
		uint64_t va;
		if (strcmp(a.addrs[i], "-") == 0 && threads > 1 &&
		    (rc = stdin_threaded(&b, threads)) >= 0)
			;
		else if (strcmp(a.addrs[i], "-") == 0)
			rc = stdin_lines(&(struct line_reader){
				stdin_line, stdin_addrs, overlong, &b });
		else if (pgw_parse_u64(a.addrs[i], &va))
			one(&b, va, true);
	}
	out_rows_flush(&out);
	if (b.bad_lines > 10)
		pgw_cli_error("%lu lines on stdin were not addresses",
			      b.bad_lines);
	rc = pgw_cli_flush(rc ? rc : b.rc);
	hints_free();
	if (out.names)
		names_close(out.names);
	pgw_xlat_cache_free(b.cache);
	session_close(&s);
	return rc;
}
