/*
 * check and diff as CSV and TSV (docs/output.md): one header row, then a
 * row per JSON record.  check's columns
 *   type, rule, severity, va, end, size, root, pid, comm, evidence, why,
 *   detail
 * with the evidence as LEVEL@ENTRY_PA=ENTRY joined by |; diff's
 *   type, va, end, size, a_pa, a_page_size, a_effective, b_pa,
 *   b_page_size, b_effective, changes, reason, detail.
 * Fields JSON has beyond these are key=value words in detail.
 */
#include "check_out.h"
#include "delim_cells.h"

/* " key=value" in the detail cell begun at `from`. */
static void kv_num(struct line *l, size_t from, const char *key,
		   uint64_t v)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	emit_u64(l, v);
}

static void kv_word(struct line *l, size_t from, const char *key,
		    const char *v)
{
	if (l->len > from)
		emit_char(l, ' ');
	emit_str(l, key);
	emit_char(l, '=');
	emit_str(l, v);
}

static void detail_end(struct line *l, const struct delim *d, size_t from)
{
	if (l->len == from)
		emit_str(l, d->empty);
	sep(l, d);
}

static void range_cells(struct line *l, const struct delim *d, uint64_t va,
			uint64_t end)
{
	hex(l, d, va);
	if (end)
		hex(l, d, end);
	else
		word(l, d, "0x10000000000000000");
	num(l, d, end - va);
}

void delim_check_begin(struct out *o, const struct delim *d)
{
	header(o, d, "type,rule,severity,va,end,size,root,pid,comm,evidence,"
		     "why,detail");
}

void delim_check_finding(struct out *o, const struct delim *d,
			 const struct pgw_finding *f)
{
	struct line l;
	char comm[PGW_TASK_COMM_MAX + 1];

	l.len = 0;
	word(&l, d, "finding");
	word(&l, d, pgw_rule_key(f->rule));
	word(&l, d, pgw_severity_key(f->severity));
	if (f->has_range)
		range_cells(&l, d, f->va, f->end);
	else
		empty(&l, d, 3);
	if (f->has_root)
		hex(&l, d, f->root);
	else
		empty(&l, d, 1);
	if (f->owner) {
		num(&l, d, (uint64_t)(uint32_t)f->owner->pid);
		memcpy(comm, f->owner->comm, f->owner->comm_len);
		comm[f->owner->comm_len] = '\0';
		text(&l, d, comm);
	} else {
		empty(&l, d, 2);
	}
	if (!f->nevidence)
		emit_str(&l, d->empty);
	for (unsigned i = 0; i < f->nevidence; i++) {
		const struct pgw_evidence_entry *e = &f->evidence[i];
		if (i)
			emit_char(&l, '|');
		emit_str(&l, out_level_name(o->mode, e->level));
		emit_char(&l, '@');
		emit_hex(&l, e->entry_pa);
		emit_char(&l, '=');
		emit_hex(&l, e->entry);
	}
	sep(&l, d);
	text(&l, d, f->why);
	empty(&l, d, 1);
	row_end(o, &l);
}

void delim_check_summary(struct out *o, const struct delim *d,
			 const struct check_summary *s)
{
	struct line l;
	char why[900];

	l.len = 0;
	word(&l, d, "summary");
	empty(&l, d, 1);
	word(&l, d, pgw_severity_key(s->threshold));
	empty(&l, d, 7);     /* va, end, size, root, pid, comm, evidence */
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
	text(&l, d, why);
	size_t from = l.len;
	kv_num(&l, from, "roots", s->roots);
	kv_num(&l, from, "findings", s->findings);
	for (unsigned i = 0; i < PGW_NSEVERITIES; i++) {
		emit_str(&l, " severity_");
		kv_num(&l, l.len, pgw_severity_key(i), s->by_severity[i]);
	}
	for (unsigned i = 0; i < PGW_NRULES; i++) {
		emit_str(&l, " rule_");
		kv_num(&l, l.len, pgw_rule_key(i), s->by_rule[i]);
	}
	if (s->have_kernel_wx)
		kv_num(&l, from, "kernel_wx_pages", s->kernel_wx_pages);
	kv_num(&l, from, "tables_not_in_image", s->tables_not_in_image);
	kv_word(&l, from, "complete", s->complete ? "true" : "false");
	if (s->reason)
		kv_word(&l, from, "reason", s->reason);
	detail_end(&l, d, from);
	row_end(o, &l);
}

