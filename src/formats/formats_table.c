#include "format.h"

extern const struct pgw_format pgw_format_elf;
extern const struct pgw_format pgw_format_kdump;
extern const struct pgw_format pgw_format_lime;
extern const struct pgw_format pgw_format_avml;
extern const struct pgw_format pgw_format_raw;

/*
 * Probe order: formats with magic first; raw has none and is never probed.
 * makedumpfile's flattened format is not here: it is a view of the file
 * (flat.c), and the format inside it is probed like any other.
 */
const struct pgw_format *const pgw_formats[] = {
	&pgw_format_elf,
	&pgw_format_kdump,
	&pgw_format_lime,
	&pgw_format_avml,
	&pgw_format_raw,
	NULL,
};

const char *pgw_image_format_name(size_t i)
{
	for (size_t k = 0; pgw_formats[k]; k++)
		if (k == i)
			return pgw_formats[k]->name;
	return NULL;
}
