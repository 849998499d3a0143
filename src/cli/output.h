/*
 * Output formatters.  Each is one file defining one `struct formatter`;
 * commands pick one by name and call only these hooks, so adding a format
 * touches nothing else.  A hook a formatter leaves NULL prints nothing.
 */
#ifndef PGW_OUTPUT_H
#define PGW_OUTPUT_H

#include <stdio.h>

#include "pgwalk.h"

struct out {
	FILE *f;
	const struct formatter *fmt;
	const struct pgw_mode *mode;       /* NULL in info without a mode */
	const struct pgw_layout *layout;   /* dump, regions */
};

/* What a dump or region listing walked, for headers. */
struct walk_head {
	const char *mode_why;
	uint64_t root;
	const char *root_why;
	const struct pgw_layout *layout;
};

/* Totals at the end of a dump.  Maps are the ones printed (filters
 * apply); holes are counted whether printed or not. */
struct dump_summary {
	uint64_t maps, mapped;
	uint64_t level_bytes[PGW_NLEVELS];   /* mapped bytes by page level */
	uint64_t holes, hole_bytes;
	uint64_t nonpresent;                 /* hole runs of meaningful
						non-present entries */
	uint64_t wx, wx_bytes;               /* writable and executable */
	struct pgw_walk_stats stats;
	bool complete;                       /* false: a limit cut the walk */
};

/* How much of a region the page tables map. */
struct region_usage {
	uint64_t mapped;
	uint64_t leaves;                     /* leaves starting in it */
};

/* What info shows: the image, and how pgwalk would walk it. */
struct info_view {
	struct pgw_image *img;
	const struct pgw_space_why *why;   /* why->mode.mode NULL: no mode */
	bool have_root;                    /* false: no root (why->root unset) */
	uint64_t root;
	const struct pgw_pti *pti;         /* one per CPU; NULL without a mode */
	const char *const *vmcoreinfo;     /* keys worth showing, NULL-ended */
};

/* What `roots` prints: the roots the scan found, the task list and
 * their cross-view (cmd_roots.c fills it in). */
struct roots_report {
	struct pgw_image *img;
	const struct pgw_roots *roots;
	const struct pgw_task *tasks;        /* NULL: no task list */
	size_t ntasks;
	const struct pgw_roots_view *view;   /* NULL: no task list */
	const char *names_why;               /* no list, or one cut short: why
						(NULL: the whole list) */
	size_t kinds[PGW_NROOT_KINDS];       /* roots of each kind */
	size_t named;                        /* roots a task owns */
	size_t processes;                    /* tasks with an mm */
	bool complete;                       /* nothing cut the answer short */
	const char *why;                     /* !complete: what did */
};

struct delim;

struct formatter {
	const char *name;
	/* CSV and TSV: their separator and empty cell (delimited.h). */
	const struct delim *delim;
	/* info: one record describing the image */
	void (*info)(struct out *o, const struct info_view *v);
	/* translate */
	void (*xlat_begin)(struct out *o);
	void (*xlat)(struct out *o, const struct pgw_xlat *x);
	/* An input line that is not an address (stdin batches go on). */
	void (*bad_addr)(struct out *o, const char *text);
	/* dump: begin, then runs in address order with a region record
	 * before the first run printed in each region, then the summary. */
	void (*dump_begin)(struct out *o, const struct walk_head *h);
	void (*dump_region)(struct out *o, const struct pgw_region *r);
	void (*dump_map)(struct out *o, const struct pgw_run *run);
	void (*dump_hole)(struct out *o, const struct pgw_run *run);
	void (*dump_summary)(struct out *o, const struct dump_summary *s);
	void (*dump_end)(struct out *o);
	/* regions: the layout and its bases, then one row per region */
	void (*regions_begin)(struct out *o, const struct walk_head *h);
	void (*regions_row)(struct out *o, const struct pgw_region *r,
			    const struct region_usage *u);
	void (*regions_end)(struct out *o);
	/* roots: one record per root, then the cross-view (roots no task
	 * owns, tasks whose root the scan did not find), then the end (how
	 * the roots were named, the summary) */
	void (*roots_begin)(struct out *o, const struct roots_report *r);
	void (*roots_root)(struct out *o, const struct roots_report *r,
			   size_t i);
	void (*roots_orphan)(struct out *o, const struct roots_report *r,
			     size_t i);
	void (*roots_unowned)(struct out *o, const struct roots_report *r,
			      size_t task, const char *why);
	void (*roots_end)(struct out *o, const struct roots_report *r);
};

/* All formatters, NULL-terminated (formatters.c lists them). */
const struct formatter *const *formatters(void);
/* NULL for an unknown name. */
const struct formatter *formatter_by_name(const char *name);

/* Shared wording, so every format says the same thing. */
const char *out_level_name(const struct pgw_mode *mode, enum pgw_level lvl);
/* A stop in translate's error texts, and in dump's text holes. */
const char *out_xlat_error(enum pgw_stop stop);
const char *out_hole_text(enum pgw_stop stop);
/* Region key of a run ("unused" without a layout). */
const char *out_region_key(const struct out *o, const struct pgw_run *run);
/* A line of text: prefix, s escaped for a terminal (it may hold strings
 * from the image: OSRELEASE, VMCOREINFO values), suffix. */
void out_text_line(FILE *f, const char *prefix, const char *s,
		   const char *suffix);
/* "kernel"/"user" from a CPU's code-segment privilege, "unknown". */
const char *out_cpu_ring(const struct pgw_cpu *c);
/* Hex digits for VAs and PAs of this mode (16/8, 13/10). */
int out_va_digits(const struct pgw_mode *mode);
int out_pa_digits(const struct pgw_mode *mode);

#endif
