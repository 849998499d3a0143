/*
 * The facts cache's entries (src/cli/facts_cache.c) as a hostile file
 * may hold them: any bytes, parsed against the identity "image fuzz".
 * Invariants: an entry accepted holds at most PGW_VMCI_MAX_LISTED pages,
 * each page-aligned and above the one before, modes that exist, and
 * writing it out and parsing that again gives the same hint.  Seeds:
 * fuzz/corpus/facts_cache/ (entries as pgwalk writes them).
 */
#include <string.h>

#include "exercise.h"
#include "cli/facts_cache.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char id[] = "image fuzz";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[8192], again[4096];
	struct pgw_facts_hint h, h2;
	char why[320];

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!facts_cache_parse(text, id, &h, why, sizeof(why))) {
		if (!why[0])
			fz_fail("a refused entry says why", size, 0);
		return 0;
	}
	if (h.nvmci > PGW_VMCI_MAX_LISTED || (!h.nvmci && !h.have_kroot))
		fz_fail("entry: page count", h.nvmci, h.have_kroot);
	for (size_t i = 0; i < h.nvmci; i++)
		if ((h.vmci_pa[i] & (PGW_PAGE_SIZE - 1)) ||
		    (i && h.vmci_pa[i] <= h.vmci_pa[i - 1]))
			fz_fail("entry: pages in order", i, h.vmci_pa[i]);
	if (h.have_kroot && !h.kroot_mode)
		fz_fail("entry: a kernel root without a mode", h.kroot, 0);
	facts_cache_format(&h, id, again, sizeof(again));
	if (!facts_cache_parse(again, id, &h2, why, sizeof(why)) ||
	    memcmp(&h, &h2, sizeof(h)) != 0)
		fz_fail("entry: written and read again differs", h.nvmci,
			h.have_kroot);
	return 0;
}
