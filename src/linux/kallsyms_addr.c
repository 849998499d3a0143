/*
 * kallsyms by address: the symbol an address lies in, as the kernel's
 * own %pS names it (kernel/kallsyms.c get_symbol_pos).  scripts/kallsyms.c
 * writes the table sorted by address, so a binary search over it needs
 * no index; a table that is not sorted (a damaged or forged image) gets
 * one, sorted here, rather than wrong names.
 */
#include "../lib/err.h"
#include "kallsyms_decode.h"

#include <stdlib.h>
#include <string.h>

/*
 * Symbols that mark where a section ends: memory past one belongs to no
 * symbol the table holds (padding, another section, memory outside the
 * image), so an address there is not named "_etext+0x1234".  Exact names,
 * then prefixes.
 */
static const char *const section_ends[] = {
	"_etext", "_edata", "_end", "_einittext", "_einitdata",
	"__init_end", "__bss_stop", "__end_rodata", "__brk_limit",
	"__nosave_end", "__entry_text_end", "__irqentry_text_end",
	"__softirqentry_text_end", "__end_of_kernel_reserve",
};
static const char *const section_end_prefixes[] = { "__stop_", "__end_" };

static bool ends_section(const char *name)
{
	for (size_t i = 0; i < sizeof(section_ends) / sizeof(*section_ends);
	     i++)
		if (strcmp(name, section_ends[i]) == 0)
			return true;
	for (size_t i = 0; i < sizeof(section_end_prefixes) /
				       sizeof(*section_end_prefixes); i++)
		if (strncmp(name, section_end_prefixes[i],
			    strlen(section_end_prefixes[i])) == 0)
			return true;
	return false;
}

/* The table's position pos (in address order) as a symbol index. */
static uint32_t at(const struct pgw_kallsyms *ks, uint32_t pos)
{
	return ks->by_addr ? ks->by_addr[pos] : pos;
}

static int cmp_addr(const void *a, const void *b, void *arg)
{
	const struct pgw_kallsyms *ks = arg;
	uint64_t x = pgw_kallsyms_address(ks, *(const uint32_t *)a);
	uint64_t y = pgw_kallsyms_address(ks, *(const uint32_t *)b);

	if (x != y)
		return x < y ? -1 : 1;
	/* Table order among equal addresses: the kernel's first alias. */
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

enum pgw_status pgw_kallsyms_index(struct pgw_kallsyms *ks,
				   struct pgw_err *err)
{
	uint64_t lo = UINT64_MAX, a;
	bool sorted = true;

	for (uint32_t i = 1; i < ks->num && sorted; i++)
		sorted = pgw_kallsyms_address(ks, i - 1) <=
			 pgw_kallsyms_address(ks, i);
	if (!sorted) {
		ks->by_addr = malloc(sizeof(*ks->by_addr) * ks->num);
		if (!ks->by_addr)
			return pgw_err_set(err, PGW_E_NOMEM,
					   "kallsyms: an address index");
		for (uint32_t i = 0; i < ks->num; i++)
			ks->by_addr[i] = i;
		qsort_r(ks->by_addr, ks->num, sizeof(*ks->by_addr), cmp_addr,
			ks);
	}
	/* The image starts at _text (_stext where the table lacks it):
	 * below are the per-cpu offsets of x86-64's absolute symbols, user
	 * addresses and the direct map, which no symbol names. */
	static const char *const starts[] = { "_text", "_stext" };
	struct pgw_err ignored;
	for (size_t i = 0; i < 2; i++)
		if (pgw_kallsyms_lookup(ks, starts[i], &a, NULL, &ignored) ==
			    PGW_OK && a < lo)
			lo = a;
	ks->image_start = lo != UINT64_MAX ? lo :
			  pgw_kallsyms_address(ks, at(ks, 0));
	return PGW_OK;
}

enum pgw_status pgw_kallsyms_symbol(const struct pgw_kallsyms *ks,
				    uint64_t addr, struct pgw_ksym *sym_ret,
				    uint64_t *offset_ret)
{
	uint32_t lo = 0, hi = ks->num;
	char buf[PGW_KSYM_NAME_MAX];

	if (addr < ks->image_start)
		return PGW_E_NOTFOUND;
	/* The first position whose address is above addr. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (pgw_kallsyms_address(ks, at(ks, mid)) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return PGW_E_NOTFOUND;
	uint32_t pos = lo - 1;
	uint64_t start = pgw_kallsyms_address(ks, at(ks, pos));
	/* None above: the last symbol (_end) names its own address only;
	 * past it lies what the table does not describe. */
	if (lo == ks->num && addr != start)
		return PGW_E_NOTFOUND;
	while (pos > 0 && pgw_kallsyms_address(ks, at(ks, pos - 1)) == start)
		pos--;
	size_t n = pgw_kallsyms_expand(ks, at(ks, pos), buf);
	if (n == 0 || (addr != start && ends_section(buf + 1)))
		return PGW_E_NOTFOUND;
	sym_ret->type = buf[0];
	sym_ret->addr = start;
	memcpy(sym_ret->name, buf + 1, n);
	*offset_ret = addr - start;
	return PGW_OK;
}
