/*
 * roots as text: a table, one row per root (orphans marked), then a line
 * with the reason for each suspicious orphan and each unowned task, then
 * a summary line.  Without a task list the table is the same, unnamed;
 * why goes to stderr (cmd_roots).
 */
#include "emit.h"
#include "roots_out.h"
#include "text_cells.h"

/* Pad the cell begun at `from` to `width` columns, then a space. */
static void pad(struct line *l, size_t from, size_t width)
{
	do
		emit_char(l, ' ');
	while (l->len - from <= width);
}

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

/* s left-aligned in width columns, then a space. */
static void left(struct line *l, const char *s, size_t width)
{
	size_t at = l->len;

	emit_str(l, s);
	pad(l, at, width);
}

void text_roots_begin(struct out *o, const struct roots_report *r)
{
	struct line l;

	(void)r;
	l.len = 0;
	left(&l, "ROOT", W_ROOT);
	left(&l, "KIND", W_KIND);
	right(&l, "PID", W_PID);
	emit_char(&l, ' ');
	left(&l, "COMM", W_COMM);
	left(&l, "CPUS", W_CPUS);
	left(&l, "PTI_USER", W_PTI);
	right(&l, "USER", W_USER);
	emit_char(&l, ' ');
	right(&l, "LEAVES", W_LEAVES);
	emit_char(&l, ' ');
	right(&l, "KDIFF", W_KDIFF);
	emit_str(&l, " NOTE\n");
	emit_spill(&l, o->f);
}

void text_roots_root(struct out *o, const struct roots_report *r, size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	const size_t *end, *own = roots_owners(r, i, &end);
	char num[32];
	struct line l;
	size_t at;

	l.len = 0;
	emit_hex(&l, f->table);
	pad(&l, 0, W_ROOT);
	at = l.len;
	emit_str(&l, pgw_root_kind_key(f->kind));
	pad(&l, at, W_KIND);
	if (own && own < end) {
		snprintf(num, sizeof(num), "%d", r->tasks[*own].pid);
		right(&l, num, W_PID);
		emit_char(&l, ' ');
		at = l.len;
		emit_bytes(&l, o->f, (const char *)r->tasks[*own].comm,
			   r->tasks[*own].comm_len, emit_text_char);
		if (end - own > 1) {
			snprintf(num, sizeof(num), " +%zu", (size_t)(end - own - 1));
			emit_str(&l, num);
		}
	} else {
		right(&l, "-", W_PID);
		emit_char(&l, ' ');
		at = l.len;
		emit_char(&l, '-');
	}
	pad(&l, at, W_COMM);
	at = l.len;
	bool any = false;
	for (size_t c = 0; c < r->roots->ncpus; c++) {
		if (!roots_cpu_on(r, c, i))
			continue;
		if (any)
			emit_char(&l, ',');
		emit_u64(&l, c);
		any = true;
	}
	if (!any)
		emit_char(&l, '-');
	pad(&l, at, W_CPUS);
	at = l.len;
	if (f->pti_user)
		emit_hex(&l, f->pti_user);
	else
		emit_char(&l, '-');
	pad(&l, at, W_PTI);
	struct line sz;
	sz.len = 0;
	/* Sizes as every command's text spells them (text_size). */
	text_size(&sz, f->user_bytes, 0);
	emit_char(&sz, '\0');
	right(&l, sz.buf, W_USER);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)f->user_leaves);
	emit_char(&l, ' ');
	right(&l, num, W_LEAVES);
	snprintf(num, sizeof(num), "%u", f->ndiffs);
	emit_char(&l, ' ');
	right(&l, num, W_KDIFF);
	if (r->view && pgw_roots_view_orphan(r->view, i)) {
		bool suspicious;
		pgw_orphan_reason(f->kind, &suspicious);
		emit_str(&l, suspicious ? " orphan (suspicious)" : " orphan");
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void text_roots_orphan(struct out *o, const struct roots_report *r,
		       size_t i)
{
	const struct pgw_root_found *f = &r->roots->root[i];
	bool suspicious;
	const char *why = pgw_orphan_reason(f->kind, &suspicious);
	struct line l;

	/* The table marks every orphan; the expected kinds' reasons are
	 * the man page's (and JSON's), lines are for the suspicious. */
	if (!suspicious)
		return;
	l.len = 0;
	emit_str(&l, "orphan ");
	emit_hex(&l, f->table);
	emit_char(&l, ' ');
	emit_str(&l, pgw_root_kind_key(f->kind));
	emit_str(&l, ": ");
	emit_long(&l, o->f, why, emit_text_strn);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void text_roots_unowned(struct out *o, const struct roots_report *r,
			size_t task, const char *why)
{
	const struct pgw_task *t = &r->tasks[task];
	char num[32];
	struct line l;

	l.len = 0;
	snprintf(num, sizeof(num), "%d", t->pid);
	emit_str(&l, "unowned-task pid ");
	emit_str(&l, num);
	emit_str(&l, " (");
	emit_bytes(&l, o->f, (const char *)t->comm, t->comm_len,
		   emit_text_char);
	emit_str(&l, "): ");
	emit_long(&l, o->f, why, emit_text_strn);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void text_roots_end(struct out *o, const struct roots_report *r)
{
	struct line l;
	char buf[96];

	l.len = 0;
	snprintf(buf, sizeof(buf), "# %zu root%s:", r->roots->n,
		 r->roots->n == 1 ? "" : "s");
	emit_str(&l, buf);
	const char *sep = " ";
	for (unsigned k = 0; k < PGW_NROOT_KINDS; k++) {
		if (!r->kinds[k])
			continue;
		snprintf(buf, sizeof(buf), "%s%zu %s", sep, r->kinds[k],
			 pgw_root_kind_key((enum pgw_root_kind)k));
		emit_str(&l, buf);
		sep = ", ";
	}
	if (r->view) {
		snprintf(buf, sizeof(buf), "; %zu named by the task list "
			 "(%zu tasks, %zu with an mm; %s)", r->named,
			 r->ntasks, r->processes, r->method);
		emit_str(&l, buf);
		snprintf(buf, sizeof(buf), "; %zu orphan%s (%zu suspicious), "
			 "%zu unowned task%s", r->view->norphans,
			 r->view->norphans == 1 ? "" : "s",
			 r->view->nsuspicious, r->view->nunowned,
			 r->view->nunowned == 1 ? "" : "s");
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
