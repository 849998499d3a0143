/* What `regions` prints: the layout, its bases, a record per region and
 * the summary (regions_out.c: the types and their text). */
#ifndef PGW_REGIONS_OUT_H
#define PGW_REGIONS_OUT_H

#include "record.h"

#define LAYOUT_FIELDS(F, S)                                               \
	F(S, name, WORD)                                                  \
	F(S, desc, TEXT)                                                  \
	F(S, why, TEXT)
RECORD_STRUCT(layout_rec, LAYOUT_FIELDS);

#define BASE_FIELDS(F, S)                                                 \
	F(S, name, WORD)                                                  \
	F(S, value, HEX)                                                  \
	F(S, source, WORD)                                                \
	F(S, why, TEXT)
RECORD_STRUCT(base_rec, BASE_FIELDS);

#define REGION_FIELDS(F, S)                                               \
	F(S, span, SPAN)                                                  \
	F(S, region, WORD)                                                \
	F(S, name, TEXT)                                                  \
	F(S, mapped, U64)                                                 \
	F(S, leaves, U64)
RECORD_STRUCT(region_rec, REGION_FIELDS);

#define REGIONS_SUMMARY_FIELDS(F, S)                                      \
	F(S, mapped, U64)                                                 \
	F(S, leaves, U64)                                                 \
	F(S, complete, BOOL)                                              \
	F(S, reason, WORD)
RECORD_STRUCT(regions_summary_rec, REGIONS_SUMMARY_FIELDS);

extern const struct rec_table regions_table;

#endif
