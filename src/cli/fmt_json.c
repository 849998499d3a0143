/*
 * JSON Lines: one object per record, "type" first, field names from
 * docs/output.md.  Addresses are strings ("0x.."), sizes and counts
 * numbers, strings from the image escaped to printable ASCII.
 */
#include "json_kv.h"
#include "name_cells.h"
#include "spelled.h"

/* ,"end":"0x.." of a range whose end 0 after a non-zero start is 2^64. */
static void kv_end(struct line *l, uint64_t start, uint64_t end)
{
	emit_str(l, ",\"end\":\"");
	if (end == 0 && start != 0)
		emit_str(l, "0x10000000000000000");
	else
		emit_hex(l, end);
	emit_char(l, '"');
}

/* "va":"0x..","end":"0x..","size":N */
static void span(struct line *l, uint64_t va, uint64_t end)
{
	emit_str(l, "\"va\":\"");
	emit_hex(l, va);
	emit_char(l, '"');
	kv_end(l, va, end);
	kv_u64(l, "size", end - va);
}

static void put(struct out *o, struct line *l)
{
	emit_str(l, "}\n");
	fwrite(l->buf, 1, l->len, o->f);
}

/* ,"non_present":{...} for a non-present entry that means something */
static void non_present(struct line *l, enum pgw_np_kind kind, uint64_t pfn,
			unsigned swap_type, uint64_t swap_offset)
{
	if (kind == PGW_NP_NONE)
		return;
	emit_str(l, ",\"non_present\":{\"kind\":\"");
	emit_str(l, pgw_np_kind_key(kind));
	emit_char(l, '"');
	if (kind == PGW_NP_PROTNONE) {
		kv_hex(l, "pa", pfn << PGW_PAGE_SHIFT);
	} else if (kind != PGW_NP_OTHER) {
		kv_u64(l, "swap_type", swap_type);
		kv_hex(l, "swap_offset", swap_offset);
	}
	emit_char(l, '}');
}

/* ---- translate ---- */

/* ,"key":"0x..", ,"key":N with the key spelled out at compile time: a
 * batch writes these keys millions of times. */
#define KV_HEX(l, key, v) \
	(emit_lit((l), ",\"" key "\":\""), emit_hex((l), (v)), \
	 emit_char((l), '"'))
#define KV_U64(l, key, v) \
	(emit_lit((l), ",\"" key "\":"), emit_u64((l), (v)))

static void level_entry(struct line *l, const struct pgw_entry *e)
{
	if (e->kind == PGW_ENT_NOT_PRESENT) {
		non_present(l, e->np_kind, e->np_pfn, e->swap_type,
			    e->swap_offset);
		return;
	}
	emit_lit(l, ",\"flags\":[");
	emit_flags(l, e->flags, ",", "\"");
	emit_char(l, ']');
	if (e->pkey)
		KV_U64(l, "pkey", e->pkey);
	if (e->reserved)
		KV_HEX(l, "reserved", e->reserved);
}

static void levels(struct out *o, struct line *l, const struct pgw_xlat *x)
{
	emit_lit(l, ",\"levels\":[");
	for (unsigned i = 0; i < x->nsteps; i++) {
		const struct pgw_step *s = &x->step[i];
		if (i)
			emit_char(l, ',');
		emit_lit(l, "{\"level\":\"");
		emit_str(l, out_level_name(o->mode, s->level));
		emit_char(l, '"');
		KV_HEX(l, "table", s->table);
		KV_U64(l, "index", s->index);
		KV_HEX(l, "entry_pa", s->entry_pa);
		if (s->read_ok) {
			KV_HEX(l, "entry", s->entry.raw);
			level_entry(l, &s->entry);
		} else {
			emit_lit(l, ",\"entry\":null");
			kv_str(l, "absence", pgw_absence_key(x->table_absence));
		}
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

/* What a compact record says after its pa (an answer) or its va (none),
 * but for a non-present entry's details: the same words for every
 * record with the same answer_tail_key. */
static void xlat_tail(struct line *l, const struct out *o, const void *ctx,
		      const struct pgw_answer *a)
{
	(void)ctx;
	if (a->stop == PGW_STOP_OK) {
		emit_lit(l, "\",\"page_size\":");
		emit_u64(l, a->page_size);
		emit_lit(l, ",\"level\":\"");
		emit_str(l, out_level_name(o->mode, a->level));
		emit_lit(l, "\",\"flags\":[");
		emit_flags(l, a->flags, ",", "\"");
		emit_lit(l, "],\"effective\":[");
		emit_flags(l, a->eff_flags, ",", "\"");
		emit_char(l, ']');
		if (a->pkey)
			kv_u64(l, "pkey", a->pkey);
		if (a->absence == PGW_ABSENT_NONE) {
			emit_lit(l, ",\"in_image\":true");
		} else {
			emit_lit(l, ",\"in_image\":false,\"absence\":\"");
			emit_str(l, pgw_absence_key(a->absence));
			emit_char(l, '"');
		}
	} else {
		emit_lit(l, "\",\"pa\":null,\"level\":\"");
		emit_str(l, out_level_name(o->mode, a->level));
		emit_lit(l, "\",\"reason\":\"");
		emit_str(l, pgw_stop_key(a->stop));
		emit_char(l, '"');
		if (a->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
		    a->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
			kv_str(l, "absence", pgw_absence_key(a->absence));
	}
}

/* The record tails spelled so far. */
static struct spelled xlat_tails[SPELLED_SLOTS];

/* A compact record of answer a for va, but for its closing brace. */
static inline __attribute__((always_inline)) struct line *
xlat_record(struct out *o, uint64_t va, const struct pgw_answer *a)
{
	struct line *l = out_row(o);

	emit_lit(l, "{\"type\":\"translation\",\"va\":\"");
	emit_hex(l, va);
	if (a->stop == PGW_STOP_OK) {
		emit_lit(l, "\",\"pa\":\"");
		emit_hex(l, a->pa);
	}
	spelled_tail(xlat_tails, 0, o, NULL, a, l, xlat_tail);
	if (a->stop == PGW_STOP_NOT_PRESENT)
		non_present(l, a->np_kind, a->np_pfn, a->swap_type,
			    a->swap_offset);
	return l;
}

static void json_xlat(struct out *o, const uint64_t *va,
		      const struct pgw_answer *a, size_t n)
{
	struct addr_name nm;

	if (o->names) {
		for (size_t i = 0; i < n; i++) {
			struct line *l = xlat_record(o, va[i], &a[i]);
			if (out_name(o, -1, va[i], &nm))
				json_name(l, &nm);
			emit_lit(l, "}\n");
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		emit_lit(xlat_record(o, va[i], &a[i]), "}\n");
}

static void json_xlat_walk(struct out *o, const struct pgw_xlat *x,
			   const char *why)
{
	uint64_t key = xlat_tail_key(x);
	struct spelled *m = spelled_slot(xlat_tails, key);
	struct line *l = out_row(o);

	(void)why;
	emit_lit(l, "{\"type\":\"translation\",\"va\":\"");
	emit_hex(l, x->va);
	if (x->stop == PGW_STOP_OK) {
		emit_lit(l, "\",\"pa\":\"");
		emit_hex(l, x->pa);
	}
	if (!spelled_copy(m, key, o->mode, l)) {
		struct pgw_answer a;
		size_t at = l->len;
		pgw_xlat_answer(x, &a);
		xlat_tail(l, o, NULL, &a);
		spelled_keep(m, key, o->mode, l, at);
	}
	if (x->stop == PGW_STOP_NOT_PRESENT && x->nsteps) {
		const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
		non_present(l, e->np_kind, e->np_pfn, e->swap_type,
			    e->swap_offset);
	}
	levels(o, l, x);
	struct addr_name nm;
	if (out_name(o, -1, x->va, &nm))
		json_name(l, &nm);
	emit_lit(l, "}\n");
}

/* A line that is not an address, echoed (escaped) in the record. */
static void json_bad(struct out *o, const char *text, size_t n)
{
	struct line l;
	l.len = 0;

	out_rows_flush(o);   /* an echo may not fit in o->rows */
	emit_str(&l, "{\"type\":\"translation\",\"va\":null,\"pa\":null,"
		     "\"input\":\"");
	emit_bytes(&l, o->f, text, n, emit_json_char);
	emit_str(&l, "\",\"reason\":\"not-an-address\"");
	put(o, &l);
}

/* ---- info: one object ---- */

static void info_evidence(struct line *l, const struct pgw_evidence *ev)
{
	kv_bool(l, "complete", ev->complete);
	kv_bool(l, "intact", ev->intact);
	kv_bool(l, "marked_incomplete", ev->marked_incomplete);
	emit_str(l, ",\"pages\":{\"ram\":");
	emit_u64(l, ev->pages_ram);
	kv_u64(l, "dumped", ev->pages_dumped);
	for (unsigned a = 1; a < PGW_NABSENCES; a++) {
		/* Field names use '_' where the reason keys use '-'. */
		const char *k = pgw_absence_key((enum pgw_absence)a);
		emit_str(l, ",\"");
		for (; *k; k++)
			emit_char(l, *k == '-' ? '_' : *k);
		emit_str(l, "\":");
		emit_u64(l, ev->pages_absent[a]);
	}
	emit_char(l, '}');
	kv_bool(l, "zero_excluded", ev->zero_excluded);
	kv_u64(l, "file_bytes_missing", ev->file_bytes_missing);
}

static void info_cpus(struct out *o, struct line *l,
		      const struct info_view *v)
{
	const struct pgw_cpu *cpus;
	size_t nc = pgw_image_cpus(v->img, &cpus);

	emit_str(l, ",\"cpus\":[");
	for (size_t i = 0; i < nc; i++) {
		const struct pgw_cpu *c = &cpus[i];
		if (l->len > sizeof(l->buf) / 2)
			emit_spill(l, o->f);
		emit_str(l, i ? ",{\"cpu\":" : "{\"cpu\":");
		emit_u64(l, i);
		if (c->has_cr) {
			emit_str(l, ",\"registers\":{\"cr0\":\"");
			emit_hex(l, c->cr0);
			emit_char(l, '"');
			kv_hex(l, "cr3", c->cr3);
			kv_hex(l, "cr4", c->cr4);
			if (c->has_efer)
				kv_hex(l, "efer", c->efer);
			else
				emit_str(l, ",\"efer\":null");
			emit_char(l, '}');
		} else {
			emit_str(l, ",\"registers\":null");
		}
		kv_str(l, "ring", out_cpu_ring(c));
		if (v->pti && c->has_cr) {
			kv_bool(l, "pti_user_root", v->pti[i].is_user_root);
			if (v->pti[i].is_user_root)
				kv_hex(l, "pti_kernel_root",
				       v->pti[i].kernel_table);
		}
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

/* facts: why the image's VMCOREINFO is the one it is (its note, text
 * found in memory in place of a missing or damaged note), as
 * pgw_space_open found it; empty when no space was looked for. */
static void info_vmcoreinfo(struct out *o, struct line *l,
			    struct pgw_image *img,
			    const struct pgw_facts_why *facts)
{
	uint64_t pa;

	if (pgw_vmcoreinfo_count(img) == 0) {
		emit_str(l, ",\"vmcoreinfo\":null");
		return;
	}
	bool mem = pgw_vmcoreinfo_in_memory(img, &pa);
	emit_str(l, ",\"vmcoreinfo\":{\"source\":\"");
	emit_str(l, mem ? "memory\"" : "note\"");
	if (mem)
		kv_hex(l, "pa", pa);
	kv_u64(l, "lines", pgw_vmcoreinfo_count(img));
	if (facts->why[0])
		kv_long(o, l, false, "reason", facts->why);
	for (size_t i = 0; i < out_nvmci_fields; i++) {
		const struct vmci_field *f = &out_vmci_fields[i];
		const char *raw = pgw_vmcoreinfo_get(img, f->key);
		struct pgw_err err = { 0 };
		uint64_t v;
		if (!raw)
			continue;
		emit_str(l, ",\"");
		emit_str(l, f->name);
		emit_str(l, "\":");
		if (f->kind == VMCI_STR) {
			emit_char(l, '"');
			emit_long(l, o->f, raw, emit_json_strn);
			emit_char(l, '"');
		} else if (f->kind == VMCI_BOOL) {
			emit_str(l, raw[0] == 'y' && !raw[1] ? "true" :
							       "null");
		} else if (pgw_vmcoreinfo_number(img, f->key, &v, &err) !=
			   PGW_OK) {
			emit_str(l, "null");
		} else if (f->kind == VMCI_DEC) {
			emit_u64(l, v);
		} else {
			emit_char(l, '"');
			emit_hex(l, v);
			emit_char(l, '"');
		}
	}
	emit_str(l, ",\"raw\":{");
	bool first = true;
	for (size_t i = 0; i < out_nvmci_fields; i++) {
		const char *raw = pgw_vmcoreinfo_get(img,
						     out_vmci_fields[i].key);
		if (raw) {
			kv_long(o, l, first, out_vmci_fields[i].key, raw);
			first = false;
		}
	}
	emit_str(l, "}}");
}

/* ,"vmcoreinfo_candidates":[...]: what memory held, when it was searched
 * (null when it was not), and which was adopted and why. */
static void info_vmci_candidates(struct out *o, struct line *l,
				 const struct pgw_facts_why *f)
{
	bool searched = f->source == PGW_FACTS_MEMORY ||
			f->source == PGW_FACTS_NONE;

	if (!searched) {
		emit_str(l, ",\"vmcoreinfo_candidates\":null");
		return;
	}
	emit_str(l, ",\"vmcoreinfo_candidates\":[");
	for (size_t i = 0; i < f->nlisted; i++) {
		const struct pgw_vmci_candidate *c = &f->cand[i];
		if (l->len > sizeof(l->buf) / 2)
			emit_spill(l, o->f);
		emit_str(l, i ? ",{\"pa\":\"" : "{\"pa\":\"");
		emit_hex(l, c->pa);
		emit_char(l, '"');
		kv_str(l, "place", pgw_vmci_place_key(c->place));
		kv_bool(l, "valid", c->valid);
		kv_bool(l, "chosen", c->chosen);
		if (c->valid) {
			kv_hex(l, "kernel_root", c->kernel_root);
			kv_u64(l, "cpus_on_root", c->cpus_on_root);
			kv_u64(l, "cpus_map_text", c->cpus_map_text);
		} else {
			kv_null(l, "kernel_root");
		}
		kv_long(o, l, false, "why", c->why);
		emit_char(l, '}');
	}
	emit_char(l, ']');
	kv_u64(l, "vmcoreinfo_candidates_found", f->ncandidates);
	kv_bool(l, "vmcoreinfo_conflict", f->conflict);
	if (f->choice[0])
		kv_long(o, l, false, "vmcoreinfo_choice", f->choice);
	else
		kv_null(l, "vmcoreinfo_choice");
}

/* A mask as a JSON value: "0x.." or null for 0 (no such bit). */
static void mask_value(struct line *l, uint64_t m)
{
	if (m) {
		emit_char(l, '"');
		emit_hex(l, m);
		emit_char(l, '"');
	} else {
		emit_str(l, "null");
	}
}

/* ,"encryption":{...}: the bits entries are read with, where each came
 * from (the words of regions' base sources), and why. */
static void info_encryption(struct out *o, struct line *l,
			    const struct pgw_enc_choice *e)
{
	emit_str(l, ",\"encryption\":{\"sme_mask\":");
	mask_value(l, e->bits.enc);
	kv_str(l, "sme_source", pgw_enc_source_key(e->source));
	emit_str(l, ",\"shared_mask\":");
	mask_value(l, e->bits.shared);
	kv_str(l, "shared_source", pgw_enc_source_key(e->shared_source));
	if (e->examined) {
		kv_u64(l, "entries", e->examined);
		kv_u64(l, "agreed", e->agreed);
	}
	kv_long(o, l, false, "why", e->why);
	emit_char(l, '}');
}

static void json_info(struct out *o, const struct info_view *v)
{
	const struct pgw_phys_range *r;
	const char *const *fk, *const *fv;
	struct pgw_image *img = v->img;
	size_t nr = pgw_image_ranges(img, &r);
	size_t nf = pgw_image_facts(img, &fk, &fv);
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"info\",");
	kv_long(o, &l, true, "image", pgw_image_path(img));
	kv_str(&l, "format", pgw_image_format(img));
	kv_u64(&l, "elf_class", pgw_image_class(img));
	kv_str(&l, "machine", pgw_machine_name(pgw_image_machine(img)));
	info_evidence(&l, &v->ev);
	emit_str(&l, ",\"facts\":{");
	for (size_t i = 0; i < nf; i++)
		kv_long(o, &l, i == 0, fk[i], fv[i]);
	emit_str(&l, "},\"ranges\":[");
	for (size_t i = 0; i < nr; i++) {
		if (l.len > sizeof(l.buf) / 2)
			emit_spill(&l, o->f);
		emit_str(&l, i ? ",{\"pa\":\"" : "{\"pa\":\"");
		emit_hex(&l, r[i].start);
		emit_char(&l, '"');
		kv_end(&l, r[i].start, r[i].start + r[i].size);
		kv_u64(&l, "size", r[i].size);
		emit_char(&l, '}');
	}
	emit_char(&l, ']');
	kv_u64(&l, "prstatus", pgw_image_prstatus_count(img));
	info_cpus(o, &l, v);
	info_vmcoreinfo(o, &l, img, &v->why->facts);
	info_vmci_candidates(o, &l, &v->why->facts);
	info_encryption(o, &l, &v->why->enc);
	if (v->why->mode.mode) {
		kv_str(&l, "mode", v->why->mode.mode->name);
		kv_long(o, &l, false, "mode_reason", v->why->mode.why);
		if (v->why->mode.conflict[0])
			kv_long(o, &l, false, "mode_conflict",
				v->why->mode.conflict);
	} else {
		emit_str(&l, ",\"mode\":null");
	}
	if (v->have_root) {
		kv_hex(&l, "root", v->root);
		kv_long(o, &l, false, "root_reason", v->why->root.why);
	} else {
		emit_str(&l, ",\"root\":null");
	}
	if (v->names_tried) {
		emit_str(&l, ",\"names\":{\"method\":");
		if (v->names_method) {
			emit_char(&l, '"');
			emit_str(&l, v->names_method);
			emit_char(&l, '"');
		} else {
			emit_str(&l, "null");
		}
		kv_u64(&l, "tasks", v->ntasks);
		kv_u64(&l, "processes", v->nprocesses);
		kv_bool(&l, "complete", v->names_complete);
		kv_long(o, &l, false, "why", v->names_why);
		emit_char(&l, '}');
	} else {
		emit_str(&l, ",\"names\":null");
	}
	put(o, &l);
}

/* ---- dump and regions ---- */

static void level_entries(struct line *l, const struct out *o,
			  const struct pgw_run *run)
{
	emit_str(l, ",\"level\":\"");
	emit_str(l, out_level_name(o->mode, run->level));
	emit_char(l, '"');
	kv_u64(l, "entries", run->entries);
}

static void json_dump_region(struct out *o, const struct pgw_region *r)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"region\",");
	span(&l, r->start, r->end);
	kv_str(&l, "region", r->key);
	kv_str(&l, "name", r->name);
	put(o, &l);
}

static void json_dump_map(struct out *o, struct line *l,
			  const struct pgw_run *run, uint64_t not_in_image)
{
	/* span and kv_hex, marking the numbers for a stencil. */
	emit_str(l, "{\"type\":\"map\",\"va\":\"");
	stencil_hex(o->stencil, l, ST_VA, run->va, 1);
	emit_char(l, '"');
	if (run->end == 0 && run->va != 0) {
		kv_end(l, run->va, run->end);
	} else {
		emit_str(l, ",\"end\":\"");
		stencil_hex(o->stencil, l, ST_END, run->end, 1);
		emit_char(l, '"');
	}
	kv_u64(l, "size", run->end - run->va);
	emit_str(l, ",\"pa\":\"");
	stencil_hex(o->stencil, l, ST_PA, run->pa, 1);
	emit_char(l, '"');
	kv_u64(l, "page_size", run->page_size);
	level_entries(l, o, run);
	emit_str(l, ",\"flags\":[");
	emit_flags(l, run->flags, ",", "\"");
	emit_str(l, "],\"effective\":[");
	emit_flags(l, run->eff_flags, ",", "\"");
	emit_char(l, ']');
	if (run->pkey)
		kv_u64(l, "pkey", run->pkey);
	kv_u64(l, "bytes_not_in_image", not_in_image);
	kv_str(l, "region", out_region_key(o, run));
	if (run->same_frame)
		emit_str(l, ",\"same_frame\":true");
	if (run->stride)
		kv_u64(l, "stride", run->stride);
	struct addr_name nm;
	if (out_name(o, -1, run->va, &nm))
		json_name(l, &nm);
	emit_str(l, "}\n");
}

static void json_dump_hole(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"hole\",");
	span(&l, run->va, run->end);
	level_entries(&l, o, run);
	kv_str(&l, "reason", pgw_stop_key(run->stop));
	if (run->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    run->stop == PGW_STOP_TABLE_BEYOND_MEMORY)
		kv_str(&l, "absence", pgw_absence_key(run->absence));
	if (run->entry_pa) {
		kv_hex(&l, "entry_pa", run->entry_pa);
		kv_hex(&l, "entry", run->entry_raw);
	}
	non_present(&l, run->np_kind, run->np_pfn, run->swap_type,
		    run->swap_offset);
	kv_str(&l, "region", out_region_key(o, run));
	put(o, &l);
}

static void json_dump_summary(struct out *o, const struct dump_summary *s)
{
	struct line l;
	l.len = 0;
	bool first = true;

	emit_str(&l, "{\"type\":\"summary\",\"maps\":");
	emit_u64(&l, s->maps);
	kv_u64(&l, "mapped", s->mapped);
	emit_str(&l, ",\"mapped_by_page_size\":{");
	for (int lv = 0; lv < PGW_NLEVELS; lv++) {
		if (!s->level_bytes[lv])
			continue;
		if (!first)
			emit_char(&l, ',');
		first = false;
		emit_char(&l, '"');
		emit_u64(&l, pgw_level_span(o->mode, (enum pgw_level)lv));
		emit_str(&l, "\":");
		emit_u64(&l, s->level_bytes[lv]);
	}
	emit_char(&l, '}');
	kv_u64(&l, "holes", s->holes);
	kv_u64(&l, "non_present", s->nonpresent);
	kv_u64(&l, "wx", s->wx);
	kv_u64(&l, "wx_bytes", s->wx_bytes);
	kv_u64(&l, "unknown_permissions_bytes", s->unknown_perm_bytes);
	kv_u64(&l, "bytes_not_in_image", s->not_in_image);
	kv_u64(&l, "tables_not_in_image", s->tables_missing);
	kv_u64(&l, "entries", s->stats.entries);
	kv_u64(&l, "tables", s->stats.tables);
	kv_u64(&l, "leaves", s->stats.leaves);
	kv_bool(&l, "complete", s->complete);
	if (s->reason)
		kv_str(&l, "reason", s->reason);
	put(o, &l);
}

const struct formatter fmt_json = {
	.name = "json",
	.record = json_record,
	.info = json_info,
	.xlat = json_xlat,
	.xlat_walk = json_xlat_walk,
	.bad_addr = json_bad,
	.dump_region = json_dump_region,
	.dump_map = json_dump_map,
	.dump_hole = json_dump_hole,
	.dump_summary = json_dump_summary,
};
