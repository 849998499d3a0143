#include "emit.h"
#include "output.h"
#include "../lib/names.h"

#include <string.h>

#include "delimited.h"
#include "json_kv.h"

/* TSV spells an empty cell '-', CSV (RFC 4180) leaves it empty. */
static const struct formatter text = { "text", OUT_TEXT, { 0, NULL } };
static const struct formatter json = { "json", OUT_JSON, { 0, NULL } };
static const struct formatter tsv = { "tsv", OUT_DELIM, { '\t', "-" } };
static const struct formatter csv = { "csv", OUT_DELIM, { ',', "" } };

static const struct formatter *const all[] = {
	&text, &json, &tsv, &csv, NULL,
};

const struct formatter *const *formatters(void)
{
	return all;
}

const struct formatter *formatter_by_name(const char *name)
{
	for (size_t i = 0; all[i]; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

void out_table(struct out *o, const struct rec_table *t, const void *ctx)
{
	o->table = t;
	if (o->fmt->kind == OUT_DELIM)
		delim_table(o, &o->fmt->delim, t);
	else if (o->fmt->kind == OUT_TEXT && t->text)
		t->text(o, ctx);
}

void out_record(struct out *o, const struct rec_type *t, const void *rec)
{
	switch (o->fmt->kind) {
	case OUT_TEXT:
		if (t->text)
			t->text(o, rec);
		break;
	case OUT_JSON:
		json_record(o, t, rec);
		break;
	case OUT_DELIM:
		delim_record(o, &o->fmt->delim, t, rec);
		break;
	}
	o->last = t;
}

const char *out_level_name(const struct pgw_mode *mode, enum pgw_level lvl)
{
	return mode->level[lvl].name;
}

const char *out_region_key(const struct out *o, const struct pgw_run *run)
{
	if (!o->layout || run->region >= o->layout->nregions)
		return "unused";
	return o->layout->region[run->region].key;
}

void out_text_line(FILE *f, const char *prefix, const char *s,
		   const char *suffix)
{
	struct line l;
	l.len = 0;

	emit_str(&l, prefix);
	emit_long(&l, f, s, emit_text_strn);
	emit_str(&l, suffix);
	emit_spill(&l, f);
}

const char *out_cpu_ring(const struct pgw_cpu *c)
{
	if (!c->has_cs)
		return "unknown";
	return (c->cs_selector & 3) == 3 ? "user" : "kernel";
}

int out_va_digits(const struct pgw_mode *mode)
{
	return mode->va_bits > 32 ? 16 : 8;
}

int out_pa_digits(const struct pgw_mode *mode)
{
	return mode->entry_size == 8 ? 13 : 10;
}

/* In the order info shows them; a key a kernel does not export is left
 * out, one whose value is not a number of its kind is null (the raw text
 * stays under "raw"). */
const struct vmci_field out_vmci_fields[] = {
	{ "osrelease", "OSRELEASE", VMCI_STR },
	{ "page_size", "PAGESIZE", VMCI_DEC },
	{ "kerneloffset", "KERNELOFFSET", VMCI_HEX },
	{ "phys_base", "NUMBER(phys_base)", VMCI_ADDR },
	{ "pgtable_l5_enabled", "NUMBER(pgtable_l5_enabled)", VMCI_DEC },
	{ "config_x86_pae", "CONFIG_X86_PAE", VMCI_BOOL },
	{ "max_physmem_bits", "NUMBER(MAX_PHYSMEM_BITS)", VMCI_DEC },
	{ "sme_mask", "NUMBER(sme_mask)", VMCI_HEX },
	{ "init_top_pgt", "SYMBOL(init_top_pgt)", VMCI_ADDR },
	{ "swapper_pg_dir", "SYMBOL(swapper_pg_dir)", VMCI_ADDR },
	{ "stext", "SYMBOL(_stext)", VMCI_ADDR },
};
const size_t out_nvmci_fields = sizeof(out_vmci_fields) /
				sizeof(out_vmci_fields[0]);
