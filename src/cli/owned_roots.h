/*
 * Every root the roots scan finds, each with its owner from the task list
 * where the image has one, and the stretches of it a command that looks
 * at every root walks (ptov --all-roots, search --all-roots): the kernel
 * root whole; every other root's user half, through its PTI user copy
 * (the permissions user mode runs with), and its kernel half too when
 * that differs from the kernel root's.
 */
#ifndef PGW_OWNED_ROOTS_H
#define PGW_OWNED_ROOTS_H

#include "session.h"

/* A root and who owns it. */
struct owner {
	uint64_t root;
	const char *kind;        /* the root's kind; NULL: not scanned */
	int32_t pid;
	const uint8_t *comm;     /* NULL: unnamed */
	size_t comm_len;
};

struct owned_roots {
	struct pgw_roots *roots;
	struct pgw_task *tasks;
	size_t ntasks;
	struct pgw_roots_view *view;
	enum pgw_status names;   /* the task list's status */
	struct pgw_err names_err;
	struct owner *owners;    /* one per root, in the roots' order */
	size_t nowners;
};

/* One stretch of a root to walk: [start, end) (end 0: the top) from the
 * top table `table` (in a mode with two roots, `upper` is the upper
 * half's: the kernel's table is that one). */
struct root_walk {
	uint64_t table, upper, start, end;
};

/* Scan the roots of s's image (s's root is the kernel's, its encryption
 * bits theirs) within max_entries, and name them. */
enum pgw_status owned_roots_open(struct session *s, uint64_t max_entries,
				 struct owned_roots *o, struct pgw_err *err);
/* The stretches of root i to walk: 1 or 2 in w. */
size_t owned_root_walks(const struct owned_roots *o,
			const struct pgw_mode *mode, size_t i,
			struct root_walk w[2]);
/* The exit status the names call for, as roots says it: a task list cut
 * short by a page the image lacks 2, a damaged one its status (0 when
 * there is no list at all or the whole list was read); the scan cut by
 * its budget 4. */
int owned_roots_status(const struct owned_roots *o);
/* Say on stderr why roots are unnamed, or named in part. */
void owned_roots_say(const struct owned_roots *o, const char *path);
void owned_roots_free(struct owned_roots *o);

#endif
