#include "emit.h"
#include "output.h"
#include "../lib/names.h"

#include <string.h>

extern const struct formatter fmt_text, fmt_json, fmt_tsv, fmt_csv;

static const struct formatter *const all[] = {
	&fmt_text, &fmt_json, &fmt_tsv, &fmt_csv, NULL,
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

const char *out_level_name(const struct pgw_mode *mode, enum pgw_level lvl)
{
	return mode->level[lvl].name;
}

/*
 * Today's words where a command's output says a stop differently from
 * pgw_stop_text (unified with the output contract later): translate calls
 * a table past the end of memory "page table not in image", and dump's
 * text holes keep their short forms.
 */
const char *out_xlat_error(enum pgw_stop stop)
{
	static const char *const words[PGW_NSTOPS] = {
		[PGW_STOP_TABLE_BEYOND_MEMORY] = "page table not in image",
		[PGW_STOP_BAD_LEAF] = "large page where the level allows none",
	};
	return PGW_NAME(words, stop, pgw_stop_text(stop));
}

const char *out_hole_text(enum pgw_stop stop)
{
	static const char *const words[PGW_NSTOPS] = {
		[PGW_STOP_NONCANONICAL] = "non-canonical",
		[PGW_STOP_BAD_LEAF] = "bad leaf",
	};
	return PGW_NAME(words, stop, pgw_stop_text(stop));
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
