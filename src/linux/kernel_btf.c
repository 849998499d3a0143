/*
 * The kernel's BTF, parsed by libbpf, and member offsets from it.
 *
 * libbpf 1.1 checks the header and that every type fits in the type
 * section, but not that the type ids a type refers to exist: those come
 * back NULL from btf__type_by_id, and every use here checks for that.
 * libbpf reports problems through a process-wide print callback; while it
 * parses, the callback keeps the last line for the error message, so
 * nothing is printed.
 */
#include "../lib/err.h"
#include "kernel_btf.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/dynlib.h"
#include "config.h"   /* PGW_SONAME_bpf */

/*
 * libbpf is loaded when the first BTF is parsed (dynlib.h): only roots,
 * --pid and --comm read BTF, and loading it costs every other start.
 * Each function is called through a pointer of its own type; the macros
 * keep the calls as libbpf writes them (btf.h's inline helpers call
 * none of these).
 */
#define DYN(fn) static __typeof__(fn) *dyn_##fn
#define SYM(fn) { #fn, (void **)&dyn_##fn }
DYN(libbpf_set_print);
DYN(btf__new);
DYN(btf__free);
DYN(btf__type_cnt);
DYN(btf__type_by_id);
DYN(btf__name_by_offset);
DYN(btf__find_by_name_kind);
DYN(btf__resolve_size);
DYN(btf__resolve_type);
static const struct pgw_dynsym bpf_syms[] = {
	SYM(libbpf_set_print), SYM(btf__new), SYM(btf__free),
	SYM(btf__type_cnt), SYM(btf__type_by_id), SYM(btf__name_by_offset),
	SYM(btf__find_by_name_kind), SYM(btf__resolve_size),
	SYM(btf__resolve_type),
};
#define libbpf_set_print (*dyn_libbpf_set_print)
#define btf__new (*dyn_btf__new)
#define btf__free (*dyn_btf__free)
#define btf__type_cnt (*dyn_btf__type_cnt)
#define btf__type_by_id (*dyn_btf__type_by_id)
#define btf__name_by_offset (*dyn_btf__name_by_offset)
#define btf__find_by_name_kind (*dyn_btf__find_by_name_kind)
#define btf__resolve_size (*dyn_btf__resolve_size)
#define btf__resolve_type (*dyn_btf__resolve_type)

static struct pgw_dynlib libbpf = {
	"libbpf (to read the kernel's BTF)", PGW_SONAME_bpf,
	"the package with " PGW_SONAME_bpf, bpf_syms,
	sizeof(bpf_syms) / sizeof(bpf_syms[0]), 0, "",
};

/* Anonymous members nest this deep at most (task_struct: 2), and a
 * search looks at this many members at most: hostile BTF can nest a
 * struct in itself, 65535 times per level. */
#define MAX_ANON_DEPTH 8
#define MAX_MEMBERS_SEEN (UINT32_C(1) << 20)

static _Thread_local char libbpf_said[200];

static int keep_libbpf_line(enum libbpf_print_level level, const char *fmt,
			    va_list ap)
{
	(void)level;
	vsnprintf(libbpf_said, sizeof(libbpf_said), fmt, ap);
	size_t n = strlen(libbpf_said);
	while (n && (libbpf_said[n - 1] == '\n' || libbpf_said[n - 1] == ' '))
		libbpf_said[--n] = '\0';
	return 0;
}

enum pgw_status pgw_kernel_btf_from_blob(const void *blob, size_t size,
					 struct pgw_kernel_btf **kb_ret,
					 struct pgw_err *err)
{
	struct pgw_kernel_btf *kb;

	*kb_ret = NULL;
	enum pgw_status st = pgw_dynlib_load(&libbpf, err);
	if (st != PGW_OK)
		return st;
	if (size > PGW_KERNEL_BTF_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: %zu bytes, more than the %llu read at "
				   "most", size,
				   (unsigned long long)PGW_KERNEL_BTF_MAX);
	kb = calloc(1, sizeof(*kb));
	if (!kb)
		return pgw_err_set(err, PGW_E_NOMEM, "BTF");
	libbpf_said[0] = '\0';
	libbpf_print_fn_t was = libbpf_set_print(keep_libbpf_line);
	kb->btf = btf__new(blob, (uint32_t)size);
	int saved = errno;
	libbpf_set_print(was);
	if (!kb->btf) {
		free(kb);
		if (saved == ENOMEM)
			return pgw_err_set(err, PGW_E_NOMEM, "BTF: %zu bytes",
					   size);
		return pgw_err_set(err, PGW_E_FORMAT,
				   "BTF: libbpf refuses the %zu-byte blob: %s",
				   size, libbpf_said[0] ? libbpf_said :
				   strerror(saved));
	}
	kb->info.size = size;
	kb->info.types = btf__type_cnt(kb->btf) - 1;
	snprintf(kb->info.how, sizeof(kb->info.how), "given");
	*kb_ret = kb;
	return PGW_OK;
}

void pgw_kernel_btf_close(struct pgw_kernel_btf *kb)
{
	if (!kb)
		return;
	btf__free(kb->btf);
	free(kb);
}

void pgw_kernel_btf_info(const struct pgw_kernel_btf *kb,
			 struct pgw_kernel_btf_info *info_ret)
{
	*info_ret = kb->info;
}

/* Struct (or union) `name`: its type id, or a negative number. */
static int composite_id(const struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	return id > 0 ? id : btf__find_by_name_kind(btf, name,
						    BTF_KIND_UNION);
}

bool pgw_kernel_btf_has_struct(const struct pgw_kernel_btf *kb,
			       const char *name)
{
	return composite_id(kb->btf, name) > 0;
}

enum pgw_status pgw_kernel_btf_struct_size(const struct pgw_kernel_btf *kb,
					   const char *type,
					   uint64_t *size_ret,
					   struct pgw_err *err)
{
	int id = composite_id(kb->btf, type);
	const struct btf_type *t = id > 0 ? btf__type_by_id(kb->btf, id) :
					    NULL;

	if (!t)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "BTF has no struct %s", type);
	*size_ret = t->size;
	return PGW_OK;
}

/* The member's type with typedefs and qualifiers resolved. */
static void describe(const struct btf *btf, uint32_t type_id,
		     struct pgw_btf_member *m)
{
	int id = btf__resolve_type(btf, type_id);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	long long size = btf__resolve_size(btf, type_id);

	m->size = size > 0 ? (uint64_t)size : 0;
	m->elems = 0;
	m->shape = PGW_BTF_OTHER;
	if (!t)
		return;
	if (btf_is_int(t) || btf_is_any_enum(t))
		m->shape = PGW_BTF_INT;
	else if (btf_is_ptr(t))
		m->shape = PGW_BTF_PTR;
	else if (btf_is_array(t)) {
		m->shape = PGW_BTF_ARRAY;
		m->elems = btf_array(t)->nelems;
	} else if (btf_is_composite(t))
		m->shape = PGW_BTF_COMPOSITE;
}

struct member_search {
	const struct btf *btf;
	const char *outer, *name;
	uint32_t seen;             /* members looked at, against the bound */
	struct pgw_btf_member *found;
};

/*
 * Look for the name among the members of type id, and inside its
 * anonymous struct/union members, depth first in declaration order.
 * base_bits is where type id starts inside the outermost struct.
 * Returns PGW_OK, PGW_E_NOTFOUND, or an error for a match that has no
 * byte offset or a search that ran too long.
 */
static enum pgw_status find_member(struct member_search *s, int id,
				   uint64_t base_bits, unsigned depth,
				   struct pgw_err *err)
{
	const struct btf_type *t = btf__type_by_id(s->btf, id);

	if (!t || !btf_is_composite(t) || depth > MAX_ANON_DEPTH)
		return PGW_E_NOTFOUND;
	const struct btf_member *mem = btf_members(t);
	for (unsigned i = 0; i < btf_vlen(t); i++) {
		const char *mname = btf__name_by_offset(s->btf,
							mem[i].name_off);
		uint64_t bits = base_bits + btf_member_bit_offset(t, i);

		if (++s->seen > MAX_MEMBERS_SEEN)
			return pgw_err_set(err, PGW_E_LIMIT,
					   "BTF: struct %s: more than %u "
					   "members searched for %s (anonymous "
					   "members nested in a loop?)",
					   s->outer, MAX_MEMBERS_SEEN, s->name);
		if (mname && *mname) {
			if (strcmp(mname, s->name) != 0)
				continue;
			if (btf_member_bitfield_size(t, i) || bits % 8)
				return pgw_err_set(
					err, PGW_E_UNSUPPORTED,
					"BTF: %s.%s is a bitfield (bit "
					"offset %llu): no byte offset",
					s->outer, s->name,
					(unsigned long long)bits);
			s->found->offset = bits / 8;
			describe(s->btf, mem[i].type, s->found);
			return PGW_OK;
		}
		int sub = btf__resolve_type(s->btf, mem[i].type);
		if (sub <= 0)
			continue;
		enum pgw_status st = find_member(s, sub, bits, depth + 1, err);
		if (st != PGW_E_NOTFOUND)
			return st;
	}
	return PGW_E_NOTFOUND;
}

enum pgw_status pgw_kernel_btf_member(const struct pgw_kernel_btf *kb,
				      const char *type, const char *member,
				      struct pgw_btf_member *member_ret,
				      struct pgw_err *err)
{
	int id = composite_id(kb->btf, type);

	if (id <= 0)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "BTF has no struct %s", type);
	struct member_search s = {
		.btf = kb->btf, .outer = type, .name = member,
		.found = member_ret,
	};
	enum pgw_status st = find_member(&s, id, 0, 0, err);
	if (st == PGW_E_NOTFOUND)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "BTF: struct %s has no member %s", type,
				   member);
	return st;
}

enum pgw_status pgw_kernel_btf_enum_value(const struct pgw_kernel_btf *kb,
					  const char *type, const char *name,
					  int64_t *value_ret,
					  struct pgw_err *err)
{
	int id = btf__find_by_name_kind(kb->btf, type, BTF_KIND_ENUM);
	const struct btf_type *t = id > 0 ? btf__type_by_id(kb->btf, id) :
					    NULL;

	if (!t)
		return pgw_err_set(err, PGW_E_NOTFOUND, "BTF has no enum %s",
				   type);
	const struct btf_enum *e = btf_enum(t);
	for (unsigned i = 0; i < btf_vlen(t); i++) {
		const char *n = btf__name_by_offset(kb->btf, e[i].name_off);
		if (n && !strcmp(n, name)) {
			*value_ret = e[i].val;
			return PGW_OK;
		}
	}
	return pgw_err_set(err, PGW_E_NOTFOUND, "BTF: enum %s has no %s",
			   type, name);
}
