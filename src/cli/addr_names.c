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

bool names_open(struct addr_names *n, const struct session *s, bool user,
		bool say)
{
	struct pgw_err err = { 0 };

	memset(n, 0, sizeof(*n));
	n->space_pid = -1;
	if (pgw_kallsyms_open(&s->space, &n->ks, &err) != PGW_OK && say)
		pgw_cli_error("--names: kernel addresses unnamed: %s", err.msg);
	if (user && pgw_linux_mm_open(&s->space, &n->lm, &err) != PGW_OK) {
		if (say)
			pgw_cli_error("--names: user addresses unnamed: %s",
				     err.msg);
	} else if (user) {
		n->space_pid = s->why.root.source == PGW_ROOT_TASK ?
				       s->why.root.pid :
				       owner_of(n->lm, s->space.root);
	}
	return n->ks || n->lm;
}

bool names_open_kernel(struct addr_names *n, const struct pgw_space *kernel)
{
	struct pgw_err err;

	memset(n, 0, sizeof(*n));
	n->space_pid = -1;
	return pgw_kallsyms_open(kernel, &n->ks, &err) == PGW_OK;
}

void names_lend_vmas(struct addr_names *n, struct pgw_linux_mm *lm)
{
	if (n->lm || !lm)
		return;
	n->lm = lm;
	n->lm_borrowed = true;
}

void names_close(struct addr_names *n)
{
	for (size_t i = 0; i < n->nproc; i++)
		pgw_vmas_free(n->proc[i].vmas);
	free(n->proc);
	if (!n->lm_borrowed)
		pgw_linux_mm_close(n->lm);
	pgw_kallsyms_close(n->ks);
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
	nm->vma = NULL;
	nm->path = NULL;
	nm->path_len = 0;
	if (pid < 0)
		pid = n->space_pid;
	if (n->lm && pid >= 0)
		vmas = vmas_of(n, pid);
	if (vmas && (nm->vma = pgw_vmas_find(vmas, va)) != NULL) {
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
	if (n->ks && pgw_kallsyms_symbol(n->ks, va, &nm->sym, &nm->sym_off) ==
		     PGW_OK)
		nm->has_symbol = true;
	return nm->has_symbol;
}

void names_symbol_text(const struct addr_name *nm, char *buf, size_t size)
{
	if (nm->sym_off)
		snprintf(buf, size, "%s+0x%llx", nm->sym.name,
			 (unsigned long long)nm->sym_off);
	else
		snprintf(buf, size, "%s", nm->sym.name);
}
