/*
 * check's records (check_out.h) and their text: a line per finding
 * (severity, rule, range, root, owner, why) with its evidence on the
 * next, then '#' summary lines.
 */
#include "check_out.h"
#include "delim_cells.h"
#include "json_kv.h"
#include "text_cells.h"

/* ---- evidence and unchecked rules: spelled here ---- */

static void evidence_json(struct out *o, struct line *l, const char *key,
			  const void *v)
{
	const struct pgw_finding *f = v;

	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":[");
	for (unsigned i = 0; i < f->nevidence; i++) {
		const struct pgw_evidence_entry *e = &f->evidence[i];
		emit_str(l, i ? ",{\"level\":\"" : "{\"level\":\"");
		emit_str(l, out_level_name(o->mode, e->level));
		emit_char(l, '"');
		kv_hex(l, "table", e->table);
		kv_u64(l, "index", e->index);
		kv_hex(l, "entry_pa", e->entry_pa);
		kv_hex(l, "entry", e->entry);
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

/* LEVEL@ENTRY_PA=ENTRY joined by | */
static void evidence_cell(struct out *o, struct line *l,
			  const struct delim *d, const void *v)
{
	const struct pgw_finding *f = v;

	if (!f->nevidence)
		emit_str(l, d->empty);
	for (unsigned i = 0; i < f->nevidence; i++) {
		const struct pgw_evidence_entry *e = &f->evidence[i];
		if (i)
			emit_char(l, '|');
		emit_str(l, out_level_name(o->mode, e->level));
		emit_char(l, '@');
		emit_hex(l, e->entry_pa);
		emit_char(l, '=');
		emit_hex(l, e->entry);
	}
	sep(l, d);
}

const struct rec_custom check_evidence = { evidence_json, evidence_cell };

/* The rules that did not run, each with why: text_why's rule, the
 * cross-view's two, the VMA rules. */
static void unchecked_json(struct out *o, struct line *l, const char *key,
			   const void *v)
{
	const struct check_summary *s = v;
	bool first = true;

	(void)o;
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":[");
	for (unsigned r = 0; r < PGW_NRULES; r++) {
		const char *why = r == PGW_RULE_TEXT_ALIAS ? s->text_why :
				  r == PGW_RULE_ORPHAN ||
				  r == PGW_RULE_UNOWNED ? s->names_why :
				  r >= PGW_RULE_OUTSIDE_VMA ? s->vmas_why :
							      NULL;
		if (!why)
			continue;
		emit_str(l, first ? "{\"rule\":\"" : ",{\"rule\":\"");
		emit_str(l, pgw_rule_key(r));
		emit_char(l, '"');
		kv_str(l, "why", why);
		emit_char(l, '}');
		first = false;
	}
	emit_char(l, ']');
}

static void unchecked_cell(struct out *o, struct line *l,
			   const struct delim *d, const void *v)
{
	const struct check_summary *s = v;
	char why[900];

	(void)o;
	snprintf(why, sizeof(why), "%s%.280s%s%.280s%s%.280s",
		 s->text_why ? "not checked: text-writable-alias: " : "",
		 s->text_why ? s->text_why : "",
		 s->names_why ? (s->text_why ? "; not checked: orphan-root, "
					       "unowned-task: " :
					       "not checked: orphan-root, "
					       "unowned-task: ") : "",
		 s->names_why ? s->names_why : "",
		 s->vmas_why ? (s->text_why || s->names_why ?
				"; not checked: the VMA rules: " :
				"not checked: the VMA rules: ") : "",
		 s->vmas_why ? s->vmas_why : "");
	text(l, d, why);
}

const struct rec_custom check_unchecked = { unchecked_json, unchecked_cell };

/* ---- text ---- */

/* Pad the cell begun at `from` to `width` columns (at least a space). */
static void pad(struct line *l, size_t from, size_t width)
{
	do
		emit_char(l, ' ');
	while (l->len - from < width);
}

static void text_head(struct out *o, const void *ctx)
{
	(void)ctx;
	fprintf(o->f, "# SEVERITY RULE START-END (SIZE) root ROOT pid PID COMM: "
		      "WHY\n#     evidence: LEVEL TABLE[INDEX]=ENTRY ...\n");
}

static void text_finding(struct out *o, const void *rec)
{
	const struct finding_rec *r = rec;
	const struct pgw_finding *f = r->evidence;
	struct line l;
	size_t at;

	l.len = 0;
	emit_str(&l, r->severity);
	pad(&l, 0, 8);
	at = l.len;
	emit_str(&l, r->rule);
	pad(&l, at, 21);
	if (!r->range.none) {
		text_span(&l, o, r->range.va, r->range.end);
		emit_str(&l, " (");
		text_size(&l, r->range.end - r->range.va, 0);
		emit_str(&l, ") ");
	}
	if (r->root.has) {
		emit_str(&l, "root ");
		emit_hex(&l, r->root.v);
		emit_char(&l, ' ');
	}
	if (r->pid.has) {
		emit_str(&l, "pid ");
		emit_u64(&l, r->pid.v);
		emit_char(&l, ' ');
		emit_bytes(&l, o->f, r->comm.s, r->comm.n, emit_text_char);
	}
	while (l.len && l.buf[l.len - 1] == ' ')
		l.len--;
	text_name_rec(&l, r->name);
	emit_str(&l, ": ");
	emit_long(&l, o->f, r->why, emit_text_strn);
	text_put(o, &l);
	if (!f->nevidence)
		return;
	l.len = 0;
	emit_str(&l, "    evidence:");
	for (unsigned i = 0; i < f->nevidence; i++) {
		const struct pgw_evidence_entry *e = &f->evidence[i];
		emit_char(&l, ' ');
		emit_str(&l, out_level_name(o->mode, e->level));
		emit_char(&l, ' ');
		emit_hex(&l, e->table);
		emit_char(&l, '[');
		emit_u64(&l, e->index);
		emit_str(&l, "]=");
		emit_hex(&l, e->entry);
	}
	text_put(o, &l);
}

/* "# RULES (WHY)" for rules that could not run. */
static void unchecked_line(struct out *o, const char *rules, const char *why)
{
	struct line l;

	if (!why)
		return;
	l.len = 0;
	emit_str(&l, rules);
	emit_long(&l, o->f, why, emit_text_strn);
	emit_char(&l, ')');
	text_put(o, &l);
}

static void text_summary(struct out *o, const void *rec)
{
	const struct check_summary_rec *r = rec;
	const struct check_summary *s = r->unchecked;
	const struct rec_counts *sev = &r->by_severity;
	struct line l;
	bool first = true;

	l.len = 0;
	emit_str(&l, "# ");
	emit_u64(&l, r->findings);
	emit_str(&l, r->findings == 1 ? " finding" : " findings");
	emit_str(&l, " at or above ");
	emit_str(&l, r->severity);
	for (unsigned i = sev->to; i-- > sev->from;) {
		if (!sev->v[i])
			continue;
		emit_str(&l, first ? " (" : ", ");
		emit_u64(&l, sev->v[i]);
		emit_char(&l, ' ');
		emit_str(&l, sev->key(i));
		first = false;
	}
	if (!first)
		emit_char(&l, ')');
	emit_str(&l, " in ");
	emit_u64(&l, r->roots);
	emit_str(&l, r->roots == 1 ? " root" : " roots");
	if (r->kernel_wx_pages.has) {
		emit_str(&l, "; kernel W+X pages: ");
		emit_u64(&l, r->kernel_wx_pages.v);
		emit_str(&l, " (as the kernel's own check counts them)");
	}
	text_put(o, &l);
	unchecked_line(o, "# text-writable-alias, partly or not checked: (",
		       s->text_why);
	unchecked_line(o, "# not checked: orphan-root, unowned-task (",
		       s->names_why);
	unchecked_line(o, "# not checked: outside-vma, beyond-vma, "
			  "anon-exec, deleted-exe (", s->vmas_why);
	if (!r->complete) {
		l.len = 0;
		emit_str(&l, "# INCOMPLETE: ");
		emit_str(&l, r->reason);
		if (r->tables_not_in_image) {
			emit_str(&l, " (");
			emit_u64(&l, r->tables_not_in_image);
			emit_str(&l, " page-table holes not in the image: what "
				     "they map was not checked)");
		}
		text_put(o, &l);
	}
}

RECORD_TYPE(finding_rec, "finding", FINDING_FIELDS, text_finding);
RECORD_TYPE(check_summary_rec, "summary", CHECK_SUMMARY_FIELDS,
	    text_summary);

static const struct rec_type *const check_types[] = {
	&finding_rec_type, &check_summary_rec_type, NULL,
};

const struct rec_table check_table = {
	"type,rule,severity,va,end,size,root,pid,comm,evidence,why,detail",
	check_types, text_head,
};

void check_say_finding(struct out *o, const struct pgw_finding *f)
{
	const struct pgw_task *t = f->owner;
	struct finding_rec r = {
		.rule = pgw_rule_key(f->rule),
		.severity = pgw_severity_key(f->severity),
		.range = { f->va, f->end, !f->has_range },
		.root = { f->root, f->has_root },
		.pid = { t ? (uint32_t)t->pid : 0, t != NULL },
		.comm = { t ? (const char *)t->comm : NULL,
			  t ? t->comm_len : 0 },
		.evidence = f,
		.why = f->why,
	};
	struct addr_name nm;
	struct name_rec name;
	if (f->has_range)
		r.name = name_rec_of(o, t ? t->pid : -1, f->va, &nm, &name);

	out_record(o, &finding_rec_type, &r);
}

static const char *severity_key(unsigned i)
{
	return pgw_severity_key((enum pgw_severity)i);
}

static const char *rule_key(unsigned i)
{
	return pgw_rule_key((enum pgw_rule)i);
}

void check_say_summary(struct out *o, const struct check_summary *s)
{
	uint64_t sev[PGW_NSEVERITIES], rule[PGW_NRULES];

	for (unsigned i = 0; i < PGW_NSEVERITIES; i++)
		sev[i] = s->by_severity[i];
	for (unsigned i = 0; i < PGW_NRULES; i++)
		rule[i] = s->by_rule[i];
	struct check_summary_rec r = {
		.severity = pgw_severity_key(s->threshold),
		.roots = s->roots, .findings = s->findings,
		.by_severity = { sev, 0, PGW_NSEVERITIES, severity_key, true },
		.by_rule = { rule, 0, PGW_NRULES, rule_key, true },
		.kernel_wx_pages = { s->kernel_wx_pages, s->have_kernel_wx },
		.unchecked = s,
		.tables_not_in_image = s->tables_not_in_image,
		.complete = s->complete,
		.reason = s->reason,
	};

	out_record(o, &check_summary_rec_type, &r);
}
