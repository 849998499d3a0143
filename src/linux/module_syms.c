/*
 * A module's own symbols: the ELF symbol table the kernel keeps for each
 * module (kernel/module/kallsyms.c), whose st_value are the symbols'
 * addresses once the module is loaded.  The lookup is the kernel's
 * find_kallsyms_symbol: the last defined, named, non-mapping symbol at
 * or below the address; here also within the address's own range.
 */
#include "../lib/bytes.h"
#include "../lib/err.h"
#include "pgwalk.h"

#include <stdlib.h>
#include <string.h>

/* Elf64_Sym and Elf32_Sym: size, st_name, st_value (and its size),
 * st_shndx, st_size. */
static const struct elf_sym {
	unsigned size, name, value, value_size, shndx, sym_size;
} elf64 = { 24, 0, 8, 8, 6, 16 }, elf32 = { 16, 0, 4, 4, 14, 8 };

/* include/linux/module_symbol.h: names the assembler or an architecture
 * adds to mark code and data ($x, $d, .L..., L0...), never a function. */
static bool mapping_symbol(const char *s)
{
	return s[0] == '$' || (s[0] == '.' && s[1] == 'L') ||
	       (s[0] == 'L' && s[1] == '0');
}

/* The NUL-terminated name at va into buf (size bytes): false when it
 * cannot be read or has no NUL within size. */
static bool read_name(const struct pgw_space *kernel, uint64_t va,
		      char *buf, size_t size)
{
	size_t got = 0;
	struct pgw_err err;

	while (got < size) {
		size_t n = 64 - (va + got) % 64;
		if (n > size - got)
			n = size - got;
		if (pgw_read_virt(kernel, va + got, buf + got, n, NULL, &err) !=
		    PGW_OK)
			return false;
		if (memchr(buf + got, '\0', n))
			return true;
		got += n;
	}
	return false;
}

/* Where the symbol at value ends, as the kernel's nextval: the next
 * named, non-mapping symbol's value in the range, else the end of the
 * range's text (a text symbol) or of the range. */
static uint64_t next_value(const struct pgw_space *kernel,
			   const struct pgw_module *m,
			   const struct elf_sym *e, const uint8_t *tab,
			   uint32_t n, const struct pgw_module_range *r,
			   uint64_t value)
{
	uint64_t next = value - r->base < r->text_size ?
				r->base + r->text_size : r->base + r->size;
	char name[PGW_KSYM_NAME_MAX];

	for (uint32_t i = 1; i < n; i++) {
		const uint8_t *s = tab + (size_t)i * e->size;
		uint64_t v = pgw_le(s + e->value, e->value_size);
		if (!pgw_le(s + e->shndx, 2) || v <= value || v >= next ||
		    !read_name(kernel, m->strtab + pgw_le(s + e->name, 4), name,
			       sizeof(name)) ||
		    !name[0] || mapping_symbol(name))
			continue;
		next = v;
	}
	return next;
}

enum pgw_status pgw_modules_symbol(const struct pgw_space *kernel,
				   const struct pgw_module *m, uint64_t addr,
				   struct pgw_ksym *sym_ret,
				   uint64_t *offset_ret, struct pgw_err *err)
{
	const struct elf_sym *e = kernel->mode->va_bits > 32 ? &elf64 :
							       &elf32;
	const struct pgw_module_range *r = NULL;

	for (unsigned i = 0; i < m->nranges; i++)
		if (addr - m->range[i].base < m->range[i].size)
			r = &m->range[i];
	if (!r || !m->num_symtab)
		return pgw_err_set(err, PGW_E_NOTFOUND, "no symbol");
	uint32_t n = m->num_symtab < PGW_MODULE_SYMS_MAX ? m->num_symtab :
							    PGW_MODULE_SYMS_MAX;
	uint8_t *tab = malloc((size_t)n * e->size);
	if (!tab)
		return pgw_err_set(err, PGW_E_NOMEM, "module symbols");
	enum pgw_status st = pgw_read_virt(kernel, m->symtab, tab,
					   (size_t)n * e->size, NULL, err);
	/* Candidates are taken highest first; one whose name does not
	 * count is struck off (its section index zeroed) and the next
	 * looked at, so a table is scanned at most once per strike. */
	while (st == PGW_OK) {
		uint32_t best = 0;
		uint64_t bestval = 0;
		for (uint32_t i = 1; i < n; i++) {
			const uint8_t *s = tab + (size_t)i * e->size;
			uint64_t v = pgw_le(s + e->value, e->value_size);
			if (!pgw_le(s + e->shndx, 2) || v > addr ||
			    v - r->base >= r->size || (best && v <= bestval))
				continue;
			best = i;
			bestval = v;
		}
		if (!best) {
			st = pgw_err_set(err, PGW_E_NOTFOUND, "no symbol");
			break;
		}
		uint8_t *s = tab + (size_t)best * e->size;
		char *name = sym_ret->name;
		if (read_name(kernel, m->strtab + pgw_le(s + e->name, 4), name,
			      sizeof(sym_ret->name)) &&
		    name[0] && !mapping_symbol(name)) {
			if (addr >= next_value(kernel, m, e, tab, n, r,
					       bestval)) {
				st = pgw_err_set(err, PGW_E_NOTFOUND,
						 "past its last symbol");
				break;
			}
			sym_ret->addr = bestval;
			sym_ret->type = '?';
			*offset_ret = addr - bestval;
			break;
		}
		memset(s + e->shndx, 0, 2);
	}
	free(tab);
	return st;
}
