/*
 * What `roots` prints: a record per root, the cross-view (orphans,
 * unowned tasks), how the roots were named and the summary (roots_out.c:
 * the types, their text, and the records made of cmd_roots.c's report).
 */
#ifndef PGW_ROOTS_OUT_H
#define PGW_ROOTS_OUT_H

#include "output.h"

/* Owners of root i (task indices into r->tasks): [*first, *end). */
static inline const size_t *roots_owners(const struct roots_report *r,
					 size_t i, const size_t **end)
{
	if (!r->view) {
		*end = NULL;
		return NULL;
	}
	*end = r->view->owner + r->view->first_owner[i + 1];
	return r->view->owner + r->view->first_owner[i];
}

/* Is CPU c's CR3 root i? */
static inline bool roots_cpu_on(const struct roots_report *r, size_t c,
				size_t i)
{
	return r->roots->cpu_root && r->roots->cpu_root[c] == (long)i;
}

/* Root i of a report: what the root's lists (owners, CPUs, kernel-half
 * differences) are spelled from, by roots_out.c's own functions. */
struct root_ref {
	const struct roots_report *r;
	size_t i;
};
extern const struct rec_custom roots_pids, roots_cpus, roots_kdiffs;

#define ROOT_FIELDS(F, S)                                                 \
	F(S, root, HEX, 0)                                                \
	F(S, kind, WORD, 0)                                               \
	F(S, why, TEXT, 0)                                                \
	F(S, pid, OU64, RF_NULL)                                          \
	F(S, comm, BYTES, RF_NULL)                                        \
	F(S, pids, CUSTOM(roots_pids), RF_DETAIL)                         \
	F(S, cpus, CUSTOM(roots_cpus), 0)                                 \
	F(S, pti_user, OHEX, RF_NULL)                                     \
	F(S, user_bytes, U64, 0)                                          \
	F(S, user_leaves, U64, 0)                                         \
	F(S, user_access_leaves, U64, RF_DETAIL)                          \
	F(S, user_tables, U64, RF_DETAIL)                                 \
	F(S, kernel_entries, U64, RF_DETAIL)                              \
	F(S, kernel_same, U64, RF_DETAIL)                                 \
	F(S, kernel_mismatches, U64, 0)                                   \
	F(S, kernel_diffs, CUSTOM(roots_kdiffs), RF_DETAIL)               \
	F(S, orphan, OBOOL, RF_NULL)
RECORD_STRUCT(root_rec, ROOT_FIELDS);

#define ORPHAN_FIELDS(F, S)                                               \
	F(S, root, HEX, 0)                                                \
	F(S, kind, WORD, 0)                                               \
	F(S, suspicious, BOOL, RF_DETAIL)                                 \
	F(S, why, TEXT, 0)
RECORD_STRUCT(orphan_rec, ORPHAN_FIELDS);

#define UNOWNED_FIELDS(F, S)                                              \
	F(S, pid, U64, 0)                                                 \
	F(S, comm, BYTES, 0)                                              \
	F(S, task, HEX, RF_DETAIL)                                        \
	F(S, mm, HEX, RF_DETAIL)                                          \
	F(S, pgd, OHEX, RF_NULL | RF_DETAIL)                              \
	F(S, root, OHEX, RF_NULL)                                         \
	F(S, why, TEXT, 0)
RECORD_STRUCT(unowned_rec, UNOWNED_FIELDS);

#define NAMES_FIELDS(F, S)                                                \
	F(S, complete, BOOL, 0)                                           \
	F(S, tasks, U64, RF_DETAIL)                                       \
	F(S, processes, U64, RF_DETAIL)                                   \
	F(S, roots_named, U64, RF_DETAIL)                                 \
	F(S, method, WORD, RF_NULL | RF_DETAIL)                           \
	F(S, method_why, TEXT, RF_JSON)                                   \
	F(S, why, TEXT, 0)
RECORD_STRUCT(names_rec, NAMES_FIELDS);

/* The summary; what text's summary line says of the names too. */
#define ROOTS_SUMMARY_FIELDS(F, S)                                        \
	F(S, roots, U64, RF_DETAIL)                                       \
	F(S, kinds, COUNTS, RF_DETAIL_AS("kind"))                         \
	F(S, orphans, OU64, RF_NULL | RF_DETAIL)                          \
	F(S, suspicious_orphans, OU64, RF_NULL | RF_DETAIL)               \
	F(S, unowned_tasks, OU64, RF_NULL | RF_DETAIL)                    \
	F(S, pages, U64, RF_DETAIL)                                       \
	F(S, pages_scanned, U64, RF_DETAIL)                               \
	F(S, pages_absent, U64, RF_DETAIL)                                \
	F(S, freed_slots, U64, RF_DETAIL)                                 \
	F(S, complete, BOOL, 0)                                           \
	F(S, reason, WORD, 0)                                             \
	F(S, why, TEXT, 0)                                                \
	F(S, names, GROUP(names_rec), RF_TEXT)
RECORD_STRUCT(roots_summary_rec, ROOTS_SUMMARY_FIELDS);

extern const struct rec_table roots_table;

/* Every record of a report, in order, out in o's format. */
void roots_say(struct out *o, const struct roots_report *r);

#endif
