/* pgwalk translate: virtual to physical, one record per address. */
#include <stdlib.h>
#include <string.h>

#include "../formats/image_page.h"
#include "addr_names.h"
#include "commands.h"
#include "emit.h"
#include "exit_codes.h"
#include "fast_rows.h"
#include "hints.h"
#include "lines.h"
#include "output.h"
#include "session.h"
#include "translate_batch.h"
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
void translate_line(void *arg, char *line, size_t n, unsigned long lineno)
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
void translate_addrs(void *arg, const uint64_t *va, size_t n)
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

void translate_overlong(void *arg, const char *start, size_t n,
			unsigned long lineno)
{
	bad(arg, start, n, lineno);
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
		    (rc = translate_threaded(&b, threads)) >= 0)
			;
		else if (strcmp(a.addrs[i], "-") == 0)
			rc = stdin_lines(&(struct line_reader){
				translate_line, translate_addrs, translate_overlong, &b });
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
