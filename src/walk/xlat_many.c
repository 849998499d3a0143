/*
 * A batch's answers (pgw_translate_many): runs of brief answers from the
 * paging-structure cache, and between them the address that needs a
 * walk, walked through the cache (which fills it for the addresses
 * after) copying only the step that answers.
 */
#include "xlat_parts.h"

void pgw_translate_many(const struct pgw_space *space,
			struct pgw_xlat_cache *cache, const uint64_t *va,
			size_t n, struct pgw_answer *out)
{
	struct pgw_xlat x;
	unsigned first;

	if (!cache) {
		for (size_t i = 0; i < n; i++) {
			pgw_translate(space, NULL, va[i], &x);
			pgw_xlat_answer(&x, &out[i]);
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		i += pgw_translate_brief(space, cache, va + i, n - i, out + i);
		if (i == n)
			break;
		pgw_translate_last(space, cache, va[i], &x, &first);
		pgw_xlat_answer(&x, &out[i]);
	}
}
