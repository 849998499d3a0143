/*
 * The check and diff commands' records in each output format
 * (fmt_*_check.c), hooked into the formatters of fmt_*.c.
 */
#ifndef PGW_CHECK_OUT_H
#define PGW_CHECK_OUT_H

#include "output.h"
#include "text_cells.h"

void text_check_begin(struct out *o);
void text_check_finding(struct out *o, const struct pgw_finding *f);
void text_check_summary(struct out *o, const struct check_summary *s);

void json_check_finding(struct out *o, const struct pgw_finding *f);
void json_check_summary(struct out *o, const struct check_summary *s);

/* CSV and TSV: delimited.h (delim_check_*, delim_diff_*). */

/* A finding's end: 2^64 is 0. */
static inline uint64_t finding_size(const struct pgw_finding *f)
{
	return f->end - f->va;
}

#endif
