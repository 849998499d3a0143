/* Human output: every level walked, like crash's vtop, one block per VA. */
#include <inttypes.h>

#include "emit.h"
#include "output.h"
#include "access.h"
#include "text_cells.h"
#include "name_cells.h"
#include "spelled.h"

static void human_spell(struct line *l, uint64_t size, int width);

static void np_text(struct line *l, const struct pgw_entry *e)
{
	emit_str(l, "not present (");
	emit_str(l, pgw_np_kind_key(e->np_kind));
	if (e->np_kind == PGW_NP_PROTNONE) {
		emit_str(l, ", pa ");
		emit_hex(l, e->np_pfn << PGW_PAGE_SHIFT);
	} else if (e->np_kind != PGW_NP_NONE && e->np_kind != PGW_NP_OTHER) {
		emit_str(l, ", type ");
		emit_u64(l, e->swap_type);
		emit_str(l, " offset ");
		emit_hex(l, e->swap_offset);
	}
	emit_char(l, ')');
}

static void step_text(struct line *l, const struct pgw_mode *mode,
		      const struct pgw_step *s, enum pgw_absence absence)
{
	const struct pgw_level_desc *d = &mode->level[s->level];
	int width = mode->entry_size * 2;

	emit_str(l, "  ");
	emit_str(l, d->name);
	emit_char(l, ' ');
	emit_str(l, d->hw_name);
	for (size_t n = strlen(d->hw_name); n < 5; n++)
		emit_char(l, ' ');
	emit_str(l, "table ");
	emit_hex(l, s->table);
	emit_str(l, " [");
	emit_u64(l, s->index);
	emit_str(l, "] entry ");
	emit_hex(l, s->entry_pa);
	emit_str(l, ": ");
	if (!s->read_ok) {
		emit_str(l, "<table not in image: ");
		emit_str(l, pgw_absence_key(absence));
		emit_str(l, ">\n");
		return;
	}
	emit_hex_w(l, s->entry.raw, width);
	emit_str(l, "  ");
	if (s->entry.kind == PGW_ENT_NOT_PRESENT) {
		np_text(l, &s->entry);
	} else {
		emit_flags(l, s->entry.flags, " ", "");
		if (s->entry.pkey) {
			emit_str(l, " pkey=");
			emit_u64(l, s->entry.pkey);
		}
		if (s->entry.reserved) {
			emit_str(l, "  RESERVED BITS ");
			emit_hex(l, s->entry.reserved);
		}
	}
	emit_char(l, '\n');
}

/* "user rw nx", the effective permissions in words. */
void text_access(struct line *l, uint32_t eff)
{
	if (eff & PGW_F_USER)
		emit_lit(l, "user ");
	else
		emit_lit(l, "kernel ");
	if (eff & PGW_F_RW)
		emit_lit(l, "rw ");
	else
		emit_lit(l, "ro ");
	emit_str(l, pgw_cli_exec_word(eff));
}

/* The leaf's memory-encryption bits and protection key, only where
 * there are any: " enc", " shared", " pkey=N". */
static void leaf_extra_text(struct line *l, uint32_t flags, unsigned pkey)
{
	if (flags & PGW_F_ENC)
		emit_str(l, " enc");
	if (flags & PGW_F_SHARED)
		emit_str(l, " shared");
	if (pkey) {
		emit_str(l, " pkey=");
		emit_u64(l, pkey);
	}
}

/* Why a walk stopped: the reason key, the absence of a table not in the
 * image, and where. */
static void stop_text(struct line *l, const struct out *o,
		      enum pgw_stop stop, enum pgw_level level,
		      enum pgw_absence absence)
{
	emit_str(l, "not mapped: ");
	emit_str(l, pgw_stop_key(stop));
	if (stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    stop == PGW_STOP_TABLE_BEYOND_MEMORY) {
		emit_str(l, " (");
		emit_str(l, pgw_absence_key(absence));
		emit_char(l, ')');
	}
	if (stop != PGW_STOP_NONCANONICAL && stop != PGW_STOP_BEYOND_SPACE) {
		emit_str(l, " at ");
		emit_str(l, out_level_name(o->mode, level));
	}
}

/* A batch line's words after its PA (an answer) or its arrow (none):
 * the same for every line with the same answer_tail_key. */
static void line_tail(struct line *l, const struct out *o, const void *ctx,
		      const struct pgw_answer *a)
{
	(void)ctx;
	if (a->stop != PGW_STOP_OK) {
		stop_text(l, o, a->stop, a->level, a->absence);
		return;
	}
	emit_char(l, ' ');
	text_size(l, a->page_size, 0);
	emit_char(l, ' ');
	emit_str(l, out_level_name(o->mode, a->level));
	emit_char(l, ' ');
	text_access(l, a->eff_flags);
	leaf_extra_text(l, a->flags, a->pkey);
	if (a->absence != PGW_ABSENT_NONE) {
		emit_lit(l, " data-not-in-image (");
		emit_str(l, pgw_absence_key(a->absence));
		emit_char(l, ')');
	}
}

/* The batch lines' tails spelled so far. */
static struct spelled line_tails[SPELLED_SLOTS];

/* One line per address (batches): "VA -> PA SIZE LEVEL PERMS". */
static void text_xlat(struct out *o, const uint64_t *va,
		      const struct pgw_answer *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct line *l = out_row(o);
		emit_hex(l, va[i]);
		emit_lit(l, " -> ");
		if (a[i].stop == PGW_STOP_OK)
			emit_hex(l, a[i].pa);
		spelled_tail(line_tails, 0, o, NULL, &a[i], l, line_tail);
		struct addr_name nm;
		if (out_name(o, -1, va[i], &nm))
			text_name(l, &nm);
		emit_char(l, '\n');
	}
}

/* The whole walk, like crash's vtop (one ADDR, or --levels). */
static void text_xlat_walk(struct out *o, const struct pgw_xlat *x,
			   const char *why)
{
	struct line l;

	out_rows_flush(o);   /* a whole walk may not fit in o->rows */
	l.len = 0;
	emit_str(&l, "VIRTUAL ");
	emit_hex(&l, x->va);
	if (x->stop == PGW_STOP_OK) {
		emit_str(&l, " -> PHYSICAL ");
		emit_hex(&l, x->pa);
		emit_str(&l, " (");
		text_size(&l, x->page_size, 0);
		emit_str(&l, " page at ");
		emit_str(&l, out_level_name(o->mode, x->level));
		if (!x->data_in_image) {
			emit_str(&l, "; data-not-in-image: ");
			emit_str(&l, pgw_absence_key(x->data_absence));
		}
		emit_str(&l, ")\n");
	} else {
		emit_str(&l, " -> ");
		stop_text(&l, o, x->stop, x->level, x->table_absence);
		emit_char(&l, '\n');
	}
	struct addr_name nm;
	if (out_name(o, -1, x->va, &nm)) {
		emit_char(&l, ' ');
		text_name(&l, &nm);
		emit_char(&l, '\n');
	}
	for (unsigned i = 0; i < x->nsteps; i++)
		step_text(&l, o->mode, &x->step[i], x->table_absence);
	if (x->stop == PGW_STOP_OK) {
		emit_str(&l, "  page ");
		emit_hex(&l, x->pa & ~(x->page_size - 1));
		emit_str(&l, "  effective: ");
		text_access(&l, x->eff_flags);
		emit_char(&l, '\n');
	} else if (why && why[0]) {
		/* Why the table is missing: filtered, outside RAM, cut off. */
		emit_str(&l, "  ");
		emit_text_strn(&l, why, strlen(why));
		emit_char(&l, '\n');
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void text_bad(struct out *o, const char *text, size_t n)
{
	struct line l;
	l.len = 0;

	out_rows_flush(o);   /* an echo may not fit in o->rows */
	emit_str(&l, "input '");
	emit_bytes(&l, o->f, text, n, emit_text_char);
	emit_str(&l, o->levels ? "' -> not-an-address\n\n" :
				 "' -> not-an-address\n");
	fwrite(l.buf, 1, l.len, o->f);
}

/* ---- info ---- */

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

static void text_info(struct out *o, const struct info_view *v)
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

/* ---- dump and regions ---- */

/* ptdump's size spelling: the largest unit that divides evenly. */
void text_size(struct line *l, uint64_t size, int width)
{
	/* The last one spelled: --leaves asks for "4K" millions of times. */
	static struct line last;
	static uint64_t last_size = 1;
	static int last_width = -1;

	if (size == last_size && width == last_width) {
		emit_mem(l, last.buf, last.len);
		return;
	}
	size_t at = l->len;
	human_spell(l, size, width);
	last.len = 0;
	emit_mem(&last, l->buf + at, l->len - at);
	last_size = size;
	last_width = width;
}

/* text_size's words, spelled. */
static void human_spell(struct line *l, uint64_t size, int width)
{
	static const char unit[] = "KMGTPE";
	char t[24];
	int n = 0, u = -1;

	if (size && !(size & 1023)) {
		size >>= 10;
		u = 0;
		while (!(size & 1023) && u + 1 < (int)sizeof(unit) - 1) {
			size >>= 10;
			u++;
		}
	}
	if (u >= 0 || size)
		t[n++] = u >= 0 ? unit[u] : 'B';
	do {
		t[n++] = (char)('0' + size % 10);
		size /= 10;
	} while (size);
	/* Right-aligned; a value wider than the column still gets a blank
	 * before it (except in running text, width 0). */
	for (int i = n; i < width; i++)
		emit_char(l, ' ');
	if (width && n >= width)
		emit_char(l, ' ');
	while (n)
		emit_char(l, t[--n]);
}

/* Zero-padded to `digits`, wider when the value needs it (2^32, the end
 * of a 32-bit space). */
void text_hexw(struct line *l, uint64_t v, int digits)
{
	emit_hex_min(l, v, digits);
}

/* start-end, with an end of 2^64 spelled out. */
void text_span(struct line *l, const struct out *o, uint64_t va,
	       uint64_t end)
{
	int w = out_va_digits(o->mode);

	stencil_hex(o->stencil, l, ST_VA, va, w);
	emit_char(l, '-');
	if (end == 0 && va != 0)
		emit_str(l, "0x10000000000000000");
	else
		stencil_hex(o->stencil, l, ST_END, end, w);
}

/* Drop trailing blanks, end the line, write it (after what o->rows
 * gathered). */
void text_heads(struct out *o, const struct text_col *col, size_t n,
		const char *last)
{
	struct line l;
	l.len = 0;

	for (size_t i = 0; i < n; i++)
		text_cell(&l, col[i].name, col[i].width);
	if (last)
		emit_str(&l, last);
	text_put(o, &l);
}

void text_put(struct out *o, struct line *l)
{
	out_rows_flush(o);
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

static void text_dump_region(struct out *o, const struct pgw_region *r)
{
	out_rows_flush(o);
	fprintf(o->f, "---[ %s ]---\n", r->name);
}

static void text_dump_map(struct out *o, struct line *l,
			  const struct pgw_run *run, uint64_t not_in_image)
{
	uint32_t e = run->eff_flags, f = run->flags;
	size_t start = l->len;

	text_span(l, o, run->va, run->end);
	text_size(l, run->end - run->va, 10);
	emit_char(l, ' ');
	stencil_hex(o->stencil, l, ST_PA, run->pa, out_pa_digits(o->mode));
	text_size(l, run->page_size, 4);
	emit_char(l, ' ');
	emit_str(l, out_level_name(o->mode, run->level));
	if (e & PGW_F_USER)
		emit_lit(l, " USR");
	else
		emit_lit(l, "    ");
	if (e & PGW_F_RW)
		emit_lit(l, " RW");
	else
		emit_lit(l, " ro");
	if (f & PGW_F_PWT)
		emit_lit(l, " PWT");
	else
		emit_lit(l, "    ");
	if (f & PGW_F_PCD)
		emit_lit(l, " PCD");
	else
		emit_lit(l, "    ");
	if (f & PGW_F_PAT)
		emit_lit(l, " PAT");
	else
		emit_lit(l, "    ");
	if (f & PGW_F_GLOBAL)
		emit_lit(l, " GLB");
	else
		emit_lit(l, "    ");
	/* Padded: the columns after it line up (the end is trimmed). */
	emit_str(l, pgw_cli_exec_cell(e));
	/* Memory encryption and protection keys only where there are any,
	 * so other dumps keep ptdump's columns. */
	if (f & PGW_F_ENC)
		emit_lit(l, " ENC");
	if (f & PGW_F_SHARED)
		emit_lit(l, " SHR");
	if (run->pkey) {
		emit_lit(l, " pkey=");
		emit_u64(l, run->pkey);
	}
	if (run->same_frame)
		emit_lit(l, "  same frame");
	if (run->stride) {
		emit_lit(l, " every ");
		text_size(l, run->stride, 0);
	}
	if (not_in_image) {
		emit_lit(l, "  not in image: ");
		text_size(l, not_in_image, 0);
	}
	struct addr_name nm;
	if (out_name(o, -1, run->va, &nm)) {
		while (l->len > start && l->buf[l->len - 1] == ' ')
			l->len--;
		emit_char(l, ' ');
		text_name(l, &nm);
	}
	while (l->len > start && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
}

static void text_dump_hole(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	text_span(&l, o, run->va, run->end);
	text_size(&l, run->end - run->va, 10);
	emit_str(&l, " hole ");
	emit_str(&l, out_level_name(o->mode, run->level));
	emit_char(&l, ' ');
	emit_str(&l, pgw_stop_key(run->stop));
	if (run->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    run->stop == PGW_STOP_TABLE_BEYOND_MEMORY) {
		emit_str(&l, " (");
		emit_str(&l, pgw_absence_key(run->absence));
		emit_char(&l, ')');
	}
	if (run->np_kind == PGW_NP_PROTNONE) {
		emit_str(&l, ": protnone pa ");
		emit_hex(&l, run->np_pfn << PGW_PAGE_SHIFT);
	} else if (run->np_kind == PGW_NP_OTHER) {
		emit_str(&l, ": entry ");
		emit_hex(&l, run->entry_raw);
	} else if (run->np_kind != PGW_NP_NONE) {
		emit_str(&l, ": ");
		emit_str(&l, pgw_np_kind_key(run->np_kind));
		emit_str(&l, " type ");
		emit_u64(&l, run->swap_type);
		emit_str(&l, " offset ");
		emit_hex(&l, run->swap_offset);
	} else if (run->entry_pa) {
		emit_str(&l, ": entry ");
		emit_hex(&l, run->entry_raw);
		emit_str(&l, " at ");
		emit_hex(&l, run->entry_pa);
	}
	text_put(o, &l);
}

/* "; INCOMPLETE: why" for a summary that is not whole. */
void text_incomplete(struct line *l, const char *reason, const char *tail)
{
	static const struct { const char *reason, *words; } why[] = {
		{ "budget", "the entry budget ran out (raise --max-entries)" },
		{ "table-not-in-image", "page tables not in the image" },
		{ "read-error", "the image could not be read" },
	};

	if (!reason)
		return;
	emit_str(l, "; INCOMPLETE: ");
	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++)
		if (strcmp(reason, why[i].reason) == 0)
			emit_str(l, why[i].words);
	emit_str(l, tail);
}

static void text_dump_summary(struct out *o, const struct dump_summary *s)
{
	struct line l;
	l.len = 0;
	bool first = true;

	emit_str(&l, "# mapped: ");
	text_size(&l, s->mapped, 0);
	emit_str(&l, " in ");
	emit_u64(&l, s->maps);
	emit_str(&l, s->maps == 1 ? " range" : " ranges");
	for (int lv = 0; lv < PGW_NLEVELS; lv++) {
		if (!s->level_bytes[lv])
			continue;
		emit_str(&l, first ? ": " : ", ");
		first = false;
		text_size(&l, pgw_level_span(o->mode, (enum pgw_level)lv), 0);
		emit_str(&l, " pages ");
		text_size(&l, s->level_bytes[lv], 0);
	}
	text_put(o, &l);
	if (s->not_in_image) {
		l.len = 0;
		emit_str(&l, "# not in image: ");
		text_size(&l, s->not_in_image, 0);
		emit_str(&l, " of the mapped bytes (their data; the mappings "
			     "stand)");
		text_put(o, &l);
	}
	l.len = 0;
	emit_str(&l, "# holes: ");
	emit_u64(&l, s->holes);
	if (s->nonpresent) {
		emit_str(&l, " (");
		emit_u64(&l, s->nonpresent);
		emit_str(&l, " of non-present entries with meaning)");
	}
	if (s->tables_missing) {
		emit_str(&l, ", ");
		emit_u64(&l, s->tables_missing);
		emit_str(&l, " where a page table is not in the image");
	}
	text_put(o, &l);
	l.len = 0;
	emit_str(&l, "# W+X: ");
	emit_u64(&l, s->wx);
	emit_str(&l, s->wx == 1 ? " range, " : " ranges, ");
	text_size(&l, s->wx_bytes, 0);
	if (s->unknown_perm_bytes) {
		emit_str(&l, "; and ");
		text_size(&l, s->unknown_perm_bytes, 0);
		emit_str(&l, " under page-table cycles, not walked: "
			     "permissions unknown");
	}
	if (s->no_nx && s->wx)
		emit_str(&l, " (this mode has no NX bit: every writable "
			     "page is executable)");
	text_put(o, &l);
	l.len = 0;
	emit_str(&l, "# walk: ");
	emit_u64(&l, s->stats.entries);
	emit_str(&l, " entries in ");
	emit_u64(&l, s->stats.tables);
	emit_str(&l, " tables, ");
	emit_u64(&l, s->stats.leaves);
	emit_str(&l, " leaves");
	text_incomplete(&l, s->reason, "");
	text_put(o, &l);
}

static void text_table(struct out *o, const struct rec_table *t,
		       const void *ctx)
{
	if (t->text)
		t->text(o, ctx);
}

static void text_record(struct out *o, const struct rec_type *t,
			const void *rec)
{
	if (t->text)
		t->text(o, rec);
}

const struct formatter fmt_text = {
	.name = "text",
	.table_begin = text_table,
	.record = text_record,
	.info = text_info,
	.xlat = text_xlat,
	.xlat_walk = text_xlat_walk,
	.bad_addr = text_bad,
	.dump_region = text_dump_region,
	.dump_map = text_dump_map,
	.dump_hole = text_dump_hole,
	.dump_summary = text_dump_summary,
};
