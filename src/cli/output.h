/*
 * Output: where records go and in which format.  Every command prints
 * records described by a schema (record.h) through out_table and
 * out_record; the format picks the writer.  What every format must say,
 * and how, is docs/output.md.
 */
#ifndef PGW_OUTPUT_H
#define PGW_OUTPUT_H

#include <stdio.h>

#include "emit.h"
#include "record.h"
#include "stencil.h"
#include "pgwalk.h"

struct out {
	FILE *f;
	const struct formatter *fmt;
	const struct pgw_mode *mode;       /* NULL in info without a mode */
	const struct pgw_layout *layout;   /* dump, regions */
	const struct pgw_space *space;     /* maps: the kernel's */
	bool levels;                       /* translate: the walk, level by
					      level (JSON, CSV/TSV: --levels;
					      text: also one ADDR alone) */
	bool phys;                         /* read --phys: addresses are
					      physical */
	struct hexdump *hex;               /* read, text: the line so far */
	struct rows *rows;                 /* translate's records and dump's
					      maps gathered (out_row);
					      NULL: each written alone */
	struct stencil *stencil;           /* fast_map marks its numbers
					      here (stencil.h); NULL */
	const struct rec_table *table;     /* the records' table (out_table) */
	const struct rec_type *last;       /* the last record's type: text
					      layouts head their columns */
	struct addr_names *names;          /* addresses named (--names,
					      addr_names.h); NULL: not */
};

struct addr_names;

/* Records gathered, a few KiB to a line (an fwrite per record cost as
 * much as the record), the lines filled in turn and, once all are full,
 * written together straight from them (writev), not copied through
 * stdio's buffer: fwrite of the same lines costs a batch of a million
 * compact records 5-7 % more CPU (re-measured, 31 interleaved rounds:
 * tsv 38.5 -> 41.3 ms, json 44.4 -> 46.8; bench/HISTORY.md). */
enum { ROWS_LINES = 16 };
struct rows_sink;
struct rows {
	struct line *at;                   /* the line being filled (at
					      first line[0]: ROWS_INIT) */
	struct line *line, *end;           /* the lines filled in turn: own,
					      or a sink's */
	size_t fill;                       /* a line this full is done: half
					      of it (ROWS_INIT), or, for a
					      sink's lines of compact records
					      only, more */
	struct rows_sink *sink;            /* NULL: full lines are written
					      to o->f; else kept in it, in
					      order (translate's batch on
					      threads: rows_sink.h) */
	struct line own[ROWS_LINES];
};

#define ROWS_INIT(r) { .at = (r).own, .line = (r).own, \
		       .end = (r).own + ROWS_LINES, \
		       .fill = sizeof((r).own[0].buf) / 2 }

/* Every line gathered out to o->f, after what stdio holds; with a sink,
 * the sink's next lines taken instead (rows.c). */
void out_rows_ship(struct out *o);

/* Whatever bypasses o->rows on its way to o->f flushes it first: a
 * little (a record, as most often) through stdio, more shipped.  A sink's
 * rows are o->f's bytes too (rows_sink.h): they stay. */
static inline void out_rows_flush(struct out *o)
{
	struct rows *r = o->rows;

	if (!r || r->sink)
		return;
	if (r->at != r->line)
		out_rows_ship(o);
	else if (r->line[0].len)
		emit_spill(&r->line[0], o->f);
}

/* The line to build the next record at the end of: a record must fit in
 * what r->fill leaves (half a line; 1 KiB in a sink's lines, which get
 * compact records only): a compact one is 100-300 bytes, a JSON --levels
 * one under 2 KiB; longer ones flush and use a line of their own. */
static inline struct line *out_row(struct out *o)
{
	struct rows *r = o->rows;
	struct line *l = r->at;

	if (l->len > r->fill) {
		if (l + 1 == r->end) {
			out_rows_ship(o);
			return r->at;
		}
		r->at = ++l;
	}
	return l;
}

/* Totals at the end of a dump.  Maps are the ones printed (filters
 * apply); holes are counted whether printed or not. */
struct dump_summary {
	uint64_t maps, mapped;
	uint64_t level_bytes[PGW_NLEVELS];   /* mapped bytes by page level */
	uint64_t holes, hole_bytes;
	uint64_t nonpresent;                 /* hole runs of meaningful
						non-present entries */
	uint64_t wx, wx_bytes;               /* writable and executable */
	uint64_t unknown_perm_bytes;         /* under cycles: not walked, so
						what the CPU grants there is
						not known */
	uint64_t not_in_image;               /* mapped bytes whose data the
						image lacks */
	uint64_t tables_missing;             /* holes whose table is not in
						the image */
	struct pgw_walk_stats stats;
	bool complete;                       /* false: see reason */
	const char *reason;                  /* NULL, "budget" or
						"table-not-in-image" */
	bool no_nx;                          /* the mode has no NX bit */
};

/* How much of a region the page tables map. */
struct region_usage {
	uint64_t mapped;
	uint64_t leaves;                     /* leaves starting in it */
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
	const char *method;                  /* with tasks: how they were
						named (pgw_tasks_method_key) */
	const char *method_why;              /* ... in words */
	size_t kinds[PGW_NROOT_KINDS];       /* roots of each kind */
	size_t named;                        /* roots a task owns */
	size_t processes;                    /* tasks with an mm */
	bool complete;                       /* no budget cut the answer
						short (the scan's, the task
						list's bound), and the
						image's VMCOREINFO notes
						agree; false: see reason */
	const char *reason;                  /* !complete: "budget" or
						"vmcoreinfo-conflict" */
	const char *why;                     /* !complete: which budget
						stopped what, or which key
						the notes disagree on */
};

/* What check says at its end (cmd_check.c fills it in). */
struct check_summary {
	enum pgw_severity threshold;         /* --severity: findings below it
						are neither printed nor
						counted */
	size_t roots;                        /* roots walked */
	size_t findings;
	size_t by_severity[PGW_NSEVERITIES];
	size_t by_rule[PGW_NRULES];
	bool have_kernel_wx;                 /* the kernel root was walked */
	uint64_t kernel_wx_pages;
	const char *text_why;                /* text-writable-alias could
						not run: why (NULL: it ran) */
	const char *names_why;               /* --all-roots: the cross-view
						could not run: why */
	const char *vmas_why;                /* a process root's VMA rules
						could not run: why */
	uint64_t tables_not_in_image;
	bool complete;
	const char *reason;                  /* !complete: "budget",
						"table-not-in-image" */
};

/* An output format: a name and how it spells records (record.h): text
 * by each type's own layout, JSON by record_json.c, CSV and TSV by
 * record_delim.c with their cells' spelling. */
enum out_kind { OUT_TEXT, OUT_JSON, OUT_DELIM };
struct delim {
	char sep;
	const char *empty;      /* an empty cell */
};
struct formatter {
	const char *name;
	enum out_kind kind;
	struct delim delim;     /* OUT_DELIM */
};

/* All formatters, NULL-terminated (formatters.c lists them). */
const struct formatter *const *formatters(void);
/* NULL for an unknown name. */
const struct formatter *formatter_by_name(const char *name);

/* Shared wording, so every format says the same thing. */
const char *out_level_name(const struct pgw_mode *mode, enum pgw_level lvl);
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

/*
 * VMCOREINFO as info shows it: the values worth parsing, each with how
 * (a string, a hex number, an address, a decimal number, "y" as a bool).
 */
enum vmci_kind { VMCI_STR, VMCI_HEX, VMCI_ADDR, VMCI_DEC, VMCI_BOOL };
struct vmci_field {
	const char *name;      /* the JSON key: "phys_base" */
	const char *key;       /* VMCOREINFO's: "NUMBER(phys_base)" */
	enum vmci_kind kind;
};
extern const struct vmci_field out_vmci_fields[];
extern const size_t out_nvmci_fields;

#endif
