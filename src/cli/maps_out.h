/*
 * What `maps` prints: per process its record and its VMAs (with --smaps
 * their measure, with --pages the pages in them), then the summary
 * (maps_out.c: the types, their text, and the records made of the
 * command's processes, VMAs and counts).
 */
#ifndef PGW_MAPS_OUT_H
#define PGW_MAPS_OUT_H

#include "output.h"

/* One process: its task and its VMAs (NULL when none could be read:
 * why says so). */
struct maps_proc {
	const struct pgw_task *task;
	const struct pgw_vmas *vmas;
	const char *why;
	const char *reason;          /* the contract's word for why the set
					is cut short (NULL: complete) */
	bool smaps;                  /* --smaps: each VMA measured */
};

struct maps_summary {
	size_t processes, vmas;      /* vmas: the records printed */
	size_t shown;
	size_t incomplete;           /* processes whose VMAs were cut short */
	bool complete;               /* every process's, and the task list */
	const char *reason;          /* !complete: a word */
	const char *why;             /* !complete: in words */
};

/* The contract's word for a set cut short by st. */
const char *maps_reason(enum pgw_status st);

#define MAPS_PROCESS_FIELDS(F, S)                                         \
	F(S, pid, U64, 0)                                                 \
	F(S, comm, BYTES, 0)                                              \
	F(S, mm, HEX, RF_DETAIL)                                          \
	F(S, vmas, OU64, RF_NULL | RF_DETAIL)                             \
	F(S, complete, BOOL, 0)                                           \
	F(S, reason, WORD, 0)                                             \
	F(S, why, TEXT, 0)
RECORD_STRUCT(maps_process_rec, MAPS_PROCESS_FIELDS);

/* --smaps: a VMA measured against the page tables. */
#define VMA_USAGE_FIELDS(F, S)                                            \
	F(S, kernel_page_size, OU64, RF_NULL | RF_DETAIL)                 \
	F(S, rss, U64, RF_DETAIL)                                         \
	F(S, present, U64, RF_DETAIL)                                     \
	F(S, protnone, U64, RF_DETAIL)                                    \
	F(S, swap, U64, RF_DETAIL)                                        \
	F(S, other_non_present, U64, RF_DETAIL)                           \
	F(S, empty, U64, RF_DETAIL)                                       \
	F(S, anon_huge, U64, RF_DETAIL)                                   \
	F(S, hugetlb, U64, RF_DETAIL)                                     \
	F(S, bytes_not_in_image, U64, RF_DETAIL)                          \
	F(S, table_not_in_image, U64, RF_DETAIL)                          \
	F(S, measured, BOOL, RF_DETAIL)
RECORD_STRUCT(vma_usage_rec, VMA_USAGE_FIELDS);

#define VMA_FIELDS(F, S)                                                  \
	F(S, pid, U64, 0)                                                 \
	F(S, comm, BYTES, 0)                                              \
	F(S, span, SPAN, 0)                                               \
	F(S, perms, WORD, 0)                                              \
	F(S, pgoff, U64, 0)                                               \
	F(S, dev, WORD, 0)                                                \
	F(S, inode, U64, 0)                                               \
	F(S, naming, WORD, 0)                                             \
	F(S, path, BYTES, RF_NULL)                                        \
	F(S, why, TEXT, 0)                                                \
	F(S, vm_flags, HEX, RF_DETAIL)                                    \
	F(S, vm_flag_names, KEYS, RF_COLUMN("vm_flags"))                  \
	F(S, vma, HEX, RF_DETAIL)                                         \
	F(S, file, OHEX, RF_NULL | RF_DETAIL)                             \
	F(S, usage, GROUP(vma_usage_rec), 0)                              \
	F(S, name, BYTES, RF_TEXT)
RECORD_STRUCT(vma_rec, VMA_FIELDS);

#define PAGE_FIELDS(F, S)                                                 \
	F(S, pid, U64, 0)                                                 \
	F(S, comm, BYTES, 0)                                              \
	F(S, span, SPAN, 0)                                               \
	F(S, state, WORD, RF_DETAIL)                                      \
	F(S, pa, OHEX, RF_NULL | RF_DETAIL)                               \
	F(S, page_size, OU64, RF_DETAIL)                                  \
	F(S, in_image, OBOOL, RF_DETAIL)                                  \
	F(S, special, OBOOL, RF_DETAIL)                                   \
	F(S, swap_type, OU64, RF_DETAIL)                                  \
	F(S, swap_offset, OHEX, RF_DETAIL)
RECORD_STRUCT(page_rec, PAGE_FIELDS);

#define MAPS_SUMMARY_FIELDS(F, S)                                         \
	F(S, processes, U64, RF_DETAIL)                                   \
	F(S, vmas, U64, RF_DETAIL)                                        \
	F(S, processes_incomplete, U64, RF_DETAIL)                        \
	F(S, complete, BOOL, 0)                                           \
	F(S, reason, WORD, 0)                                             \
	F(S, why, TEXT, 0)
RECORD_STRUCT(maps_summary_rec, MAPS_SUMMARY_FIELDS);

extern const struct rec_table maps_table;

/* The records of a process, a VMA (u: its measure, or NULL), a page and
 * the summary, out in o's format. */
void maps_say_process(struct out *o, const struct maps_proc *p);
void maps_say_vma(struct out *o, const struct maps_proc *p,
		  const struct pgw_vma *v, const struct pgw_vma_usage *u);
void maps_say_page(struct out *o, const struct maps_proc *p,
		   const struct pgw_vma_page *pg);
void maps_say_summary(struct out *o, const struct maps_summary *s);

#endif
