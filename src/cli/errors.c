/* How the CLI fails: one line on stderr, and an exit status for it. */
#include "exit_codes.h"

#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * argp and the getopt under it report their own errors (an unknown
 * option, a missing value) on stderr, then "Try `pgwalk translate --help'
 * or ..." wrapped over two more lines.  While argp parses, stderr is this
 * cookie stream: each line passes to the real stderr with pgwalk's own
 * hint, and the "Try" lines are dropped.  argp then exits 64
 * (argp_err_exit_status, EX_USAGE).
 */
struct argp_err_sink {
	FILE *real;             /* the stderr being stood in for */
	const char *name;       /* "pgwalk translate" */
	bool tried;             /* the "Try" hint began: drop the rest */
	char buf[512];
	size_t len;
};

static void sink_line(struct argp_err_sink *k)
{
	static const char hint[] = " --help')";
	size_t hl = sizeof(hint) - 1;

	k->buf[k->len] = '\0';
	k->tried |= strncmp(k->buf, "Try `", 5) == 0 ||
		    strncmp(k->buf, "Try '", 5) == 0;
	if (k->tried || k->len == 0)
		;
	else if (k->len >= hl && strcmp(k->buf + k->len - hl, hint) == 0)
		fprintf(k->real, "%s\n", k->buf);   /* pgwalk's own */
	else
		fprintf(k->real, "%s (see '%s --help')\n", k->buf, k->name);
	k->len = 0;
}

static ssize_t sink_write(void *cookie, const char *data, size_t n)
{
	struct argp_err_sink *k = cookie;

	for (size_t i = 0; i < n; i++) {
		if (data[i] == '\n')
			sink_line(k);
		else if (k->len + 1 < sizeof(k->buf))
			k->buf[k->len++] = data[i];
	}
	return (ssize_t)n;
}

static struct argp_err_sink sink;
static FILE *sink_file;

/* argp exits from inside argp_parse on a usage error or --help: the sink
 * is then closed here, so nothing is left open at exit. */
static void sink_close(void)
{
	if (!sink_file)
		return;
	stderr = sink.real;
	fclose(sink_file);
	sink_file = NULL;
}

error_t pgw_argp_parse(const struct argp *argp, int argc, char **argv,
		       void *input)
{
	static bool registered;
	cookie_io_functions_t io = { .write = sink_write };
	error_t e;

	sink.real = stderr;
	sink.name = argv[0];
	sink_file = fopencookie(&sink, "w", io);
	if (!sink_file)
		return argp_parse(argp, argc, argv, 0, NULL, input);
	if (!registered)
		registered = atexit(sink_close) == 0;
	setvbuf(sink_file, NULL, _IONBF, 0);
	/* glibc's stdin, stdout and stderr are plain variables. */
	stderr = sink_file;
	e = argp_parse(argp, argc, argv, 0, NULL, input);
	sink_close();
	return e;
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

/* The first errno stdout failed with: stdio keeps only a flag; and
 * whether a write outside stdio failed. */
static int out_errno;
static bool out_failed;

void pgw_output_error(int e)
{
	if (!out_errno)
		out_errno = e ? e : EIO;
	out_failed = true;
}

bool pgw_output_failed(void)
{
	if (out_failed)
		return true;
	if (!ferror(stdout))
		return false;
	if (!out_errno)
		out_errno = errno ? errno : EIO;
	return true;
}

int pgw_cli_flush(int rc)
{
	errno = 0;
	int failed = fflush(stdout) != 0;
	if (failed || ferror(stdout) || out_failed) {
		/* The flush's own errno is the surest; else the first one
		 * seen while the output went out. */
		int e = failed && errno ? errno : out_errno ? out_errno : EIO;
		pgw_cli_error("cannot write output: %s", strerror(e));
		return PGW_EXIT_OUTPUT;
	}
	return rc;
}

static int stdin_err;

void pgw_std_fds_check(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (fd == 0)
			stdin_err = EBADF;
		/* Occupy the number: read-only, so that writing to a closed
		 * stdout fails (EBADF) instead of going anywhere. */
		int nfd = open("/dev/null", O_RDONLY);
		if (nfd >= 0 && nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
	}
}

int pgw_stdin_errno(void)
{
	return stdin_err;
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
		return PGW_EXIT_NOANSWER;
	case PGW_E_STOPPED:
		/* Only the CLI's own callbacks stop a walk, by its own choice:
		 * not a failure of the library. */
		return PGW_EXIT_OK;
	case PGW_E_NOMEM:
	default:
		return PGW_EXIT_INTERNAL;
	}
}

enum pgw_status pgw_cli_out_of_memory(struct pgw_err *err)
{
	*err = (struct pgw_err){ .status = PGW_E_NOMEM };
	snprintf(err->msg, sizeof(err->msg), "out of memory");
	return PGW_E_NOMEM;
}
