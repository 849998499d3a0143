/*
 * The maps command's records in each output format (fmt_*_maps.c),
 * hooked into the formatters of fmt_*.c and delimited.h.
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

void text_maps_process(struct out *o, const struct maps_proc *p);
void text_maps_vma(struct out *o, const struct maps_proc *p,
		   const struct pgw_vma *v, const struct pgw_vma_usage *u);
void text_maps_page(struct out *o, const struct maps_proc *p,
		    const struct pgw_vma_page *pg);
void text_maps_end(struct out *o, const struct maps_summary *s);

void json_maps_process(struct out *o, const struct maps_proc *p);
void json_maps_vma(struct out *o, const struct maps_proc *p,
		   const struct pgw_vma *v, const struct pgw_vma_usage *u);
void json_maps_page(struct out *o, const struct maps_proc *p,
		    const struct pgw_vma_page *pg);
void json_maps_end(struct out *o, const struct maps_summary *s);

/* CSV and TSV: delimited.h (delim_maps_*). */

#endif
