/*
 * ps as text: a table, one row per task (">" before one running on its
 * CPU, as crash marks it), then a summary line.  A field the layout does
 * not have is "-".
 */
#include <stdio.h>
#include <string.h>

#include "emit.h"
#include "ps_out.h"

/* Column widths: PID, TGID, PPID, ST, CPU, START, TASK, ROOT; each
 * cell followed by a space, COMM ends the row. */
enum { W_PID = 7, W_ST = 2, W_CPU = 3, W_START = 14, W_TASK = 18,
       W_ROOT = 11 };

static void cell(struct line *l, const char *s, size_t width, bool right)
{
	size_t n = strlen(s);

	for (size_t i = n; right && i < width; i++)
		emit_char(l, ' ');
	emit_str(l, s);
	for (size_t i = n; !right && i < width; i++)
		emit_char(l, ' ');
	emit_char(l, ' ');
}

void text_ps_begin(struct out *o, const struct ps_report *r)
{
	struct line l;

	(void)r;
	l.len = 0;
	emit_str(&l, "  ");
	cell(&l, "PID", W_PID, true);
	cell(&l, "TGID", W_PID, true);
	cell(&l, "PPID", W_PID, true);
	cell(&l, "ST", W_ST, false);
	cell(&l, "CPU", W_CPU, true);
	cell(&l, "START", W_START, true);
	cell(&l, "TASK", W_TASK, false);
	cell(&l, "ROOT", W_ROOT, false);
	emit_str(&l, "COMM\n");
	emit_spill(&l, o->f);
}

void text_ps_task(struct out *o, const struct ps_report *r, size_t i)
{
	const struct pgw_task *t = &r->tasks[i];
	const char *st = pgw_task_state_key(t);
	char buf[32];
	struct line l;

	l.len = 0;
	emit_str(&l, t->has_on_cpu && t->on_cpu ? "> " : "  ");
	snprintf(buf, sizeof(buf), "%d", t->pid);
	cell(&l, buf, W_PID, true);
	snprintf(buf, sizeof(buf), "%d", t->tgid);
	cell(&l, buf, W_PID, true);
	if (t->ppid >= 0)
		snprintf(buf, sizeof(buf), "%d", t->ppid);
	cell(&l, t->ppid >= 0 ? buf : "-", W_PID, true);
	cell(&l, st ? st : "-", W_ST, false);
	if (t->has_cpu)
		snprintf(buf, sizeof(buf), "%u", t->cpu);
	cell(&l, t->has_cpu ? buf : "-", W_CPU, true);
	if (t->has_start_time)
		snprintf(buf, sizeof(buf), "%llu.%06llu",
			 (unsigned long long)(t->start_time / 1000000000),
			 (unsigned long long)(t->start_time % 1000000000 /
					      1000));
	cell(&l, t->has_start_time ? buf : "-", W_START, true);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)t->task);
	cell(&l, buf, W_TASK, false);
	if (t->has_pgd_pa)
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)t->pgd_pa);
	cell(&l, t->has_pgd_pa ? buf : t->mm ? "?" : "-", W_ROOT, false);
	emit_bytes(&l, o->f, (const char *)t->comm, t->comm_len,
		   emit_text_char);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void text_ps_end(struct out *o, const struct ps_report *r)
{
	struct line l;
	char buf[200];

	l.len = 0;
	if (r->method) {
		snprintf(buf, sizeof(buf), "# %zu tasks: %zu with an mm, %zu "
			 "without (kernel threads); read by %s; thread-group "
			 "leaders only\n", r->ntasks, r->processes,
			 r->ntasks - r->processes, r->method);
		emit_str(&l, buf);
	} else {
		emit_str(&l, "# 0 tasks: no task list\n");
	}
	if (!r->complete) {
		emit_str(&l, "# INCOMPLETE: ");
		emit_long(&l, o->f, r->why, emit_text_strn);
		emit_char(&l, '\n');
	}
	emit_spill(&l, o->f);
}
