/* pgwalk translate: virtual to physical, every level shown. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "exit_codes.h"
#include "hint.h"
#include "output.h"
#include "session.h"

struct translate_args {
	struct image_args in;
	char **addrs;
	int naddrs;
	bool verbose;
};

static const struct argp_option options[] = {
	{ "verbose", 'v', NULL, 0,
	  "Say on stderr which mode and root were used (text output says it "
	  "on stdout)", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct translate_args *a = state->input;

	switch (key) {
	case 'v':
		a->verbose = true;
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
	"Translate virtual addresses to physical, showing every level of the "
	"walk.\v"
	"ADDR is hex (0x optional) or decimal with a 0d prefix; - reads one "
	"address per line from stdin.  Without --cr3, --cpu, --root, --pid or "
	"--comm the kernel's own root is walked, and a user address it does "
	"not map gets a hint on stderr naming the processes that do.  Exit "
	"status: 0 all translated, 1 some did not, 3 no root or mode (or no "
	"such process), 64 usage, 65 bad image, 66 cannot open.";

static const struct argp translate_argp = {
	options, parse_opt, "IMAGE ADDR...", doc, session_children, NULL,
	NULL
};

struct batch {
	const struct pgw_space *space;
	struct out *out;
	struct hint *hint;
	unsigned long failed;
	unsigned long bad_lines;
};

static void one(struct batch *b, uint64_t va)
{
	struct pgw_xlat x;
	bool failed = pgw_translate(b->space, va, &x) != PGW_STOP_OK;

	b->out->fmt->xlat(b->out, &x);
	if (failed) {
		b->failed++;
		hint_user_address(b->hint, va);
	}
}

static void bad(struct batch *b, const char *text, unsigned long lineno)
{
	b->failed++;
	if (++b->bad_lines <= 10)
		pgw_cli_error("stdin line %lu: '%.80s' is not an address",
			      lineno, text);
	if (b->out->fmt->bad_addr)
		b->out->fmt->bad_addr(b->out, text);
}

/* One input line (NUL-terminated, newline removed). */
static void stdin_line(struct batch *b, char *line, size_t n,
		       unsigned long lineno)
{
	uint64_t va;

	while (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	if (n == 0 || line[0] == '#')
		return;
	if (pgw_parse_u64(line, &va))
		one(b, va);
	else
		bad(b, line, lineno);
}

/*
 * Addresses from stdin, read in blocks and split with memchr: for
 * millions of lines getline's per-call cost shows.  A line longer than the
 * buffer cannot be an address; it is reported by its start and skipped.
 */
static void from_stdin(struct batch *b)
{
	static char buf[1 << 16];
	size_t have = 0;
	bool skipping = false;
	unsigned long lineno = 0;

	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf + have,
				 sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pgw_cli_error("cannot read stdin: %s", strerror(errno));
			b->failed++;
			break;
		}
		if (n == 0)
			break;
		char *p = buf, *end = buf + have + n, *nl;
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			*nl = '\0';
			lineno++;
			if (!skipping)
				stdin_line(b, p, (size_t)(nl - p), lineno);
			skipping = false;
			p = nl + 1;
		}
		have = (size_t)(end - p);
		memmove(buf, p, have);
		if (have == sizeof(buf) - 1) {
			if (!skipping) {
				buf[80] = '\0';
				bad(b, buf, lineno + 1);
			}
			skipping = true;
			have = 0;
		}
	}
	if (have && !skipping) {
		buf[have] = '\0';
		stdin_line(b, buf, have, lineno + 1);
	}
}

int cmd_translate(int argc, char **argv)
{
	struct translate_args a = { 0 };
	struct session s = { 0 };
	int rc;

	argp_parse(&translate_argp, argc, argv, 0, NULL, &a);
	const struct formatter *fmt =
		formatter_by_name(a.in.opts.output_format);
	if (!fmt || !fmt->xlat) {
		pgw_cli_error("translate: no output format '%s'",
			      a.in.opts.output_format);
		return PGW_EXIT_USAGE;
	}
	/* Reject bad addresses before any work, so nothing half-prints. */
	for (int i = 0; i < a.naddrs; i++) {
		uint64_t v;
		if (strcmp(a.addrs[i], "-") != 0 &&
		    !pgw_parse_u64(a.addrs[i], &v)) {
			pgw_cli_error("'%s' is not an address (hex, 0x "
				      "optional, or decimal as 0d...)",
				      a.addrs[i]);
			return PGW_EXIT_USAGE;
		}
	}
	rc = session_start(&s, &a.in);
	if (rc) {
		session_close(&s);
		return rc;
	}

	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	struct out out = { stdout, fmt, s.space.mode };
	struct hint hint;
	hint_init(&hint, &s);
	struct batch b = { &s.space, &out, &hint, 0, 0 };
	if (fmt == formatter_by_name("text"))
		session_say(stdout, "# ", &s);
	else if (a.verbose)
		session_say(stderr, "pgwalk: ", &s);
	if (fmt->xlat_begin)
		fmt->xlat_begin(&out);
	for (int i = 0; i < a.naddrs; i++) {
		uint64_t va;
		if (strcmp(a.addrs[i], "-") == 0)
			from_stdin(&b);
		else if (pgw_parse_u64(a.addrs[i], &va))
			one(&b, va);
	}
	if (b.bad_lines > 10)
		pgw_cli_error("%lu lines on stdin were not addresses",
			      b.bad_lines);
	rc = pgw_cli_flush(b.failed ? PGW_EXIT_PARTIAL : PGW_EXIT_OK);
	hint_free(&hint);
	session_close(&s);
	return rc;
}
