#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "exit_codes.h"
#include "output.h"
#include "yara_rules.h"
#include "../lib/dynlib.h"

#ifndef PGW_HAVE_YARA

int yara_rules_load(const char *path, struct yara_rules **rules_ret)
{
	(void)path;
	*rules_ret = NULL;
	pgw_cli_error("search: --yara: this build lacks YARA (built without "
		      "libyara-dev)");
	return PGW_EXIT_UNSUPPORTED;
}

void yara_rules_free(struct yara_rules *r)
{
	(void)r;
}

bool yara_rules_scan(struct yara_rules *r, const uint8_t *buf, size_t n,
		     yara_match_fn fn, void *arg, const char **why)
{
	(void)r, (void)buf, (void)n, (void)fn, (void)arg;
	*why = "this build lacks YARA";
	return false;
}

#else

#include <yara.h>

static int (*yr_init)(void);
static int (*yr_compiler_new)(YR_COMPILER **);
static void (*yr_compiler_free)(YR_COMPILER *);
static void (*yr_compiler_on_error)(YR_COMPILER *, YR_COMPILER_CALLBACK_FUNC,
				    void *);
static int (*yr_compiler_file)(YR_COMPILER *, FILE *, const char *,
			       const char *);
static int (*yr_compiler_rules)(YR_COMPILER *, YR_RULES **);
static int (*yr_scan_mem)(YR_RULES *, const uint8_t *, size_t, int,
			  YR_CALLBACK_FUNC, void *, int);
static int (*yr_rules_free)(YR_RULES *);

static const struct pgw_dynsym syms[] = {
	{ "yr_initialize", (void **)&yr_init },
	{ "yr_compiler_create", (void **)&yr_compiler_new },
	{ "yr_compiler_destroy", (void **)&yr_compiler_free },
	{ "yr_compiler_set_callback", (void **)&yr_compiler_on_error },
	{ "yr_compiler_add_file", (void **)&yr_compiler_file },
	{ "yr_compiler_get_rules", (void **)&yr_compiler_rules },
	{ "yr_rules_scan_mem", (void **)&yr_scan_mem },
	{ "yr_rules_destroy", (void **)&yr_rules_free },
};

static struct pgw_dynlib libyara = {
	"YARA (--yara)", PGW_SONAME_yara, "libyara9", syms,
	sizeof(syms) / sizeof(syms[0]), 0, "",
};

struct yara_rules {
	YR_RULES *rules;
};

/* The first of libyara's messages, with its line. */
struct compile_errors {
	char first[512];
	int count;
};

static void on_compile_error(int level, const char *file, int line,
			     const YR_RULE *rule, const char *message,
			     void *arg)
{
	struct compile_errors *e = arg;

	(void)file, (void)rule;
	if (level != YARA_ERROR_LEVEL_ERROR || e->count++)
		return;
	snprintf(e->first, sizeof(e->first), "line %d: %s", line, message);
}

int yara_rules_load(const char *path, struct yara_rules **rules_ret)
{
	struct pgw_err err = { 0 };
	struct compile_errors ce = { .count = 0 };
	YR_COMPILER *c = NULL;
	FILE *f;
	int rc = 0;

	*rules_ret = NULL;
	if (pgw_dynlib_load(&libyara, &err) != PGW_OK) {
		pgw_cli_error("search: %s", err.msg);
		return PGW_EXIT_UNSUPPORTED;
	}
	if (!(f = fopen(path, "r"))) {
		out_text_line(stderr, "pgwalk: search: --yara: cannot open '",
			      path, "'\n");
		return PGW_EXIT_NOINPUT;
	}
	struct yara_rules *r = calloc(1, sizeof(*r));
	if (!r || yr_init() != ERROR_SUCCESS ||
	    yr_compiler_new(&c) != ERROR_SUCCESS) {
		pgw_cli_error("search: --yara: libyara could not start (out "
			      "of memory)");
		rc = PGW_EXIT_INTERNAL;
		goto out;
	}
	yr_compiler_on_error(c, on_compile_error, &ce);
	if (yr_compiler_file(c, f, NULL, path) != 0) {
		out_text_line(stderr, "pgwalk: search: --yara='", path,
			      "' does not compile: ");
		out_text_line(stderr, "", ce.first, "");
		fprintf(stderr, " (%d error%s)\n", ce.count,
			ce.count == 1 ? "" : "s");
		rc = PGW_EXIT_USAGE;
		goto out;
	}
	if (yr_compiler_rules(c, &r->rules) != ERROR_SUCCESS) {
		pgw_cli_error("search: --yara: libyara could not build the "
			      "rules (out of memory)");
		rc = PGW_EXIT_INTERNAL;
	}
out:
	if (c)
		yr_compiler_free(c);
	fclose(f);
	if (rc) {
		free(r);
		return rc;
	}
	*rules_ret = r;
	return 0;
}

void yara_rules_free(struct yara_rules *r)
{
	if (!r)
		return;
	if (r->rules)
		yr_rules_free(r->rules);
	free(r);
}

struct scan_arg {
	yara_match_fn fn;
	void *arg;
	bool stopped;
};

/* A rule matched: every match of every string it has (private ones are
 * the rule's business).  libyara's arenas pack its match records at any
 * address, so reading them is no alignment error of ours. */
__attribute__((no_sanitize("alignment")))
static int on_scan(YR_SCAN_CONTEXT *ctx, int message, void *data, void *arg)
{
	struct scan_arg *a = arg;
	YR_RULE *rule = data;
	YR_STRING *string;
	YR_MATCH *match;

	if (message != CALLBACK_MSG_RULE_MATCHING)
		return CALLBACK_CONTINUE;
	yr_rule_strings_foreach(rule, string) {
		yr_string_matches_foreach(ctx, string, match) {
			if (!a->fn(a->arg, (size_t)match->offset,
				   (size_t)match->match_length,
				   rule->identifier, string->identifier)) {
				a->stopped = true;
				return CALLBACK_ABORT;
			}
		}
	}
	return CALLBACK_CONTINUE;
}

bool yara_rules_scan(struct yara_rules *r, const uint8_t *buf, size_t n,
		     yara_match_fn fn, void *arg, const char **why)
{
	struct scan_arg a = { fn, arg, false };
	int rc = yr_scan_mem(r->rules, buf, n, 0, on_scan, &a, 0);

	if (a.stopped) {
		*why = "out of memory";
		return false;
	}
	if (rc != ERROR_SUCCESS) {
		*why = rc == ERROR_TOO_MANY_MATCHES ?
			       "libyara: too many matches of one string" :
			       "libyara could not scan";
		return false;
	}
	return true;
}

#endif
