/*
 * ps's records (ps_out.h) and their text: a table, one row per task (">"
 * before one running on its CPU, as crash marks it: by the CPUs' saved
 * registers where the image has them), then a summary line.  A field the
 * layout does not have is "-".
 */
#include <stdio.h>
#include <string.h>

#include "output.h"
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

static void text_head(struct out *o, const void *ctx)
{
	struct line l;

	(void)ctx;
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

/* A pid as the kernel's pid_t. */
static const char *pid_cell(char *buf, size_t n, uint64_t v)
{
	snprintf(buf, n, "%d", (int)(int32_t)(uint32_t)v);
	return buf;
}

static void text_task(struct out *o, const void *rec)
{
	const struct task_rec *t = rec;
	char buf[32];
	struct line l;

	l.len = 0;
	emit_str(&l, t->marked ? "> " : "  ");
	cell(&l, pid_cell(buf, sizeof(buf), t->pid), W_PID, true);
	cell(&l, pid_cell(buf, sizeof(buf), t->tgid), W_PID, true);
	cell(&l, t->ppid.has ? pid_cell(buf, sizeof(buf), t->ppid.v) : "-",
	     W_PID, true);
	cell(&l, t->state ? t->state : "-", W_ST, false);
	/* The CPU the registers show it on, else the one it says. */
	const struct rec_opt *cpu = t->current_cpu.has ? &t->current_cpu :
							  &t->cpu;
	if (cpu->has)
		snprintf(buf, sizeof(buf), "%u", (unsigned)cpu->v);
	cell(&l, cpu->has ? buf : "-", W_CPU, true);
	if (t->start_time.has)
		snprintf(buf, sizeof(buf), "%llu.%06llu",
			 (unsigned long long)(t->start_time.v / 1000000000),
			 (unsigned long long)(t->start_time.v % 1000000000 /
					      1000));
	cell(&l, t->start_time.has ? buf : "-", W_START, true);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)t->task);
	cell(&l, buf, W_TASK, false);
	if (t->root.has)
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)t->root.v);
	cell(&l, t->root.has ? buf : t->mm.has ? "?" : "-", W_ROOT, false);
	emit_bytes(&l, o->f, t->comm.s, t->comm.n, emit_text_char);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct ps_summary_rec *r = rec;
	struct line l;
	char buf[200];

	l.len = 0;
	if (r->method) {
		snprintf(buf, sizeof(buf), "# %llu tasks: %llu processes, "
			 "%llu other threads, %llu kernel threads; read by %s; "
			 "%s\n", (unsigned long long)r->tasks,
			 (unsigned long long)r->processes,
			 (unsigned long long)(r->tasks - r->processes -
					      r->kernel_threads),
			 (unsigned long long)r->kernel_threads, r->method,
			 r->threads ? "every thread" : "thread-group leaders "
			 "only (the layout has no thread links)");
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

RECORD_TYPE(task_rec, "task", TASK_FIELDS, text_task);
RECORD_TYPE(ps_summary_rec, "summary", PS_SUMMARY_FIELDS, text_summary);

static const struct rec_type *const ps_types[] = {
	&task_rec_type, &ps_summary_rec_type, NULL,
};

const struct rec_table ps_table = {
	"type,pid,tgid,ppid,comm,state,cpu,running,current_cpu,current_by,"
	"kthread,task,mm,root,start_time,complete,why,detail",
	ps_types, text_head,
};
