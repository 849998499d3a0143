/*
 * CSV and TSV: the same columns in the same order, a header row each,
 * every record of the JSON stream a row (docs/output.md).  The two differ
 * only in the separator and in how an empty cell is spelled, so one set
 * of writers serves both; fmt_csv.c and fmt_tsv.c name their spelling.
 * Records described by a schema go through delim_table and delim_record
 * (record_delim.c); translate and dump have writers of their own here.
 */
#ifndef PGW_DELIMITED_H
#define PGW_DELIMITED_H

#include "emit.h"
#include "output.h"

struct delim {
	char sep;
	const char *empty;      /* an empty cell */
};

void delim_xlat_begin(struct out *o, const struct delim *d);
void delim_xlat(struct out *o, const struct delim *d, const uint64_t *va,
		const struct pgw_answer *a, size_t n);
void delim_xlat_walk(struct out *o, const struct delim *d,
		     const struct pgw_xlat *x);
void delim_bad_addr(struct out *o, const struct delim *d, const char *text,
		    size_t n);

void delim_dump_begin(struct out *o, const struct delim *d);
void delim_dump_region(struct out *o, const struct delim *d,
		       const struct pgw_region *r);
void delim_dump_map(struct out *o, struct line *l, const struct delim *d,
		    const struct pgw_run *run, uint64_t not_in_image);
void delim_dump_hole(struct out *o, const struct delim *d,
		     const struct pgw_run *run);
void delim_dump_summary(struct out *o, const struct delim *d,
			const struct dump_summary *s);

/* Records described by a schema (record_delim.c): the table's header,
 * a record's row. */
void delim_table(struct out *o, const struct delim *d,
		 const struct rec_table *t);
void delim_record(struct out *o, const struct delim *d,
		  const struct rec_type *t, const void *rec);





/* A formatter's hooks, all through its struct delim D. */
#define DELIM_FORMATTER(NAME, D)                                          \
	static void NAME##_xlat_begin(struct out *o)                      \
	{ delim_xlat_begin(o, &D); }                                      \
	static void NAME##_xlat(struct out *o, const uint64_t *va,        \
				const struct pgw_answer *a, size_t n)     \
	{ delim_xlat(o, &D, va, a, n); }                                  \
	static void NAME##_xlat_walk(struct out *o,                       \
				     const struct pgw_xlat *x,            \
				     const char *why)                     \
	{ (void)why; delim_xlat_walk(o, &D, x); }                         \
	static void NAME##_bad(struct out *o, const char *t, size_t n)    \
	{ delim_bad_addr(o, &D, t, n); }                                  \
	static void NAME##_dump_begin(struct out *o)                      \
	{ delim_dump_begin(o, &D); }                                      \
	static void NAME##_dump_region(struct out *o,                     \
				       const struct pgw_region *r)        \
	{ delim_dump_region(o, &D, r); }                                  \
	static void NAME##_dump_map(struct out *o, struct line *l,        \
				    const struct pgw_run *run, uint64_t n) \
	{ delim_dump_map(o, l, &D, run, n); }                             \
	static void NAME##_dump_hole(struct out *o,                       \
				     const struct pgw_run *run)           \
	{ delim_dump_hole(o, &D, run); }                                  \
	static void NAME##_dump_summary(struct out *o,                    \
					const struct dump_summary *s)     \
	{ delim_dump_summary(o, &D, s); }                                 \
	static void NAME##_table(struct out *o,                           \
				 const struct rec_table *t,               \
				 const void *ctx)                         \
	{ (void)ctx; delim_table(o, &D, t); }                             \
	static void NAME##_record(struct out *o, const struct rec_type *t, \
				  const void *rec)                        \
	{ delim_record(o, &D, t, rec); }                                  \
	const struct formatter fmt_##NAME = {                             \
		.name = #NAME,                                            \
		.xlat_begin = NAME##_xlat_begin,                          \
		.xlat = NAME##_xlat,                                      \
		.xlat_walk = NAME##_xlat_walk,                            \
		.bad_addr = NAME##_bad,                                   \
		.dump_begin = NAME##_dump_begin,                          \
		.dump_region = NAME##_dump_region,                        \
		.dump_map = NAME##_dump_map,                              \
		.dump_hole = NAME##_dump_hole,                            \
		.dump_summary = NAME##_dump_summary,                      \
		.table_begin = NAME##_table,                              \
		.record = NAME##_record,                                  \
	}

#endif
