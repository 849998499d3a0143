#include "lines.h"
#include "emit.h"
#include "hexdigits.h"
#include "exit_codes.h"
#include "output.h"
#include "session.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Trailing CRs off; blank and comment lines skipped. */
static void one(const struct line_reader *r, char *line, size_t n,
		unsigned long lineno)
{
	while (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	if (n == 0 || line[0] == '#')
		return;
	r->line(r->arg, line, n, lineno);
}

/* The usual lines from p on, while whole ones are there, to r->addrs;
 * where the first other line starts.  Each line's end found by its
 * digits (hex0x_line) while 19 bytes are left, then with memchr: without
 * a search for the newline first, the reader costs 40 % fewer
 * instructions (bench/HISTORY.md, issue 39). */
static char *addr_lines(const struct line_reader *r, char *p, const char *end,
			unsigned long *lineno)
{
	enum { RUN = 64, LONGEST = 19 };
	uint64_t v[RUN];
	size_t k = 0, n;
	unsigned long lines = 0;
	char *e;

	while (end - p >= LONGEST && (n = hex0x_line(p, &v[k]))) {
		p += n;
		lines++;
		if (++k == RUN) {
			r->addrs(r->arg, v, k);
			k = 0;
		}
	}
	*lineno += lines;
	while ((e = memchr(p, '\n', (size_t)(end - p)))) {
		if (!hex0x_body(p, e, &v[k]))
			break;
		p = e + 1;
		++*lineno;
		if (++k == RUN) {
			r->addrs(r->arg, v, k);
			k = 0;
		}
	}
	if (k)
		r->addrs(r->arg, v, k);
	return p;
}

/* A whole line: overlong as stdin_lines finds it (filling its buffer)
 * when block_lines is given more than LINES_BUF bytes at once. */
static void whole(const struct line_reader *r, char *line, size_t n,
		  unsigned long lineno)
{
	if (n >= LINES_BUF - 1)
		r->overlong(r->arg, line, 80, lineno);
	else
		one(r, line, n, lineno);
}

/* The lines of p .. end, each whole (its newline read) but for the
 * last when there is no more input: what the lines before p counted
 * is *lineno, which ends at the last line's number.  Where the first
 * line not whole starts (end when at_eof). */
static char *some_lines(const struct line_reader *r, char *p, char *end,
			bool at_eof, unsigned long *lineno)
{
	char *nl;

	for (;;) {
		if (r->addrs)
			p = addr_lines(r, p, end, lineno);
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		*nl = '\0';
		++*lineno;
		whole(r, p, (size_t)(nl - p), *lineno);
		p = nl + 1;
	}
	if (at_eof && p < end) {
		*end = '\0';
		whole(r, p, (size_t)(end - p), ++*lineno);
		p = end;
	}
	return p;
}

unsigned long block_lines(const struct line_reader *r, char *p, size_t n)
{
	unsigned long lineno = 0;

	some_lines(r, p, p + n, true, &lineno);
	return lineno;
}

/* A line longer than the buffer cannot be an address; it is reported by
 * its start and skipped. */
int stdin_lines(const struct line_reader *r)
{
	static char buf[LINES_BUF + LINES_AFTER];
	size_t have = 0;
	bool skipping = false;
	unsigned long lineno = 0;

	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf + have,
				 LINES_BUF - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pgw_cli_error("cannot read standard input: %s",
				      strerror(errno));
			return PGW_EXIT_NOINPUT;
		}
		if (n == 0)
			break;
		char *p = buf, *end = buf + have + n, *nl;
		if (skipping) {
			/* The rest of an overlong line, up to its newline. */
			nl = memchr(p, '\n', (size_t)(end - p));
			if (nl) {
				lineno++;
				skipping = false;
				p = nl + 1;
			} else {
				p = end;
			}
		}
		if (!skipping)
			p = some_lines(r, p, end, false, &lineno);
		have = (size_t)(end - p);
		memmove(buf, p, have);
		if (have == LINES_BUF - 1) {
			r->overlong(r->arg, buf, 80, lineno + 1);
			skipping = true;
			have = 0;
		}
		if (pgw_output_failed())
			return 0;
	}
	if (have && !skipping) {
		buf[have] = '\0';
		one(r, buf, have, lineno + 1);
	}
	return 0;
}

void addr_arg_error(const char *arg)
{
	out_text_line(stderr, "pgwalk: '", arg, "");
	fprintf(stderr, "' is not an address (0x... hex, 0d... decimal%s)\n",
		pgw_cli_bare_hex ? "" : ", or bare hex with --hex");
}

int addr_args_check(char **args, int n, bool *stdin_ret)
{
	*stdin_ret = false;
	for (int i = 0; i < n; i++) {
		uint64_t v;
		if (strcmp(args[i], "-") == 0) {
			*stdin_ret = true;
		} else if (!pgw_parse_u64(args[i], &v)) {
			addr_arg_error(args[i]);
			return PGW_EXIT_USAGE;
		}
	}
	if (*stdin_ret && pgw_stdin_errno()) {
		pgw_cli_error("cannot read standard input: %s",
			      strerror(pgw_stdin_errno()));
		return PGW_EXIT_NOINPUT;
	}
	return 0;
}

void stdin_bad_line(unsigned long *count, const char *text, size_t n,
		    unsigned long lineno)
{
	stdin_bad_request(count, text, n, lineno, "an address");
}

void stdin_bad_request(unsigned long *count, const char *text, size_t n,
		       unsigned long lineno, const char *what)
{
	if (++*count > 10)
		return;
	stdin_bad_say(text, n < 80 ? n : 80, memchr(text, '\0', n) != NULL,
		      lineno, what);
}

void stdin_bad_say(const char *text, size_t n, bool nul,
		   unsigned long lineno, const char *what)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "pgwalk: stdin line ");
	emit_u64(&l, lineno);
	emit_str(&l, ": '");
	for (size_t i = 0; i < n && i < 80; i++)
		emit_text_char(&l, (unsigned char)text[i]);
	emit_str(&l, "' is not ");
	emit_str(&l, what);
	emit_str(&l, nul ? " (a NUL byte inside the line)\n" : "\n");
	fwrite(l.buf, 1, l.len, stderr);
}
