/* Human output: every level walked, like crash's vtop, one block per VA. */
#include <inttypes.h>

#include "emit.h"
#include "output.h"

static void size_text(struct line *l, uint64_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (size >= 1024 && (size & 1023) == 0 && u < 4) {
		size >>= 10;
		u++;
	}
	emit_u64(l, size);
	emit_char(l, ' ');
	emit_str(l, unit[u]);
}

static void np_text(struct line *l, const struct pgw_entry *e)
{
	emit_str(l, "not present (");
	emit_str(l, pgw_np_kind_key(e->np_kind));
	if (e->np_kind == PGW_NP_PROTNONE) {
		emit_str(l, ", frame ");
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
		      const struct pgw_step *s)
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
		emit_str(l, "<table page not in image>\n");
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

static void text_xlat(struct out *o, const struct pgw_xlat *x)
{
	struct line l;

	l.len = 0;

	emit_str(&l, "VIRTUAL ");
	emit_hex(&l, x->va);
	if (x->stop == PGW_STOP_OK) {
		emit_str(&l, " -> PHYSICAL ");
		emit_hex(&l, x->pa);
		emit_str(&l, " (");
		size_text(&l, x->page_size);
		emit_str(&l, " page at ");
		emit_str(&l, out_level_name(o->mode, x->level));
		emit_str(&l, x->data_in_image ? ")\n" :
						 "; data NOT in image)\n");
	} else {
		emit_str(&l, " -> not mapped: ");
		emit_str(&l, out_xlat_error(x->stop));
		if (x->stop != PGW_STOP_NONCANONICAL) {
			emit_str(&l, " at ");
			emit_str(&l, out_level_name(o->mode, x->level));
		}
		emit_char(&l, '\n');
	}
	for (unsigned i = 0; i < x->nsteps; i++)
		step_text(&l, o->mode, &x->step[i]);
	if (x->stop == PGW_STOP_OK) {
		emit_str(&l, "  page ");
		emit_hex(&l, x->pa & ~(x->page_size - 1));
		emit_str(&l, "  effective: ");
		emit_str(&l, (x->eff_flags & PGW_F_USER) ? "user " : "kernel ");
		emit_str(&l, (x->eff_flags & PGW_F_RW) ? "rw " : "ro ");
		emit_str(&l, (x->eff_flags & PGW_F_NX) ? "nx\n" : "exec\n");
	} else if (x->io.msg[0]) {
		/* Why the table is missing: filtered, outside RAM, cut off. */
		emit_str(&l, "  ");
		emit_str(&l, x->io.msg);
		emit_char(&l, '\n');
	}
	emit_char(&l, '\n');
	fwrite(l.buf, 1, l.len, o->f);
}

static void text_bad(struct out *o, const char *text)
{
	fprintf(o->f, "INPUT '%.200s' -> not an address\n\n", text);
}

/* ---- info ---- */

/* The memory-encryption bits entries are read with, and why. */
static void text_info_enc(struct out *o, const struct pgw_enc_choice *e)
{
	char prefix[160];
	int n = snprintf(prefix, sizeof(prefix), "encryption:  ");

	if (e->bits.enc)
		n += snprintf(prefix + n, sizeof(prefix) - (size_t)n,
			      "C-bit %u (mask 0x%llx, %s), ",
			      (unsigned)__builtin_ctzll(e->bits.enc),
			      (unsigned long long)e->bits.enc,
			      pgw_enc_source_key(e->source));
	if (e->bits.shared)
		n += snprintf(prefix + n, sizeof(prefix) - (size_t)n,
			      "shared bit %u (mask 0x%llx, %s), ",
			      (unsigned)__builtin_ctzll(e->bits.shared),
			      (unsigned long long)e->bits.shared,
			      pgw_enc_source_key(e->shared_source));
	if (!e->bits.enc && !e->bits.shared)
		n += snprintf(prefix + n, sizeof(prefix) - (size_t)n, "none, ");
	/* "C-bit 47 (mask 0x800000000000, vmcoreinfo) (why)" */
	snprintf(prefix + n - 2, sizeof(prefix) - (size_t)n + 2, " (");
	out_text_line(o->f, prefix, e->why, ")\n");
}

#define INFO_TEXT_RANGES 8

static void text_info_cpus(struct out *o, const struct info_view *v)
{
	const struct pgw_cpu *cpus;
	size_t nc = pgw_image_cpus(v->img, &cpus);

	fprintf(o->f, "cpus:        %zu with registers (QEMU notes), %zu "
		"NT_PRSTATUS\n", nc, pgw_image_prstatus_count(v->img));
	for (size_t i = 0; i < nc; i++) {
		const struct pgw_cpu *c = &cpus[i];
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

static void text_info(struct out *o, const struct info_view *v)
{
	const struct pgw_phys_range *r;
	const char *const *fk, *const *fv;
	struct pgw_image *img = v->img;
	size_t nr = pgw_image_ranges(img, &r);
	size_t nf = pgw_image_facts(img, &fk, &fv);
	uint64_t total = 0;
	char prefix[160];

	fprintf(o->f, "image:       %s\n", pgw_image_path(img));
	fprintf(o->f, "format:      %s", pgw_image_format(img));
	if (pgw_image_class(img))
		fprintf(o->f, ", ELF%u, machine %s", pgw_image_class(img),
			pgw_machine_name(pgw_image_machine(img)));
	fprintf(o->f, "\n");
	for (size_t i = 0; i < nf; i++) {
		snprintf(prefix, sizeof(prefix), "  %s: ", fk[i]);
		out_text_line(o->f, prefix, fv[i], "\n");
	}
	for (size_t i = 0; i < nr; i++)
		total += r[i].size;
	fprintf(o->f, "physical:    %zu range%s, %llu bytes (%.1f MiB), "
		"highest 0x%llx\n", nr, nr == 1 ? "" : "s",
		(unsigned long long)total, (double)total / (1 << 20),
		nr ? (unsigned long long)(r[nr - 1].start + r[nr - 1].size - 1)
		   : 0ULL);
	/* A filtered or sparse dump can have thousands: text shows the
	 * first few, JSON all of them. */
	for (size_t i = 0; i < nr && i < INFO_TEXT_RANGES; i++)
		fprintf(o->f, "  0x%llx-0x%llx\n",
			(unsigned long long)r[i].start,
			(unsigned long long)(r[i].start + r[i].size - 1));
	if (nr > INFO_TEXT_RANGES)
		fprintf(o->f, "  ... %zu more (--format=json lists all)\n",
			nr - INFO_TEXT_RANGES);
	text_info_cpus(o, v);
	fprintf(o->f, "vmcoreinfo:  %zu entries\n", pgw_vmcoreinfo_count(img));
	for (size_t i = 0; v->vmcoreinfo[i]; i++) {
		const char *val = pgw_vmcoreinfo_get(img, v->vmcoreinfo[i]);
		snprintf(prefix, sizeof(prefix), "  %s=", v->vmcoreinfo[i]);
		if (val)
			out_text_line(o->f, prefix, val, "\n");
	}
	/* The mode may be known when the root is not (the error says why
	 * on stderr). */
	if (v->why->mode.mode) {
		snprintf(prefix, sizeof(prefix), "mode:        %s (",
			 v->why->mode.mode->name);
		out_text_line(o->f, prefix, v->why->mode.why, ")\n");
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
}

/* ---- dump and regions ---- */

/* ptdump's size spelling: the largest unit that divides evenly. */
static void human(struct line *l, uint64_t size, int width)
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
static void hexw(struct line *l, uint64_t v, int digits)
{
	while (digits < 16 && (v >> (4 * digits)) != 0)
		digits++;
	emit_str(l, "0x");
	emit_hex_w(l, v, digits);
}

/* start-end, with an end of 2^64 spelled out. */
static void span(struct line *l, const struct out *o, uint64_t va,
		 uint64_t end)
{
	int w = out_va_digits(o->mode);

	hexw(l, va, w);
	emit_char(l, '-');
	if (end == 0 && va != 0)
		emit_str(l, "0x10000000000000000");
	else
		hexw(l, end, w);
}

/* Drop trailing blanks, end the line, write it. */
static void put(struct out *o, struct line *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	emit_char(l, '\n');
	fwrite(l->buf, 1, l->len, o->f);
}

static void text_dump_begin(struct out *o, const struct walk_head *h)
{
	const struct pgw_layout *lay = h->layout;

	char prefix[160];

	snprintf(prefix, sizeof(prefix), "# mode %s (", o->mode->name);
	out_text_line(o->f, prefix, h->mode_why, ")\n");
	snprintf(prefix, sizeof(prefix), "# root 0x%llx (",
		 (unsigned long long)h->root);
	out_text_line(o->f, prefix, h->root_why, ")\n");
	if (!lay)
		return;
	snprintf(prefix, sizeof(prefix), "# layout %s (", lay->name);
	out_text_line(o->f, prefix, lay->why, ")\n");
	for (size_t i = 0; i < lay->nbases; i++) {
		snprintf(prefix, sizeof(prefix), "# %s 0x%llx %s: ",
			 lay->base[i].name,
			 (unsigned long long)lay->base[i].value,
			 pgw_base_source_name(lay->base[i].source));
		out_text_line(o->f, prefix, lay->base[i].why, "\n");
	}
}

static void text_dump_region(struct out *o, const struct pgw_region *r)
{
	fprintf(o->f, "---[ %s ]---\n", r->name);
}

static void text_dump_map(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;
	uint32_t e = run->eff_flags, f = run->flags;

	span(&l, o, run->va, run->end);
	human(&l, run->end - run->va, 10);
	emit_char(&l, ' ');
	hexw(&l, run->pa, out_pa_digits(o->mode));
	human(&l, run->page_size, 4);
	emit_char(&l, ' ');
	emit_str(&l, out_level_name(o->mode, run->level));
	emit_str(&l, (e & PGW_F_USER) ? " USR" : "    ");
	emit_str(&l, (e & PGW_F_RW) ? " RW" : " ro");
	emit_str(&l, (f & PGW_F_PWT) ? " PWT" : "    ");
	emit_str(&l, (f & PGW_F_PCD) ? " PCD" : "    ");
	emit_str(&l, (f & PGW_F_PAT) ? " PAT" : "    ");
	emit_str(&l, (f & PGW_F_GLOBAL) ? " GLB" : "    ");
	emit_str(&l, (e & PGW_F_NX) ? " NX" : " x");
	/* Memory encryption and protection keys only where there are any,
	 * so other dumps keep ptdump's columns. */
	if (f & PGW_F_ENC)
		emit_str(&l, " ENC");
	if (f & PGW_F_SHARED)
		emit_str(&l, " SHR");
	if (run->pkey) {
		emit_str(&l, " pkey=");
		emit_u64(&l, run->pkey);
	}
	if (run->same_frame)
		emit_str(&l, "  same frame");
	put(o, &l);
}

static void text_dump_hole(struct out *o, const struct pgw_run *run)
{
	struct line l;
	l.len = 0;

	span(&l, o, run->va, run->end);
	human(&l, run->end - run->va, 10);
	emit_str(&l, " hole ");
	emit_str(&l, out_level_name(o->mode, run->level));
	emit_char(&l, ' ');
	emit_str(&l, out_hole_text(run->stop));
	if (run->np_kind == PGW_NP_PROTNONE) {
		emit_str(&l, ": protnone frame ");
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
	} else if (run->stop != PGW_STOP_NOT_PRESENT &&
		   run->stop != PGW_STOP_NONCANONICAL) {
		emit_str(&l, ": entry ");
		emit_hex(&l, run->entry_raw);
		emit_str(&l, " at ");
		emit_hex(&l, run->entry_pa);
	}
	put(o, &l);
}

static void text_dump_summary(struct out *o, const struct dump_summary *s)
{
	struct line l;
	l.len = 0;
	bool first = true;

	emit_str(&l, "# mapped: ");
	human(&l, s->mapped, 0);
	emit_str(&l, " in ");
	emit_u64(&l, s->maps);
	emit_str(&l, s->maps == 1 ? " range" : " ranges");
	for (int lv = 0; lv < PGW_NLEVELS; lv++) {
		if (!s->level_bytes[lv])
			continue;
		emit_str(&l, first ? ": " : ", ");
		first = false;
		human(&l, pgw_level_span(o->mode, (enum pgw_level)lv), 0);
		emit_str(&l, " pages ");
		human(&l, s->level_bytes[lv], 0);
	}
	put(o, &l);
	l.len = 0;
	emit_str(&l, "# holes: ");
	emit_u64(&l, s->holes);
	if (s->nonpresent) {
		emit_str(&l, " (");
		emit_u64(&l, s->nonpresent);
		emit_str(&l, " of non-present entries with meaning)");
	}
	put(o, &l);
	l.len = 0;
	emit_str(&l, "# W+X: ");
	emit_u64(&l, s->wx);
	emit_str(&l, s->wx == 1 ? " range, " : " ranges, ");
	human(&l, s->wx_bytes, 0);
	put(o, &l);
	l.len = 0;
	emit_str(&l, "# walk: ");
	emit_u64(&l, s->stats.entries);
	emit_str(&l, " entries in ");
	emit_u64(&l, s->stats.tables);
	emit_str(&l, " tables, ");
	emit_u64(&l, s->stats.leaves);
	emit_str(&l, " leaves");
	if (!s->complete)
		emit_str(&l, "; INCOMPLETE: the entry budget ran out (raise "
			     "--max-entries)");
	put(o, &l);
}

static void text_regions_begin(struct out *o, const struct walk_head *h)
{
	text_dump_begin(o, h);
	fprintf(o->f, "# %-*s %10s %10s %8s  REGION\n",
		2 * out_va_digits(o->mode) + 3, "START-END", "SIZE", "MAPPED",
		"LEAVES");
}

static void text_regions_row(struct out *o, const struct pgw_region *r,
			     const struct region_usage *u)
{
	struct line l;
	l.len = 0;
	struct line n;
	n.len = 0;

	emit_str(&l, "  ");
	span(&l, o, r->start, r->end);
	human(&l, r->end - r->start, 11);
	if (u->mapped)
		human(&l, u->mapped, 11);
	else
		emit_str(&l, "          -");
	if (u->leaves)
		emit_u64(&n, u->leaves);
	else
		emit_char(&n, '-');
	for (size_t i = n.len; i < 9; i++)
		emit_char(&l, ' ');
	if (n.len >= 9)
		emit_char(&l, ' ');  /* shared tables: counts past the column */
	memcpy(l.buf + l.len, n.buf, n.len);
	l.len += n.len;
	emit_str(&l, "  ");
	emit_str(&l, r->name);
	put(o, &l);
}

const struct formatter fmt_text = {
	.name = "text",
	.info = text_info,
	.xlat = text_xlat,
	.bad_addr = text_bad,
	.dump_begin = text_dump_begin,
	.dump_region = text_dump_region,
	.dump_map = text_dump_map,
	.dump_hole = text_dump_hole,
	.dump_summary = text_dump_summary,
	.regions_begin = text_regions_begin,
	.regions_row = text_regions_row,
};
