/*
 * roots as JSON Lines: a "root" record per root, "orphan" and
 * "unowned-task" records for the cross-view, then "names" (how the roots
 * were named) and "summary".  Field names are docs/output.md's: `why` is
 * free text, `reason` a word of the contract's vocabulary.
 */
#include "json_kv.h"
#include "roots_out.h"

static void owners(struct out *o, struct line *l,
		   const struct roots_report *r, size_t i)
{
	const size_t *end, *own = roots_owners(r, i, &end);

	if (own && own < end) {
		kv_task(o, l, &r->tasks[*own]);
	} else {
		emit_str(l, ",\"pid\":null,\"comm\":null");
	}
	emit_str(l, ",\"pids\":");
	if (!own) {
		emit_str(l, "null");
		return;
	}
	emit_char(l, '[');
	for (const size_t *p = own; p < end; p++) {
		/* Every thread of a process shares its mm: a long list. */
		if (l->len > sizeof(l->buf) - 32)
			emit_spill(l, o->f);
		if (p > own)
			emit_char(l, ',');
		emit_u64(l, (uint64_t)(uint32_t)r->tasks[*p].pid);
	}
	emit_char(l, ']');
}

static void diffs(struct line *l, const struct roots_report *r,
		  const struct pgw_root_found *f)
{
	emit_str(l, ",\"kernel_diffs\":[");
	for (unsigned d = 0; d < f->ndiffs_listed; d++) {
		const struct pgw_root_diff *df = &r->roots->diffs[f->diff + d];
		emit_str(l, d ? ",{\"level\":\"" : "{\"level\":\"");
		emit_str(l, r->roots->mode->level[df->level].name);
		emit_char(l, '"');
		kv_u64(l, "index", df->index);
		kv_hex(l, "entry_pa", df->entry_pa);
		kv_hex(l, "entry", df->raw);
		kv_hex(l, "kernel_entry", df->kernel_raw);
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

void json_roots_root(struct out *o, const struct roots_report *r, size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	struct line l;
	bool first = true;

	l.len = 0;
	emit_str(&l, "{\"type\":\"root\"");
	kv_hex(&l, "root", f->table);
	kv_str(&l, "kind", pgw_root_kind_key(f->kind));
	kv_str(&l, "why", f->why);
	owners(o, &l, r, i);
	emit_str(&l, ",\"cpus\":[");
	for (size_t c = 0; c < r->roots->ncpus; c++) {
		if (!roots_cpu_on(r, c, i))
			continue;
		if (!first)
			emit_char(&l, ',');
		emit_u64(&l, c);
		first = false;
	}
	emit_char(&l, ']');
	if (f->pti_user)
		kv_hex(&l, "pti_user", f->pti_user);
	else
		kv_null(&l, "pti_user");
	kv_u64(&l, "user_bytes", f->user_bytes);
	kv_u64(&l, "user_leaves", f->user_leaves);
	kv_u64(&l, "user_access_leaves", f->user_access_leaves);
	kv_u64(&l, "user_tables", f->user_tables);
	kv_u64(&l, "kernel_entries", f->kernel_entries);
	kv_u64(&l, "kernel_same", f->kernel_same);
	kv_u64(&l, "kernel_mismatches", f->ndiffs);
	diffs(&l, r, f);
	emit_str(&l, ",\"orphan\":");
	emit_str(&l, !r->view ? "null" :
		     pgw_roots_view_orphan(r->view, i) ? "true" : "false");
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

void json_roots_orphan(struct out *o, const struct roots_report *r,
		       size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	bool suspicious;
	const char *why = pgw_orphan_reason(f->kind, &suspicious);
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"orphan\"");
	kv_hex(&l, "root", f->table);
	kv_str(&l, "kind", pgw_root_kind_key(f->kind));
	emit_str(&l, suspicious ? ",\"suspicious\":true" :
				  ",\"suspicious\":false");
	kv_str(&l, "why", why);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

void json_roots_unowned(struct out *o, const struct roots_report *r,
			size_t task, const char *why)
{
	const struct pgw_task *t = &r->tasks[task];
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"unowned-task\"");
	kv_task(o, &l, t);
	kv_hex(&l, "task", t->task);
	kv_hex(&l, "mm", t->mm);
	if (t->pgd)
		kv_hex(&l, "pgd", t->pgd);
	else
		kv_null(&l, "pgd");
	if (t->has_pgd_pa)
		kv_hex(&l, "root", t->pgd_pa);
	else
		kv_null(&l, "root");
	kv_str(&l, "why", why);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

void json_roots_end(struct out *o, const struct roots_report *r)
{
	const struct pgw_scan_stats *s = &r->roots->scan;
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"names\"");
	emit_str(&l, r->view && !r->names_why ? ",\"complete\":true" :
						 ",\"complete\":false");
	kv_u64(&l, "tasks", r->ntasks);
	kv_u64(&l, "processes", r->processes);
	kv_u64(&l, "roots_named", r->named);
	if (r->method) {
		kv_str(&l, "method", r->method);
		kv_long(o, &l, false, "method_why", r->method_why);
	} else {
		kv_null(&l, "method");
	}
	if (!r->view || r->names_why)
		kv_str(&l, "why", r->names_why ? r->names_why :
						    "no task list");
	emit_str(&l, "}\n{\"type\":\"summary\"");
	kv_u64(&l, "roots", r->roots->n);
	emit_str(&l, ",\"kinds\":{");
	bool first = true;
	for (unsigned k = 0; k < PGW_NROOT_KINDS; k++) {
		if (!r->kinds[k])
			continue;
		emit_str(&l, first ? "\"" : ",\"");
		emit_str(&l, pgw_root_kind_key((enum pgw_root_kind)k));
		emit_str(&l, "\":");
		emit_u64(&l, r->kinds[k]);
		first = false;
	}
	emit_char(&l, '}');
	if (r->view) {
		kv_u64(&l, "orphans", r->view->norphans);
		kv_u64(&l, "suspicious_orphans", r->view->nsuspicious);
		kv_u64(&l, "unowned_tasks", r->view->nunowned);
	} else {
		emit_str(&l, ",\"orphans\":null,\"suspicious_orphans\":null,"
			     "\"unowned_tasks\":null");
	}
	kv_u64(&l, "pages", s->pages);
	kv_u64(&l, "pages_scanned", s->scanned);
	kv_u64(&l, "pages_absent", s->absent);
	kv_u64(&l, "freed_slots", r->roots->freed_slots);
	if (r->complete) {
		emit_str(&l, ",\"complete\":true");
	} else {
		emit_str(&l, ",\"complete\":false");
		kv_str(&l, "reason", r->reason);
		kv_str(&l, "why", r->why);
	}
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}
