/*
 * search's patterns: --string (and its UTF-16LE form with --wide) and
 * --hex (with ?? wildcards), each compiled to bytes and a mask, found in
 * a buffer by its longest run of fixed bytes (memmem) and then checked
 * whole.
 */
#ifndef PGW_PATTERN_H
#define PGW_PATTERN_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest pattern: a match then spans at most two 4 KiB pages, so
 * what one page carries over to the next lies in one page. */
#define PATTERN_MAX 4096

enum pattern_kind { PAT_STRING, PAT_WIDE, PAT_HEX, PAT_REGEX, PAT_YARA };

/* A regular expression is tried on windows of REGEX_WINDOW bytes, a
 * match starting in the first half of one: so a match is at most
 * REGEX_MAX bytes, and however the expression is built, each byte costs
 * at most one window's work (no expression can take time that grows
 * faster than the memory searched). */
#define REGEX_MAX 1024
#define REGEX_WINDOW (2 * REGEX_MAX)

struct pattern {
	enum pattern_kind kind;
	const char *text;        /* as given on the command line */
	uint8_t bytes[PATTERN_MAX];
	uint8_t fixed[PATTERN_MAX];   /* 1: the byte must match; 0: ?? */
	size_t len;                   /* PAT_REGEX, PAT_YARA: REGEX_WINDOW,
					 what a chunk carries into the next
					 for them */
	size_t anchor, anchor_len;    /* the longest run of fixed bytes (0
					 long: every offset matches) */
	regex_t re;                   /* PAT_REGEX */
	struct yara_rules *yara;      /* PAT_YARA (yara_rules.h); text is
					 the rules file */
};

/* Compile text as kind into p (text is kept, not copied): false with why
 * (a sentence for a usage error) when it is not a pattern. */
bool pattern_compile(struct pattern *p, enum pattern_kind kind,
		     const char *text, const char **why);

void pattern_free(struct pattern *p);

/* "string", "wide", "hex", "regex": how a hit names its pattern's
 * kind. */
const char *pattern_kind_key(enum pattern_kind kind);

/* "kind:text" into buf (not NUL-terminated, cut at n): how a hit names
 * its pattern; a YARA match "yara:RULE:$STRING". */
#define PATTERN_LABEL_MAX 8192
size_t pattern_label(const struct pattern *p, const char *rule,
		     const char *string, char *buf, size_t n);

/* Does p match the bytes at `at` (p->len of them)? */
bool pattern_at(const struct pattern *p, const uint8_t *at);

/* The offset of the first match of p starting at or after `from` that
 * lies wholly within buf[0, n); n when there is none. */
size_t pattern_find(const struct pattern *p, const uint8_t *buf, size_t n,
		    size_t from);

#endif
