#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "yara_rules.h"
#include "../lib/dynlib.h"
#include "../lib/err.h"

#ifndef PGW_HAVE_YARA

enum pgw_status yara_rules_load(const char *path,
				struct yara_rules **rules_ret,
				struct pgw_err *err)
{
	(void)path;
	*rules_ret = NULL;
	return pgw_err_set(err, PGW_E_UNSUPPORTED, "--yara: this build lacks "
			   "YARA (built without libyara-dev)");
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

unsigned yara_rules_threads(void)
{
	return 1;
}

#else

#include <yara.h>

unsigned yara_rules_threads(void)
{
	return YR_MAX_THREADS - 1;
}

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
	char first[400];   /* room for it in pgw_err.msg */
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

enum pgw_status yara_rules_load(const char *path,
				struct yara_rules **rules_ret,
				struct pgw_err *err)
{
	struct compile_errors ce = { .count = 0 };
	YR_COMPILER *c = NULL;
	FILE *f;
	enum pgw_status st = PGW_OK;

	*rules_ret = NULL;
	if (pgw_dynlib_load(&libyara, err) != PGW_OK)
		return err->status;
	if (!(f = fopen(path, "r"))) {
		err->errnum = errno;
		return pgw_err_set(err, PGW_E_IO, "cannot open");
	}
	struct yara_rules *r = calloc(1, sizeof(*r));
	if (!r || yr_init() != ERROR_SUCCESS ||
	    yr_compiler_new(&c) != ERROR_SUCCESS) {
		st = pgw_err_set(err, PGW_E_NOMEM, "--yara: libyara could not "
				 "start (out of memory)");
		goto out;
	}
	yr_compiler_on_error(c, on_compile_error, &ce);
	if (yr_compiler_file(c, f, NULL, path) != 0) {
		st = pgw_err_set(err, PGW_E_ARG, "does not compile: %s (%d "
				 "error%s)", ce.first, ce.count,
				 ce.count == 1 ? "" : "s");
		goto out;
	}
	if (yr_compiler_rules(c, &r->rules) != ERROR_SUCCESS)
		st = pgw_err_set(err, PGW_E_NOMEM, "--yara: libyara could not "
				 "build the rules (out of memory)");
out:
	if (c)
		yr_compiler_free(c);
	fclose(f);
	if (st != PGW_OK) {
		free(r);
		return st;
	}
	*rules_ret = r;
	return PGW_OK;
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
