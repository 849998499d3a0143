/*
 * The dump rows CSV and TSV share: type, va, end, size, pa, page_size,
 * level, entries, flags, effective, region, detail.  Each format's file
 * says how it spells them (separator, empty cell) and which rows it has.
 */
#ifndef PGW_DELIMITED_H
#define PGW_DELIMITED_H

#include "emit.h"
#include "output.h"

struct delim {
	char sep;
	const char *empty;      /* an empty cell */
};

/* va, end and size cells, each followed by the separator; an end of 0
 * after a non-zero va is the top of the space, 2^64. */
void delim_span(struct line *l, const struct delim *d, uint64_t va,
		uint64_t end);
void delim_dump_map(struct out *o, const struct delim *d,
		    const struct pgw_run *run);
void delim_dump_hole(struct out *o, const struct delim *d,
		     const struct pgw_run *run);

#endif
