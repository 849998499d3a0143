/*
 * check and diff as text.  check: a line per finding (severity, rule,
 * range, root, owner, why) with its evidence on the next, then '#'
 * summary lines.  diff: a line per range (+ added, - removed, ~ changed,
 * ? uncompared) with each side's mapping, then a '#' summary line.
 */
#include "access.h"
#include "check_out.h"
#include "emit.h"

static void put(struct out *o, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

static void pad(struct line *l, size_t from, size_t width)
{
	do
		emit_char(l, ' ');
	while (l->len - from < width);
}

void text_check_begin(struct out *o)
{
	fprintf(o->f, "# SEVERITY RULE START-END (SIZE) root ROOT pid PID COMM: "
		      "WHY\n#     evidence: LEVEL TABLE[INDEX]=ENTRY ...\n");
}

void text_check_finding(struct out *o, const struct pgw_finding *f)
{
	struct line l;
	size_t at;

	l.len = 0;
	emit_str(&l, pgw_severity_key(f->severity));
	pad(&l, 0, 8);
	at = l.len;
	emit_str(&l, pgw_rule_key(f->rule));
	pad(&l, at, 21);
	if (f->has_range) {
		text_span(&l, o, f->va, f->end);
		emit_str(&l, " (");
		text_size(&l, finding_size(f), 0);
		emit_str(&l, ") ");
	}
	if (f->has_root) {
		emit_str(&l, "root ");
		emit_hex(&l, f->root);
		emit_char(&l, ' ');
	}
	if (f->owner) {
		emit_str(&l, "pid ");
		emit_u64(&l, (uint64_t)(uint32_t)f->owner->pid);
		emit_char(&l, ' ');
		emit_bytes(&l, o->f, (const char *)f->owner->comm,
			   f->owner->comm_len, emit_text_char);
	}
	while (l.len && l.buf[l.len - 1] == ' ')
		l.len--;
	emit_str(&l, ": ");
	emit_long(&l, o->f, f->why, emit_text_strn);
	put(o, &l);
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
	put(o, &l);
}

void text_check_summary(struct out *o, const struct check_summary *s)
{
	struct line l;
	bool first = true;

	l.len = 0;
	emit_str(&l, "# ");
	emit_u64(&l, s->findings);
	emit_str(&l, s->findings == 1 ? " finding" : " findings");
	emit_str(&l, " at or above ");
	emit_str(&l, pgw_severity_key(s->threshold));
	for (int i = PGW_NSEVERITIES - 1; i >= 0; i--) {
		if (!s->by_severity[i])
			continue;
		emit_str(&l, first ? " (" : ", ");
		emit_u64(&l, s->by_severity[i]);
		emit_char(&l, ' ');
		emit_str(&l, pgw_severity_key((enum pgw_severity)i));
		first = false;
	}
	if (!first)
		emit_char(&l, ')');
	emit_str(&l, " in ");
	emit_u64(&l, s->roots);
	emit_str(&l, s->roots == 1 ? " root" : " roots");
	if (s->have_kernel_wx) {
		emit_str(&l, "; kernel W+X pages: ");
		emit_u64(&l, s->kernel_wx_pages);
		emit_str(&l, " (as the kernel's own check counts them)");
	}
	put(o, &l);
	if (s->text_why) {
		l.len = 0;
		emit_str(&l, "# text-writable-alias, partly or not checked: (");
		emit_long(&l, o->f, s->text_why, emit_text_strn);
		emit_char(&l, ')');
		put(o, &l);
	}
	if (s->names_why) {
		l.len = 0;
		emit_str(&l, "# not checked: orphan-root, unowned-task (");
		emit_long(&l, o->f, s->names_why, emit_text_strn);
		emit_char(&l, ')');
		put(o, &l);
	}
	if (s->vmas_why) {
		l.len = 0;
		emit_str(&l, "# not checked: outside-vma, beyond-vma, "
			     "anon-exec, deleted-exe (");
		emit_long(&l, o->f, s->vmas_why, emit_text_strn);
		emit_char(&l, ')');
		put(o, &l);
	}
	if (!s->complete) {
		l.len = 0;
		emit_str(&l, "# INCOMPLETE: ");
		emit_str(&l, s->reason);
		if (s->tables_not_in_image) {
			emit_str(&l, " (");
			emit_u64(&l, s->tables_not_in_image);
			emit_str(&l, " page-table holes not in the image: what "
				     "they map was not checked)");
		}
		put(o, &l);
	}
}

