/*
 * CSV and TSV: the same columns in the same order, a header row each,
 * every record of the JSON stream a row (docs/output.md).  The two differ
 * only in the separator and in how an empty cell is spelled (struct
 * delim, output.h), so one writer serves both (record_delim.c).
 */
#ifndef PGW_DELIMITED_H
#define PGW_DELIMITED_H

#include "emit.h"
#include "output.h"

/* Records described by a schema (record_delim.c): the table's header,
 * a record's row. */
void delim_table(struct out *o, const struct delim *d,
		 const struct rec_table *t);
void delim_record(struct out *o, const struct delim *d,
		  const struct rec_type *t, const void *rec);

#endif
