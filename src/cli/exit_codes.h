/* pgwalk's exit statuses (docs/output.md, man/pgwalk.1 EXIT STATUS) and
 * how the CLI reports a failure (errors.c). */
#ifndef PGW_EXIT_CODES_H
#define PGW_EXIT_CODES_H

#include <stdio.h>

#include "pgwalk.h"

/*
 * 1, 2 and 4 can all apply to one run: the highest wins (a budget stop
 * says more than a missing table, which says more than an address that
 * does not translate), so a caller may combine them with pgw_exit_worst.
 */
enum pgw_exit {
	PGW_EXIT_OK = 0,
	PGW_EXIT_NOANSWER = 1,    /* some items had no answer (all printed) */
	PGW_EXIT_EVIDENCE = 2,    /* partial evidence: the image lacked pages
				     the answer needed */
	PGW_EXIT_NOROOT = 3,      /* no mode/root could be chosen; no such CPU */
	PGW_EXIT_LIMIT = 4,       /* a safety bound stopped the walk */
	PGW_EXIT_USAGE = 64,      /* bad option or argument (EX_USAGE) */
	PGW_EXIT_BADIMAGE = 65,   /* malformed, truncated or unknown (EX_DATAERR) */
	PGW_EXIT_NOINPUT = 66,    /* cannot open or read the image (EX_NOINPUT) */
	PGW_EXIT_UNSUPPORTED = 69,/* needs a feature this build lacks */
	PGW_EXIT_INTERNAL = 70,   /* out of memory, internal error */
	PGW_EXIT_OUTPUT = 74,     /* cannot write the output (EX_IOERR) */
};

/* The more telling of two statuses among 0, 1, 2 and 4. */
static inline int pgw_exit_worst(int a, int b)
{
	return a > b ? a : b;
}

/* Exit status for a library failure. */
int pgw_exit_for(enum pgw_status status);

#include <argp.h>
/* A usage error inside an argp parser: one line on stderr, "pgwalk
 * translate: <msg> (see 'pgwalk translate --help')", then exit 64. */
void pgw_usage_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* argp_parse, with argp's and getopt's own error messages (an unknown
 * option, a missing value) made one line like pgw_usage_error's. */
error_t pgw_argp_parse(const struct argp *argp, int argc, char **argv,
		       void *input);
/* Print "pgwalk: <msg>" to stderr. */
void pgw_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* err says the CLI ran out of memory; PGW_E_NOMEM (the library's own
 * error builders are internal to it). */
enum pgw_status pgw_cli_out_of_memory(struct pgw_err *err);
/* Flush stdout: rc, or PGW_EXIT_OUTPUT (said on stderr with the reason:
 * "cannot write output: No space left on device") when the output could
 * not be written. */
int pgw_cli_flush(int rc);
/* stdout refused a write (checked where long outputs can stop early). */
bool pgw_output_failed(void);
/* A write to stdout's descriptor made outside stdio (rows.c) failed with
 * errno e: from now on pgw_output_failed, and pgw_cli_flush says so. */
void pgw_output_error(int e);

/* Standard input and output as pgwalk found them at start (main): a
 * closed descriptor is occupied so that opening the image cannot take its
 * number, and remembered to be reported when used. */
void pgw_std_fds_check(void);
/* 0, or the errno reading standard input must report (EBADF: closed). */
int pgw_stdin_errno(void);

#endif
