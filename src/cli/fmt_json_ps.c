/*
 * ps as JSON Lines (docs/output.md): a "task" record per task, then a
 * "summary" with how the list was read.  A field the layout does not
 * have is null.
 */
#include "json_kv.h"
#include "ps_out.h"

void json_ps_task(struct out *o, const struct ps_report *r, size_t i)
{
	const struct pgw_task *t = &r->tasks[i];
	const char *st = pgw_task_state_key(t);
	struct line l;

	(void)o;
	l.len = 0;
	emit_str(&l, "{\"type\":\"task\"");
	kv_u64(&l, "pid", (uint32_t)t->pid);
	kv_u64(&l, "tgid", (uint32_t)t->tgid);
	if (t->ppid >= 0)
		kv_u64(&l, "ppid", (uint32_t)t->ppid);
	else
		kv_null(&l, "ppid");
	emit_str(&l, ",\"comm\":\"");
	emit_bytes(&l, o->f, (const char *)t->comm, t->comm_len,
		   emit_json_char);
	emit_char(&l, '"');
	if (st) {
		kv_str(&l, "state", st);
		kv_u64(&l, "state_value", t->state);
	} else {
		kv_null(&l, "state");
		kv_null(&l, "state_value");
	}
	if (t->has_cpu)
		kv_u64(&l, "cpu", t->cpu);
	else
		kv_null(&l, "cpu");
	if (t->has_on_cpu)
		kv_bool(&l, "running", t->on_cpu);
	else
		kv_null(&l, "running");
	kv_bool(&l, "kthread", t->kthread);
	kv_hex(&l, "task", t->task);
	if (t->mm)
		kv_hex(&l, "mm", t->mm);
	else
		kv_null(&l, "mm");
	if (t->has_pgd_pa)
		kv_hex(&l, "root", t->pgd_pa);
	else
		kv_null(&l, "root");
	if (t->has_start_time)
		kv_u64(&l, "start_time", t->start_time);
	else
		kv_null(&l, "start_time");
	if (t->mm && !t->has_pgd_pa)
		kv_str(&l, "why", t->why);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

void json_ps_end(struct out *o, const struct ps_report *r)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"summary\"");
	kv_u64(&l, "tasks", r->ntasks);
	kv_u64(&l, "processes", r->processes);
	kv_u64(&l, "kernel_threads", r->ntasks - r->processes);
	if (r->method) {
		kv_str(&l, "method", r->method);
		kv_long(o, &l, false, "method_why", r->method_why);
	} else {
		kv_null(&l, "method");
	}
	kv_bool(&l, "threads", false);
	kv_bool(&l, "complete", r->complete);
	if (!r->complete)
		kv_long(o, &l, false, "why", r->why);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}
