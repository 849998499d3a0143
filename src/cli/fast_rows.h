/*
 * Records spelled by hand where the schema's writers (record.h) cost
 * more than 5 %, measured: a batch of a million compact translations in
 * JSON or CSV/TSV (spelled tails, spelled.h: 3.3-4.2 times the CPU time
 * through record_json.c and record_delim.c) and dump --leaves (a record
 * a leaf, 4-9 times: the first spelled with its numbers marked, the rest
 * copied, stencil.h).  Each spells exactly what its record type's
 * schema does (tests/unit/fast_rows.c compares the two); everything
 * else goes through out_record.
 */
#ifndef PGW_FAST_ROWS_H
#define PGW_FAST_ROWS_H

#include "output.h"

/* Compact translation records of answers a[i] for va[i] gathered in
 * o->rows; false: under --levels, print each with out_record. */
bool fast_xlat(struct out *o, const uint64_t *va, const struct pgw_answer *a,
	       size_t n);

/* A map record, newline included, added to l, its numbers marked on
 * o->stencil when set. */
void fast_map(struct out *o, struct line *l, const struct pgw_run *run,
	      uint64_t not_in_image);

#endif
