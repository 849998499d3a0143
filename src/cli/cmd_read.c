/*
 * pgwalk read: the bytes behind an address range, through an address
 * space (or physical with --phys), as hexdump -C shows them, raw, or as
 * records.  It stops at the first byte it cannot read, saying where and
 * why, after writing every byte before it; --skip-unreadable skips such
 * stretches instead, each a gap.  A page the image lacks is never zeros.
 * Memory stays flat however long the read: a buffer at a time.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "emit.h"
#include "exit_codes.h"
#include "lines.h"
#include "read_out.h"
#include "session.h"

enum { OPT_RAW = 1024, OPT_PHYS, OPT_SKIP };

/* Copied a buffer at a time: big enough that a raw read costs what the
 * copies cost, small enough to stay in the cache. */
#define CHUNK (256u << 10)

struct read_args {
	struct image_args in;
	const char *addr_arg, *len_arg;
	bool raw, phys, skip;
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Read:", 5 },
	{ "raw", OPT_RAW, NULL, 0,
	  "Write exactly the bytes to stdout (for | strings, > out.bin)", 5 },
	{ "phys", OPT_PHYS, NULL, 0,
	  "ADDR is a physical address: read the image, no walk", 5 },
	{ "skip-unreadable", OPT_SKIP, NULL, 0,
	  "Skip what cannot be read instead of stopping there: nothing for "
	  "it in --raw, a marked line in hex, a gap record in JSON/CSV/TSV, "
	  "and a line on stderr for each", 5 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct read_args *a = state->input;

	switch (key) {
	case OPT_RAW:
		a->raw = true;
		break;
	case OPT_PHYS:
		a->phys = true;
		break;
	case OPT_SKIP:
		a->skip = true;
		break;
	case ARGP_KEY_ARG:
		if (!a->in.image)
			a->in.image = arg;
		else if (!a->addr_arg)
			a->addr_arg = arg;
		else if (strcmp(a->addr_arg, "-") == 0)
			pgw_usage_error(state, "read IMAGE - takes ADDR LEN "
					"lines on stdin: no LEN argument");
		else if (!a->len_arg)
			a->len_arg = arg;
		else
			pgw_usage_error(state, "read takes IMAGE ADDR LEN");
		break;
	case ARGP_KEY_END:
		if (!a->addr_arg ||
		    (strcmp(a->addr_arg, "-") != 0 && !a->len_arg))
			pgw_usage_error(state, "give IMAGE ADDR LEN, or IMAGE - "
					"for ADDR LEN lines on stdin");
		break;
	case ARGP_KEY_SUCCESS:
		if (a->phys && session_space_asked(&a->in.opts))
			pgw_usage_error(state, "--phys reads physical memory: "
					"no root or mode to choose");
		if (a->raw && strcmp(a->in.opts.output_format, "text") != 0)
			pgw_usage_error(state, "--raw writes bytes, not records: "
					"leave out --format");
		break;
	default:
		return session_parse_image(&a->in, "read", key, arg, state);
	}
	return 0;
}

static const char doc[] =
	"Read LEN bytes of memory at ADDR through an address space (the "
	"kernel's root unless --cr3, --cpu, --root, --pid or --comm chooses "
	"another), or physical memory with --phys: as hexdump -C shows them "
	"(addresses in the offset column), --raw, or records (JSON: data "
	"{va, pa, size, hex} per piece within a 4 KiB page; gap {va, end, "
	"size, reason, absence} with --skip-unreadable).  - in place of "
	"ADDR LEN reads requests from stdin instead, one ADDR LEN per "
	"line, the image's set-up paid once.\v"
	"ADDR is hex with 0x (bare hex with --hex) or decimal with 0d; LEN "
	"is decimal, or hex with 0x.  At the first byte that cannot be read "
	"(not mapped, or its page not in the image: filtered out, past a cut "
	"file, outside RAM) read stops with one line on stderr naming the "
	"address and the reason; the bytes before it are written.  A page "
	"the image lacks is never shown as zeros.  A PROT_NONE page (not "
	"present to the CPU, its frame kept) is read from its frame and said "
	"so on stderr (protnone in the records).  Exit status: 0 all read, "
	"1 stopped (or skipped) at an address that does not translate, 2 "
	"stopped (or skipped) at a page the image lacks (data, or the page "
	"table that would map it), 3 no root or mode (or no such process), "
	"64 usage, 65 bad image, 66 cannot open, 74 cannot write.  With -, "
	"each request is answered as if it were read alone, one after "
	"another (text: a hexdump each, ended by its end address; one CSV "
	"header); a line that is not ADDR LEN is said on stderr (exit 1) "
	"and the rest go on; the status is the worst of them.";

static const struct argp read_argp = {
	options, parse_opt, "IMAGE ADDR LEN\nIMAGE -", doc, session_children,
	NULL,
	NULL
};

/* LEN: decimal, or 0x hex (0d decimal too), non-zero. */
static bool parse_len(const char *s, uint64_t *v)
{
	if (pgw_parse_addr(s, false, v))
		return *v != 0;
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long long n = strtoull(s, &end, 10);
	if (*end || n == 0 || (n == ULLONG_MAX))
		return false;
	*v = n;
	return true;
}

/* ADDR and LEN of a request: 0, or after saying why on stderr (quiet:
 * not), PGW_EXIT_USAGE. */
static int parse_request(const char *addr_s, const char *len_s, bool quiet,
			 uint64_t *addr, uint64_t *len)
{
	if (!pgw_parse_u64(addr_s, addr)) {
		if (!quiet)
			addr_arg_error(addr_s);
		return PGW_EXIT_USAGE;
	}
	if (!parse_len(len_s, len)) {
		if (!quiet)
			out_text_line(stderr, "pgwalk: '", len_s, "' is not a "
				      "length (a positive count: decimal, or "
				      "hex with 0x)\n");
		return PGW_EXIT_USAGE;
	}
	if (*addr + *len < *addr && *addr + *len != 0) {
		if (!quiet)
			pgw_cli_error("0x%llx + %llu runs past the top of the "
				      "address space",
				      (unsigned long long)*addr,
				      (unsigned long long)*len);
		return PGW_EXIT_USAGE;
	}
	return 0;
}

struct reader {
	struct session *s;
	struct out *out;
	bool raw, phys, skip, need_pa;
	int rc;                  /* the worst of 0, 1 and 2 so far */
	uint64_t at;             /* where the read got to */
	/* The gap being skipped: adjacent ones of one kind are one. */
	struct pgw_read_gap pend;
	uint64_t pend_size;      /* 0: none */
};

static void gap_flush(struct reader *r);

/* Bytes read at addr: out raw, or a record (or hex) per page piece;
 * pa 0: the space's translation of addr, else (PROT_NONE) the frame's
 * address of addr. */
static void emit_piece(struct reader *r, uint64_t addr, uint64_t pa,
		       const uint8_t *b, size_t n)
{
	if (n)
		gap_flush(r);
	if (r->raw) {
		fwrite(b, 1, n, stdout);
		return;
	}
	while (n) {
		size_t in_page = PGW_PAGE_SIZE - (addr & (PGW_PAGE_SIZE - 1));
		struct read_piece p = { addr, addr, b, n < in_page ? n :
								in_page, pa != 0 };
		struct pgw_xlat x;
		if (pa)
			p.pa = pa;
		else if (r->need_pa && !r->phys &&
			 pgw_translate(&r->s->space, NULL, addr, &x) ==
				 PGW_STOP_OK)
			p.pa = x.pa;
		read_say_data(r->out, &p);
		addr += p.size;
		if (pa)
			pa += p.size;
		b += p.size;
		n -= p.size;
	}
}

static void emit_bytes_at(struct reader *r, uint64_t addr, const uint8_t *b,
			  size_t n)
{
	emit_piece(r, addr, 0, b, n);
}

/* The status a stretch that cannot be read calls for: a page the image
 * lacks (data, or the table that would map it) is partial evidence, any
 * other stop no answer. */
static int gap_status(const struct pgw_read_gap *g)
{
	return g->stop == PGW_STOP_OK ||
			       g->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ?
		       PGW_EXIT_EVIDENCE : PGW_EXIT_NOANSWER;
}

/* "0x..: REASON (ABSENCE) at LEVEL" */
static void gap_words(struct line *l, const struct out *o,
		      const struct pgw_read_gap *g)
{
	emit_hex(l, g->va);
	emit_str(l, ": ");
	emit_str(l, g->stop == PGW_STOP_OK ? "data-not-in-image" :
					     pgw_stop_key(g->stop));
	if (g->absence != PGW_ABSENT_NONE) {
		emit_str(l, " (");
		emit_str(l, pgw_absence_key(g->absence));
		emit_char(l, ')');
	}
	if (!o->phys && g->stop != PGW_STOP_NONCANONICAL &&
	    g->stop != PGW_STOP_BEYOND_SPACE) {
		emit_str(l, " at ");
		emit_str(l, out_level_name(o->mode, g->level));
	}
}

/* The gap pending: a record, and a line on stderr. */
static void gap_flush(struct reader *r)
{
	struct read_skip sk = { &r->pend, r->pend_size };
	struct line l;
	l.len = 0;

	if (!r->pend_size)
		return;
	if (!r->raw)
		read_say_gap(r->out, &sk);
	emit_str(&l, "pgwalk: skipped ");
	emit_u64(&l, r->pend_size);
	emit_str(&l, r->pend_size == 1 ? " byte at " : " bytes at ");
	gap_words(&l, r->out, &r->pend);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, stderr);
	r->pend_size = 0;
}

/* A stretch skipped: one gap with the one before when it goes on from
 * it for the same reason. */
static void skipped(struct reader *r, const struct pgw_read_gap *g,
		    uint64_t size)
{
	const struct pgw_read_gap *p = &r->pend;

	r->rc = pgw_exit_worst(r->rc, gap_status(g));
	if (r->pend_size && p->va + r->pend_size == g->va &&
	    p->stop == g->stop && p->absence == g->absence &&
	    p->level == g->level) {
		r->pend_size += size;
		return;
	}
	gap_flush(r);
	r->pend = *g;
	r->pend_size = size;
}

/* Where the read stopped, in one line; the library's words after the
 * reason. */
static void stopped(struct reader *r, const struct pgw_read_gap *g,
		    uint64_t done, const struct pgw_err *err)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "pgwalk: ");
	emit_str(&l, r->s->path);
	emit_str(&l, ": read stopped after ");
	emit_u64(&l, done);
	emit_str(&l, done == 1 ? " byte at " : " bytes at ");
	gap_words(&l, r->out, g);
	emit_str(&l, ": ");
	emit_str(&l, err->msg);
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, stderr);
	r->rc = pgw_exit_worst(r->rc, gap_status(g));
	r->at = g->va;
}

/* Bytes of the gap within the read's [va, va + left). */
static uint64_t clip(const struct pgw_read_gap *g, uint64_t left)
{
	uint64_t size = g->end - g->va;   /* end 0 (2^64) wraps right */

	return size == 0 || size > left ? left : size;
}

/*
 * A PROT_NONE entry stops the walk at va, yet holds its frame (the
 * kernel's pte_present() counts it): its bytes are read from the frame,
 * up to the end of the entry or of the read, and said on stderr.  The
 * bytes read; 0 when va is no PROT_NONE page, and *g set when a frame
 * the image lacks stopped it.
 */
static uint64_t read_protnone(struct reader *r, uint64_t va, uint64_t left,
			      uint8_t *buf, size_t cap, struct pgw_read_gap *g,
			      struct pgw_err *err)
{
	const struct pgw_space *sp = &r->s->space;
	struct pgw_xlat x;

	if (pgw_translate(sp, NULL, va, &x) != PGW_STOP_NOT_PRESENT ||
	    !x.nsteps)
		return 0;
	const struct pgw_entry *e = &x.step[x.nsteps - 1].entry;
	if (e->np_kind != PGW_NP_PROTNONE ||
	    (x.level != PGW_PTE && x.level != PGW_PMD))
		return 0;
	uint64_t span = pgw_level_span(sp->mode, x.level);
	uint64_t in = va & (span - 1), pa = (e->np_pfn << PGW_PAGE_SHIFT) + in;
	uint64_t want = span - in < left ? span - in : left, done = 0;
	while (done < want) {
		size_t n = PGW_PAGE_SIZE - ((pa + done) & (PGW_PAGE_SIZE - 1));
		if (n > want - done)
			n = (size_t)(want - done);
		if (n > cap)
			n = cap;
		if (pgw_image_read(sp->img, pa + done, buf, n, err) != PGW_OK) {
			*g = (struct pgw_read_gap){
				.va = va + done,
				.end = ((va + done) | (PGW_PAGE_SIZE - 1)) + 1,
				.stop = PGW_STOP_OK, .level = x.level,
				.pa = pa + done, .absence = err->absence,
			};
			break;
		}
		emit_piece(r, va + done, pa + done, buf, n);
		done += n;
	}
	if (done)
		fprintf(stderr, "pgwalk: 0x%llx: PROT_NONE %s entry (not "
			"present to the CPU; its frame 0x%llx kept): %llu "
			"bytes read from the frame\n", (unsigned long long)va,
			out_level_name(sp->mode, x.level),
			(unsigned long long)pa, (unsigned long long)done);
	return done;
}

static int read_virt(struct reader *r, uint64_t va, uint64_t len)
{
	static uint8_t buf[CHUNK];
	uint64_t left = len;

	while (left && !pgw_output_failed()) {
		size_t want = left < CHUNK ? (size_t)left : CHUNK;
		size_t done = 0;
		struct pgw_err err = { 0 };
		struct pgw_read_gap g;

		enum pgw_status st = pgw_read_virt(&r->s->space, va, buf, want,
						   &done, &err);
		emit_bytes_at(r, va, buf, done);
		va += done;
		left -= done;
		if (st == PGW_OK)
			continue;
		if (st != PGW_E_UNMAPPED && st != PGW_E_NODATA) {
			pgw_cli_error("%s: %s", r->s->path, err.msg);
			return pgw_exit_for(st);
		}
		if (!pgw_read_gap(&r->s->space, va, &g)) {
			pgw_cli_error("%s: %s", r->s->path, err.msg);
			return PGW_EXIT_INTERNAL;
		}
		if (g.stop == PGW_STOP_READ_ERROR) {
			pgw_cli_error("%s: %s", r->s->path, err.msg);
			return PGW_EXIT_NOINPUT;
		}
		if (g.stop == PGW_STOP_NOT_PRESENT) {
			uint64_t got = read_protnone(r, va, left, buf, CHUNK,
						     &g, &err);
			va += got;
			left -= got;
			if (got && g.stop == PGW_STOP_NOT_PRESENT)
				continue;
		}
		if (!r->skip) {
			stopped(r, &g, len - left, &err);
			return 0;
		}
		uint64_t size = clip(&g, left);
		skipped(r, &g, size);
		va += size;
		left -= size;
	}
	return 0;
}

/* --phys: the image's pages, a stretch the image lacks as one gap. */
static int read_phys(struct reader *r, uint64_t pa, uint64_t len)
{
	static uint8_t buf[CHUNK];
	struct pgw_image *img = r->s->img;
	uint64_t left = len;
	size_t have = 0;
	uint64_t at = pa;        /* address of buf[0] */

	while (left && !pgw_output_failed()) {
		uint64_t pfn = pa >> PGW_PAGE_SHIFT;
		size_t off = (size_t)(pa & (PGW_PAGE_SIZE - 1));
		size_t n = PGW_PAGE_SIZE - off;
		struct pgw_err err = { 0 };
		enum pgw_status st;

		if (n > left)
			n = (size_t)left;
		if (have + PGW_PAGE_SIZE > CHUNK) {
			emit_bytes_at(r, at, buf, have);
			have = 0;
		}
		if (have == 0)
			at = pa;
		/* Whole pages are copied; only n bytes of them are kept. */
		static uint8_t page[PGW_PAGE_SIZE];
		st = pgw_image_read_page(img, pfn, page, &err);
		if (st == PGW_OK) {
			memcpy(buf + have, page + off, n);
			have += n;
			pa += n;
			left -= n;
			continue;
		}
		emit_bytes_at(r, at, buf, have);
		have = 0;
		if (st != PGW_E_NODATA) {
			pgw_cli_error("%s: %s", r->s->path, err.msg);
			return pgw_exit_for(st);
		}
		struct pgw_read_gap g = {
			.va = pa, .pa = pa, .stop = PGW_STOP_OK,
			.absence = err.absence,
		};
		if (!r->skip) {
			stopped(r, &g, len - left, &err);
			return 0;
		}
		/* The pages after it that lack their data for the same
		 * reason are the same gap. */
		uint64_t end = (pa | (PGW_PAGE_SIZE - 1)) + 1;
		while (end && end - g.va < left &&
		       pgw_image_page_state(img, end >> PGW_PAGE_SHIFT) ==
			       g.absence)
			end += PGW_PAGE_SIZE;
		g.end = end;
		uint64_t size = clip(&g, left);
		skipped(r, &g, size);
		pa += size;
		left -= size;
	}
	emit_bytes_at(r, at, buf, have);
	return 0;
}

/* One request, as if read alone: its own hexdump and end line.  0, or
 * the exit status of an error that stops everything. */
static int read_request(struct reader *r, uint64_t addr, uint64_t len)
{
	struct out *o = r->out;
	uint64_t last = addr + len - 1;
	int rc;

	*o->hex = (struct hexdump){
		.digits = r->phys ? (last >> 32 ? 16 : 8) :
				    out_va_digits(o->mode),
	};
	r->at = addr + len;
	rc = r->phys ? read_phys(r, addr, len) : read_virt(r, addr, len);
	gap_flush(r);
	if (!rc && !r->raw)
		read_say_end(o, r->at);
	return rc;
}

/* read IMAGE -: ADDR LEN lines, answered in order. */
struct requests {
	struct reader *r;
	int fatal;                /* an error that stopped the answers */
	unsigned long bad_lines;
};

/* The token of line starting at *at (spaces and tabs between), copied
 * into tok (NUL-terminated); false when there is none or it is too long
 * for any number. */
static bool token(const char **at, const char *end, char *tok, size_t cap)
{
	const char *p = *at;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *q = p;
	while (q < end && *q != ' ' && *q != '\t')
		q++;
	if (q == p || (size_t)(q - p) >= cap)
		return false;
	memcpy(tok, p, (size_t)(q - p));
	tok[q - p] = '\0';
	*at = q;
	return true;
}

static void request_bad(struct requests *q, const char *text, size_t n,
			unsigned long lineno)
{
	if (n > ECHO_MAX)
		n = ECHO_MAX;
	q->r->rc = pgw_exit_worst(q->r->rc, PGW_EXIT_NOANSWER);
	stdin_bad_request(&q->bad_lines, text, n, lineno,
			  "ADDR LEN (an address and a length)");
}

static void request_line(void *arg, char *text, size_t n,
			 unsigned long lineno)
{
	struct requests *q = arg;
	const char *at = text, *end = text + n;
	char addr_s[64], len_s[64], extra[2];
	uint64_t addr, len;

	if (q->fatal)
		return;
	if (memchr(text, '\0', n) || !token(&at, end, addr_s, sizeof(addr_s)) ||
	    !token(&at, end, len_s, sizeof(len_s)) ||
	    token(&at, end, extra, sizeof(extra)) || at != end ||
	    parse_request(addr_s, len_s, true, &addr, &len)) {
		request_bad(q, text, n, lineno);
		return;
	}
	q->fatal = read_request(q->r, addr, len);
}

static void request_overlong(void *arg, const char *start, size_t n,
			     unsigned long lineno)
{
	struct requests *q = arg;

	if (!q->fatal)
		request_bad(q, start, n, lineno);
}

int cmd_read(int argc, char **argv)
{
	struct read_args a = { 0 };
	struct session s = { 0 };
	uint64_t addr = 0, len = 0;
	bool batch;
	int rc;

	pgw_argp_parse(&read_argp, argc, argv, &a);
	batch = strcmp(a.addr_arg, "-") == 0;
	/* (addr_args_check reads nothing; it wants the argv type.) */
	rc = batch ? addr_args_check((char *[]){ (char *)a.addr_arg }, 1,
				     &batch)
		   : parse_request(a.addr_arg, a.len_arg, false, &addr, &len);
	if (rc)
		return rc;
	s.opts = a.in.opts;
	rc = session_open_image(&s, a.in.image);
	if (!rc && !a.phys)
		rc = session_choose(&s);
	if (rc) {
		session_close(&s);
		return rc;
	}
	if (!a.phys)
		session_say(&s);

	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	struct hexdump hex;
	struct out out = {
		.f = stdout, .fmt = fmt, .mode = a.phys ? NULL : s.space.mode,
		.phys = a.phys, .hex = &hex,
	};
	struct reader r = {
		.s = &s, .out = &out, .raw = a.raw, .phys = a.phys,
		.skip = a.skip, .need_pa = fmt != formatter_by_name("text"),
	};
	if (!a.raw)
		out_table(&out, &read_table, NULL);
	if (batch) {
		struct requests q = { .r = &r };
		rc = stdin_lines(&(struct line_reader){
			request_line, NULL, request_overlong, &q });
		if (!rc)
			rc = q.fatal;
		if (q.bad_lines > 10)
			pgw_cli_error("%lu lines on stdin were not ADDR LEN",
				      q.bad_lines);
	} else {
		rc = read_request(&r, addr, len);
	}
	rc = pgw_cli_flush(rc ? rc : r.rc);
	session_close(&s);
	return rc;
}
