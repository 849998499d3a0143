/*
 * roots' records (roots_out.h) and their text: a table, one row per root
 * (orphans marked), then a line with the reason for each suspicious
 * orphan and each unowned task, then a summary line.  Without a task
 * list the table is the same, unnamed; why goes to stderr (cmd_roots).
 */
#include "delim_cells.h"
#include "json_kv.h"
#include "roots_out.h"
#include "text_cells.h"

/* ---- a root's lists: spelled here ---- */

/* ,"pids":[1,7] (null without a task list) */
static void pids_json(struct out *o, struct line *l, const char *key,
		      const void *v)
{
	const struct root_ref *ref = v;
	const size_t *end, *own = roots_owners(ref->r, ref->i, &end);

	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":");
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
		emit_u64(l, (uint64_t)(uint32_t)ref->r->tasks[*p].pid);
	}
	emit_char(l, ']');
}

/* pids=1|7 in the detail cell */
static void pids_detail(struct out *o, struct line *l, size_t *from,
			const void *v)
{
	const struct root_ref *ref = v;
	const size_t *end, *own = roots_owners(ref->r, ref->i, &end);

	if (!own || own == end)
		return;
	if (l->len > *from)
		emit_char(l, ' ');
	emit_str(l, "pids=");
	for (const size_t *p = own; p < end; p++) {
		if (l->len > sizeof(l->buf) - 32) {
			emit_spill(l, o->f);
			*from = 0;
		}
		if (p > own)
			emit_char(l, '|');
		emit_u64(l, (uint64_t)(uint32_t)ref->r->tasks[*p].pid);
	}
}

const struct rec_custom roots_pids = { pids_json, NULL, pids_detail };

/* The CPUs whose CR3 is the root, joined by sep. */
static void cpu_list(struct line *l, const struct root_ref *ref,
		     char sep)
{
	bool any = false;

	for (size_t c = 0; c < ref->r->roots->ncpus; c++) {
		if (!roots_cpu_on(ref->r, c, ref->i))
			continue;
		if (any)
			emit_char(l, sep);
		emit_u64(l, c);
		any = true;
	}
}

static void cpus_json(struct out *o, struct line *l, const char *key,
		      const void *v)
{
	(void)o;
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":[");
	cpu_list(l, v, ',');
	emit_char(l, ']');
}

static void cpus_cell(struct out *o, struct line *l, const struct delim *d,
		      const void *v)
{
	size_t at = l->len;

	(void)o;
	cpu_list(l, v, '|');
	if (l->len == at)
		emit_str(l, d->empty);
	sep(l, d);
}

const struct rec_custom roots_cpus = { cpus_json, cpus_cell, NULL };

static const struct pgw_root_diff *kdiff(const struct root_ref *ref,
					 unsigned k)
{
	const struct pgw_root_found *f = &ref->r->roots->root[ref->i];

	return &ref->r->roots->diffs[f->diff + k];
}

static void kdiffs_json(struct out *o, struct line *l, const char *key,
			const void *v)
{
	const struct root_ref *ref = v;
	const struct pgw_roots *rs = ref->r->roots;

	(void)o;
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":[");
	for (unsigned k = 0; k < rs->root[ref->i].ndiffs_listed; k++) {
		const struct pgw_root_diff *df = kdiff(ref, k);
		emit_str(l, k ? ",{\"level\":\"" : "{\"level\":\"");
		emit_str(l, rs->mode->level[df->level].name);
		emit_char(l, '"');
		kv_u64(l, "index", df->index);
		kv_hex(l, "entry_pa", df->entry_pa);
		kv_hex(l, "entry", df->raw);
		kv_hex(l, "kernel_entry", df->kernel_raw);
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

/* kernel_diffs=LEVEL@ENTRY_PA=ENTRY/KERNEL_ENTRY|... */
static void kdiffs_detail(struct out *o, struct line *l, size_t *from,
			  const void *v)
{
	const struct root_ref *ref = v;
	const struct pgw_roots *rs = ref->r->roots;
	unsigned n = rs->root[ref->i].ndiffs_listed;

	(void)o;
	if (!n)
		return;
	if (l->len > *from)
		emit_char(l, ' ');
	emit_str(l, "kernel_diffs=");
	for (unsigned k = 0; k < n; k++) {
		const struct pgw_root_diff *df = kdiff(ref, k);
		if (k)
			emit_char(l, '|');
		emit_str(l, rs->mode->level[df->level].name);
		emit_char(l, '@');
		emit_hex(l, df->entry_pa);
		emit_char(l, '=');
		emit_hex(l, df->raw);
		emit_char(l, '/');
		emit_hex(l, df->kernel_raw);
	}
}

const struct rec_custom roots_kdiffs = { kdiffs_json, NULL, kdiffs_detail };

/* ---- text ---- */

static void right(struct line *l, const char *s, size_t width)
{
	for (size_t n = strlen(s); n < width; n++)
		emit_char(l, ' ');
	emit_str(l, s);
}

/* Column widths: ROOT, KIND, PID, COMM, CPUS, PTI_USER, USER, LEAVES,
 * KDIFF; each cell is followed by a space, NOTE ends the row. */
enum { W_ROOT = 11, W_KIND = 15, W_PID = 6, W_COMM = 16, W_CPUS = 4,
       W_PTI = 10, W_USER = 7, W_LEAVES = 7, W_KDIFF = 5 };

static void text_head(struct out *o, const void *ctx)
{
	struct line l;

	(void)ctx;
	l.len = 0;
	text_cell(&l, "ROOT", W_ROOT);
	text_cell(&l, "KIND", W_KIND);
	right(&l, "PID", W_PID);
	emit_char(&l, ' ');
	text_cell(&l, "COMM", W_COMM);
	text_cell(&l, "CPUS", W_CPUS);
	text_cell(&l, "PTI_USER", W_PTI);
	right(&l, "USER", W_USER);
	emit_char(&l, ' ');
	right(&l, "LEAVES", W_LEAVES);
	emit_char(&l, ' ');
	right(&l, "KDIFF", W_KDIFF);
	emit_str(&l, " NOTE\n");
	emit_spill(&l, o->f);
}

static void text_root(struct out *o, const void *rec)
{
	const struct root_rec *rr = rec;
	const struct root_ref *ref = rr->cpus;
	const struct pgw_root_found *f = &ref->r->roots->root[ref->i];
	const size_t *end, *own = roots_owners(ref->r, ref->i, &end);
	char num[32];
	struct line l;
	size_t at;

	l.len = 0;
	emit_hex(&l, rr->root);
	text_pad(&l, 0, W_ROOT);
	text_cell(&l, rr->kind, W_KIND);
	if (rr->pid.has) {
		snprintf(num, sizeof(num), "%d", (int)(int32_t)rr->pid.v);
		right(&l, num, W_PID);
		emit_char(&l, ' ');
		at = l.len;
		emit_bytes(&l, o->f, rr->comm.s, rr->comm.n, emit_text_char);
		if (end - own > 1) {
			snprintf(num, sizeof(num), " +%zu",
				 (size_t)(end - own - 1));
			emit_str(&l, num);
		}
	} else {
		right(&l, "-", W_PID);
		emit_char(&l, ' ');
		at = l.len;
		emit_char(&l, '-');
	}
	text_pad(&l, at, W_COMM);
	at = l.len;
	cpu_list(&l, ref, ',');
	if (l.len == at)
		emit_char(&l, '-');
	text_pad(&l, at, W_CPUS);
	at = l.len;
	if (rr->pti_user.has)
		emit_hex(&l, rr->pti_user.v);
	else
		emit_char(&l, '-');
	text_pad(&l, at, W_PTI);
	struct line sz;
	sz.len = 0;
	/* Sizes as every command's text spells them (text_size). */
	text_size(&sz, rr->user_bytes, 0);
	emit_char(&sz, '\0');
	right(&l, sz.buf, W_USER);
	snprintf(num, sizeof(num), "%llu",
		 (unsigned long long)rr->user_leaves);
	emit_char(&l, ' ');
	right(&l, num, W_LEAVES);
	snprintf(num, sizeof(num), "%llu",
		 (unsigned long long)rr->kernel_mismatches);
	emit_char(&l, ' ');
	right(&l, num, W_KDIFF);
	if (rr->orphan.has && rr->orphan.v) {
		bool suspicious;
		pgw_orphan_reason(f->kind, &suspicious);
		emit_str(&l, suspicious ? " orphan (suspicious)" : " orphan");
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

static void text_orphan(struct out *o, const void *rec)
{
	const struct orphan_rec *r = rec;
	struct line l;

	/* The table marks every orphan; the expected kinds' reasons are
	 * the man page's (and JSON's), lines are for the suspicious. */
	if (!r->suspicious)
		return;
	l.len = 0;
	emit_str(&l, "orphan ");
	emit_hex(&l, r->root);
	emit_char(&l, ' ');
	emit_str(&l, r->kind);
	emit_str(&l, ": ");
	emit_long(&l, o->f, r->why, emit_text_strn);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

static void text_unowned(struct out *o, const void *rec)
{
	const struct unowned_rec *r = rec;
	char num[32];
	struct line l;

	l.len = 0;
	snprintf(num, sizeof(num), "%d", (int)(int32_t)r->pid);
	emit_str(&l, "unowned-task pid ");
	emit_str(&l, num);
	emit_str(&l, " (");
	emit_bytes(&l, o->f, r->comm.s, r->comm.n, emit_text_char);
	emit_str(&l, "): ");
	emit_long(&l, o->f, r->why, emit_text_strn);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct roots_summary_rec *r = rec;
	const struct names_rec *n = r->names;
	const struct rec_counts *k = &r->kinds;
	struct line l;
	char buf[96];

	l.len = 0;
	snprintf(buf, sizeof(buf), "# %llu root%s:",
		 (unsigned long long)r->roots, r->roots == 1 ? "" : "s");
	emit_str(&l, buf);
	const char *sep = " ";
	for (unsigned i = k->from; i < k->to; i++) {
		if (!k->v[i])
			continue;
		snprintf(buf, sizeof(buf), "%s%llu %s", sep,
			 (unsigned long long)k->v[i], k->key(i));
		emit_str(&l, buf);
		sep = ", ";
	}
	if (r->orphans.has) {
		snprintf(buf, sizeof(buf), "; %llu named by the task list "
			 "(%llu tasks, %llu with an mm; %s)",
			 (unsigned long long)n->roots_named,
			 (unsigned long long)n->tasks,
			 (unsigned long long)n->processes, n->method);
		emit_str(&l, buf);
		snprintf(buf, sizeof(buf), "; %llu orphan%s (%llu suspicious), "
			 "%llu unowned task%s",
			 (unsigned long long)r->orphans.v,
			 r->orphans.v == 1 ? "" : "s",
			 (unsigned long long)r->suspicious_orphans.v,
			 (unsigned long long)r->unowned_tasks.v,
			 r->unowned_tasks.v == 1 ? "" : "s");
		emit_str(&l, buf);
	} else {
		emit_str(&l, "; unnamed (no task list)");
	}
	emit_char(&l, '\n');
	if (!r->complete) {
		emit_str(&l, "# INCOMPLETE: ");
		emit_long(&l, o->f, r->why, emit_text_strn);
		emit_char(&l, '\n');
	}
	emit_spill(&l, o->f);
}

RECORD_TYPE(root_rec, "root", ROOT_FIELDS, text_root);
RECORD_TYPE(orphan_rec, "orphan", ORPHAN_FIELDS, text_orphan);
RECORD_TYPE(unowned_rec, "unowned-task", UNOWNED_FIELDS, text_unowned);
RECORD_TYPE(names_rec, "names", NAMES_FIELDS, NULL);
RECORD_TYPE(roots_summary_rec, "summary", ROOTS_SUMMARY_FIELDS,
	    text_summary);

static const struct rec_type *const roots_types[] = {
	&root_rec_type, &orphan_rec_type, &unowned_rec_type, &names_rec_type,
	&roots_summary_rec_type, NULL,
};

const struct rec_table roots_table = {
	"type,root,kind,pid,comm,cpus,pti_user,user_bytes,user_leaves,"
	"kernel_mismatches,orphan,complete,reason,why,detail",
	roots_types, text_head,
};

/* ---- the records of a report ---- */

static void say_root(struct out *o, const struct roots_report *r, size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	const size_t *end, *own = roots_owners(r, i, &end);
	const struct pgw_task *t = own && own < end ? &r->tasks[*own] : NULL;
	struct root_ref ref = { r, i };
	struct root_rec rec = {
		.root = f->table,
		.kind = pgw_root_kind_key(f->kind),
		.why = f->why,
		.pid = { t ? (uint32_t)t->pid : 0, t != NULL },
		.comm = { t ? (const char *)t->comm : NULL,
			  t ? t->comm_len : 0 },
		.pids = &ref, .cpus = &ref,
		.pti_user = { f->pti_user, f->pti_user != 0 },
		.user_bytes = f->user_bytes, .user_leaves = f->user_leaves,
		.user_access_leaves = f->user_access_leaves,
		.user_tables = f->user_tables,
		.kernel_entries = f->kernel_entries,
		.kernel_same = f->kernel_same,
		.kernel_mismatches = f->ndiffs,
		.kernel_diffs = &ref,
		.orphan = { r->view && pgw_roots_view_orphan(r->view, i),
			    r->view != NULL },
	};

	out_record(o, &root_rec_type, &rec);
}

static void say_orphan(struct out *o, const struct roots_report *r,
		       size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	bool suspicious;
	const char *why = pgw_orphan_reason(f->kind, &suspicious);
	struct orphan_rec rec = { f->table, pgw_root_kind_key(f->kind),
				  suspicious, why };

	out_record(o, &orphan_rec_type, &rec);
}

static void say_unowned(struct out *o, const struct roots_report *r,
			size_t task, const char *why)
{
	const struct pgw_task *t = &r->tasks[task];
	struct unowned_rec rec = {
		.pid = (uint32_t)t->pid,
		.comm = { (const char *)t->comm, t->comm_len },
		.task = t->task, .mm = t->mm,
		.pgd = { t->pgd, t->pgd != 0 },
		.root = { t->pgd_pa, t->has_pgd_pa },
		.why = why,
	};

	out_record(o, &unowned_rec_type, &rec);
}

static const char *kind_key(unsigned k)
{
	return pgw_root_kind_key((enum pgw_root_kind)k);
}

static void say_end(struct out *o, const struct roots_report *r)
{
	const struct pgw_scan_stats *s = &r->roots->scan;
	bool named = r->view && !r->names_why;
	uint64_t kinds[PGW_NROOT_KINDS];
	struct names_rec n = {
		.complete = named,
		.tasks = r->ntasks, .processes = r->processes,
		.roots_named = r->named,
		.method = r->method,
		.method_why = r->method ? r->method_why : NULL,
		.why = named ? NULL : r->names_why ? r->names_why :
						     "no task list",
	};

	for (unsigned k = 0; k < PGW_NROOT_KINDS; k++)
		kinds[k] = r->kinds[k];
	struct roots_summary_rec sum = {
		.roots = r->roots->n,
		.kinds = { kinds, 0, PGW_NROOT_KINDS, kind_key, true, true },
		.orphans = { r->view ? r->view->norphans : 0,
			     r->view != NULL },
		.suspicious_orphans = { r->view ? r->view->nsuspicious : 0,
					r->view != NULL },
		.unowned_tasks = { r->view ? r->view->nunowned : 0,
				   r->view != NULL },
		.pages = s->pages, .pages_scanned = s->scanned,
		.pages_absent = s->absent,
		.freed_slots = r->roots->freed_slots,
		.complete = r->complete,
		.reason = r->complete ? NULL : r->reason,
		.why = r->complete ? NULL : r->why,
		.names = &n,
	};
	out_record(o, &names_rec_type, &n);
	out_record(o, &roots_summary_rec_type, &sum);
}

void roots_say(struct out *o, const struct roots_report *r)
{
	char why[512];

	out_table(o, &roots_table, NULL);
	for (size_t i = 0; i < r->roots->n; i++)
		say_root(o, r, i);
	for (size_t i = 0; r->view && i < r->roots->n; i++)
		if (pgw_roots_view_orphan(r->view, i))
			say_orphan(o, r, i);
	for (size_t t = 0; r->view && t < r->ntasks; t++) {
		if (!pgw_roots_view_unowned(r->view, r->tasks, t))
			continue;
		pgw_unowned_reason(r->img, r->roots, &r->tasks[t], why,
				   sizeof(why));
		say_unowned(o, r, t, why);
	}
	say_end(o, r);
}
