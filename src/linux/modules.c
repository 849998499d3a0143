/*
 * The kernel's module list: `modules` (a list_head in the kernel's data)
 * links each struct module by its `list` member, in load order, newest
 * first.  Each module is read with one read spanning its fields
 * (module_layout.c says where they are).
 *
 * Hostile images: every step checks that the next module's list.prev
 * points back where the walk came from, as list_add leaves it, so a
 * list that loops anywhere but back to the head, or that links into
 * memory that is not a module, stops at the first link that disagrees;
 * names must end in a NUL, states be the kernel's four, ranges lie in
 * the kernel half and be smaller than any module area.  Each stops the
 * walk with an error and keeps the modules read before it.
 */
#include "../lib/bytes.h"
#include "../lib/err.h"
#include "kernel_btf.h"
#include "linux.h"
#include "modules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pgw_modules {
	size_t n, cap;
	struct pgw_module *m;
	char how[200];
};

/* MODULE_STATE_UNFORMED, the last of enum module_state (3.7+). */
#define STATE_MAX 3

/* The kernel half: the upper half of a 64-bit space, 32-bit Linux's top
 * GiB (and more: a 2G/2G split). */
static bool kernel_half(const struct pgw_space *kernel, uint64_t va)
{
	unsigned bits = kernel->mode->va_bits;

	return bits > 32 ? va >= ~((UINT64_C(1) << (bits - 1)) - 1) :
			   va >= UINT64_C(0x80000000) && va <= UINT32_MAX;
}

/* A link that does not translate, or lands outside RAM, is a damaged
 * list; a page the image lacks stays partial evidence. */
static enum pgw_status link_failed(struct pgw_err *err, uint64_t link,
				   const char *what)
{
	linux_task_damaged_link(err);
	char was[sizeof(err->msg)];
	snprintf(was, sizeof(was), "%s", err->msg);
	snprintf(err->msg, sizeof(err->msg),
		 "module list: %s 0x%llx cannot be read: %.200s", what,
		 (unsigned long long)link, was);
	return err->status;
}

/* Where the module's symbols are, when it says: a pointer that cannot
 * be followed leaves them unknown, names then say the module alone. */
static void read_symtab(const struct pgw_space *kernel,
			const struct module_layout *l, const uint8_t *buf,
			struct pgw_module *m)
{
	unsigned p = l->ptr_size;
	uint8_t kbuf[4096];
	const uint8_t *at = buf;
	struct pgw_err err;

	if (l->syms == SYMS_NONE)
		return;
	if (l->syms == SYMS_INDIRECT) {
		uint64_t ka = pgw_le(buf + l->kallsyms, p);
		uint32_t need = l->strtab + p;
		if (need < l->symtab + p)
			need = l->symtab + p;
		if (need < l->num_symtab + 4)
			need = l->num_symtab + 4;
		if (!ka || need > sizeof(kbuf) ||
		    pgw_read_virt(kernel, ka, kbuf, need, NULL, &err) != PGW_OK)
			return;
		at = kbuf;
	}
	m->symtab = pgw_le(at + l->symtab, p);
	m->strtab = pgw_le(at + l->strtab, p);
	m->num_symtab = (uint32_t)pgw_le(at + l->num_symtab, 4);
	if (!m->symtab || !m->strtab)
		m->num_symtab = 0;
}

/* One module at mod, read into m; checked. */
static enum pgw_status read_module(const struct pgw_space *kernel,
				   const struct module_layout *l, uint64_t mod,
				   uint64_t came_from, struct pgw_module *m,
				   uint64_t *next_ret, struct pgw_err *err)
{
	uint8_t buf[65536];
	unsigned p = l->ptr_size;

	if (pgw_read_virt(kernel, mod, buf, l->span, NULL, err) != PGW_OK)
		return link_failed(err, mod, "struct module at");
	uint64_t prev = pgw_le(buf + l->list_prev, p);
	if (prev != came_from)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "module list: the module at 0x%llx says it "
				   "follows 0x%llx, not 0x%llx where the walk "
				   "came from (a list that loops or links "
				   "elsewhere)", (unsigned long long)mod,
				   (unsigned long long)prev,
				   (unsigned long long)came_from);
	memset(m, 0, sizeof(*m));
	m->module = mod;
	*next_ret = pgw_le(buf + l->list_next, p);
	const uint8_t *name = buf + l->name;
	m->name_len = strnlen((const char *)name, l->name_size);
	if (m->name_len == l->name_size || m->name_len == 0)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "module list: the module at 0x%llx has %s",
				   (unsigned long long)mod,
				   m->name_len ? "a name without its NUL" :
						 "an empty name");
	memcpy(m->name, name, m->name_len);
	m->state = (uint32_t)pgw_le(buf + l->state, 4);
	if (m->state > STATE_MAX)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "module list: the module at 0x%llx has "
				   "state %u (the kernel's are 0-3)",
				   (unsigned long long)mod, m->state);
	read_symtab(kernel, l, buf, m);
	for (unsigned i = 0; i < l->nranges; i++) {
		uint64_t base = pgw_le(buf + l->range[i].base, p);
		uint64_t size = pgw_le(buf + l->range[i].size, 4);
		if (!size)
			continue;
		if (!kernel_half(kernel, base) || size > PGW_MODULE_RANGE_MAX ||
		    base + size < base ||
		    !kernel_half(kernel, base + size - 1))
			return pgw_err_set(
				err, PGW_E_FORMAT,
				"module list: the module at 0x%llx claims "
				"%s of 0x%llx bytes at 0x%llx: outside the "
				"kernel's memory or larger than a module "
				"area", (unsigned long long)mod,
				l->range[i].kind, (unsigned long long)size,
				(unsigned long long)base);
		uint64_t text = l->range[i].all_text ? size :
				l->range[i].text ?
				pgw_le(buf + l->range[i].text, 4) : 0;
		m->range[m->nranges++] = (struct pgw_module_range){
			base, size, text < size ? text : size,
			l->range[i].kind };
	}
	return PGW_OK;
}

static enum pgw_status walk(const struct pgw_space *kernel,
			    const struct module_layout *l, uint64_t head,
			    struct pgw_modules *mods, struct pgw_err *err)
{
	uint8_t word[8];
	uint64_t at = head;

	if (pgw_read_virt(kernel, head, word, l->ptr_size, NULL, err) !=
	    PGW_OK)
		return link_failed(err, head, "the list head modules at");
	uint64_t next = pgw_le(word, l->ptr_size);
	while (next != head) {
		if (mods->n == PGW_MODULES_MAX)
			return pgw_err_set(err, PGW_E_LIMIT,
					   "module list: more than %u modules",
					   PGW_MODULES_MAX);
		if (mods->n == mods->cap) {
			size_t cap = mods->cap ? 2 * mods->cap : 16;
			struct pgw_module *m = realloc(mods->m,
						       cap * sizeof(*m));
			if (!m)
				return pgw_err_set(err, PGW_E_NOMEM, "modules");
			mods->m = m;
			mods->cap = cap;
		}
		uint64_t mod = next - l->list_next;
		enum pgw_status st = read_module(kernel, l, mod, at,
						 &mods->m[mods->n], &next, err);
		if (st != PGW_OK)
			return st;
		mods->n++;
		at = mod + l->list_next;
	}
	return PGW_OK;
}

enum pgw_status pgw_modules_open(const struct pgw_space *kernel,
				 const struct pgw_kallsyms *ks,
				 const struct pgw_kernel_btf *kb,
				 struct pgw_modules **mods_ret,
				 struct pgw_err *err)
{
	struct module_layout lay;
	uint64_t head;
	char type;
	enum pgw_status st;

	*mods_ret = NULL;
	if ((st = linux_module_layout_btf(kb, kernel->mode->va_bits > 32 ? 8 :
					  4, &lay, err)) != PGW_OK)
		return st;
	char why[sizeof(((struct pgw_modules *)0)->how)] =
		"the list head from kallsyms' modules";
	st = pgw_kallsyms_lookup(ks, "modules", &head, &type, err);
	if (st == PGW_E_NOTFOUND)
		st = linux_modules_head_scan(kernel, ks, &lay, &head, why,
					     sizeof(why), err);
	else if (st == PGW_OK && !strchr("dDbB", type))
		return pgw_err_set(err, PGW_E_FORMAT,
				   "kallsyms: modules is a '%c' symbol, not "
				   "the kernel data a list head lies in", type);
	if (st != PGW_OK)
		return st;
	struct pgw_modules *mods = calloc(1, sizeof(*mods));
	if (!mods)
		return pgw_err_set(err, PGW_E_NOMEM, "modules");
	snprintf(mods->how, sizeof(mods->how), "%s; struct module's %s",
		 why, lay.era);
	st = walk(kernel, &lay, head, mods, err);
	*mods_ret = mods;
	return st;
}

void pgw_modules_close(struct pgw_modules *mods)
{
	if (!mods)
		return;
	free(mods->m);
	free(mods);
}

const char *pgw_modules_how(const struct pgw_modules *mods)
{
	return mods->how;
}

size_t pgw_modules_count(const struct pgw_modules *mods)
{
	return mods ? mods->n : 0;
}

const struct pgw_module *pgw_modules_get(const struct pgw_modules *mods,
					 size_t idx)
{
	return mods && idx < mods->n ? &mods->m[idx] : NULL;
}

const struct pgw_module *pgw_modules_find(const struct pgw_modules *mods,
					  uint64_t addr, unsigned *range_ret,
					  uint64_t *offset_ret)
{
	for (size_t i = 0; mods && i < mods->n; i++)
		for (unsigned r = 0; r < mods->m[i].nranges; r++) {
			const struct pgw_module_range *g = &mods->m[i].range[r];
			if (addr - g->base < g->size) {
				if (range_ret)
					*range_ret = r;
				if (offset_ret)
					*offset_ret = addr - g->base;
				return &mods->m[i];
			}
		}
	return NULL;
}
