/*
 * What every subcommand needs before it can walk: the options shared by
 * all of them, the opened image, the chosen mode and root.  One place owns
 * the image: session_close().
 */
#ifndef PGW_SESSION_H
#define PGW_SESSION_H

#include <argp.h>
#include <stdio.h>

#include "pgwalk.h"

struct session_opts {
	const char *image_format;    /* --format=elf|raw|... */
	const char *output_format;   /* --format=text|json|tsv|csv */
	struct pgw_image_open_opts open;
	const char *mode_name;       /* --mode */
	struct pgw_root_request root;
	uint64_t max_entries;        /* --max-entries */
};

struct session {
	struct session_opts opts;
	const char *path;
	struct pgw_image *img;
	struct pgw_mode_choice mode;
	struct pgw_root root;
	struct pgw_space space;
};

/* The argp child with the shared options; its input is a session_opts. */
extern const struct argp session_argp;
void session_opts_init(struct session_opts *o);

/* Open the image only (for info, which reports failures per part). */
int session_open_image(struct session *s, const char *path);
/* Choose mode and root; 0 or an exit status (message printed). */
int session_choose(struct session *s);
void session_close(struct session *s);

/* A usage error inside an argp parser: one line on stderr, "pgwalk
 * translate: <msg> (see 'pgwalk translate --help')", then exit 64.
 * argp_error's own hint wraps onto further lines. */
void pgw_usage_error(const struct argp_state *state, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Print "pgwalk: <msg>" to stderr. */
void pgw_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a number: 0x-prefixed or bare hex, or decimal with a 0d prefix. */
bool pgw_parse_u64(const char *s, uint64_t *v);

#endif
