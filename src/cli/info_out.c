/*
 * info's record (info_out.h): its fields as data for JSON, the lists
 * among them (facts, ranges, CPUs, VMCOREINFO, its candidates) spelled
 * by functions of their own, and its text, a page of labelled lines.
 */
#include <stdio.h>

#include "info_out.h"
#include "json_kv.h"
#include "text_cells.h"

/* ,"facts":{"key":"value",...}: the image's own words, escaped. */
static void json_facts(struct out *o, struct line *l, const char *key,
		       const void *arg)
{
	const char *const *fk, *const *fv;
	size_t nf = pgw_image_facts((struct pgw_image *)arg, &fk, &fv);

	(void)key;
	emit_str(l, ",\"facts\":{");
	for (size_t i = 0; i < nf; i++)
		kv_long(o, l, i == 0, fk[i], fv[i]);
	emit_char(l, '}');
}

/* ,"ranges":[{"pa","end","size"},...]: every physical range. */
static void json_ranges(struct out *o, struct line *l, const char *key,
			const void *arg)
{
	const struct pgw_phys_range *r;
	size_t nr = pgw_image_ranges((struct pgw_image *)arg, &r);

	(void)key;
	emit_str(l, ",\"ranges\":[");
	for (size_t i = 0; i < nr; i++) {
		uint64_t end = r[i].start + r[i].size;
		if (l->len > sizeof(l->buf) / 2)
			emit_spill(l, o->f);
		emit_str(l, i ? ",{\"pa\":\"" : "{\"pa\":\"");
		emit_hex(l, r[i].start);
		emit_str(l, "\",\"end\":\"");
		if (end == 0 && r[i].start != 0)
			emit_str(l, "0x10000000000000000");
		else
			emit_hex(l, end);
		emit_char(l, '"');
		kv_u64(l, "size", r[i].size);
		emit_char(l, '}');
	}
	emit_char(l, ']');
}

static void json_cpus(struct out *o, struct line *l, const char *key,
		      const void *arg)
{
	const struct info_view *v = arg;
	const struct pgw_cpu *cpus;
	size_t nc = pgw_image_cpus(v->img, &cpus);

	(void)key;
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
static void json_vmcoreinfo(struct out *o, struct line *l, const char *key,
			    const void *arg)
{
	const struct info_view *view = arg;
	struct pgw_image *img = view->img;
	const struct pgw_facts_why *facts = &view->why->facts;
	uint64_t pa;

	(void)key;
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
static void json_candidates(struct out *o, struct line *l, const char *key,
			    const void *arg)
{
	const struct pgw_facts_why *f = arg;

	(void)key;
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

/* ---- text ---- */


/* "C-bit 47 0x800000000000 inferred": a bit, its mask and its source,
 * as regions prints a base. */
static void enc_bit_text(struct line *l, const char *what, uint64_t mask,
			 enum pgw_enc_source src)
{
	emit_str(l, what);
	emit_char(l, ' ');
	emit_u64(l, (uint64_t)__builtin_ctzll(mask));
	emit_char(l, ' ');
	emit_hex(l, mask);
	emit_char(l, ' ');
	emit_str(l, pgw_enc_source_key(src));
}

/* The memory-encryption bits entries are read with, and why. */
static void text_info_enc(struct out *o, const struct pgw_enc_choice *e)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "encryption:  ");
	if (e->bits.enc)
		enc_bit_text(&l, "C-bit", e->bits.enc, e->source);
	if (e->bits.enc && e->bits.shared)
		emit_str(&l, "; ");
	if (e->bits.shared)
		enc_bit_text(&l, "shared bit", e->bits.shared,
			     e->shared_source);
	if (!e->bits.enc && !e->bits.shared)
		emit_str(&l, "none");
	emit_str(&l, " (");
	l.buf[l.len] = '\0';
	out_text_line(o->f, l.buf, e->why, ")\n");
}

#define INFO_TEXT_RANGES 8

static void text_info_cpus(struct out *o, const struct info_view *v)
{
	const struct pgw_cpu *cpus;
	size_t nc = pgw_image_cpus(v->img, &cpus), with = 0;

	for (size_t i = 0; i < nc; i++)
		with += cpus[i].has_cr;
	fprintf(o->f, "cpus:        %zu (QEMU notes), %zu with registers, "
		"%zu NT_PRSTATUS\n", nc, with,
		pgw_image_prstatus_count(v->img));
	for (size_t i = 0; i < nc; i++) {
		const struct pgw_cpu *c = &cpus[i];
		if (!c->has_cr) {
			fprintf(o->f, "  cpu%zu: no registers (its note could "
				"not be read)\n", i);
			continue;
		}
		fprintf(o->f, "  cpu%zu: CR0=0x%llx CR3=0x%llx CR4=0x%llx", i,
			(unsigned long long)c->cr0, (unsigned long long)c->cr3,
			(unsigned long long)c->cr4);
		if (c->has_efer)
			fprintf(o->f, " EFER=0x%llx",
				(unsigned long long)c->efer);
		else
			fprintf(o->f, " EFER=unknown");
		fprintf(o->f, " %s mode", out_cpu_ring(c));
		if (v->pti && v->pti[i].is_user_root)
			fprintf(o->f, ", PTI user root (kernel root 0x%llx)",
				(unsigned long long)v->pti[i].kernel_table);
		fprintf(o->f, "\n");
	}
}

/* "complete" or what the image lacks, in pages by reason. */
static void text_info_evidence(struct out *o, const struct pgw_evidence *ev)
{
	struct line l;
	l.len = 0;

	emit_str(&l, "evidence:    ");
	if (ev->complete) {
		emit_str(&l, "complete: every page of memory the image "
			     "describes is in it");
	} else {
		emit_str(&l, "INCOMPLETE: ");
		emit_u64(&l, ev->pages_ram - ev->pages_dumped);
		emit_str(&l, " of ");
		emit_u64(&l, ev->pages_ram);
		emit_str(&l, " pages not in the image");
		if (ev->intact)
			emit_str(&l, " (a filtered dump, intact)");
	}
	if (ev->marked_incomplete)
		emit_str(&l, "; its writer flagged it incomplete");
	emit_str(&l, "\npages:       ram ");
	emit_u64(&l, ev->pages_ram);
	emit_str(&l, ", dumped ");
	emit_u64(&l, ev->pages_dumped);
	for (unsigned a = 1; a < PGW_NABSENCES; a++) {
		if (!ev->pages_absent[a])
			continue;
		emit_str(&l, ", ");
		emit_str(&l, pgw_absence_key((enum pgw_absence)a));
		emit_char(&l, ' ');
		emit_u64(&l, ev->pages_absent[a]);
		if (a == PGW_ABSENT_EXCLUDED && ev->zero_excluded)
			emit_str(&l, " (read as zeros: --zero-excluded)");
	}
	if (ev->file_bytes_missing) {
		emit_str(&l, "\nmissing:     the file is at least ");
		emit_u64(&l, ev->file_bytes_missing);
		emit_str(&l, " bytes (");
		text_size(&l, ev->file_bytes_missing, 0);
		emit_str(&l, ") shorter than its headers say");
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

/* facts: why VMCOREINFO is what it is, or why there is none after
 * memory was searched (the reason JSON's vmcoreinfo holds). */
static void text_info_vmcoreinfo(struct out *o, struct pgw_image *img,
				 const struct pgw_facts_why *facts)
{
	char prefix[160];
	uint64_t pa;

	if (pgw_vmcoreinfo_count(img) == 0) {
		if (facts->source == PGW_FACTS_NONE)
			out_text_line(o->f, "vmcoreinfo:  none (", facts->why,
				      ")\n");
		else
			fprintf(o->f, "vmcoreinfo:  none\n");
		return;
	}
	if (pgw_vmcoreinfo_in_memory(img, &pa))
		fprintf(o->f, "vmcoreinfo:  %zu lines (found in memory at "
			"0x%llx)\n", pgw_vmcoreinfo_count(img),
			(unsigned long long)pa);
	else
		fprintf(o->f, "vmcoreinfo:  %zu lines (note)\n",
			pgw_vmcoreinfo_count(img));
	if (facts->why[0])
		out_text_line(o->f, "  reason              ", facts->why, "\n");
	for (size_t i = 0; i < out_nvmci_fields; i++) {
		const struct vmci_field *f = &out_vmci_fields[i];
		const char *raw = pgw_vmcoreinfo_get(img, f->key);
		struct pgw_err err = { 0 };
		uint64_t v;
		if (!raw)
			continue;
		if (f->kind == VMCI_STR || f->kind == VMCI_BOOL) {
			snprintf(prefix, sizeof(prefix), "  %-19s ", f->name);
			out_text_line(o->f, prefix, raw, "\n");
		} else if (pgw_vmcoreinfo_number(img, f->key, &v, &err) !=
			   PGW_OK) {
			snprintf(prefix, sizeof(prefix), "  %-19s malformed "
				 "(%s=", f->name, f->key);
			out_text_line(o->f, prefix, raw, ")\n");
		} else if (f->kind == VMCI_DEC) {
			fprintf(o->f, "  %-19s %llu\n", f->name,
				(unsigned long long)v);
		} else {
			snprintf(prefix, sizeof(prefix), "  %-19s 0x%llx (%s=",
				 f->name, (unsigned long long)v, f->key);
			out_text_line(o->f, prefix, raw, ")\n");
		}
	}
}

/* Memory searched: each candidate a line, then which was adopted. */
static void text_info_vmci_candidates(struct out *o,
				      const struct pgw_facts_why *f)
{
	char prefix[200];

	if (f->source != PGW_FACTS_MEMORY && f->source != PGW_FACTS_NONE)
		return;
	for (size_t i = 0; i < f->nlisted; i++) {
		const struct pgw_vmci_candidate *c = &f->cand[i];
		if (c->valid)
			snprintf(prefix, sizeof(prefix), "  candidate 0x%llx %s "
				 "%s, root 0x%llx, CPUs on it %u, mapping its "
				 "text %u: ", (unsigned long long)c->pa,
				 pgw_vmci_place_key(c->place),
				 c->chosen ? "CHOSEN" : "valid",
				 (unsigned long long)c->kernel_root,
				 c->cpus_on_root, c->cpus_map_text);
		else
			snprintf(prefix, sizeof(prefix), "  candidate 0x%llx %s "
				 "rejected: ", (unsigned long long)c->pa,
				 pgw_vmci_place_key(c->place));
		out_text_line(o->f, prefix, c->why, "\n");
	}
	if (f->ncandidates > f->nlisted)
		fprintf(o->f, "  ... %zu more candidates\n",
			f->ncandidates - f->nlisted);
	if (f->choice[0])
		out_text_line(o->f, "  choice              ", f->choice, "\n");
}

static void text_info_view(struct out *o, const struct info_view *v)
{
	const struct pgw_phys_range *r;
	const char *const *fk, *const *fv;
	struct pgw_image *img = v->img;
	size_t nr = pgw_image_ranges(img, &r);
	size_t nf = pgw_image_facts(img, &fk, &fv);
	uint64_t total = 0;
	char prefix[160];

	out_text_line(o->f, "image:       ", pgw_image_path(img), "\n");
	fprintf(o->f, "format:      %s", pgw_image_format(img));
	if (pgw_image_class(img))
		fprintf(o->f, ", ELF%u, machine %s", pgw_image_class(img),
			pgw_machine_name(pgw_image_machine(img)));
	fprintf(o->f, "\n");
	for (size_t i = 0; i < nf; i++) {
		struct line k;
		k.len = 0;
		emit_str(&k, "  ");
		emit_text_strn(&k, fk[i], 100);
		emit_str(&k, ": ");
		k.buf[k.len] = '\0';
		out_text_line(o->f, k.buf, fv[i], "\n");
	}
	text_info_evidence(o, &v->ev);
	for (size_t i = 0; i < nr; i++)
		total += r[i].size;
	struct line sz;
	sz.len = 0;
	text_size(&sz, total, 0);
	fprintf(o->f, "physical:    %zu range%s, %llu bytes (%.*s)\n", nr,
		nr == 1 ? "" : "s", (unsigned long long)total, (int)sz.len,
		sz.buf);
	/* A filtered or sparse dump can have thousands: text shows the
	 * first few, JSON all of them.  Half-open, as everywhere. */
	for (size_t i = 0; i < nr && i < INFO_TEXT_RANGES; i++) {
		uint64_t end = r[i].start + r[i].size;
		if (end == 0)
			fprintf(o->f, "  0x%llx-0x10000000000000000\n",
				(unsigned long long)r[i].start);
		else
			fprintf(o->f, "  0x%llx-0x%llx\n",
				(unsigned long long)r[i].start,
				(unsigned long long)end);
	}
	if (nr > INFO_TEXT_RANGES)
		fprintf(o->f, "  ... %zu more (--format=json lists all)\n",
			nr - INFO_TEXT_RANGES);
	text_info_cpus(o, v);
	text_info_vmcoreinfo(o, img, &v->why->facts);
	text_info_vmci_candidates(o, &v->why->facts);
	/* The mode may be known when the root is not (the error says why
	 * on stderr). */
	if (v->why->mode.mode) {
		snprintf(prefix, sizeof(prefix), "mode:        %s (",
			 v->why->mode.mode->name);
		out_text_line(o->f, prefix, v->why->mode.why, ")\n");
		if (v->why->mode.conflict[0])
			out_text_line(o->f, "  CONFLICT: ",
				      v->why->mode.conflict, "\n");
	} else {
		fprintf(o->f, "mode:        unknown\n");
	}
	if (v->have_root) {
		snprintf(prefix, sizeof(prefix), "root:        0x%llx (",
			 (unsigned long long)v->root);
		out_text_line(o->f, prefix, v->why->root.why, ")\n");
	} else {
		fprintf(o->f, "root:        none\n");
	}
	text_info_enc(o, &v->why->enc);
	if (v->names_method) {
		snprintf(prefix, sizeof(prefix), "names:       %zu tasks, %zu "
			 "with an mm, by %s%s (", v->ntasks, v->nprocesses,
			 v->names_method,
			 v->names_complete ? "" : ", INCOMPLETE");
		out_text_line(o->f, prefix, v->names_why, ")\n");
	} else if (v->names_tried) {
		out_text_line(o->f, "names:       none (", v->names_why, ")\n");
	}
}


static const struct rec_custom info_facts = { .json = json_facts };
static const struct rec_custom info_ranges = { .json = json_ranges };
static const struct rec_custom info_cpus = { .json = json_cpus };
static const struct rec_custom info_vmci = { .json = json_vmcoreinfo };
static const struct rec_custom info_cands = { .json = json_candidates };
/* text's: the whole view */
static const struct rec_custom info_view_text = { 0 };

#define ENC_FIELDS(F, S)                                                  \
	F(S, sme_mask, OHEX, RF_NULL)                                     \
	F(S, sme_source, WORD, 0)                                         \
	F(S, shared_mask, OHEX, RF_NULL)                                  \
	F(S, shared_source, WORD, 0)                                      \
	F(S, entries, OU64, 0)                                            \
	F(S, agreed, OU64, 0)                                             \
	F(S, why, TEXT, 0)
RECORD_STRUCT(info_enc_rec, ENC_FIELDS);
RECORD_TYPE(info_enc_rec, "encryption", ENC_FIELDS, NULL);

#define NAMES_FIELDS(F, S)                                                \
	F(S, method, WORD, RF_NULL)                                       \
	F(S, tasks, U64, 0)                                               \
	F(S, processes, U64, 0)                                           \
	F(S, complete, BOOL, 0)                                           \
	F(S, why, TEXT, 0)
RECORD_STRUCT(info_names_rec, NAMES_FIELDS);
RECORD_TYPE(info_names_rec, "names", NAMES_FIELDS, NULL);

#define INFO_FIELDS(F, S)                                                 \
	F(S, image, TEXT, 0)                                              \
	F(S, format, WORD, 0)                                             \
	F(S, elf_class, U64, 0)                                           \
	F(S, machine, WORD, 0)                                            \
	F(S, complete, BOOL, 0)                                           \
	F(S, intact, BOOL, 0)                                             \
	F(S, marked_incomplete, BOOL, 0)                                  \
	F(S, pages, COUNTS, 0)                                            \
	F(S, zero_excluded, BOOL, 0)                                      \
	F(S, file_bytes_missing, U64, 0)                                  \
	F(S, facts, CUSTOM(info_facts), 0)                                \
	F(S, ranges, CUSTOM(info_ranges), 0)                              \
	F(S, prstatus, U64, 0)                                            \
	F(S, cpus, CUSTOM(info_cpus), 0)                                  \
	F(S, vmcoreinfo, CUSTOM(info_vmci), RF_NULL)                      \
	F(S, vmcoreinfo_candidates, CUSTOM(info_cands), RF_NULL)          \
	F(S, encryption, OBJECT(info_enc_rec), 0)                              \
	F(S, mode, WORD, RF_NULL)                                         \
	F(S, mode_reason, TEXT, 0)                                        \
	F(S, mode_conflict, TEXT, 0)                                      \
	F(S, root, OHEX, RF_NULL)                                         \
	F(S, root_reason, TEXT, 0)                                        \
	F(S, names, OBJECT(info_names_rec), RF_NULL)                           \
	F(S, view, CUSTOM(info_view_text), RF_TEXT)
RECORD_STRUCT(info_rec, INFO_FIELDS);

static void text_info(struct out *o, const void *rec)
{
	text_info_view(o, ((const struct info_rec *)rec)->view);
}

RECORD_TYPE(info_rec, "info", INFO_FIELDS, text_info);

/* pages' keys: ram, dumped, then each absence's. */
static const char *page_key(unsigned i)
{
	return i == 0 ? "ram" : i == 1 ? "dumped" :
	       pgw_absence_key((enum pgw_absence)(i - 1));
}

void info_print(struct out *o, const struct info_view *v)
{
	const struct pgw_space_why *w = v->why;
	const struct pgw_enc_choice *e = &w->enc;
	const struct pgw_facts_why *f = &w->facts;
	uint64_t pages[PGW_NABSENCES + 1] = { v->ev.pages_ram,
					       v->ev.pages_dumped };

	for (unsigned a = 1; a < PGW_NABSENCES; a++)
		pages[a + 1] = v->ev.pages_absent[a];
	struct info_enc_rec enc = {
		.sme_mask = { e->bits.enc, e->bits.enc != 0 },
		.sme_source = pgw_enc_source_key(e->source),
		.shared_mask = { e->bits.shared, e->bits.shared != 0 },
		.shared_source = pgw_enc_source_key(e->shared_source),
		.entries = { e->examined, e->examined != 0 },
		.agreed = { e->agreed, e->examined != 0 },
		.why = e->why,
	};
	struct info_names_rec names = {
		.method = v->names_method, .tasks = v->ntasks,
		.processes = v->nprocesses, .complete = v->names_complete,
		.why = v->names_why,
	};
	bool searched = f->source == PGW_FACTS_MEMORY ||
			f->source == PGW_FACTS_NONE;
	struct info_rec r = {
		.image = pgw_image_path(v->img),
		.format = pgw_image_format(v->img),
		.elf_class = pgw_image_class(v->img),
		.machine = pgw_machine_name(pgw_image_machine(v->img)),
		.complete = v->ev.complete,
		.intact = v->ev.intact,
		.marked_incomplete = v->ev.marked_incomplete,
		.pages = { pages, 0, PGW_NABSENCES + 1, page_key, false,
			   false },
		.zero_excluded = v->ev.zero_excluded,
		.file_bytes_missing = v->ev.file_bytes_missing,
		.facts = v->img,
		.ranges = v->img,
		.prstatus = pgw_image_prstatus_count(v->img),
		.cpus = v,
		.vmcoreinfo = pgw_vmcoreinfo_count(v->img) ? v : NULL,
		.vmcoreinfo_candidates = searched ? f : NULL,
		.encryption = &enc,
		.mode = w->mode.mode ? w->mode.mode->name : NULL,
		.mode_reason = w->mode.mode ? w->mode.why : NULL,
		.mode_conflict = w->mode.mode && w->mode.conflict[0] ?
				 w->mode.conflict : NULL,
		.root = { v->root, v->have_root },
		.root_reason = v->have_root ? w->root.why : NULL,
		.names = v->names_tried ? &names : NULL,
		.view = v,
	};
	out_record(o, &info_rec_type, &r);
}
