/*
 * ps as CSV and TSV (docs/output.md): one header row, then a row per
 * JSON record (task, summary) in the columns
 *   type, pid, tgid, ppid, comm, state, cpu, running, kthread, task, mm,
 *   root, start_time, complete, why, detail
 * with the summary's counts and method as key=value words in detail.
 */
#include "delim_cells.h"
#include "ps_out.h"

#include <stdio.h>

void delim_ps_begin(struct out *o, const struct delim *d,
		    const struct ps_report *r)
{
	(void)r;
	header(o, d, "type,pid,tgid,ppid,comm,state,cpu,running,kthread,task,"
		     "mm,root,start_time,complete,why,detail");
}

void delim_ps_task(struct out *o, const struct delim *d,
		   const struct ps_report *r, size_t i)
{
	const struct pgw_task *t = &r->tasks[i];
	const char *st = pgw_task_state_key(t);
	struct line l;

	l.len = 0;
	word(&l, d, "task");
	num(&l, d, (uint32_t)t->pid);
	num(&l, d, (uint32_t)t->tgid);
	if (t->ppid >= 0)
		num(&l, d, (uint32_t)t->ppid);
	else
		empty(&l, d, 1);
	bytes_cell(&l, d, (const char *)t->comm, t->comm_len);
	word(&l, d, st ? st : "");
	if (t->has_cpu)
		num(&l, d, t->cpu);
	else
		empty(&l, d, 1);
	word(&l, d, !t->has_on_cpu ? "" : t->on_cpu ? "true" : "false");
	word(&l, d, t->kthread ? "true" : "false");
	hex(&l, d, t->task);
	if (t->mm)
		hex(&l, d, t->mm);
	else
		empty(&l, d, 1);
	if (t->has_pgd_pa)
		hex(&l, d, t->pgd_pa);
	else
		empty(&l, d, 1);
	if (t->has_start_time)
		num(&l, d, t->start_time);
	else
		empty(&l, d, 1);
	empty(&l, d, 1);
	text(&l, d, t->mm && !t->has_pgd_pa ? t->why : "");
	empty(&l, d, 1);
	row_end(o, &l);
}

void delim_ps_end(struct out *o, const struct delim *d,
		  const struct ps_report *r)
{
	char detail[200];
	struct line l;

	l.len = 0;
	word(&l, d, "summary");
	empty(&l, d, 12);
	word(&l, d, r->complete ? "true" : "false");
	text(&l, d, r->complete ? "" : r->why);
	snprintf(detail, sizeof(detail), "tasks=%zu processes=%zu "
		 "kernel_threads=%zu%s%s", r->ntasks, r->processes,
		 r->ntasks - r->processes, r->method ? " method=" : "",
		 r->method ? r->method : "");
	word(&l, d, detail);
	row_end(o, &l);
}
