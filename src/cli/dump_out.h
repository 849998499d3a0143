/*
 * What `dump` prints: a region record before the first run printed in
 * each memory-map region, a map record per run of mappings, a hole
 * record per run of nothing, a summary at the end (dump_out.c: the types,
 * their table and their text; cmd_dump.c fills them in).
 */
#ifndef PGW_DUMP_OUT_H
#define PGW_DUMP_OUT_H

#include "name_cells.h"
#include "output.h"
#include "record.h"
#include "xlat_out.h"

#define DUMP_REGION_FIELDS(F, S)                                          \
	F(S, span, SPAN, 0)                                               \
	F(S, region, WORD, 0)                                             \
	F(S, name, TEXT, RF_COLUMN("detail"))
RECORD_STRUCT(dump_region_rec, DUMP_REGION_FIELDS);

/* run: the struct pgw_run, for the detail cell's words (same_frame,
 * stride, pkey) and for text. */
extern const struct rec_custom dump_run_detail, dump_run_text;

#define DUMP_MAP_FIELDS(F, S)                                             \
	F(S, span, SPAN, 0)                                               \
	F(S, pa, HEX, 0)                                                  \
	F(S, page_size, U64, 0)                                           \
	F(S, level, WORD, 0)                                              \
	F(S, entries, U64, 0)                                             \
	F(S, flags, FLAGS, 0)                                             \
	F(S, effective, FLAGS, 0)                                         \
	F(S, pkey, OU64, RF_JSON)                                         \
	F(S, bytes_not_in_image, U64, 0)                                  \
	F(S, region, WORD, 0)                                             \
	F(S, same_frame, CUSTOM(dump_run_detail), RF_DETAIL)              \
	F(S, stride, OU64, RF_JSON)                                       \
	F(S, name, GROUP(name_rec), 0)                                    \
	F(S, run, CUSTOM(dump_run_text), RF_TEXT)
RECORD_STRUCT(dump_map_rec, DUMP_MAP_FIELDS);

#define DUMP_HOLE_FIELDS(F, S)                                            \
	F(S, span, SPAN, 0)                                               \
	F(S, level, WORD, 0)                                              \
	F(S, entries, U64, 0)                                             \
	F(S, reason, WORD, 0)                                             \
	F(S, absence, WORD, 0)                                            \
	F(S, entry_pa, OHEX, RF_DETAIL)                                   \
	F(S, entry, OHEX, RF_DETAIL)                                      \
	F(S, non_present, CUSTOM(np_spelling), RF_DETAIL)                 \
	F(S, region, WORD, 0)                                             \
	F(S, run, CUSTOM(dump_run_text), RF_TEXT)
RECORD_STRUCT(dump_hole_rec, DUMP_HOLE_FIELDS);

extern const struct rec_custom dump_summary_text;

#define DUMP_SUMMARY_FIELDS(F, S)                                         \
	F(S, maps, U64, RF_DETAIL)                                        \
	F(S, mapped, U64, RF_DETAIL)                                      \
	F(S, mapped_by_page_size, COUNTS, RF_DETAIL_AS("mapped"))         \
	F(S, holes, U64, RF_DETAIL)                                       \
	F(S, non_present, U64, RF_DETAIL)                                 \
	F(S, wx, U64, RF_DETAIL)                                          \
	F(S, wx_bytes, U64, RF_DETAIL)                                    \
	F(S, unknown_permissions_bytes, U64, RF_DETAIL)                   \
	F(S, bytes_not_in_image, U64, 0)                                  \
	F(S, tables_not_in_image, U64, RF_DETAIL)                         \
	F(S, entries, U64, RF_DETAIL)                                     \
	F(S, tables, U64, RF_DETAIL)                                      \
	F(S, leaves, U64, RF_DETAIL)                                      \
	F(S, complete, BOOL, RF_DETAIL)                                   \
	F(S, reason, WORD, 0)                                             \
	F(S, sum, CUSTOM(dump_summary_text), RF_TEXT)
RECORD_STRUCT(dump_summary_rec, DUMP_SUMMARY_FIELDS);

/* The table for o: the name columns when o names addresses. */
const struct rec_table *dump_table(const struct out *o);

/* Each record of dump, filled in from what the walk found and printed
 * in o's format. */
void dump_print_region(struct out *o, const struct pgw_region *r);
void dump_print_map(struct out *o, const struct pgw_run *run,
		    uint64_t not_in_image);
/* A map's text line, newline included, added to l (its numbers marked
 * on o->stencil when set). */
void dump_text_map(struct out *o, struct line *l, const struct pgw_run *run,
		   uint64_t not_in_image, const struct name_rec *name);
void dump_print_hole(struct out *o, const struct pgw_run *run);
void dump_print_summary(struct out *o, const struct dump_summary *s);

#endif
