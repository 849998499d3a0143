/*
 * What `ps` prints (cmd_ps.c fills it in; fmt_*_ps.c write it): the
 * kernel's task list, each task's root, and how the list was read.
 */
#ifndef PGW_PS_OUT_H
#define PGW_PS_OUT_H

#include "output.h"

struct ps_report {
	const struct pgw_task *tasks;
	size_t ntasks;
	size_t processes;            /* tasks with an mm */
	const char *method;          /* pgw_tasks_method_key */
	const char *method_why;
	bool complete;               /* the whole list was read */
	const char *why;             /* !complete: why not */
};

void text_ps_begin(struct out *o, const struct ps_report *r);
void text_ps_task(struct out *o, const struct ps_report *r, size_t i);
void text_ps_end(struct out *o, const struct ps_report *r);
void json_ps_task(struct out *o, const struct ps_report *r, size_t i);
void json_ps_end(struct out *o, const struct ps_report *r);

#endif
