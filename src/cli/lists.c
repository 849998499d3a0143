#include "lists.h"
#include "output.h"

#include <stdio.h>

const char *list_mode(size_t i)
{
	const struct pgw_mode *const *m = pgw_modes();

	for (size_t k = 0; m[k]; k++)
		if (k == i)
			return m[k]->name;
	return NULL;
}

const char *list_image_format(size_t i)
{
	return pgw_image_format_name(i);
}

const char *list_output_format(size_t i)
{
	const struct formatter *const *f = formatters();

	for (size_t k = 0; f[k]; k++)
		if (k == i)
			return f[k]->name;
	return NULL;
}

const char *list_info_format(size_t i)
{
	const struct formatter *const *f = formatters();

	for (size_t k = 0; f[k]; k++)
		if (f[k]->kind != OUT_DELIM && i-- == 0)
			return f[k]->name;
	return NULL;
}

const char *list_join(char *buf, size_t size, list_name_fn name,
		      const char *last_sep)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; name(i) && n < size; i++) {
		const char *sep = i == 0 ? "" : name(i + 1) ? ", " : last_sep;
		int w = snprintf(buf + n, size - n, "%s%s", sep, name(i));
		n += w > 0 ? (size_t)w : 0;
	}
	return buf;
}

const char *list_rule(size_t i)
{
	return i < PGW_NRULES ? pgw_rule_key((enum pgw_rule)i) : NULL;
}

const char *list_severity(size_t i)
{
	return i < PGW_NSEVERITIES ? pgw_severity_key((enum pgw_severity)i) :
				     NULL;
}
