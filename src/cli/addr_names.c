#include <stdlib.h>
#include <string.h>

#include "addr_names.h"
#include "exit_codes.h"
#include "output.h"

/* The task whose mm->pgd is root: its pid, or -1. */
static int32_t owner_of(const struct pgw_linux_mm *lm, uint64_t root)
{
	size_t n;
	enum pgw_status st;
	const struct pgw_task *t = pgw_linux_mm_tasks(lm, &n, &st, NULL);

	for (size_t i = 0; i < n; i++)
		if (t[i].mm && t[i].has_pgd_pa && t[i].pgd_pa == root)
			return t[i].pid;
	return -1;
}

void names_open(struct addr_names *n, const struct session *s, bool user,
		bool say)
{
	memset(n, 0, sizeof(*n));
	n->space = &s->space;
	n->kernel = s->kernel;
	n->say = say;
	n->user = user;
	n->root = s->space.root;
	n->space_pid = -1;
	if (s->why.root.source == PGW_ROOT_TASK)
		n->space_pid = s->why.root.pid;
	else
		n->owner_wanted = true;
}

void names_open_kernel(struct addr_names *n, const struct pgw_space *kernel)
{
	memset(n, 0, sizeof(*n));
	n->space = kernel;
	n->space_pid = -1;
}

void names_lend_vmas(struct addr_names *n, struct pgw_linux_mm *lm)
{
	if (n->lm || !lm)
		return;
	n->lm = lm;
	n->lm_borrowed = true;
	n->user = n->lm_tried = true;
}

static void need_ks(struct addr_names *n)
{
	struct pgw_err err = { 0 };

	if (n->ks_tried)
		return;
	n->ks_tried = true;
	enum pgw_status st =
		n->kernel ? pgw_linux_kernel_kallsyms(n->kernel, n->space,
						      &n->ks, &err) :
			    pgw_kallsyms_open(n->space, &n->ks_own, &err);
	if (!n->kernel)
		n->ks = n->ks_own;
	if (st != PGW_OK)
		n->ks = NULL;
	if (st != PGW_OK && n->say)
		pgw_cli_error("--names: kernel addresses unnamed: %s", err.msg);
}

/* The module list, through BTF, once: what cannot be read said once. */
static void need_mods(struct addr_names *n)
{
	struct pgw_err err = { 0 };

	if (n->mods_tried || !n->ks)
		return;
	n->mods_tried = true;
	enum pgw_status st = pgw_kernel_btf_open(n->space, n->ks, &n->kb, &err);
	if (st == PGW_OK)
		st = pgw_modules_open(n->space, n->ks, n->kb, &n->mods, &err);
	if (st == PGW_OK || !n->say)
		return;
	size_t read = pgw_modules_count(n->mods);
	if (read)
		pgw_cli_error("--names: module names incomplete (%zu module%s "
			      "read, the rest unnamed): %s", read,
			      read == 1 ? "" : "s", err.msg);
	else
		pgw_cli_error("--names: module addresses unnamed: %s", err.msg);
}

static void need_lm(struct addr_names *n)
{
	struct pgw_err err = { 0 };

	if (n->lm_tried)
		return;
	n->lm_tried = true;
	if ((n->kernel ? pgw_linux_mm_open_in(n->kernel, n->space, &n->lm,
					      &err) :
			 pgw_linux_mm_open(n->space, &n->lm, &err)) != PGW_OK) {
		if (n->say)
			pgw_cli_error("--names: user addresses unnamed: %s",
				      err.msg);
		return;
	}
	if (n->owner_wanted)
		n->space_pid = owner_of(n->lm, n->root);
}

/* Below the kernel half: the lower half of a 64-bit space (x86-64's
 * user half, arm64's TTBR0), 32-bit Linux's 3 GiB of user space. */
static bool user_half(const struct addr_names *n, uint64_t va)
{
	unsigned bits = n->space->mode->va_bits;

	return bits > 32 ? va < UINT64_C(1) << (bits - 1) :
			   va < UINT64_C(0xc0000000);
}

void names_close(struct addr_names *n)
{
	for (size_t i = 0; i < n->nproc; i++)
		pgw_vmas_free(n->proc[i].vmas);
	free(n->proc);
	if (!n->lm_borrowed)
		pgw_linux_mm_close(n->lm);
	pgw_modules_close(n->mods);
	pgw_kernel_btf_close(n->kb);
	pgw_kallsyms_close(n->ks_own);
	memset(n, 0, sizeof(*n));
}

/* Process pid's VMAs, read once (NULL: none can be). */
static const struct pgw_vmas *vmas_of(struct addr_names *n, int32_t pid)
{
	struct pgw_err err;

	for (size_t i = 0; i < n->nproc; i++)
		if (n->proc[i].pid == pid)
			return n->proc[i].vmas;
	if (n->nproc == n->capproc) {
		size_t cap = n->capproc ? 2 * n->capproc : 8;
		struct names_proc *p = realloc(n->proc, cap * sizeof(*p));
		if (!p)
			return NULL;
		n->proc = p;
		n->capproc = cap;
	}
	struct names_proc *p = &n->proc[n->nproc++];
	p->pid = pid;
	p->vmas = NULL;
	if (pgw_linux_vmas_of_pid(n->lm, pid, &p->vmas, &err) != PGW_OK)
		p->vmas = NULL;
	return p->vmas;
}

bool names_find(struct addr_names *n, int32_t pid, uint64_t va,
		struct addr_name *nm)
{
	const struct pgw_vmas *vmas = NULL;

	nm->has_symbol = nm->path_truncated = nm->has_file_offset = false;
	nm->module = NULL;
	nm->module_sym = false;
	nm->vma = NULL;
	nm->path = NULL;
	nm->path_len = 0;
	if (user_half(n, va)) {
		if (!n->user)
			return false;
		need_lm(n);
		if (pid < 0)
			pid = n->space_pid;
		if (n->lm && pid >= 0)
			vmas = vmas_of(n, pid);
		if (!vmas || !(nm->vma = pgw_vmas_find(vmas, va)))
			return false;
		const struct pgw_vma *v = nm->vma;
		if (v->naming == PGW_VMA_PATH || v->naming == PGW_VMA_NAMED) {
			nm->path = vmas->names + v->name_at;
			nm->path_len = v->name_len;
			if (nm->path_len > NAME_PATH_MAX) {
				nm->path_len = NAME_PATH_MAX;
				nm->path_truncated = true;
			}
		}
		if (v->file) {
			nm->has_file_offset = true;
			nm->file_offset = v->pgoff + (va - v->start);
		}
		return true;
	}
	need_ks(n);
	if (n->ks && pgw_kallsyms_symbol(n->ks, va, &nm->sym, &nm->sym_off) ==
		     PGW_OK)
		nm->has_symbol = true;
	else if (need_mods(n), n->mods) {
		unsigned r;
		nm->module = pgw_modules_find(n->mods, va, &r, &nm->sym_off);
		if (nm->module) {
			struct pgw_err err;
			nm->module_kind = r ? nm->module->range[r].kind : NULL;
			nm->module_sym = pgw_modules_symbol(
				n->space, nm->module, va, &nm->sym,
				&nm->sym_off, &err) == PGW_OK;
			nm->has_symbol = true;
		}
	}
	return nm->has_symbol;
}

void names_symbol_text(const struct addr_name *nm, char *buf, size_t size)
{
	if (nm->module && nm->module_sym && nm->sym_off)
		snprintf(buf, size, "%s+0x%llx [%s]", nm->sym.name,
			 (unsigned long long)nm->sym_off,
			 (const char *)nm->module->name);
	else if (nm->module && nm->module_sym)
		snprintf(buf, size, "%s [%s]", nm->sym.name,
			 (const char *)nm->module->name);
	else if (nm->module)
		snprintf(buf, size, "[%s%s%s]+0x%llx",
			 (const char *)nm->module->name,
			 nm->module_kind ? ":" : "",
			 nm->module_kind ? nm->module_kind : "",
			 (unsigned long long)nm->sym_off);
	else if (nm->sym_off)
		snprintf(buf, size, "%s+0x%llx", nm->sym.name,
			 (unsigned long long)nm->sym_off);
	else
		snprintf(buf, size, "%s", nm->sym.name);
}
