/* pgwalk's exit statuses (documented in man/pgwalk.1 and README.md) and
 * how the CLI reports a failure (errors.c). */
#ifndef PGW_EXIT_CODES_H
#define PGW_EXIT_CODES_H

#include "pgwalk.h"

enum pgw_exit {
	PGW_EXIT_OK = 0,
	PGW_EXIT_PARTIAL = 1,     /* some addresses did not translate */
	PGW_EXIT_EVIDENCE = 2,    /* the image lacked pages the answer needed
				     (roots: the task list was cut short) */
	PGW_EXIT_NOROOT = 3,      /* no mode/root could be chosen; no such CPU */
	PGW_EXIT_LIMIT = 4,       /* a safety bound stopped the walk */
	PGW_EXIT_USAGE = 64,      /* bad option or argument (EX_USAGE) */
	PGW_EXIT_BADIMAGE = 65,   /* malformed, truncated or unknown (EX_DATAERR) */
	PGW_EXIT_NOINPUT = 66,    /* cannot open or read the image (EX_NOINPUT) */
	PGW_EXIT_UNSUPPORTED = 69,/* needs a feature this build lacks */
	PGW_EXIT_INTERNAL = 70,   /* out of memory, internal error */
	PGW_EXIT_OUTPUT = 74,     /* cannot write the output (EX_IOERR) */
};

/* Exit status for a library failure. */
int pgw_exit_for(enum pgw_status status);

struct argp_state;
/* A usage error inside an argp parser: one line on stderr, "pgwalk
 * translate: <msg> (see 'pgwalk translate --help')", then exit 64.
 * argp_error's own hint wraps onto further lines. */
void pgw_usage_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Print "pgwalk: <msg>" to stderr. */
void pgw_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flush stdout: rc, or PGW_EXIT_OUTPUT (said on stderr) when the output
 * could not be written. */
int pgw_cli_flush(int rc);

#endif
