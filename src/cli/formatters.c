#include "output.h"

#include <string.h>

extern const struct formatter fmt_text, fmt_json, fmt_tsv, fmt_csv;

static const struct formatter *const all[] = {
	&fmt_text, &fmt_json, &fmt_tsv, &fmt_csv,
};

const struct formatter *formatter_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

const char *out_level_name(const struct pgw_mode *mode, enum pgw_level lvl)
{
	return mode->level[lvl].name;
}

const char *out_np_kind_name(enum pgw_np_kind kind)
{
	static const char *const names[] = {
		[PGW_NP_NONE] = "none",
		[PGW_NP_PROTNONE] = "protnone",
		[PGW_NP_SWAP] = "swap",
		[PGW_NP_MIGRATION] = "migration",
		[PGW_NP_DEVICE] = "device",
		[PGW_NP_HWPOISON] = "hwpoison",
		[PGW_NP_OTHER] = "other",
	};
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ?
		       names[kind] : "other";
}

const char *out_hole_kind_key(enum pgw_hole_kind kind)
{
	static const char *const keys[] = {
		[PGW_HOLE_NOT_PRESENT] = "not-present",
		[PGW_HOLE_NONCANONICAL] = "non-canonical",
		[PGW_HOLE_TABLE_NODATA] = "table-not-in-image",
		[PGW_HOLE_RESERVED] = "reserved-bits",
		[PGW_HOLE_CYCLE] = "cycle",
		[PGW_HOLE_BAD_LEAF] = "bad-leaf",
		[PGW_HOLE_BEYOND_MEMORY] = "table-beyond-memory",
	};
	return (unsigned)kind < sizeof(keys) / sizeof(keys[0]) ? keys[kind] :
								"unknown";
}

const char *out_region_key(const struct out *o, const struct pgw_run *run)
{
	if (!o->layout || run->region >= o->layout->nregions)
		return "unused";
	return o->layout->region[run->region].key;
}

int out_va_digits(const struct pgw_mode *mode)
{
	return mode->va_bits > 32 ? 16 : 8;
}

int out_pa_digits(const struct pgw_mode *mode)
{
	return mode->entry_size == 8 ? 13 : 10;
}
