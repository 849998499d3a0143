/*
 * struct module through BTF: where a module's list link, name, state and
 * memory lie, found by the members each era has (include/linux/module.h):
 *
 *   6.4+      mem[MOD_MEM_NUM_TYPES], struct module_memory {base, size},
 *             indexed by enum mod_mem_type (read from BTF by name)
 *   4.5-6.3   core_layout, init_layout (and data_layout where the arch
 *             keeps data apart), struct module_layout {base, size, ...}
 *   -4.4      module_core/core_size, module_init/init_size
 *
 * A member in a shape the walk does not read (a size that is not a
 * 4-byte integer, a base that is not a pointer) is refused, never read.
 */
#include "../lib/err.h"
#include "kernel_btf.h"
#include "modules.h"

#include <string.h>

/* 6.4+: the memory types, in the kind words pgw_module_range uses; the
 * first is where /proc/modules' address points. */
static const struct {
	const char *enumerator, *kind;
} mem_types[] = {
	{ "MOD_TEXT", "text" },           { "MOD_DATA", "data" },
	{ "MOD_RODATA", "rodata" },       { "MOD_RO_AFTER_INIT", "ro_after_init" },
	{ "MOD_INIT_TEXT", "init_text" }, { "MOD_INIT_DATA", "init_data" },
	{ "MOD_INIT_RODATA", "init_rodata" },
};

/* 4.5-6.3: the struct module_layout members (data_layout: only where the
 * kernel has CONFIG_ARCH_WANTS_MODULES_DATA_IN_VMALLOC). */
static const struct {
	const char *member, *kind;
	bool optional;
} layouts[] = {
	{ "core_layout", "core", false },
	{ "init_layout", "init", false },
	{ "data_layout", "data", true },
};

/* Before 4.5: pointer and size members of struct module itself. */
static const struct {
	const char *base, *size, *text, *kind;
} old_ranges[] = {
	{ "module_core", "core_size", "core_text_size", "core" },
	{ "module_init", "init_size", "init_text_size", "init" },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static enum pgw_status want(const struct pgw_kernel_btf *kb,
			    const char *type, const char *member,
			    enum pgw_btf_shape shape, uint64_t size,
			    struct pgw_btf_member *m, struct pgw_err *err)
{
	enum pgw_status st = pgw_kernel_btf_member(kb, type, member, m, err);

	if (st != PGW_OK)
		return st;
	if (m->shape != shape || (size && m->size != size))
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: %s.%s is not the %s the module walk "
				   "reads (%llu bytes)", type, member,
				   shape == PGW_BTF_PTR ? "pointer" :
				   shape == PGW_BTF_INT ? "4-byte integer" :
				   shape == PGW_BTF_ARRAY ? "array" : "struct",
				   (unsigned long long)m->size);
	return PGW_OK;
}

/* base and size of a {base, size} struct (module_memory, module_layout). */
static enum pgw_status base_size(const struct pgw_kernel_btf *kb,
				 const char *type, uint32_t *base,
				 uint32_t *size, struct pgw_err *err)
{
	struct pgw_btf_member b, s;
	enum pgw_status st;

	if ((st = want(kb, type, "base", PGW_BTF_PTR, 0, &b, err)) != PGW_OK ||
	    (st = want(kb, type, "size", PGW_BTF_INT, 4, &s, err)) != PGW_OK)
		return st;
	*base = (uint32_t)b.offset;
	*size = (uint32_t)s.offset;
	return PGW_OK;
}

static void add(struct module_layout *lay, uint64_t base, uint64_t size,
		const char *kind, uint64_t text)
{
	lay->range[lay->nranges++] = (struct module_range_at){
		(uint32_t)base, (uint32_t)size, kind, (uint32_t)text,
		!strcmp(kind, "text") || !strcmp(kind, "init_text") };
}

static enum pgw_status era_mem(const struct pgw_kernel_btf *kb,
			       const struct pgw_btf_member *mem,
			       struct module_layout *lay, struct pgw_err *err)
{
	uint64_t elem;
	uint32_t base, size;
	enum pgw_status st;

	if ((st = pgw_kernel_btf_struct_size(kb, "module_memory", &elem,
					     err)) != PGW_OK ||
	    (st = base_size(kb, "module_memory", &base, &size, err)) != PGW_OK)
		return st;
	if (!elem || mem->elems * elem != mem->size)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: module.mem is %llu bytes, not %llu "
				   "struct module_memory of %llu",
				   (unsigned long long)mem->size,
				   (unsigned long long)mem->elems,
				   (unsigned long long)elem);
	for (size_t i = 0; i < NELEM(mem_types); i++) {
		int64_t idx;
		if ((st = pgw_kernel_btf_enum_value(kb, "mod_mem_type",
						    mem_types[i].enumerator,
						    &idx, err)) != PGW_OK)
			return st;
		if (idx < 0 || (uint64_t)idx >= mem->elems)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "BTF: %s is %lld, outside module.mem"
					   "[%llu]", mem_types[i].enumerator,
					   (long long)idx,
					   (unsigned long long)mem->elems);
		uint64_t at = mem->offset + (uint64_t)idx * elem;
		add(lay, at + base, at + size, mem_types[i].kind, 0);
	}
	lay->era = "mem[] (6.4+)";
	return PGW_OK;
}

static enum pgw_status era_layout(const struct pgw_kernel_btf *kb,
				  struct module_layout *lay,
				  struct pgw_err *err)
{
	uint32_t base, size;
	struct pgw_btf_member text;
	enum pgw_status st;

	if ((st = base_size(kb, "module_layout", &base, &size, err)) !=
		    PGW_OK ||
	    (st = want(kb, "module_layout", "text_size", PGW_BTF_INT, 4, &text,
		       err)) != PGW_OK)
		return st;
	for (size_t i = 0; i < NELEM(layouts); i++) {
		struct pgw_btf_member m;
		struct pgw_err e;
		st = want(kb, "module", layouts[i].member, PGW_BTF_COMPOSITE,
			  0, &m, &e);
		if (st == PGW_E_NOTFOUND && layouts[i].optional)
			continue;
		if (st != PGW_OK) {
			*err = e;
			return st;
		}
		add(lay, m.offset + base, m.offset + size, layouts[i].kind,
		    m.offset + text.offset);
	}
	lay->era = "core_layout (4.5-6.3)";
	return PGW_OK;
}

static enum pgw_status era_old(const struct pgw_kernel_btf *kb,
			       struct module_layout *lay, struct pgw_err *err)
{
	for (size_t i = 0; i < NELEM(old_ranges); i++) {
		struct pgw_btf_member b, s, t;
		enum pgw_status st;
		if ((st = want(kb, "module", old_ranges[i].base, PGW_BTF_PTR, 0,
			       &b, err)) != PGW_OK ||
		    (st = want(kb, "module", old_ranges[i].size, PGW_BTF_INT,
			       4, &s, err)) != PGW_OK ||
		    (st = want(kb, "module", old_ranges[i].text, PGW_BTF_INT,
			       4, &t, err)) != PGW_OK)
			return st;
		add(lay, b.offset, s.offset, old_ranges[i].kind, t.offset);
	}
	lay->era = "module_core (before 4.5)";
	return PGW_OK;
}

/* The symbol table's three members in struct `type`, or false. */
static bool symtab_in(const struct pgw_kernel_btf *kb, const char *type,
		      struct module_layout *lay)
{
	struct pgw_btf_member t, n, s;
	struct pgw_err e;

	if (want(kb, type, "symtab", PGW_BTF_PTR, 0, &t, &e) != PGW_OK ||
	    want(kb, type, "num_symtab", PGW_BTF_INT, 4, &n, &e) != PGW_OK ||
	    want(kb, type, "strtab", PGW_BTF_PTR, 0, &s, &e) != PGW_OK)
		return false;
	lay->symtab = (uint32_t)t.offset;
	lay->num_symtab = (uint32_t)n.offset;
	lay->strtab = (uint32_t)s.offset;
	return true;
}

/* Where the module's own symbols are; none is no error (names then say
 * the module alone). */
static void symtab_fields(const struct pgw_kernel_btf *kb,
			  struct module_layout *lay)
{
	struct pgw_btf_member k;
	struct pgw_err e;
	uint64_t size;

	if (want(kb, "module", "kallsyms", PGW_BTF_PTR, 0, &k, &e) == PGW_OK &&
	    pgw_kernel_btf_struct_size(kb, "mod_kallsyms", &size, &e) ==
		    PGW_OK &&
	    size <= 4096 && symtab_in(kb, "mod_kallsyms", lay) &&
	    lay->symtab + lay->ptr_size <= size &&
	    lay->num_symtab + 4 <= size && lay->strtab + lay->ptr_size <= size) {
		lay->syms = SYMS_INDIRECT;
		lay->kallsyms = (uint32_t)k.offset;
	} else if (symtab_in(kb, "module", lay)) {
		lay->syms = SYMS_DIRECT;
	}
}

enum pgw_status linux_module_layout_btf(const struct pgw_kernel_btf *kb,
					unsigned ptr_size,
					struct module_layout *lay,
					struct pgw_err *err)
{
	struct pgw_btf_member list, next, prev, name, state, m;
	uint64_t whole;
	enum pgw_status st;

	memset(lay, 0, sizeof(*lay));
	lay->ptr_size = ptr_size;
	if ((st = pgw_kernel_btf_struct_size(kb, "module", &whole, err)) !=
		    PGW_OK ||
	    (st = want(kb, "module", "list", PGW_BTF_COMPOSITE,
		       2 * (uint64_t)ptr_size, &list, err)) != PGW_OK ||
	    (st = want(kb, "list_head", "next", PGW_BTF_PTR, 0, &next,
		       err)) != PGW_OK ||
	    (st = want(kb, "list_head", "prev", PGW_BTF_PTR, 0, &prev,
		       err)) != PGW_OK ||
	    (st = want(kb, "module", "name", PGW_BTF_ARRAY, 0, &name, err)) !=
		    PGW_OK ||
	    (st = want(kb, "module", "state", PGW_BTF_INT, 4, &state, err)) !=
		    PGW_OK)
		return st;
	if (name.size == 0 || name.size > PGW_MODULE_NAME_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: module.name is %llu bytes",
				   (unsigned long long)name.size);
	lay->list_next = (uint32_t)(list.offset + next.offset);
	lay->list_prev = (uint32_t)(list.offset + prev.offset);
	lay->name = (uint32_t)name.offset;
	lay->name_size = (uint32_t)name.size;
	lay->state = (uint32_t)state.offset;
	struct pgw_err e;
	if (want(kb, "module", "mem", PGW_BTF_ARRAY, 0, &m, &e) == PGW_OK)
		st = era_mem(kb, &m, lay, err);
	else if (pgw_kernel_btf_member(kb, "module", "core_layout", &m, &e) ==
		 PGW_OK)
		st = era_layout(kb, lay, err);
	else if (pgw_kernel_btf_member(kb, "module", "module_core", &m, &e) ==
		 PGW_OK)
		st = era_old(kb, lay, err);
	else
		st = pgw_err_set(err, PGW_E_NOTFOUND,
				 "BTF: struct module has neither mem, "
				 "core_layout nor module_core");
	if (st != PGW_OK)
		return st;
	symtab_fields(kb, lay);
	/* Every field inside the struct; the read spans up to the last. */
	uint64_t end = lay->name + (uint64_t)lay->name_size;
	const uint64_t ends[] = {
		lay->list_next + ptr_size, lay->list_prev + ptr_size,
		lay->state + 4,
		lay->syms == SYMS_INDIRECT ? lay->kallsyms + ptr_size :
		lay->syms == SYMS_DIRECT ? lay->strtab + ptr_size : 0,
		lay->syms == SYMS_DIRECT ? lay->symtab + ptr_size : 0,
		lay->syms == SYMS_DIRECT ? lay->num_symtab + 4 : 0,
	};
	for (size_t i = 0; i < NELEM(ends); i++)
		if (ends[i] > end)
			end = ends[i];
	for (unsigned i = 0; i < lay->nranges; i++) {
		if (lay->range[i].base + ptr_size > end)
			end = lay->range[i].base + ptr_size;
		if (lay->range[i].size + 4 > end)
			end = lay->range[i].size + 4;
		if (lay->range[i].text + 4 > end)
			end = lay->range[i].text + 4;
	}
	if (end > whole || end > 65536)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: struct module's fields reach byte "
				   "%llu of its %llu", (unsigned long long)end,
				   (unsigned long long)whole);
	lay->span = (uint32_t)end;
	return PGW_OK;
}
