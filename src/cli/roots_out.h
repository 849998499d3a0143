/*
 * The roots command's records in each output format (fmt_*_roots.c),
 * hooked into the formatters of fmt_*.c.
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

void text_roots_begin(struct out *o, const struct roots_report *r);
void text_roots_root(struct out *o, const struct roots_report *r, size_t i);
void text_roots_orphan(struct out *o, const struct roots_report *r,
		       size_t i);
void text_roots_unowned(struct out *o, const struct roots_report *r,
			size_t task, const char *why);
void text_roots_end(struct out *o, const struct roots_report *r);

void json_roots_root(struct out *o, const struct roots_report *r, size_t i);
void json_roots_orphan(struct out *o, const struct roots_report *r,
		       size_t i);
void json_roots_unowned(struct out *o, const struct roots_report *r,
			size_t task, const char *why);
void json_roots_end(struct out *o, const struct roots_report *r);

/* CSV and TSV: delimited.h (delim_roots_*). */

#endif
