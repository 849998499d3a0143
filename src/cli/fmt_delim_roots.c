/*
 * roots as CSV and TSV: one header row, then rows of type root, orphan,
 * unowned-task, names and summary in the columns
 *   type, root, kind, pid, comm, cpus, pti_user, user_bytes, user_leaves,
 *   kernel_mismatches, reason
 * (cpus joined with |; the names and summary rows say their counts in
 * reason as key=value words).  A comm is escaped as in text (\xNN, and
 * in TSV \t and \n), so no cell holds a separator, a newline or a control
 * byte.
 */
#include "delimited.h"
#include "emit_bytes.h"
#include "roots_out.h"

#define NCOLS 11

static void sep(struct line *l, const struct delim *d)
{
	emit_char(l, d->sep);
}

/* A string cell (already escaped where it comes from the image): CSV
 * quotes it when it must; TSV escapes what the library's own text
 * never holds anyway. */
static void str_cell(struct line *l, const struct delim *d, const char *s)
{
	if (!s || !*s)
		emit_str(l, d->empty);
	else if (d->sep == ',')
		emit_csv_str(l, s);
	else
		emit_text_strn(l, s, SIZE_MAX);
}

static void empty_cells(struct line *l, const struct delim *d, int n)
{
	for (int i = 0; i < n; i++) {
		emit_str(l, d->empty);
		sep(l, d);
	}
}

static void hex_cell(struct line *l, const struct delim *d, uint64_t v)
{
	emit_hex(l, v);
	sep(l, d);
}

static void u64_cell(struct line *l, const struct delim *d, uint64_t v)
{
	emit_u64(l, v);
	sep(l, d);
}

static void task_cells(struct line *l, const struct delim *d,
		       const struct pgw_task *t)
{
	struct line c;
	c.len = 0;

	emit_u64(l, (uint64_t)(uint32_t)t->pid);
	sep(l, d);
	if (d->sep == '\t')
		emit_tsv_bytes(&c, t->comm, t->comm_len);
	else
		emit_text_bytes(&c, t->comm, t->comm_len);
	emit_char(&c, '\0');
	str_cell(l, d, c.buf);
	sep(l, d);
}

void delim_roots_begin(struct out *o, const struct roots_report *r)
{
	const struct delim *d = o->fmt->delim;
	static const char *const cols[NCOLS] = {
		"type", "root", "kind", "pid", "comm", "cpus", "pti_user",
		"user_bytes", "user_leaves", "kernel_mismatches", "reason",
	};
	struct line l;
	l.len = 0;

	(void)r;
	for (int i = 0; i < NCOLS; i++) {
		if (i)
			sep(&l, d);
		emit_str(&l, cols[i]);
	}
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void delim_roots_root(struct out *o, const struct roots_report *r, size_t i)
{
	const struct delim *d = o->fmt->delim;
	const struct pgw_root_found *f = &r->roots->root[i];
	const size_t *end, *own = roots_owners(r, i, &end);
	struct line l;
	bool any = false;

	l.len = 0;
	emit_str(&l, "root");
	sep(&l, d);
	hex_cell(&l, d, f->table);
	emit_str(&l, pgw_root_kind_key(f->kind));
	sep(&l, d);
	if (own && own < end)
		task_cells(&l, d, &r->tasks[*own]);
	else
		empty_cells(&l, d, 2);
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
		hex_cell(&l, d, f->pti_user);
	else
		empty_cells(&l, d, 1);
	u64_cell(&l, d, f->user_bytes);
	u64_cell(&l, d, f->user_leaves);
	u64_cell(&l, d, f->ndiffs);
	str_cell(&l, d, f->why);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void delim_roots_orphan(struct out *o, const struct roots_report *r,
			size_t i)
{
	const struct delim *d = o->fmt->delim;
	const struct pgw_root_found *f = &r->roots->root[i];
	bool suspicious;
	const char *why = pgw_orphan_reason(f->kind, &suspicious);
	struct line l, c;

	l.len = c.len = 0;
	emit_str(&l, "orphan");
	sep(&l, d);
	hex_cell(&l, d, f->table);
	emit_str(&l, pgw_root_kind_key(f->kind));
	sep(&l, d);
	empty_cells(&l, d, 7);
	emit_str(&c, suspicious ? "suspicious: " : "");
	emit_str(&c, why);
	emit_char(&c, '\0');
	str_cell(&l, d, c.buf);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

void delim_roots_unowned(struct out *o, const struct roots_report *r,
			 size_t task, const char *why)
{
	const struct delim *d = o->fmt->delim;
	const struct pgw_task *t = &r->tasks[task];
	struct line l;

	l.len = 0;
	emit_str(&l, "unowned-task");
	sep(&l, d);
	if (t->has_pgd_pa)
		hex_cell(&l, d, t->pgd_pa);
	else
		empty_cells(&l, d, 1);
	empty_cells(&l, d, 1);
	task_cells(&l, d, t);
	empty_cells(&l, d, 5);
	str_cell(&l, d, why);
	emit_char(&l, '\n');
	emit_spill(&l, o->f);
}

/* "key=value" words for a row's reason cell. */
static void word(struct line *c, const char *key, const char *value)
{
	if (c->len)
		emit_char(c, ' ');
	emit_str(c, key);
	emit_char(c, '=');
	emit_str(c, value);
}

static void count(struct line *c, const char *key, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	word(c, key, num);
}

/* A row of type `type` whose only cell is the reason, c. */
static void words_row(struct line *l, const struct delim *d,
		      const char *type, struct line *c)
{
	emit_str(l, type);
	sep(l, d);
	empty_cells(l, d, NCOLS - 2);
	emit_char(c, '\0');
	c->buf[sizeof(c->buf) - 1] = '\0';
	str_cell(l, d, c->buf);
	emit_char(l, '\n');
}

void delim_roots_end(struct out *o, const struct roots_report *r)
{
	const struct delim *d = o->fmt->delim;
	struct line l, c;

	l.len = c.len = 0;
	word(&c, "complete", r->view && !r->names_why ? "true" : "false");
	count(&c, "tasks", r->ntasks);
	count(&c, "processes", r->processes);
	count(&c, "roots_named", r->named);
	if (r->names_why)
		word(&c, "why", r->names_why);
	words_row(&l, d, "names", &c);
	c.len = 0;
	word(&c, "complete", r->complete ? "true" : "false");
	count(&c, "roots", r->roots->n);
	for (unsigned k = 0; k < PGW_NROOT_KINDS; k++)
		if (r->kinds[k])
			count(&c, pgw_root_kind_key((enum pgw_root_kind)k),
			      r->kinds[k]);
	if (r->view) {
		count(&c, "orphans", r->view->norphans);
		count(&c, "suspicious_orphans", r->view->nsuspicious);
		count(&c, "unowned_tasks", r->view->nunowned);
	}
	if (!r->complete)
		word(&c, "why", r->why);
	words_row(&l, d, "summary", &c);
	emit_spill(&l, o->f);
}

