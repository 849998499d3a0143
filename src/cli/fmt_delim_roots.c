/*
 * roots as CSV and TSV (docs/output.md): one header row, then a row per
 * JSON record (root, orphan, unowned-task, names, summary) in the
 * columns
 *   type, root, kind, pid, comm, cpus, pti_user, user_bytes, user_leaves,
 *   kernel_mismatches, orphan, complete, reason, why, detail
 * with cpus and a root's pids joined by |, and the fields JSON has beyond
 * these as key=value words in detail.
 */
#include "delim_cells.h"
#include "roots_out.h"

#include <stdio.h>

#define NCOLS 15

void delim_roots_begin(struct out *o, const struct delim *d,
		       const struct roots_report *r)
{
	(void)r;
	header(o, d, "type,root,kind,pid,comm,cpus,pti_user,user_bytes,"
		     "user_leaves,kernel_mismatches,orphan,complete,reason,"
		     "why,detail");
}

/* pid and comm cells (the comm from the image: escaped as text). */
static void task_cells(struct line *l, const struct delim *d,
		       const struct pgw_task *t)
{
	char comm[PGW_TASK_COMM_MAX + 1];

	num(l, d, (uint64_t)(uint32_t)t->pid);
	memcpy(comm, t->comm, t->comm_len);
	comm[t->comm_len] = '\0';
	text(l, d, comm);
}

/* " key=value" in the detail cell begun at `from`. */
static void kv_hex(struct line *l, size_t from, const char *key,
		   uint64_t v)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	emit_hex(l, v);
}

static void kv_u64(struct line *l, size_t from, const char *key,
		   uint64_t v)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	emit_u64(l, v);
}

/* " key=word" (a word of ours: no escaping needed). */
static void kv_word(struct line *l, size_t from, const char *key,
		    const char *v)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	emit_str(l, v);
}

/* The detail cell's end: empty when nothing went in. */
static void detail_end(struct line *l, const struct delim *d, size_t from)
{
	if (l->len == from)
		emit_str(l, d->empty);
	sep(l, d);
}

/* pids=1|7 and the counts JSON has beyond the columns; each kernel-half
 * entry that differs as LEVEL@ENTRY_PA=ENTRY/KERNEL_ENTRY, joined by |. */
static void root_detail(struct out *o, struct line *l,
			const struct delim *d, const struct roots_report *r,
			size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	const size_t *end, *own = roots_owners(r, i, &end);
	size_t from = l->len;

	if (own && own < end) {
		emit_str(l, "pids=");
		for (const size_t *p = own; p < end; p++) {
			/* Every thread of a process shares its mm: a long
			 * list. */
			if (l->len > sizeof(l->buf) - 32) {
				emit_spill(l, o->f);
				from = 0;
			}
			if (p > own)
				emit_char(l, '|');
			emit_u64(l, (uint64_t)(uint32_t)r->tasks[*p].pid);
		}
	}
	kv_u64(l, from, "user_access_leaves", f->user_access_leaves);
	kv_u64(l, from, "user_tables", f->user_tables);
	kv_u64(l, from, "kernel_entries", f->kernel_entries);
	kv_u64(l, from, "kernel_same", f->kernel_same);
	if (f->ndiffs_listed)
		emit_str(l, " kernel_diffs=");
	for (unsigned k = 0; k < f->ndiffs_listed; k++) {
		const struct pgw_root_diff *df = &r->roots->diffs[f->diff + k];
		if (k)
			emit_char(l, '|');
		emit_str(l, r->roots->mode->level[df->level].name);
		emit_char(l, '@');
		emit_hex(l, df->entry_pa);
		emit_char(l, '=');
		emit_hex(l, df->raw);
		emit_char(l, '/');
		emit_hex(l, df->kernel_raw);
	}
	detail_end(l, d, from);
}

void delim_roots_root(struct out *o, const struct delim *d,
		      const struct roots_report *r, size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	const size_t *end, *own = roots_owners(r, i, &end);
	struct line l;
	bool any = false;

	l.len = 0;
	word(&l, d, "root");
	hex(&l, d, f->table);
	word(&l, d, pgw_root_kind_key(f->kind));
	if (own && own < end)
		task_cells(&l, d, &r->tasks[*own]);
	else
		empty(&l, d, 2);
	for (size_t c = 0; c < r->roots->ncpus; c++) {
		if (!roots_cpu_on(r, c, i))
			continue;
		if (any)
			emit_char(&l, '|');
		emit_u64(&l, c);
		any = true;
	}
	if (!any)
		emit_str(&l, d->empty);
	sep(&l, d);
	if (f->pti_user)
		hex(&l, d, f->pti_user);
	else
		empty(&l, d, 1);
	num(&l, d, f->user_bytes);
	num(&l, d, f->user_leaves);
	num(&l, d, f->ndiffs);
	word(&l, d, !r->view ? "" : pgw_roots_view_orphan(r->view, i) ?
		     "true" : "false");
	empty(&l, d, 2);
	text(&l, d, f->why);
	root_detail(o, &l, d, r, i);
	row_end(o, &l);
}

void delim_roots_orphan(struct out *o, const struct delim *d,
			const struct roots_report *r, size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	bool suspicious;
	const char *why = pgw_orphan_reason(f->kind, &suspicious);
	struct line l;

	l.len = 0;
	word(&l, d, "orphan");
	hex(&l, d, f->table);
	word(&l, d, pgw_root_kind_key(f->kind));
	empty(&l, d, 10);
	text(&l, d, why);
	word(&l, d, suspicious ? "suspicious=true" : "suspicious=false");
	row_end(o, &l);
}

void delim_roots_unowned(struct out *o, const struct delim *d,
			 const struct roots_report *r, size_t task,
			 const char *why)
{
	const struct pgw_task *t = &r->tasks[task];
	struct line l;
	size_t from;

	l.len = 0;
	word(&l, d, "unowned-task");
	if (t->has_pgd_pa)
		hex(&l, d, t->pgd_pa);
	else
		empty(&l, d, 1);
	empty(&l, d, 1);
	task_cells(&l, d, t);
	empty(&l, d, 8);
	text(&l, d, why);
	from = l.len;
	kv_hex(&l, from, "task", t->task);
	kv_hex(&l, from, "mm", t->mm);
	if (t->pgd)
		kv_hex(&l, from, "pgd", t->pgd);
	detail_end(&l, d, from);
	row_end(o, &l);
}

void delim_roots_end(struct out *o, const struct delim *d,
		     const struct roots_report *r)
{
	bool named = r->view && !r->names_why;
	struct line l;
	size_t from;

	l.len = 0;
	word(&l, d, "names");
	empty(&l, d, 10);
	word(&l, d, named ? "true" : "false");
	empty(&l, d, 1);
	text(&l, d, named ? "" : r->names_why ? r->names_why :
						"no task list");
	from = l.len;
	kv_u64(&l, from, "tasks", r->ntasks);
	kv_u64(&l, from, "processes", r->processes);
	kv_u64(&l, from, "roots_named", r->named);
	if (r->method)
		kv_word(&l, from, "method", r->method);
	detail_end(&l, d, from);
	row_end(o, &l);

	l.len = 0;
	word(&l, d, "summary");
	empty(&l, d, 10);
	word(&l, d, r->complete ? "true" : "false");
	word(&l, d, r->complete ? "" : r->reason);
	text(&l, d, r->complete ? "" : r->why);
	from = l.len;
	kv_u64(&l, from, "roots", r->roots->n);
	for (unsigned k = 0; k < PGW_NROOT_KINDS; k++) {
		char key[48];
		if (!r->kinds[k])
			continue;
		snprintf(key, sizeof(key), "kind_%s",
			 pgw_root_kind_key((enum pgw_root_kind)k));
		kv_u64(&l, from, key, r->kinds[k]);
	}
	if (r->view) {
		kv_u64(&l, from, "orphans", r->view->norphans);
		kv_u64(&l, from, "suspicious_orphans", r->view->nsuspicious);
		kv_u64(&l, from, "unowned_tasks", r->view->nunowned);
	}
	kv_u64(&l, from, "pages", r->roots->scan.pages);
	kv_u64(&l, from, "pages_scanned", r->roots->scan.scanned);
	kv_u64(&l, from, "pages_absent", r->roots->scan.absent);
	kv_u64(&l, from, "freed_slots", r->roots->freed_slots);
	detail_end(&l, d, from);
	row_end(o, &l);
}
