/*
 * One run of pgwalk check, shared by cmd_check.c (the options, one root,
 * the summary) and check_all.c (--all-roots: every root, on threads).
 */
#ifndef PGW_CHECK_RUN_H
#define PGW_CHECK_RUN_H

#include "check_out.h"
#include "session.h"

struct check_args {
	struct image_args in;
	bool all_roots;
	unsigned rules;              /* bit per enum pgw_rule; 0: all */
	enum pgw_severity threshold;
};

struct check_run {
	struct out *out;
	const struct check_args *args;
	struct check_summary sum;
	struct pgw_check *ck;
	const struct pgw_space *kernel;
	struct pgw_linux_mm *lm;     /* the VMA reader, opened at the first
					process root */
	struct addr_names *names;    /* the findings' names (NULL: none) */
	bool lm_tried;
	char vmas_why[300];
	/* One entry budget for the whole command (--max-entries, else the
	 * image's default): the roots scan's walks and every root's walk
	 * draw on it, so a thousand roots sharing one huge user half cost
	 * one budget, not a thousand. */
	uint64_t entries_left;
	uint64_t entries;            /* examined by the roots' walks */
	uint64_t scan_entries;       /* and by the roots scan's */
	size_t unwalked;             /* roots the budget left unwalked */
	enum pgw_status walk_st;     /* the worst walk: PGW_E_LIMIT */
	int names_exit;              /* the task list could not be read: 65
					damaged, 69 unsupported (0: read,
					absent, or cut short) */
};

/* Say a finding that passes --rule and --severity; non-zero: output
 * failed. */
int check_on_finding(void *arg, const struct pgw_finding *f);
/* The VMA reader, opened once, at the first process root. */
void check_vma_reader(struct check_run *c);
/* What a root's walk came to (rc, its stats), in the run's counts;
 * 0 or an exit status (message printed). */
int check_walked(struct check_run *c, const struct session *s,
		 const struct pgw_space *space,
		 const struct pgw_check_root_opts *ro, enum pgw_status rc,
		 const struct pgw_check_stats *st, const struct pgw_err *err);
/* One root's walk within the budget left; 0 or an exit status. */
int check_one(struct check_run *c, const struct session *s,
	      const struct pgw_space *space,
	      const struct pgw_check_root_opts *ro);
/* The VMA rules of a process root; 0 or an exit status. */
int check_vmas(struct check_run *c, const struct session *s,
	       const struct pgw_space *user, const struct pgw_task *owner);
/* The options of a PTI user copy's walk, from its kernel copy's. */
struct pgw_check_root_opts
check_pti_opts(const struct pgw_check_root_opts *like);
/* A PTI user copy's kernel half; 0 or an exit status. */
int check_pti_user(struct check_run *c, const struct session *s,
		   uint64_t user_copy, const struct pgw_check_root_opts *like);
/* The summary of every root checked (cut, unread: the task list cut
 * short or unread).  Returns -1: written. */
int check_summary_out(struct check_run *c, const struct session *s,
		      bool cut, bool unread);

/* --all-roots (check_all.c): the roots scan's, or (a mode with two
 * roots) the task list's; 0, -1 (summary written) or an exit status. */
int check_all(struct check_run *c, const struct session *s);
int check_tasks(struct check_run *c, const struct session *s);

#endif
