/*
 * YARA rules (pgw_search): compiled by libyara, loaded with dlopen when
 * rules are first added (src/lib/dynlib.c), so the library loads and
 * runs without it.  A buffer of memory is scanned at a time; each string
 * match of each rule that matches comes back with the rule's and the
 * string's names.
 */
#ifndef PGW_YARA_RULES_H
#define PGW_YARA_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgwalk.h"

struct yara_rules;

/* Load libyara and compile the rules in path: PGW_OK, or pgw_patterns_add's
 * errors (libyara's own message for rules that do not compile). */
enum pgw_status yara_rules_load(const char *path,
				struct yara_rules **rules_ret,
				struct pgw_err *err);
void yara_rules_free(struct yara_rules *r);

/* A string match at buf[off, off + len); false stops (out of memory). */
typedef bool (*yara_match_fn)(void *arg, size_t off, size_t len,
			      const char *rule, const char *string);

/* Scan buf[0, n): false with why when libyara failed. */
bool yara_rules_scan(struct yara_rules *r, const uint8_t *buf, size_t n,
		     yara_match_fn fn, void *arg, const char **why);

/* Threads that may scan with one set of rules at once (libyara keeps
 * matches per thread in arrays of YR_MAX_THREADS), less one for the
 * calling thread. */
unsigned yara_rules_threads(void);

#endif
