/*
 * A process's VMAs as /proc/PID/maps prints them (fs/proc/task_mmu.c's
 * show_map_vma): from the mm's maple tree (6.1+) or its mmap list, each
 * vm_area_struct read once, its file's device, inode and path (dpath.c),
 * else the name the kernel gives: a vm_ops->name (special mappings:
 * [vdso], [vvar]), [heap] for a VMA touching [start_brk, brk], [stack]
 * for the one holding start_stack, [anon:NAME] (CONFIG_ANON_VMA_NAME),
 * and from 6.2 [anon_shmem:NAME] for named shared memory.
 *
 * What the image damaged ends the set where it is found, keeping the
 * VMAs before it: a VMA whose range is not the one the tree files it
 * under, or that belongs to another mm, VMAs out of order or
 * overlapping, more of them than the mm's map_count.  A name the image
 * does not give is unknown with its reason, never guessed.
 */
#include "../lib/err.h"
#include "vma.h"
#include "memo.h"
#include "../lib/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pgw_linux_mm {
	struct vma_reader r;
	struct pgw_linux_kernel *own;  /* pgw_linux_mm_open's memo, else
					  NULL: the caller's */
	const struct pgw_task *tasks;  /* the memo's */
	size_t ntasks;
	enum pgw_status tasks_st;
	struct pgw_err tasks_err;
};

/* Special mappings and anonymous names are short (ANON_VMA_NAME_MAX_LEN
 * is 80): at most this much is read. */
#define SHORT_NAME_MAX 256
/* A VMA list (or tree) holds at most this many: map_count is an int,
 * and each VMA takes a page of address space at least. */
#define VMAS_MAX (UINT32_C(1) << 24)

static const char *const fn_names[NFNS] = {
	[FN_SPECIAL_MAPPING_NAME] = "special_mapping_name",
	[FN_SIMPLE_DNAME] = "simple_dname",
	[FN_ANON_INODEFS_DNAME] = "anon_inodefs_dname",
	[FN_SOCKFS_DNAME] = "sockfs_dname",
	[FN_PIPEFS_DNAME] = "pipefs_dname",
};

enum pgw_status vma_read_word(const struct vma_reader *r, uint64_t va,
			      unsigned n, uint64_t *v, struct pgw_err *err)
{
	uint8_t b[8];

	if (pgw_read_virt(r->kernel, va, b, n, NULL, err) != PGW_OK)
		return err->status;
	*v = vma_le(b, n);
	return PGW_OK;
}

_Static_assert(sizeof(struct vma_layout) ==
		       PGW_VMA_LAYOUT_WORDS * sizeof(uint32_t) &&
	       NFNS == PGW_VMA_FNS, "pgw_kernel_facts holds a vma_reader");

/* The layout from BTF and the functions from kallsyms. */
static enum pgw_status vma_reader_read(struct pgw_linux_kernel *lk,
				       struct vma_reader *r,
				       struct pgw_err *err)
{
	const struct pgw_kallsyms *ks = NULL;
	const struct pgw_kernel_btf *kb = NULL;
	enum pgw_status st;

	if ((st = linux_kernel_kallsyms(lk, &ks, err)) != PGW_OK ||
	    (st = linux_kernel_btf(lk, &kb, err)) != PGW_OK ||
	    (st = vma_layout_btf(kb, r->kernel->mode->va_bits > 32 ? 8 : 4,
				 &r->lay, err)) != PGW_OK)
		return st;
	for (int f = 0; f < NFNS; f++)
		if (pgw_kallsyms_lookup(ks, fn_names[f], &r->fn[f], NULL,
					err) != PGW_OK)
			r->fn[f] = 0;
	/* An unknown function pointer must never match. */
	for (int f = 0; f < NFNS; f++)
		if (!r->fn[f])
			r->fn[f] = UINT64_MAX;
	return PGW_OK;
}

enum pgw_status pgw_linux_mm_open_in(struct pgw_linux_kernel *lk,
				     const struct pgw_space *kernel,
				     struct pgw_linux_mm **lm_ret,
				     struct pgw_err *err)
{
	struct pgw_linux_mm *lm;
	enum pgw_status st;

	*lm_ret = NULL;
	lm = calloc(1, sizeof(*lm));
	if (!lm)
		return pgw_err_set(err, PGW_E_NOMEM, "VMAs");
	lm->r.kernel = linux_kernel_bind(lk, kernel);
	kernel = lm->r.kernel;
	/* The list first: a hint that holds for it gives the layout too. */
	lm->tasks = linux_kernel_tasks(lk, &lm->ntasks, NULL, &lm->tasks_st,
				       &lm->tasks_err);
	struct vma_layout hinted;
	if (lk->use.tasks && lk->hint->have_vma)
		memcpy(&hinted, lk->hint->vma_layout, sizeof(hinted));
	if (lk->use.tasks && lk->hint->have_vma && vma_layout_safe(&hinted)) {
		lm->r.lay = hinted;
		memcpy(lm->r.fn, lk->hint->vma_fn, sizeof(lm->r.fn));
		lk->use.vma = true;
		st = PGW_OK;
	} else if ((st = vma_reader_read(lk, &lm->r, err)) == PGW_OK &&
		   lk->have_found) {
		memcpy(lk->found.vma_layout, &lm->r.lay, sizeof(lm->r.lay));
		memcpy(lk->found.vma_fn, lm->r.fn, sizeof(lm->r.fn));
		lk->found.have_vma = true;
	}
	if (st != PGW_OK) {
		free(lm);
		return st;
	}
	if (lm->tasks_st != PGW_OK && lm->ntasks == 0) {
		*err = lm->tasks_err;
		st = lm->tasks_st;
		pgw_linux_mm_close(lm);
		return st;
	}
	*lm_ret = lm;
	return PGW_OK;
}

enum pgw_status pgw_linux_mm_open(const struct pgw_space *kernel,
				  struct pgw_linux_mm **lm_ret,
				  struct pgw_err *err)
{
	struct pgw_linux_kernel *lk;
	enum pgw_status st = pgw_linux_kernel_new(&lk, err);

	*lm_ret = NULL;
	if (st == PGW_OK)
		st = pgw_linux_mm_open_in(lk, kernel, lm_ret, err);
	if (st != PGW_OK) {
		pgw_linux_kernel_free(lk);
		return st;
	}
	(*lm_ret)->own = lk;
	return PGW_OK;
}

void pgw_linux_mm_close(struct pgw_linux_mm *lm)
{
	if (!lm)
		return;
	pgw_linux_kernel_free(lm->own);
	free(lm);
}

const struct pgw_task *pgw_linux_mm_tasks(const struct pgw_linux_mm *lm,
					  size_t *n_ret, enum pgw_status *st,
					  struct pgw_err *err)
{
	*n_ret = lm->ntasks;
	*st = lm->tasks_st;
	if (lm->tasks_st != PGW_OK && err)
		*err = lm->tasks_err;
	return lm->tasks;
}

/* What one mm's walk keeps. */
struct build {
	const struct vma_reader *r;
	struct pgw_vmas *set;
	uint64_t start_brk, brk, start_stack;
	int64_t map_count;
	uint64_t last_file;          /* the previous VMA's file, its name
					reused */
	struct pgw_err err;
	enum pgw_status st;
	struct name_buf name;
};

static enum pgw_status add_name(struct pgw_vmas *s, struct pgw_vma *v,
				const void *p, size_t n, struct pgw_err *err)
{
	if (s->names_len + n > s->names_cap) {
		size_t cap = s->names_cap ? 2 * s->names_cap : 4096;
		while (cap < s->names_len + n)
			cap *= 2;
		char *b = realloc(s->names_buf, cap);
		if (!b)
			return pgw_err_set(err, PGW_E_NOMEM, "VMA names");
		s->names_buf = b;
		s->names = b;
		s->names_cap = cap;
	}
	memcpy(s->names_buf + s->names_len, p, n);
	v->name_at = (uint32_t)s->names_len;
	v->name_len = (uint32_t)n;
	s->names_len += n;
	return PGW_OK;
}

/* A NUL-ended string of at most SHORT_NAME_MAX bytes at va. */
static enum pgw_status read_cstr(const struct vma_reader *r, uint64_t va,
				 char *buf, size_t *len, struct pgw_err *err)
{
	size_t n = 0;

	while (n < SHORT_NAME_MAX) {
		size_t chunk = 4096 - (size_t)((va + n) & 4095);
		if (chunk > SHORT_NAME_MAX - n)
			chunk = SHORT_NAME_MAX - n;
		if (pgw_read_virt(r->kernel, va + n, buf + n, chunk, NULL,
				  err) != PGW_OK)
			return pgw_err_prefix(err, "string at 0x%llx",
					      (unsigned long long)va);
		char *nul = memchr(buf + n, 0, chunk);
		if (nul) {
			*len = (size_t)(nul - buf);
			return PGW_OK;
		}
		n += chunk;
	}
	return pgw_err_set(err, PGW_E_LIMIT,
			   "string at 0x%llx: no NUL in %d bytes",
			   (unsigned long long)va, SHORT_NAME_MAX);
}

static void unknown(struct pgw_vma *v, const char *what,
		    const struct pgw_err *e)
{
	v->naming = PGW_VMA_UNKNOWN;
	v->name_len = 0;
	snprintf(v->why, sizeof(v->why), "%s: %.130s", what, e->msg);
}

/* 6.2+: shared memory named with prctl(PR_SET_VMA_ANON_NAME) prints
 * "[anon_shmem:NAME]" in place of its path.  1 when v got that name, 0
 * when it has none (or the kernel keeps no such name), -1 on error. */
static int shmem_name(struct build *b, struct pgw_vma *v, const uint8_t *raw,
		      struct pgw_err *err)
{
	const struct vma_layout *l = &b->r->lay;
	char name[SHORT_NAME_MAX + 16];
	size_t n;
	struct pgw_err e;

	if (l->anon_name == VMA_ABSENT || l->vm_shared == l->anon_name)
		return 0;
	uint64_t at = vma_le(raw + l->anon_name, l->ptr);
	if (!at)
		return 0;
	memcpy(name, "[anon_shmem:", 12);
	if (read_cstr(b->r, at + l->anon_name_name, name + 12, &n, &e)) {
		unknown(v, "its anon_name", &e);
		return 1;
	}
	name[12 + n] = ']';
	v->naming = PGW_VMA_NAMED;
	return add_name(b->set, v, name, n + 13, err) == PGW_OK ? 1 : -1;
}

#define VM_HUGETLB UINT64_C(0x400000)

/* A hugetlb VMA's page size as smaps says it (vma_kernel_pagesize):
 * PAGE_SIZE << its hugetlbfs super block's hstate's order; 0 when the
 * image or BTF does not say. */
static void huge_page_size(struct build *b, struct pgw_vma *v, uint64_t sb)
{
	const struct vma_layout *l = &b->r->lay;
	uint64_t info = 0, h = 0, order = 0;
	struct pgw_err e;

	if (!(v->flags & VM_HUGETLB) || l->s_fs_info == VMA_ABSENT ||
	    l->sbi_hstate == VMA_ABSENT || l->hstate_order == VMA_ABSENT ||
	    vma_read_word(b->r, sb + l->s_fs_info, l->ptr, &info, &e) ||
	    !info ||
	    vma_read_word(b->r, info + l->sbi_hstate, l->ptr, &h, &e) || !h ||
	    vma_read_word(b->r, h + l->hstate_order, 4, &order, &e) ||
	    order > 18)    /* 1 GiB pages are order 18 */
		return;
	v->huge_page_size = UINT64_C(4096) << order;
}

/* The file's device, inode and path. */
static enum pgw_status file_name(struct build *b, struct pgw_vma *v,
				 struct pgw_err *err)
{
	const struct vma_layout *l = &b->r->lay;
	uint64_t mnt = 0, dentry = 0, inode = 0, sb = 0, dev = 0;
	struct pgw_err e;

	if (vma_read_word(b->r, v->file + l->f_path_mnt, l->ptr, &mnt, &e) ||
	    vma_read_word(b->r, v->file + l->f_path_dentry, l->ptr, &dentry,
			  &e) ||
	    vma_read_word(b->r, v->file + l->f_inode, l->ptr, &inode, &e) ||
	    vma_read_word(b->r, inode + l->i_ino, l->i_ino_size, &v->ino,
			  &e) ||
	    vma_read_word(b->r, inode + l->i_sb, l->ptr, &sb, &e) ||
	    vma_read_word(b->r, sb + l->s_dev, 4, &dev, &e)) {
		unknown(v, "its file", &e);
		return PGW_OK;
	}
	v->dev = (uint32_t)dev;
	huge_page_size(b, v, sb);
	if (dpath_file(b->r, mnt, dentry, v->ino, &b->name, &e) != PGW_OK) {
		unknown(v, "its path", &e);
		return PGW_OK;
	}
	v->naming = PGW_VMA_PATH;
	return add_name(b->set, v, b->name.b, b->name.len, err);
}

/* A file-less VMA's name: vm_ops->name, [heap], [stack], [anon:NAME]. */
static enum pgw_status anon_name(struct build *b, struct pgw_vma *v,
				 const uint8_t *raw, struct pgw_err *err)
{
	const struct vma_layout *l = &b->r->lay;
	uint64_t ops = vma_le(raw + l->vm_ops, l->ptr), fn = 0, at = 0;
	char name[SHORT_NAME_MAX + 8];
	size_t n;
	struct pgw_err e;

	if (ops && vma_read_word(b->r, ops + l->ops_name, l->ptr, &fn, &e)) {
		unknown(v, "its vm_ops", &e);
		return PGW_OK;
	}
	if (fn && fn != b->r->fn[FN_SPECIAL_MAPPING_NAME]) {
		v->naming = PGW_VMA_UNKNOWN;
		snprintf(v->why, sizeof(v->why),
			 "named by vm_ops->name 0x%llx, which pgwalk does not "
			 "know", (unsigned long long)fn);
		return PGW_OK;
	}
	if (fn) {
		uint64_t priv = vma_le(raw + l->vm_private_data, l->ptr);
		if (vma_read_word(b->r, priv + l->special_name, l->ptr, &at,
				  &e) ||
		    read_cstr(b->r, at, name, &n, &e)) {
			unknown(v, "its special mapping's name", &e);
			return PGW_OK;
		}
		v->naming = PGW_VMA_NAMED;
		return add_name(b->set, v, name, n, err);
	}
	if (v->start <= b->brk && v->end >= b->start_brk) {
		v->naming = PGW_VMA_NAMED;
		return add_name(b->set, v, "[heap]", 6, err);
	}
	if (v->start <= b->start_stack && v->end >= b->start_stack) {
		v->naming = PGW_VMA_NAMED;
		return add_name(b->set, v, "[stack]", 7, err);
	}
	at = l->anon_name == VMA_ABSENT ? 0 :
		vma_le(raw + l->anon_name, l->ptr);
	if (!at)
		return PGW_OK;
	memcpy(name, "[anon:", 6);
	if (read_cstr(b->r, at + l->anon_name_name, name + 6, &n, &e)) {
		unknown(v, "its anon_name", &e);
		return PGW_OK;
	}
	name[6 + n] = ']';
	v->naming = PGW_VMA_NAMED;
	return add_name(b->set, v, name, n + 7, err);
}

/* Stop the set here: st and why. */
static int stop(struct build *b, enum pgw_status st)
{
	b->st = st;
	return 1;
}

/* The VMA at va, which the tree files under [first, last] (the list:
 * last 0). */
static int one_vma(void *arg, uint64_t va, uint64_t first, uint64_t last)
{
	struct build *b = arg;
	const struct vma_layout *l = &b->r->lay;
	struct pgw_vmas *s = b->set;
	uint8_t raw[4096];
	struct pgw_vma *v;

	if (s->n >= VMAS_MAX)
		return stop(b, pgw_err_set(&b->err, PGW_E_LIMIT,
					   "more than %u VMAs", VMAS_MAX));
	if (pgw_read_virt(b->r->kernel, va, raw, l->vma_size, NULL,
			  &b->err) != PGW_OK)
		return stop(b, pgw_err_prefix(&b->err, "VMA 0x%llx",
					      (unsigned long long)va));
	if (pgw_grow(&s->vma, s->n, sizeof(*s->vma), &b->err) != PGW_OK)
		return stop(b, b->err.status);
	v = &s->vma[s->n];
	memset(v, 0, sizeof(*v));
	v->vma = va;
	v->start = vma_le(raw + l->vm_start, l->ptr);
	v->end = vma_le(raw + l->vm_end, l->ptr);
	v->flags = vma_le(raw + l->vm_flags, l->vm_flags_size);
	v->file = vma_le(raw + l->vm_file, l->ptr);
	uint64_t mm = vma_le(raw + l->vm_mm, l->ptr);
	uint64_t prev_end = s->n ? s->vma[s->n - 1].end : 0;
	if (mm != s->mm || v->start >= v->end || v->start < prev_end ||
	    (last && (v->start != first || v->end - 1 != last)))
		return stop(b, pgw_err_set(&b->err, PGW_E_FORMAT,
					   "VMA 0x%llx [0x%llx, 0x%llx) of mm "
					   "0x%llx %s", (unsigned long long)va,
					   (unsigned long long)v->start,
					   (unsigned long long)v->end,
					   (unsigned long long)mm,
					   mm != s->mm ? "belongs to another mm" :
					   v->start >= v->end ? "is empty" :
					   v->start < prev_end ?
						   "overlaps the one before "
						   "(a loop?)" :
						   "is not where the maple "
						   "tree files it"));
	if (s->n >= (size_t)b->map_count)
		return stop(b, pgw_err_set(&b->err, PGW_E_FORMAT,
					   "more VMAs than the mm's map_count "
					   "(%lld)",
					   (long long)b->map_count));
	enum pgw_status st;
	if (v->file) {
		v->pgoff = vma_le(raw + l->vm_pgoff, l->ptr) << 12;
		if (s->n && v->file == b->last_file &&
		    s->vma[s->n - 1].naming == PGW_VMA_PATH) {
			const struct pgw_vma *p = &s->vma[s->n - 1];
			v->dev = p->dev;
			v->ino = p->ino;
			v->huge_page_size = p->huge_page_size;
			v->naming = p->naming;
			v->name_at = p->name_at;
			v->name_len = p->name_len;
			st = PGW_OK;
		} else {
			st = file_name(b, v, &b->err);
		}
		b->last_file = v->file;
		if (st == PGW_OK && shmem_name(b, v, raw, &b->err) < 0)
			st = b->err.status;
	} else {
		st = anon_name(b, v, raw, &b->err);
	}
	if (st != PGW_OK)
		return stop(b, st);
	s->n++;
	return 0;
}

/* mm->exe_file's name, into the set (or why not). */
static void exe_name(struct build *b, uint64_t mm)
{
	const struct vma_layout *l = &b->r->lay;
	struct pgw_vmas *s = b->set;
	struct pgw_vma v = { 0 };
	struct pgw_err e;

	if (l->mm_exe_file == VMA_ABSENT) {
		snprintf(s->exe_why, sizeof(s->exe_why),
			 "BTF: mm_struct has no exe_file");
		return;
	}
	if (vma_read_word(b->r, mm + l->mm_exe_file, l->ptr, &v.file, &e)) {
		snprintf(s->exe_why, sizeof(s->exe_why), "mm->exe_file: %.140s",
			 e.msg);
		return;
	}
	if (!v.file) {
		snprintf(s->exe_why, sizeof(s->exe_why), "no exe_file");
		return;
	}
	if (file_name(b, &v, &e) != PGW_OK || v.naming != PGW_VMA_PATH) {
		snprintf(s->exe_why, sizeof(s->exe_why), "%.150s",
			 v.naming == PGW_VMA_UNKNOWN ? v.why : e.msg);
		return;
	}
	s->exe_at = v.name_at;
	s->exe_len = v.name_len;
}

/* Before 6.1: mm->mmap, then each vm_next. */
static enum pgw_status walk_list(struct build *b, uint64_t first,
				 struct pgw_err *err)
{
	const struct vma_layout *l = &b->r->lay;
	uint64_t va = first;

	while (va) {
		if (one_vma(b, va, 0, 0))
			return PGW_E_STOPPED;
		if (vma_read_word(b->r, va + l->vm_next, l->ptr, &va, err))
			return pgw_err_prefix(err, "VMA list");
	}
	return PGW_OK;
}

enum pgw_status pgw_linux_vmas(struct pgw_linux_mm *lm, uint64_t mm,
			       struct pgw_vmas **vmas_ret,
			       struct pgw_err *err)
{
	const struct vma_layout *l = &lm->r.lay;
	struct build *b = calloc(1, sizeof(*b));
	struct pgw_vmas *s = calloc(1, sizeof(*s));
	uint64_t root = 0, map_count = 0;
	enum pgw_status st;

	*vmas_ret = NULL;
	if (!b || !s) {
		free(b);
		free(s);
		return pgw_err_set(err, PGW_E_NOMEM, "VMAs");
	}
	b->r = &lm->r;
	b->set = s;
	s->mm = mm;
	uint32_t head = l->mm_mt_root != VMA_ABSENT ? l->mm_mt_root :
						      l->mm_mmap;
	if ((st = vma_read_word(&lm->r, mm + head, l->ptr, &root, err)) ||
	    (st = vma_read_word(&lm->r, mm + l->mm_start_brk, l->ptr,
				&b->start_brk, err)) ||
	    (st = vma_read_word(&lm->r, mm + l->mm_brk, l->ptr, &b->brk,
				err)) ||
	    (st = vma_read_word(&lm->r, mm + l->mm_start_stack, l->ptr,
				&b->start_stack, err)) ||
	    (st = vma_read_word(&lm->r, mm + l->mm_map_count, 4, &map_count,
				err))) {
		free(b);
		free(s);
		return pgw_err_prefix(err, "mm 0x%llx",
				      (unsigned long long)mm);
	}
	b->map_count = (int32_t)(uint32_t)map_count;
	struct pgw_err walk_err;
	if (l->mm_mt_root != VMA_ABSENT)
		st = maple_walk(&lm->r, root, one_vma, b, &walk_err);
	else
		st = walk_list(b, root, &walk_err);
	if (st == PGW_E_STOPPED)
		st = b->st;     /* one_vma's reason, in b->err */
	else if (st != PGW_OK)
		b->err = walk_err;
	s->complete = st == PGW_OK && s->n == (size_t)b->map_count;
	if (st == PGW_OK && !s->complete) {
		st = PGW_E_FORMAT;
		pgw_err_set(&b->err, st, "%zu VMAs found, the mm's map_count "
			    "says %lld", s->n, (long long)b->map_count);
	}
	if (!s->complete) {
		s->status = st;
		snprintf(s->why, sizeof(s->why), "%.250s", b->err.msg);
	}
	exe_name(b, mm);
	free(b);
	*vmas_ret = s;
	return PGW_OK;
}

enum pgw_status pgw_linux_vmas_of_pid(struct pgw_linux_mm *lm, int32_t pid,
				      struct pgw_vmas **vmas_ret,
				      struct pgw_err *err)
{
	*vmas_ret = NULL;
	for (size_t i = 0; i < lm->ntasks; i++) {
		const struct pgw_task *t = &lm->tasks[i];
		if (t->pid != pid)
			continue;
		if (!t->mm)
			return pgw_err_set(err, PGW_E_NOTFOUND,
					   "pid %d has no mm (a kernel "
					   "thread, or exiting)", (int)pid);
		return pgw_linux_vmas(lm, t->mm, vmas_ret, err);
	}
	return pgw_err_set(err, PGW_E_NOTFOUND, "no process with pid %d%s",
			   (int)pid, lm->tasks_st == PGW_OK ? "" :
			   " in the part of the task list read");
}

const struct pgw_vma *pgw_vmas_find(const struct pgw_vmas *vmas,
				    uint64_t va)
{
	size_t lo = 0, hi = vmas->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (va < vmas->vma[mid].start)
			hi = mid;
		else if (va >= vmas->vma[mid].end)
			lo = mid + 1;
		else
			return &vmas->vma[mid];
	}
	return NULL;
}

void pgw_vmas_free(struct pgw_vmas *vmas)
{
	if (!vmas)
		return;
	free(vmas->vma);
	free(vmas->names_buf);
	free(vmas);
}
