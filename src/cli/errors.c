/* How the CLI fails: one line on stderr, and an exit status for it. */
#include "exit_codes.h"

#include <argp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void pgw_usage_error(const struct argp_state *state, const char *fmt, ...)
{
	const char *name = state && state->name ? state->name : "pgwalk";
	va_list ap;

	fprintf(stderr, "%s: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s --help')\n", name);
	exit(PGW_EXIT_USAGE);
}

void pgw_cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("pgwalk: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int pgw_cli_flush(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		pgw_cli_error("cannot write output");
		return PGW_EXIT_OUTPUT;
	}
	return rc;
}

int pgw_exit_for(enum pgw_status status)
{
	switch (status) {
	case PGW_OK:
		return PGW_EXIT_OK;
	case PGW_E_ARG:
		return PGW_EXIT_USAGE;
	case PGW_E_IO:
		return PGW_EXIT_NOINPUT;
	case PGW_E_FORMAT:
	case PGW_E_NODATA:
		return PGW_EXIT_BADIMAGE;
	case PGW_E_UNSUPPORTED:
		return PGW_EXIT_UNSUPPORTED;
	case PGW_E_NOTFOUND:
		return PGW_EXIT_NOROOT;
	case PGW_E_LIMIT:
		return PGW_EXIT_LIMIT;
	case PGW_E_UNMAPPED:
		return PGW_EXIT_PARTIAL;
	case PGW_E_STOPPED:
		/* Only the CLI's own callbacks stop a walk, by its own choice:
		 * not a failure of the library. */
		return PGW_EXIT_OK;
	case PGW_E_NOMEM:
	default:
		return PGW_EXIT_INTERNAL;
	}
}

