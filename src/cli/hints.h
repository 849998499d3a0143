/*
 * Errors and hints that point the way (issue 12 §3): when an answer is
 * "no", say what the user most likely meant.  Every hint is one line on
 * stderr starting "pgwalk: "; none changes stdout or the exit status.
 */
#ifndef PGW_HINTS_H
#define PGW_HINTS_H

#include "session.h"

/* --cr3 given a kernel virtual address (crash's `vm` prints pgd so):
 * says so, with its physical address when the kernel's tables translate
 * it, and returns true (the caller fails with a usage error). */
bool hint_cr3_virtual(struct session *s);

/* The space could not be opened: when a better message than err's
 * applies (--cpu on an image whose CPU notes carry no CR3, --cr3 that is
 * a kernel virtual address), print it and return true. */
bool hint_root_failed(struct session *s, const struct pgw_err *err);

/* An address that did not translate (stop: why): the memory-map region
 * it lies in and this kernel's direct-map base (kernel half); a user
 * address asked of the kernel's root: the processes that map it (the
 * task list, else the roots a scan finds) and the CPUs caught in user
 * mode. */
void hint_translate(struct session *s, uint64_t va, enum pgw_stop stop);
/* What the hints read from the image (task list, roots, layout), freed. */
void hints_free(void);

#endif
