/*
 * check and diff as JSON Lines: a "finding" per finding and a "summary";
 * "added", "removed", "changed" and "uncompared" ranges and a "summary".
 * Field names are docs/output.md's.
 */
#include "check_out.h"
#include "json_kv.h"

static void put(struct out *o, struct line *l)
{
	emit_str(l, "}\n");
	emit_spill(l, o->f);
}

/* ,"va":..,"end":..,"size":.. of a range ending at end (0: 2^64). */
static void range(struct line *l, uint64_t va, uint64_t end)
{
	kv_hex(l, "va", va);
	if (end)
		kv_hex(l, "end", end);
	else
		emit_str(l, ",\"end\":\"0x10000000000000000\"");
	kv_u64(l, "size", end - va);
}

static void evidence(const struct out *o, struct line *l,
		     const struct pgw_finding *f)
{
	emit_str(l, ",\"evidence\":[");
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

void json_check_finding(struct out *o, const struct pgw_finding *f)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"finding\"");
	kv_str(&l, "rule", pgw_rule_key(f->rule));
	kv_str(&l, "severity", pgw_severity_key(f->severity));
	if (f->has_range) {
		range(&l, f->va, f->end);
	} else {
		kv_null(&l, "va");
		kv_null(&l, "end");
		kv_null(&l, "size");
	}
	if (f->has_root)
		kv_hex(&l, "root", f->root);
	else
		kv_null(&l, "root");
	if (f->owner) {
		kv_u64(&l, "pid", (uint64_t)(uint32_t)f->owner->pid);
		emit_str(&l, ",\"comm\":\"");
		emit_bytes(&l, o->f, (const char *)f->owner->comm,
			   f->owner->comm_len, emit_json_char);
		emit_char(&l, '"');
	} else {
		kv_null(&l, "pid");
		kv_null(&l, "comm");
	}
	evidence(o, &l, f);
	kv_str(&l, "why", f->why);
	put(o, &l);
}

void json_check_summary(struct out *o, const struct check_summary *s)
{
	struct line l;

	l.len = 0;
	emit_str(&l, "{\"type\":\"summary\"");
	kv_str(&l, "severity", pgw_severity_key(s->threshold));
	kv_u64(&l, "roots", s->roots);
	kv_u64(&l, "findings", s->findings);
	emit_str(&l, ",\"by_severity\":{");
	for (unsigned i = 0; i < PGW_NSEVERITIES; i++) {
		emit_str(&l, i ? ",\"" : "\"");
		emit_str(&l, pgw_severity_key(i));
		emit_str(&l, "\":");
		emit_u64(&l, s->by_severity[i]);
	}
	emit_str(&l, "},\"by_rule\":{");
	for (unsigned i = 0; i < PGW_NRULES; i++) {
		emit_str(&l, i ? ",\"" : "\"");
		emit_str(&l, pgw_rule_key(i));
		emit_str(&l, "\":");
		emit_u64(&l, s->by_rule[i]);
	}
	emit_char(&l, '}');
	if (s->have_kernel_wx)
		kv_u64(&l, "kernel_wx_pages", s->kernel_wx_pages);
	else
		kv_null(&l, "kernel_wx_pages");
	emit_str(&l, ",\"unchecked\":[");
	if (s->text_why) {
		emit_str(&l, "{\"rule\":\"");
		emit_str(&l, pgw_rule_key(PGW_RULE_TEXT_ALIAS));
		emit_char(&l, '"');
		kv_str(&l, "why", s->text_why);
		emit_char(&l, '}');
	}
	if (s->names_why) {
		for (unsigned i = 0; i < 2; i++) {
			emit_str(&l, s->text_why || i ? ",{\"rule\":\"" :
							"{\"rule\":\"");
			emit_str(&l, pgw_rule_key(i ? PGW_RULE_UNOWNED :
						      PGW_RULE_ORPHAN));
			emit_char(&l, '"');
			kv_str(&l, "why", s->names_why);
			emit_char(&l, '}');
		}
	}
	for (unsigned r = PGW_RULE_OUTSIDE_VMA; s->vmas_why && r < PGW_NRULES;
	     r++) {
		emit_str(&l, s->text_why || s->names_why ||
				     r > PGW_RULE_OUTSIDE_VMA ?
			     ",{\"rule\":\"" : "{\"rule\":\"");
		emit_str(&l, pgw_rule_key(r));
		emit_char(&l, '"');
		kv_str(&l, "why", s->vmas_why);
		emit_char(&l, '}');
	}
	emit_char(&l, ']');
	kv_u64(&l, "tables_not_in_image", s->tables_not_in_image);
	kv_bool(&l, "complete", s->complete);
	if (s->reason)
		kv_str(&l, "reason", s->reason);
	put(o, &l);
}

