/*
 * pgw_search's patterns: strings (and their UTF-16LE forms) and hex (with
 * ?? wildcards), each compiled to bytes and a mask, found in a buffer by
 * its longest run of fixed bytes (memmem) and then checked whole;
 * regular expressions (regexec) and YARA rules (yara_rules.h).
 */
#ifndef PGW_PATTERN_H
#define PGW_PATTERN_H

#include <locale.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgwalk.h"

/* The longest pattern: a match then spans at most two 4 KiB pages, so
 * what one page carries over to the next lies in one page. */
#define PATTERN_MAX PGW_PATTERN_MAX

/* A regular expression is tried on windows of REGEX_WINDOW bytes, a
 * match starting in the first half of one: so a match is at most
 * REGEX_MAX bytes, and however the expression is built, each byte costs
 * at most one window's work (no expression can take time that grows
 * faster than the memory searched). */
#define REGEX_MAX PGW_REGEX_MAX
#define REGEX_WINDOW (2 * REGEX_MAX)

struct pattern {
	enum pgw_pattern_kind kind;
	const char *text;        /* as given (pgw_patterns' copy) */
	uint8_t bytes[PATTERN_MAX];
	uint8_t fixed[PATTERN_MAX];   /* 1: the byte must match; 0: ?? */
	size_t len;                   /* regex, YARA: REGEX_WINDOW, what a
					 chunk carries into the next for
					 them */
	size_t anchor, anchor_len;    /* the longest run of fixed bytes (0
					 long: every offset matches) */
	regex_t re;                   /* PGW_PATTERN_REGEX */
	struct yara_rules *yara;      /* PGW_PATTERN_YARA (yara_rules.h);
					 text is the rules file */
};

/*
 * The C locale, for regcomp and regexec: the expressions match bytes
 * whatever locale the program chose (an interpreter sets its own: in a
 * UTF-8 locale glibc decodes every byte of memory as a character, which
 * is another match and a hundredfold slower).  Swap it in with uselocale
 * around the calls (per thread); NULL when it cannot be made.
 */
locale_t pattern_c_locale(void);

/* Compile text as kind into p (text is kept, not copied): false with why
 * in err (PGW_E_ARG) when it is not a pattern. */
bool pattern_compile(struct pattern *p, enum pgw_pattern_kind kind,
		     const char *text, struct pgw_err *err);

void pattern_free(struct pattern *p);

/* Does p match the bytes at `at` (p->len of them)? */
bool pattern_at(const struct pattern *p, const uint8_t *at);

/* The offset of the first match of p starting at or after `from` that
 * lies wholly within buf[0, n); n when there is none. */
size_t pattern_find(const struct pattern *p, const uint8_t *buf, size_t n,
		    size_t from);

#endif
