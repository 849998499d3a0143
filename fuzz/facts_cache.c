/*
 * The facts cache's entries (src/cli/facts_cache.c) as a hostile file
 * may hold them: any bytes, parsed against the identity "image fuzz".
 * Invariants: an entry accepted holds at most PGW_VMCI_MAX_LISTED pages,
 * each page-aligned and above the one before, modes that exist, kernel
 * facts (facts_kernel.c) whole or not at all, with a method an entry
 * keeps and printable words, and writing it out and parsing that again
 * gives the same hint and kernel facts.  Seeds:
 * fuzz/corpus/facts_cache/ (entries as pgwalk writes them).
 */
#include <string.h>

#include "exercise.h"
#include "cli/facts_cache.c"
#include "cli/facts_kernel.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char id[] = "image fuzz";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[2 * FACTS_ENTRY_MAX], again[FACTS_ENTRY_MAX];
	static struct facts_kernel_read k, k2;
	struct pgw_facts_hint h, h2;
	char why[320];

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!facts_cache_parse(text, id, &h, &k, why, sizeof(why))) {
		if (!why[0])
			fz_fail("a refused entry says why", size, 0);
		return 0;
	}
	if (h.nvmci > PGW_VMCI_MAX_LISTED ||
	    (!h.nvmci && !h.have_kroot && !k.have))
		fz_fail("entry: page count", h.nvmci, h.have_kroot);
	for (size_t i = 0; i < h.nvmci; i++)
		if ((h.vmci_pa[i] & (PGW_PAGE_SIZE - 1)) ||
		    (i && h.vmci_pa[i] <= h.vmci_pa[i - 1]))
			fz_fail("entry: pages in order", i, h.vmci_pa[i]);
	if (h.have_kroot && !h.kroot_mode)
		fz_fail("entry: a kernel root without a mode", h.kroot, 0);
	if (k.have && (!k.k.mode || (k.k.how.method != PGW_TASKS_BTF &&
				     k.k.how.method != PGW_TASKS_SCANNED_BTF)))
		fz_fail("entry: kernel facts without a mode or method", 0, 0);
	for (size_t i = 0; k.have && k.k.how.why[i]; i++)
		if (k.k.how.why[i] < 0x20 || k.k.how.why[i] > 0x7e)
			fz_fail("entry: a byte in tasks-why", i,
				(uint8_t)k.k.how.why[i]);
	facts_cache_format(&h, k.have ? &k.k : NULL, id, again, sizeof(again));
	if (!facts_cache_parse(again, id, &h2, &k2, why, sizeof(why)) ||
	    memcmp(&h, &h2, sizeof(h)) != 0 || k.have != k2.have ||
	    (k.have && memcmp(&k.k, &k2.k, sizeof(k.k)) != 0))
		fz_fail("entry: written and read again differs", h.nvmci,
			h.have_kroot);
	return 0;
}
