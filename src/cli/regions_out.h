/* What `regions` prints: the layout, its bases, a record per region and
 * the summary (regions_out.c: the types and their text). */
#ifndef PGW_REGIONS_OUT_H
#define PGW_REGIONS_OUT_H

#include "record.h"

#define LAYOUT_FIELDS(F, S)                                               \
	F(S, name, WORD, 0)                                                  \
	F(S, desc, TEXT, 0)                                                  \
	F(S, why, TEXT, 0)
RECORD_STRUCT(layout_rec, LAYOUT_FIELDS);

#define BASE_FIELDS(F, S)                                                 \
	F(S, name, WORD, 0)                                                  \
	F(S, value, HEX, 0)                                                  \
	F(S, source, WORD, 0)                                                \
	F(S, why, TEXT, 0)
RECORD_STRUCT(base_rec, BASE_FIELDS);

#define REGION_FIELDS(F, S)                                               \
	F(S, span, SPAN, 0)                                                  \
	F(S, region, WORD, 0)                                                \
	F(S, name, TEXT, 0)                                                  \
	F(S, mapped, U64, 0)                                                 \
	F(S, leaves, U64, 0)
RECORD_STRUCT(region_rec, REGION_FIELDS);

#define REGIONS_SUMMARY_FIELDS(F, S)                                      \
	F(S, mapped, U64, 0)                                                 \
	F(S, leaves, U64, 0)                                                 \
	F(S, complete, BOOL, 0)                                              \
	F(S, reason, WORD, 0)
RECORD_STRUCT(regions_summary_rec, REGIONS_SUMMARY_FIELDS);

extern const struct rec_table regions_table;

#endif
