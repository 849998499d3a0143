/*
 * pgw_search's patterns: each compiled when added (pattern.c, and YARA
 * rules by libyara), kept with its own copy of the text.  A pattern is
 * large (its bytes and mask), so each has an allocation of its own and
 * the list holds pointers: a compiled regex_t is never moved.
 */
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "patterns.h"
#include "yara_rules.h"
#include "../lib/err.h"
#include "../lib/grow.h"

static const char *const kind_keys[] = {
	[PGW_PATTERN_STRING] = "string", [PGW_PATTERN_WIDE] = "wide",
	[PGW_PATTERN_HEX] = "hex", [PGW_PATTERN_REGEX] = "regex",
	[PGW_PATTERN_YARA] = "yara",
};

const char *pgw_pattern_kind_key(enum pgw_pattern_kind kind)
{
	return (unsigned)kind < sizeof(kind_keys) / sizeof(kind_keys[0]) ?
		       kind_keys[kind] : NULL;
}

enum pgw_status pgw_patterns_new(struct pgw_patterns **pat_ret,
				 struct pgw_err *err)
{
	if (!(*pat_ret = calloc(1, sizeof(**pat_ret))))
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	return PGW_OK;
}

static void pattern_drop(struct pattern *p)
{
	pattern_free(p);
	yara_rules_free(p->yara);
	free((char *)p->text);
	free(p);
}

enum pgw_status pgw_patterns_add(struct pgw_patterns *pat,
				 enum pgw_pattern_kind kind, const char *text,
				 struct pgw_err *err)
{
	if (!pgw_pattern_kind_key(kind))
		return pgw_err_set(err, PGW_E_ARG, "no such pattern kind: %d",
				   (int)kind);
	if (pgw_grow(&pat->p, pat->n, sizeof(*pat->p), err) != PGW_OK)
		return err->status;
	struct pattern *p = calloc(1, sizeof(*p));
	char *copy = strdup(text);
	if (!p || !copy) {
		free(p);
		free(copy);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	if (!pattern_compile(p, kind, copy, err)) {
		p->text = copy;
		pattern_drop(p);
		return err->status;
	}
	enum pgw_status st = kind == PGW_PATTERN_YARA ?
		yara_rules_load(copy, &p->yara, err) : PGW_OK;
	if (st != PGW_OK) {
		pattern_drop(p);
		return st;
	}
	pat->p[pat->n++] = p;
	return PGW_OK;
}

size_t pgw_patterns_count(const struct pgw_patterns *pat)
{
	return pat->n;
}

void pgw_patterns_free(struct pgw_patterns *pat)
{
	if (!pat)
		return;
	for (size_t i = 0; i < pat->n; i++)
		pattern_drop(pat->p[i]);
	free(pat->p);
	free(pat);
}
