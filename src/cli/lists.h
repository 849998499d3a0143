/*
 * Lists the help text and error messages name, built from the tables
 * themselves (modes, image formats, formatters), so that adding an entry
 * to one table is all it takes for every message to name it.
 */
#ifndef PGW_LISTS_H
#define PGW_LISTS_H

#include <stddef.h>

/* The i-th name of a table, NULL past the last. */
typedef const char *(*list_name_fn)(size_t i);

const char *list_mode(size_t i);
const char *list_image_format(size_t i);
const char *list_output_format(size_t i);
/* Output formats info can print (not CSV/TSV: an image is no table). */
const char *list_info_format(size_t i);

/* check's rules and severities, lowest first. */
const char *list_rule(size_t i);
const char *list_severity(size_t i);

/* The names joined into buf: ", " between them, or last_sep before the
 * last ("text or json").  Returns buf. */
const char *list_join(char *buf, size_t size, list_name_fn name,
		      const char *last_sep);

#endif
