#include <stdio.h>

#include "search_out.h"

size_t search_label(const struct search_hit *h, char *buf, size_t n)
{
	int len = h->rule ?
		snprintf(buf, n, "yara:%s:%s", h->rule, h->rule_string) :
		snprintf(buf, n, "%s:%s", pgw_pattern_kind_key(h->kind),
			 h->text);

	return len < 0 ? 0 : (size_t)len < n ? (size_t)len : n - 1;
}
