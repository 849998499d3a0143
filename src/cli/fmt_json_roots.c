/*
 * roots as JSON Lines: a "root" record per root, "orphan" and
 * "unowned-task" records for the cross-view, then "names" (how the roots
 * were named) and "summary".  Field names follow the output contract and
 * are documented in man/pgwalk.1.
 */
#include "emit_bytes.h"
#include "roots_out.h"

static void hex_field(struct line *l, const char *key, uint64_t v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":\"");
	emit_hex(l, v);
	emit_char(l, '"');
}

static void u64_field(struct line *l, const char *key, uint64_t v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":");
	emit_u64(l, v);
}

static void str_field(struct line *l, const char *key, const char *v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":");
	if (!v) {
		emit_str(l, "null");
		return;
	}
	emit_char(l, '"');
	emit_json_str(l, v);
	emit_char(l, '"');
}

static void task_fields(struct line *l, const struct pgw_task *t)
{
	emit_str(l, ",\"pid\":");
	emit_u64(l, (uint64_t)(uint32_t)t->pid);
	emit_str(l, ",\"comm\":\"");
	emit_json_bytes(l, t->comm, t->comm_len);
	emit_char(l, '"');
}

static void owners(struct line *l, const struct roots_report *r, size_t i)
{
	const size_t *end, *own = roots_owners(r, i, &end);

	if (own && own < end) {
		task_fields(l, &r->tasks[*own]);
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
		u64_field(l, "index", df->index);
		hex_field(l, "entry_pa", df->entry_pa);
		hex_field(l, "entry", df->raw);
		hex_field(l, "kernel_entry", df->kernel_raw);
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
	hex_field(&l, "root", f->table);
	str_field(&l, "kind", pgw_root_kind_key(f->kind));
	str_field(&l, "reason", f->why);
	owners(&l, r, i);
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
		hex_field(&l, "pti_user", f->pti_user);
	else
		emit_str(&l, ",\"pti_user\":null");
	u64_field(&l, "user_bytes", f->user_bytes);
	u64_field(&l, "user_leaves", f->user_leaves);
	u64_field(&l, "user_access_leaves", f->user_access_leaves);
	u64_field(&l, "user_tables", f->user_tables);
	u64_field(&l, "kernel_entries", f->kernel_entries);
	u64_field(&l, "kernel_same", f->kernel_same);
	u64_field(&l, "kernel_mismatches", f->ndiffs);
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
	hex_field(&l, "root", f->table);
	str_field(&l, "kind", pgw_root_kind_key(f->kind));
	emit_str(&l, suspicious ? ",\"suspicious\":true" :
				  ",\"suspicious\":false");
	str_field(&l, "reason", why);
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
	task_fields(&l, t);
	hex_field(&l, "task", t->task);
	hex_field(&l, "mm", t->mm);
	if (t->pgd)
		hex_field(&l, "pgd", t->pgd);
	else
		emit_str(&l, ",\"pgd\":null");
	if (t->has_pgd_pa)
		hex_field(&l, "root", t->pgd_pa);
	else
		emit_str(&l, ",\"root\":null");
	str_field(&l, "reason", why);
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
	u64_field(&l, "tasks", r->ntasks);
	u64_field(&l, "processes", r->processes);
	u64_field(&l, "roots_named", r->named);
	str_field(&l, "reason", r->names_why);
	emit_str(&l, "}\n{\"type\":\"summary\"");
	u64_field(&l, "roots", r->roots->n);
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
		u64_field(&l, "orphans", r->view->norphans);
		u64_field(&l, "suspicious_orphans", r->view->nsuspicious);
		u64_field(&l, "unowned_tasks", r->view->nunowned);
	} else {
		emit_str(&l, ",\"orphans\":null,\"suspicious_orphans\":null,"
			     "\"unowned_tasks\":null");
	}
	u64_field(&l, "pages", s->pages);
	u64_field(&l, "pages_scanned", s->scanned);
	u64_field(&l, "pages_absent", s->absent);
	u64_field(&l, "freed_slots", r->roots->freed_slots);
	emit_str(&l, r->complete ? ",\"complete\":true" : ",\"complete\":false");
	str_field(&l, "reason", r->complete ? NULL : r->why);
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}
