/*
 * The facts cache's lines for pgw_kernel_facts (facts_kernel.c): read
 * one line at a time, written all at once.
 */
#ifndef PGW_CLI_FACTS_KERNEL_H
#define PGW_CLI_FACTS_KERNEL_H

#include "pgwalk.h"

struct facts_kernel_read {
	unsigned seen;               /* which lines, a bit each */
	bool have;                   /* all of them: k holds them */
	struct pgw_kernel_facts k;
};

/* "0x" and 1 to 16 lower-case hex digits, as the cache writes numbers:
 * true with the value. */
bool facts_hex_word(const char *w, uint64_t *v);

/* 1: line was a kernel line and read into r; 0: no kernel line; -1: a
 * kernel line that is not one, or one seen before (why says which). */
int facts_kernel_line(char *line, struct facts_kernel_read *r, char *why,
		      size_t n);
/* After the last line: false (why) for some but not all of them. */
bool facts_kernel_done(struct facts_kernel_read *r, char *why, size_t n);
/* Its lines into buf; the length they take (>= n: they did not fit). */
size_t facts_kernel_format(const struct pgw_kernel_facts *f, char *buf,
			   size_t n);

#endif
