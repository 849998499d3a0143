/*
 * What `translate` prints: a translation record per address, with the
 * walk level by level under --levels, or, for an input line that is not
 * an address, that line echoed (xlat_out.c: the type, its tables and its
 * text; cmd_translate.c fills the records in).
 */
#ifndef PGW_XLAT_OUT_H
#define PGW_XLAT_OUT_H

#include "name_cells.h"
#include "record.h"
#include "pgwalk.h"

struct out;

/* A non-present entry that means something: what it is, where its frame
 * or swap slot is. */
#define NP_FIELDS(F, S)                                                   \
	F(S, kind, WORD, 0)                                               \
	F(S, pa, OHEX, 0)                                                 \
	F(S, swap_type, OU64, 0)                                          \
	F(S, swap_offset, OHEX, 0)
RECORD_STRUCT(np_rec, NP_FIELDS);

/* A struct np_rec: JSON's "non_present" object; in the CSV/TSV detail
 * cell "non_present=KIND" and its pa or swap_type and swap_offset. */
extern const struct rec_custom np_spelling;
/* np of a non-present entry that means something: np, else NULL. */
const struct np_rec *np_rec_of(enum pgw_np_kind kind, uint64_t pfn,
			       unsigned swap_type, uint64_t swap_offset,
			       struct np_rec *np);

extern const struct rec_custom xlat_levels, xlat_answer;

/* levels: the struct pgw_xlat walked (NULL: no --levels); answer: the
 * struct pgw_answer, for text (NULL: a line that is not an address);
 * why: the image's message when a table could not be read (text). */
#define XLAT_FIELDS(F, S)                                                 \
	F(S, va, OHEX, RF_NULL)                                           \
	F(S, pa, OHEX, RF_NULL)                                           \
	F(S, page_size, OU64, 0)                                          \
	F(S, level, WORD, 0)                                              \
	F(S, flags, FLAGS, 0)                                             \
	F(S, effective, FLAGS, 0)                                         \
	F(S, pkey, OU64, 0)                                               \
	F(S, in_image, OBOOL, 0)                                          \
	F(S, input, BYTES, 0)                                             \
	F(S, reason, WORD, 0)                                             \
	F(S, absence, WORD, 0)                                            \
	F(S, non_present, CUSTOM(np_spelling), RF_JSON)                        \
	F(S, levels, CUSTOM(xlat_levels), 0)                              \
	F(S, name, GROUP(name_rec), 0)                                    \
	F(S, answer, CUSTOM(xlat_answer), RF_TEXT)                        \
	F(S, why, TEXT, RF_TEXT)
RECORD_STRUCT(xlat_rec, XLAT_FIELDS);

/* The record of va's answer a in o's format; under --levels with x,
 * its whole walk, and why, the image's message when the walk could not
 * read a table (NULL: none). */
void xlat_print(struct out *o, uint64_t va, const struct pgw_answer *a,
		const struct pgw_xlat *x, const char *why);

/* A batch's text lines of answers a[i] for va[i], added to o->rows
 * (the record's text layout, without a record each). */
void xlat_text_lines(struct out *o, const uint64_t *va,
		     const struct pgw_answer *a, size_t n);

/* The table for o: with the levels column under --levels, the name
 * columns when o names addresses. */
const struct rec_table *xlat_table(const struct out *o);

#endif
