/*
 * What `diff` prints: a record per range that differs (its type the kind
 * of difference), each side's mapping as a sub record, then the summary
 * (diff_out.c: the types and their text; cmd_diff.c fills them in).
 */
#ifndef PGW_DIFF_OUT_H
#define PGW_DIFF_OUT_H

#include "record.h"

/* One side's mapping: pa absent (null) when its table is not in the
 * image, only absence saying why. */
#define DIFF_SIDE_FIELDS(F, S)                                            \
	F(S, pa, OHEX, RF_NULL)                                           \
	F(S, page_size, OU64, 0)                                          \
	F(S, level, WORD, RF_DETAIL)                                      \
	F(S, flags, FLAGS, RF_DETAIL)                                     \
	F(S, effective, FLAGS, 0)                                         \
	F(S, same_frame, OBOOL, RF_DETAIL)                                \
	F(S, absence, WORD, RF_DETAIL)
RECORD_STRUCT(diff_side_rec, DIFF_SIDE_FIELDS);

/* kind: added, removed, changed or uncompared (the record's type). */
#define DIFF_RANGE_FIELDS(F, S)                                           \
	F(S, kind, WORD, 0)                                               \
	F(S, range, RANGE, 0)                                             \
	F(S, a, OBJECT(diff_side_rec), RF_NULL)                           \
	F(S, b, OBJECT(diff_side_rec), RF_NULL)                           \
	F(S, changes, KEYS, 0)                                            \
	F(S, reason, WORD, 0)
RECORD_STRUCT(diff_range_rec, DIFF_RANGE_FIELDS);

#define DIFF_SUMMARY_FIELDS(F, S)                                         \
	F(S, root_a, HEX, RF_DETAIL)                                      \
	F(S, root_b, HEX, RF_DETAIL)                                      \
	F(S, ranges, U64, RF_DETAIL)                                      \
	F(S, added, U64, RF_DETAIL)                                       \
	F(S, removed, U64, RF_DETAIL)                                     \
	F(S, changed, U64, RF_DETAIL)                                     \
	F(S, uncompared, U64, RF_DETAIL)                                  \
	F(S, same, U64, RF_DETAIL)                                        \
	F(S, data_compared, OU64, RF_NULL | RF_DETAIL)                    \
	F(S, table_not_in_image, U64, RF_DETAIL)                          \
	F(S, complete, BOOL, RF_DETAIL)                                   \
	F(S, reason, WORD, 0)
RECORD_STRUCT(diff_summary_rec, DIFF_SUMMARY_FIELDS);

/* Text's head: the two roots. */
struct diff_head {
	uint64_t root_a, root_b;
};

extern const struct rec_table diff_table;

#endif
