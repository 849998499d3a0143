/*
 * JSON Lines: one object per address.  Field names are stable and
 * documented in man/pgwalk.1.
 */
#include "emit.h"
#include "output.h"

static void json_entry_detail(struct line *l, const struct pgw_entry *e)
{
	if (e->kind == PGW_ENT_NOT_PRESENT) {
		emit_str(l, ",\"non_present\":{\"kind\":\"");
		emit_str(l, pgw_np_kind_key(e->np_kind));
		emit_char(l, '"');
		if (e->np_kind == PGW_NP_PROTNONE) {
			emit_str(l, ",\"pfn\":\"");
			emit_hex(l, e->np_pfn);
			emit_char(l, '"');
		} else if (e->np_kind != PGW_NP_NONE &&
			   e->np_kind != PGW_NP_OTHER) {
			emit_str(l, ",\"swap_type\":");
			emit_u64(l, e->swap_type);
			emit_str(l, ",\"swap_offset\":\"");
			emit_hex(l, e->swap_offset);
			emit_char(l, '"');
		}
		emit_char(l, '}');
		return;
	}
	emit_str(l, ",\"flags\":[");
	emit_flags(l, e->flags, ",", "\"");
	emit_char(l, ']');
	if (e->pkey) {
		emit_str(l, ",\"pkey\":");
		emit_u64(l, e->pkey);
	}
	if (e->reserved) {
		emit_str(l, ",\"reserved\":\"");
		emit_hex(l, e->reserved);
		emit_char(l, '"');
	}
}

static void json_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_str(&l, "{\"va\":\"");
	emit_hex(&l, x->va);
	if (x->stop == PGW_STOP_OK) {
		const struct pgw_entry *e = &x->step[x->nsteps - 1].entry;
		emit_str(&l, "\",\"pa\":\"");
		emit_hex(&l, x->pa);
		emit_str(&l, "\",\"size\":");
		emit_u64(&l, x->page_size);
		emit_str(&l, ",\"level\":\"");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_str(&l, "\",\"flags\":[");
		emit_flags(&l, e->flags, ",", "\"");
		emit_str(&l, "],\"effective\":[");
		emit_flags(&l, x->eff_flags, ",", "\"");
		emit_str(&l, x->data_in_image ? "],\"in_image\":true" :
						 "],\"in_image\":false");
	} else {
		emit_str(&l, "\",\"pa\":null,\"error\":\"");
		emit_str(&l, out_xlat_error(x->stop));
		emit_str(&l, "\",\"level\":\"");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_char(&l, '"');
	}
	emit_str(&l, ",\"levels\":[");
	for (unsigned i = 0; i < x->nsteps; i++) {
		const struct pgw_step *s = &x->step[i];
		if (i)
			emit_char(&l, ',');
		emit_str(&l, "{\"level\":\"");
		emit_str(&l, out_level_name(o->mode, s->level));
		emit_str(&l, "\",\"table\":\"");
		emit_hex(&l, s->table);
		emit_str(&l, "\",\"index\":");
		emit_u64(&l, s->index);
		emit_str(&l, ",\"entry_pa\":\"");
		emit_hex(&l, s->entry_pa);
		if (s->read_ok) {
			emit_str(&l, "\",\"entry\":\"");
			emit_hex(&l, s->entry.raw);
			emit_char(&l, '"');
			json_entry_detail(&l, &s->entry);
		} else {
			emit_str(&l, "\",\"entry\":null");
		}
		emit_char(&l, '}');
	}
	emit_str(&l, "]}\n");
	fwrite(l.buf, 1, l.len, o->f);
}

static void json_bad(struct out *o, const char *text)
{
	struct line l;

	l.len = 0;

	emit_str(&l, "{\"input\":\"");
	/* Echo only characters that need no JSON escaping. */
	for (const char *p = text; *p && l.len < 200; p++)
		if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
			emit_char(&l, *p);
	emit_str(&l, "\",\"va\":null,\"pa\":null,\"error\":\"not an "
		     "address\"}\n");
	fwrite(l.buf, 1, l.len, o->f);
}

/* ---- info: one object ---- */

/* "key":"value" (the value escaped however long), with a comma before
 * it unless first. */
static void info_kv(struct out *o, struct line *l, bool first,
		    const char *key, const char *val)
{
	if (!first)
		emit_char(l, ',');
	emit_char(l, '"');
	emit_str(l, key);
	emit_str(l, "\":\"");
	emit_long(l, o->f, val, emit_json_strn);
	emit_char(l, '"');
}

/* ,"key":"0x..." */
static void info_hex(struct line *l, const char *key, uint64_t v)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":\"");
	emit_hex(l, v);
	emit_char(l, '"');
}

static void json_info_cpus(struct out *o, struct line *l,
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
		info_hex(l, "cr0", c->cr0);
		info_hex(l, "cr3", c->cr3);
		info_hex(l, "cr4", c->cr4);
		if (c->has_efer)
			info_hex(l, "efer", c->efer);
		else
			emit_str(l, ",\"efer\":null");
		info_kv(o, l, false, "ring", out_cpu_ring(c));
		if (v->pti) {
			emit_str(l, v->pti[i].is_user_root ?
					    ",\"pti_user_root\":true" :
					    ",\"pti_user_root\":false");
			if (v->pti[i].is_user_root)
				info_hex(l, "pti_kernel_root",
					 v->pti[i].kernel_table);
		}
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

/* ,"encryption":{...}: the bits entries are read with (null: none),
 * where each came from, and why. */
static void json_info_enc(struct out *o, struct line *l,
			  const struct pgw_enc_choice *e)
{
	emit_str(l, ",\"encryption\":{\"sme_mask\":");
	if (e->bits.enc) {
		emit_char(l, '"');
		emit_hex(l, e->bits.enc);
		emit_char(l, '"');
	} else {
		emit_str(l, "null");
	}
	info_kv(o, l, false, "sme_source", pgw_enc_source_key(e->source));
	emit_str(l, ",\"shared_mask\":");
	if (e->bits.shared) {
		emit_char(l, '"');
		emit_hex(l, e->bits.shared);
		emit_char(l, '"');
	} else {
		emit_str(l, "null");
	}
	info_kv(o, l, false, "shared_source",
		pgw_enc_source_key(e->shared_source));
	if (e->examined) {
		emit_str(l, ",\"entries_examined\":");
		emit_u64(l, e->examined);
		emit_str(l, ",\"entries_agreed\":");
		emit_u64(l, e->agreed);
	}
	info_kv(o, l, false, "reason", e->why);
	emit_char(l, '}');
}

static void json_info(struct out *o, const struct info_view *v)
{
	const struct pgw_phys_range *r;
	const char *const *fk, *const *fv;
	struct pgw_image *img = v->img;
	size_t nr = pgw_image_ranges(img, &r);
	size_t nf = pgw_image_facts(img, &fk, &fv);
	bool first = true;
	struct line l;
	l.len = 0;

	emit_char(&l, '{');
	info_kv(o, &l, true, "image", pgw_image_path(img));
	info_kv(o, &l, false, "format", pgw_image_format(img));
	emit_str(&l, ",\"elf_class\":");
	emit_u64(&l, pgw_image_class(img));
	info_kv(o, &l, false, "machine",
		pgw_machine_name(pgw_image_machine(img)));
	emit_str(&l, ",\"facts\":{");
	for (size_t i = 0; i < nf; i++)
		info_kv(o, &l, i == 0, fk[i], fv[i]);
	emit_str(&l, "},\"ranges\":[");
	for (size_t i = 0; i < nr; i++) {
		if (l.len > sizeof(l.buf) / 2)
			emit_spill(&l, o->f);
		emit_str(&l, i ? ",{\"start\":\"" : "{\"start\":\"");
		emit_hex(&l, r[i].start);
		emit_str(&l, "\",\"size\":");
		emit_u64(&l, r[i].size);
		emit_char(&l, '}');
	}
	emit_str(&l, "],\"prstatus\":");
	emit_u64(&l, pgw_image_prstatus_count(img));
	json_info_cpus(o, &l, v);
	emit_str(&l, ",\"vmcoreinfo\":{");
	for (size_t i = 0; v->vmcoreinfo[i]; i++) {
		const char *val = pgw_vmcoreinfo_get(img, v->vmcoreinfo[i]);
		if (val) {
			info_kv(o, &l, first, v->vmcoreinfo[i], val);
			first = false;
		}
	}
	emit_char(&l, '}');
	json_info_enc(o, &l, &v->why->enc);
	if (v->why->mode.mode) {
		info_kv(o, &l, false, "mode", v->why->mode.mode->name);
		info_kv(o, &l, false, "mode_reason", v->why->mode.why);
	} else {
		emit_str(&l, ",\"mode\":null");
	}
	if (v->have_root) {
		info_hex(&l, "root", v->root);
		info_kv(o, &l, false, "root_reason", v->why->root.why);
	} else {
		emit_str(&l, ",\"root\":null");
	}
	emit_str(&l, "}\n");
	emit_spill(&l, o->f);
}

/* ---- dump and regions: one object per line, "type" first ---- */

static void put(struct out *o, struct line *l)
{
	emit_str(l, "}\n");
	fwrite(l->buf, 1, l->len, o->f);
}

/* "va":"0x..","end":"0x..","size":N; an end of 2^64 is spelled out. */
static void span(struct line *l, uint64_t va, uint64_t end)
{
	emit_str(l, "\"va\":\"");
	emit_hex(l, va);
	emit_str(l, "\",\"end\":\"");
	if (end == 0 && va != 0)
		emit_str(l, "0x10000000000000000");
	else
		emit_hex(l, end);
	emit_str(l, "\",\"size\":");
	emit_u64(l, end - va);
}

static void kv_str(struct line *l, const char *key, const char *val)
{
	emit_str(l, ",\"");
	emit_str(l, key);
	emit_str(l, "\":\"");
	emit_json_str(l, val);
	emit_char(l, '"');
}

/* ,"level":"pte","entries":N of a map or hole record. */
static void level_entries(struct line *l, const struct out *o,
			  const struct pgw_run *run)
{
	emit_str(l, ",\"level\":\"");
	emit_str(l, out_level_name(o->mode, run->level));
	emit_str(l, "\",\"entries\":");
	emit_u64(l, run->entries);
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

static void json_dump_map(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"map\",");
	span(&l, run->va, run->end);
	emit_str(&l, ",\"pa\":\"");
	emit_hex(&l, run->pa);
	emit_str(&l, "\",\"page_size\":");
	emit_u64(&l, run->page_size);
	level_entries(&l, o, run);
	emit_str(&l, ",\"flags\":[");
	emit_flags(&l, run->flags, ",", "\"");
	emit_str(&l, "],\"effective\":[");
	emit_flags(&l, run->eff_flags, ",", "\"");
	emit_char(&l, ']');
	if (run->pkey) {
		emit_str(&l, ",\"pkey\":");
		emit_u64(&l, run->pkey);
	}
	if (run->same_frame)
		emit_str(&l, ",\"same_frame\":true");
	kv_str(&l, "region", out_region_key(o, run));
	put(o, &l);
}

static void json_dump_hole(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"hole\",");
	span(&l, run->va, run->end);
	level_entries(&l, o, run);
	kv_str(&l, "kind", pgw_stop_key(run->stop));
	if (run->np_kind != PGW_NP_NONE) {
		emit_str(&l, ",\"non_present\":{\"kind\":\"");
		emit_str(&l, pgw_np_kind_key(run->np_kind));
		if (run->np_kind == PGW_NP_PROTNONE) {
			emit_str(&l, "\",\"pfn\":\"");
			emit_hex(&l, run->np_pfn);
		} else if (run->np_kind != PGW_NP_OTHER) {
			emit_str(&l, "\",\"swap_type\":");
			emit_u64(&l, run->swap_type);
			emit_str(&l, ",\"swap_offset\":\"");
			emit_hex(&l, run->swap_offset);
		}
		emit_str(&l, "\"}");
	}
	if (run->entry_pa) {
		emit_str(&l, ",\"entry_pa\":\"");
		emit_hex(&l, run->entry_pa);
		emit_str(&l, "\",\"entry\":\"");
		emit_hex(&l, run->entry_raw);
		emit_char(&l, '"');
	}
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
	emit_str(&l, ",\"mapped\":");
	emit_u64(&l, s->mapped);
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
	emit_str(&l, "},\"holes\":");
	emit_u64(&l, s->holes);
	emit_str(&l, ",\"non_present\":");
	emit_u64(&l, s->nonpresent);
	emit_str(&l, ",\"wx\":");
	emit_u64(&l, s->wx);
	emit_str(&l, ",\"wx_bytes\":");
	emit_u64(&l, s->wx_bytes);
	emit_str(&l, ",\"entries\":");
	emit_u64(&l, s->stats.entries);
	emit_str(&l, ",\"tables\":");
	emit_u64(&l, s->stats.tables);
	emit_str(&l, ",\"leaves\":");
	emit_u64(&l, s->stats.leaves);
	emit_str(&l, s->complete ? ",\"complete\":true" :
				   ",\"complete\":false");
	put(o, &l);
}

static void json_regions_begin(struct out *o, const struct walk_head *h)
{
	const struct pgw_layout *lay = h->layout;
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"layout\"");
	kv_str(&l, "name", lay->name);
	kv_str(&l, "desc", lay->desc);
	kv_str(&l, "why", lay->why);
	kv_str(&l, "mode", o->mode->name);
	emit_str(&l, ",\"root\":\"");
	emit_hex(&l, h->root);
	emit_char(&l, '"');
	put(o, &l);
	for (size_t i = 0; i < lay->nbases; i++) {
		const struct pgw_layout_base *b = &lay->base[i];
		l.len = 0;
		emit_str(&l, "{\"type\":\"base\"");
		kv_str(&l, "name", b->name);
		emit_str(&l, ",\"value\":\"");
		emit_hex(&l, b->value);
		emit_char(&l, '"');
		kv_str(&l, "source", pgw_base_source_name(b->source));
		kv_str(&l, "why", b->why);
		put(o, &l);
	}
}

static void json_regions_row(struct out *o, const struct pgw_region *r,
			     const struct region_usage *u)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "{\"type\":\"region\",");
	span(&l, r->start, r->end);
	kv_str(&l, "region", r->key);
	kv_str(&l, "name", r->name);
	emit_str(&l, ",\"mapped\":");
	emit_u64(&l, u->mapped);
	emit_str(&l, ",\"leaves\":");
	emit_u64(&l, u->leaves);
	put(o, &l);
}

const struct formatter fmt_json = {
	.name = "json",
	.info = json_info,
	.xlat = json_xlat,
	.bad_addr = json_bad,
	.dump_region = json_dump_region,
	.dump_map = json_dump_map,
	.dump_hole = json_dump_hole,
	.dump_summary = json_dump_summary,
	.regions_begin = json_regions_begin,
	.regions_row = json_regions_row,
};
