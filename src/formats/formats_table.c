#include "format.h"

extern const struct pgw_format pgw_format_elf;
extern const struct pgw_format pgw_format_raw;

/* Probe order: formats with magic first; raw has none and is never probed. */
const struct pgw_format *const pgw_formats[] = {
	&pgw_format_elf,
	&pgw_format_raw,
	NULL,
};
