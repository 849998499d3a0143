/*
 * Where the module walk finds what it reads in a struct module, from BTF
 * (module_layout.c), shared with the walk (modules.c).
 */
#ifndef PGW_LINUX_MODULES_H
#define PGW_LINUX_MODULES_H

#include "pgwalk.h"

/* A memory range's pointer and its 4-byte size, bytes into struct
 * module. */
struct module_range_at {
	uint32_t base, size;
	const char *kind;
	uint32_t text;           /* its text size's offset (u32); 0: none */
	bool all_text;           /* 6.4+'s text and init_text: all of it */
};

struct module_layout {
	unsigned ptr_size;
	uint32_t list_next, list_prev;   /* module.list's next and prev */
	uint32_t name, name_size;        /* char name[MODULE_NAME_LEN] */
	uint32_t state;                  /* enum module_state, 4 bytes */
	unsigned nranges;
	struct module_range_at range[PGW_MODULE_RANGES_MAX];
	/* The module's own symbols: its ELF symtab, num_symtab and strtab,
	 * in struct mod_kallsyms behind module.kallsyms (4.6+) or in
	 * struct module itself (before). */
	enum { SYMS_NONE, SYMS_DIRECT, SYMS_INDIRECT } syms;
	uint32_t kallsyms;               /* SYMS_INDIRECT: the pointer */
	uint32_t symtab, num_symtab, strtab;  /* in their struct */
	uint32_t span;                   /* bytes read of each module: up to
					    the last field */
	const char *era;                 /* which members held the ranges */
};

/* The layout from kb, checked: shapes, sizes, fields inside the struct. */
enum pgw_status linux_module_layout_btf(const struct pgw_kernel_btf *kb,
					unsigned ptr_size,
					struct module_layout *lay,
					struct pgw_err *err);

/*
 * The list head found without kallsyms' `modules` (modules_scan.c):
 * PGW_E_NOTFOUND saying what was searched when no struct module leads
 * to one; why says where it was found.
 */
enum pgw_status linux_modules_head_scan(const struct pgw_space *kernel,
					const struct pgw_kallsyms *ks,
					const struct module_layout *l,
					uint64_t *head_ret, char *why,
					size_t why_size, struct pgw_err *err);

#endif
