/*
 * What `check` prints: a finding record per finding, with the entries
 * that show it, then the summary (check_out.c: the types, their text,
 * and the records made of the command's findings and counts).
 */
#ifndef PGW_CHECK_OUT_H
#define PGW_CHECK_OUT_H

#include "name_cells.h"
#include "output.h"
#include "record.h"

/* evidence: the finding itself (its entries, spelled by check_out.c). */
extern const struct rec_custom check_evidence, check_unchecked;

#define FINDING_FIELDS(F, S)                                              \
	F(S, rule, WORD, 0)                                               \
	F(S, severity, WORD, 0)                                           \
	F(S, range, RANGE, RF_NULL)                                       \
	F(S, root, OHEX, RF_NULL)                                         \
	F(S, pid, OU64, RF_NULL)                                          \
	F(S, comm, BYTES, RF_NULL)                                        \
	F(S, evidence, CUSTOM(check_evidence), 0)                         \
	F(S, why, TEXT, 0)                                                \
	F(S, name, GROUP(name_rec), 0)
RECORD_STRUCT(finding_rec, FINDING_FIELDS);

/* unchecked: the summary itself (the rules that could not run, and
 * why: a list in JSON, words in the why column). */
#define CHECK_SUMMARY_FIELDS(F, S)                                        \
	F(S, severity, WORD, 0)                                           \
	F(S, roots, U64, RF_DETAIL)                                       \
	F(S, findings, U64, RF_DETAIL)                                    \
	F(S, by_severity, COUNTS, RF_DETAIL_AS("severity"))               \
	F(S, by_rule, COUNTS, RF_DETAIL_AS("rule"))                       \
	F(S, kernel_wx_pages, OU64, RF_NULL | RF_DETAIL)                  \
	F(S, unchecked, CUSTOM(check_unchecked), RF_COLUMN("why"))        \
	F(S, tables_not_in_image, U64, RF_DETAIL)                         \
	F(S, complete, BOOL, RF_DETAIL)                                   \
	F(S, reason, WORD, RF_DETAIL)
RECORD_STRUCT(check_summary_rec, CHECK_SUMMARY_FIELDS);

extern const struct rec_table check_table;

/* The records of a finding and of the summary, out in o's format. */
void check_say_finding(struct out *o, const struct pgw_finding *f);
void check_say_summary(struct out *o, const struct check_summary *s);

#endif
