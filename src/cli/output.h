/*
 * Output formatters.  Each is one file defining one `struct formatter`;
 * commands pick one by name and call only these hooks, so adding a format
 * touches nothing else.  A hook a formatter leaves NULL prints nothing.
 */
#ifndef PGW_OUTPUT_H
#define PGW_OUTPUT_H

#include <stdio.h>

#include "pgwalk.h"

struct out {
	FILE *f;
	const struct formatter *fmt;
	const struct pgw_mode *mode;
};

struct formatter {
	const char *name;
	/* translate */
	void (*xlat_begin)(struct out *o);
	void (*xlat)(struct out *o, const struct pgw_xlat *x);
	/* An input line that is not an address (stdin batches go on). */
	void (*bad_addr)(struct out *o, const char *text);
};

/* NULL for an unknown name. */
const struct formatter *formatter_by_name(const char *name);

/* Shared wording, so every format says the same thing. */
const char *out_level_name(const struct pgw_mode *mode, enum pgw_level lvl);
/* "none", "protnone", "swap", ... */
const char *out_np_kind_name(enum pgw_np_kind kind);

#endif
