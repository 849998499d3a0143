/*
 * The module list's head without kallsyms' `modules` (a kernel built
 * without CONFIG_KALLSYMS_ALL has text symbols only: Debian's arm64 6.1).
 *
 * A struct module lies in its own module's memory (.gnu.linkonce.
 * this_module is in the module's data), which the kernel allocates in
 * small pages within 2 GiB of its text (x86-64's module area, arm64's
 * module region or its fallback, i386's vmalloc).  So the scan reads
 * the small-page mappings within 2 GiB of _stext, and takes the first
 * place that reads as a struct module by BTF's layout -- a printable
 * name ending in its NUL, a state of the kernel's four, list links into
 * the kernel half, and one of its ranges holding the struct itself.
 * From there the ring is followed to its one node that is not such a
 * module and lies in the kernel image: the head, which the walk then
 * reads as it reads kallsyms' (every link checked both ways).
 */
#include "../lib/bytes.h"
#include "../lib/err.h"
#include "modules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Module pages are small pages; a run read at once is at most this. */
#define PAGE_MAX 65536u
#define RUN_READ_MAX (UINT64_C(64) << 20)
#define NEAR_TEXT (UINT64_C(2) << 30)
/* The head lies in the kernel image's data, this far past _stext at
 * most. */
#define IMAGE_MAX (UINT64_C(256) << 20)

struct run_list {
	struct { uint64_t va, end; } *r;
	size_t n, cap;
	bool nomem;
};

/* Small-page leaves, merged where they follow one another. */
static int collect(void *arg, const struct pgw_run *run)
{
	struct run_list *l = arg;

	if (run->kind != PGW_RUN_MAP || run->page_size > PAGE_MAX ||
	    run->same_frame || !run->end)
		return 0;
	if (l->n && l->r[l->n - 1].end == run->va) {
		l->r[l->n - 1].end = run->end;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		void *p = realloc(l->r, cap * sizeof(*l->r));
		if (!p) {
			l->nomem = true;
			return 1;
		}
		l->r = p;
		l->cap = cap;
	}
	l->r[l->n].va = run->va;
	l->r[l->n++].end = run->end;
	return 0;
}

static bool kernel_ptr(const struct pgw_space *kernel, uint64_t v,
		       unsigned ptr_size)
{
	unsigned bits = kernel->mode->va_bits;

	if (v % ptr_size)
		return false;
	return bits > 32 ? v >= ~((UINT64_C(1) << (bits - 1)) - 1) :
			   v >= UINT64_C(0x80000000) && v <= UINT32_MAX;
}

/* Do the bytes p (l->span of them) at va read as a struct module?  Its
 * name printable (as module names are) when `named`: a start is chosen
 * by all of it, a struct along the ring needs no more than its place. */
static bool looks_like_module(const struct pgw_space *kernel,
			      const struct module_layout *l, const uint8_t *p,
			      uint64_t va, bool named)
{
	const uint8_t *name = p + l->name;
	unsigned n = 0;

	if (pgw_le(p + l->state, 4) > 3)
		return false;
	while (named && n < l->name_size && name[n] > ' ' && name[n] <= '~')
		n++;
	if ((named && (n == 0 || n == l->name_size || name[n] != '\0')) ||
	    !kernel_ptr(kernel, pgw_le(p + l->list_next, l->ptr_size),
			l->ptr_size) ||
	    !kernel_ptr(kernel, pgw_le(p + l->list_prev, l->ptr_size),
			l->ptr_size))
		return false;
	for (unsigned i = 0; i < l->nranges; i++) {
		uint64_t base = pgw_le(p + l->range[i].base, l->ptr_size);
		uint64_t size = pgw_le(p + l->range[i].size, 4);
		if (size && size <= PGW_MODULE_RANGE_MAX && va - base < size)
			return true;
	}
	return false;
}

/* Is the struct at va a module (read through the space)? */
static bool module_at(const struct pgw_space *kernel,
		      const struct module_layout *l, uint64_t va)
{
	uint8_t buf[65536];
	struct pgw_err err;

	return pgw_read_virt(kernel, va, buf, l->span, NULL, &err) == PGW_OK &&
	       looks_like_module(kernel, l, buf, va, false);
}

/* From the module at mod, along next, to the ring's first node that is
 * not a module: true with it in *head when it lies in the image. */
static bool head_from(const struct pgw_space *kernel,
		      const struct module_layout *l, uint64_t mod,
		      uint64_t stext, uint64_t *head)
{
	uint8_t word[8];
	struct pgw_err err;
	uint64_t at = mod;

	for (unsigned steps = 0; steps <= PGW_MODULES_MAX; steps++) {
		if (pgw_read_virt(kernel, at + l->list_next, word, l->ptr_size,
				  NULL, &err) != PGW_OK)
			return false;
		uint64_t next = pgw_le(word, l->ptr_size);
		if (next == mod + l->list_next)
			return false;   /* a ring of modules alone */
		if (!module_at(kernel, l, next - l->list_next)) {
			*head = next;
			return next - stext < IMAGE_MAX;
		}
		at = next - l->list_next;
	}
	return false;
}

/* The first struct module in [va, end) whose ring has a head. */
static bool scan_run(const struct pgw_space *kernel,
		     const struct module_layout *l, uint64_t va, uint64_t end,
		     uint64_t stext, uint8_t *buf, uint64_t *head,
		     uint64_t *mod)
{
	struct pgw_err err;
	uint64_t len = end - va;

	if (len > RUN_READ_MAX || len < l->span ||
	    pgw_read_virt(kernel, va, buf, len, NULL, &err) != PGW_OK)
		return false;
	for (uint64_t o = 0; o + l->span <= len; o += l->ptr_size)
		if (looks_like_module(kernel, l, buf + o, va + o, true) &&
		    head_from(kernel, l, va + o, stext, head)) {
			*mod = va + o;
			return true;
		}
	return false;
}

enum pgw_status linux_modules_head_scan(const struct pgw_space *kernel,
					const struct pgw_kallsyms *ks,
					const struct module_layout *l,
					uint64_t *head_ret, char *why,
					size_t why_size, struct pgw_err *err)
{
	uint64_t stext;
	enum pgw_status st;

	if ((st = pgw_kallsyms_lookup(ks, "_stext", &stext, NULL, err)) !=
	    PGW_OK)
		return st;
	struct pgw_run_opts opts = { .leaves = true };
	opts.walk.start = stext > NEAR_TEXT ? stext - NEAR_TEXT : 0;
	opts.walk.end = stext + NEAR_TEXT < stext ? 0 : stext + NEAR_TEXT;
	if (!kernel_ptr(kernel, opts.walk.start, 1))
		opts.walk.start = kernel->mode->va_bits > 32 ?
			~((UINT64_C(1) << (kernel->mode->va_bits - 1)) - 1) :
			UINT64_C(0x80000000);
	struct run_list runs = { 0 };
	struct pgw_run_ops ops = { .run = collect };
	st = pgw_walk_runs(kernel, &opts, &ops, &runs, NULL, NULL, err);
	if (runs.nomem) {
		free(runs.r);
		return pgw_err_set(err, PGW_E_NOMEM, "module scan");
	}
	uint8_t *buf = NULL;
	uint64_t pages = 0, mod = 0;
	bool found = false;
	if (st == PGW_OK || st == PGW_E_LIMIT) {
		st = PGW_OK;
		for (size_t i = 0; !found && i < runs.n; i++) {
			uint64_t len = runs.r[i].end - runs.r[i].va;
			pages += len / 4096;
			if (len > RUN_READ_MAX)
				continue;
			uint8_t *b = realloc(buf, len);
			if (!b) {
				st = pgw_err_set(err, PGW_E_NOMEM,
						 "module scan");
				break;
			}
			buf = b;
			found = scan_run(kernel, l, runs.r[i].va, runs.r[i].end,
					 stext, buf, head_ret, &mod);
		}
	}
	free(buf);
	free(runs.r);
	if (st != PGW_OK)
		return st;
	if (!found)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "kallsyms has no symbol modules (a kernel "
				   "without CONFIG_KALLSYMS_ALL), and no "
				   "struct module whose list comes back "
				   "through the kernel image lies in the "
				   "%llu KiB of small pages within 2 GiB of "
				   "_stext", (unsigned long long)pages * 4);
	snprintf(why, why_size, "the list head 0x%llx found through the "
		 "struct module at 0x%llx (in its own memory; kallsyms has "
		 "no symbol modules)", (unsigned long long)*head_ret,
		 (unsigned long long)mod);
	return PGW_OK;
}
