/*
 * The facts the task list and the VMA reader rest on, given back by a
 * later command (pgw_kernel_facts): used only when the bytes they came
 * from still hash as they did and the list they read holds to what every
 * kernel's list does; see include/pgwalk.h for every check.
 */
#include "../lib/err.h"
#include "kallsyms_decode.h"
#include "memo.h"
#include "scan.h"

#include <stdio.h>
#include <string.h>

/* Pages hashed between a span's first and last. */
#define SPAN_SAMPLES 14

/* A sample of [lo, hi)'s pages hashed (its first, its last, and
 * SPAN_SAMPLES spread between); false when one cannot be read. */
static bool span_hash(const struct pgw_space *kernel, uint64_t lo,
		      uint64_t hi, uint64_t *h)
{
	static uint8_t page[PGW_PAGE_SIZE];
	struct pgw_err err;

	if (hi <= lo || hi - lo > PGW_KERNEL_BTF_MAX)
		return false;
	*h = PGW_FNV64_SEED;
	for (unsigned i = 0; i <= SPAN_SAMPLES + 1; i++) {
		uint64_t at = lo + (hi - lo) / (SPAN_SAMPLES + 1) * i;
		size_t n = PGW_PAGE_SIZE;
		if (i == SPAN_SAMPLES + 1)
			at = hi > lo + n ? hi - n : lo;
		if (at + n > hi)
			n = (size_t)(hi - at);
		if (pgw_read_virt(kernel, at, page, n, NULL, &err) != PGW_OK)
			return false;
		*h = pgw_fnv64_words(*h, page, n);
	}
	return true;
}

/* The span the kallsyms tables take: from the lowest to the end of the
 * farthest (names and offsets as decoded, the others a page). */
static void ks_span(const struct pgw_kallsyms *ks, uint64_t *lo,
		    uint64_t *hi)
{
	const struct pgw_kallsyms_tables *t = &ks->tables;
	const uint64_t ends[][2] = {
		{ t->names, ks->names_len }, { t->num_syms, 8 },
		{ t->token_table, PGW_PAGE_SIZE },
		{ t->token_index, 512 }, { t->relative_base, 8 },
		{ t->offsets, (uint64_t)ks->num * 4 },
		{ t->addresses, (uint64_t)ks->num * ks->ptr_size },
	};

	*lo = UINT64_MAX;
	*hi = 0;
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		if (!ends[i][0])
			continue;
		if (ends[i][0] < *lo)
			*lo = ends[i][0];
		if (ends[i][0] + ends[i][1] > *hi)
			*hi = ends[i][0] + ends[i][1];
	}
}

bool linux_tasks_plausible(const struct pgw_task *t, size_t n, char *why,
			   size_t size)
{
	static const char swapper[] = "swapper";

	if (n == 0 || t[0].pid != 0 || t[0].tgid != 0 || t[0].mm ||
	    !t[0].kthread || t[0].comm_len < sizeof(swapper) - 1 ||
	    memcmp(t[0].comm, swapper, sizeof(swapper) - 1)) {
		snprintf(why, size, "its first task is no init_task (pid 0, "
			 "no mm, a kernel thread named swapper)");
		return false;
	}
	for (size_t i = 1; i < n; i++) {
		if (t[i].pid <= 0 || t[i].pid != t[i].tgid) {
			snprintf(why, size, "task %zu: pid %d, tgid %d: no "
				 "thread-group leader", i, t[i].pid,
				 t[i].tgid);
			return false;
		}
		for (size_t j = 1; j < i; j++)
			if (t[j].pid == t[i].pid) {
				snprintf(why, size, "two tasks with pid %d",
					 t[i].pid);
				return false;
			}
	}
	return true;
}

void pgw_linux_kernel_hint(struct pgw_linux_kernel *lk,
			   const struct pgw_kernel_facts *hint)
{
	lk->hint = hint;
}

/* Is the hint about lk's kernel space, read as it reads it? */
static bool same_space(const struct pgw_linux_kernel *lk,
		       const struct pgw_kernel_facts *h)
{
	return h->mode == lk->kernel.mode && h->root == lk->kernel.root &&
	       h->root_upper == lk->kernel.root_upper &&
	       h->enc.enc == lk->kernel.enc.enc &&
	       h->enc.shared == lk->kernel.enc.shared;
}

/* The checks that need no list, or why one fails. */
static bool hint_bytes_hold(const struct pgw_linux_kernel *lk,
			    const struct pgw_kernel_facts *h, char *why,
			    size_t size)
{
	struct pgw_kallsyms_tables t;
	struct pgw_err err;
	uint64_t ksh, btfh;
	bool listed = pgw_kallsyms_tables_vmcoreinfo(lk->kernel.img, &t,
						     &err) == PGW_OK;

	if (!same_space(lk, h))
		snprintf(why, size, "read through another kernel space");
	else if (h->how.method != (listed ? PGW_TASKS_BTF :
					    PGW_TASKS_SCANNED_BTF))
		snprintf(why, size, "its method is not this image's");
	else if (!span_hash(&lk->kernel, h->ks_lo, h->ks_hi, &ksh) ||
		 ksh != h->ks_hash)
		snprintf(why, size, "the kallsyms tables at 0x%llx hash "
			 "otherwise, or cannot be read",
			 (unsigned long long)h->ks_lo);
	else if (!span_hash(&lk->kernel, h->btf_va, h->btf_va + h->btf_size,
			    &btfh) || btfh != h->btf_hash)
		snprintf(why, size, "the BTF at 0x%llx hashes otherwise, or "
			 "cannot be read", (unsigned long long)h->btf_va);
	else
		return true;
	return false;
}

bool linux_kernel_tasks_hinted(struct pgw_linux_kernel *lk,
			       struct pgw_task **tasks_ret, size_t *n_ret,
			       struct pgw_tasks_how *how)
{
	const struct pgw_kernel_facts *h = lk->hint;
	char *why = lk->use.why_not;
	size_t size = sizeof(lk->use.why_not);
	struct pgw_err err = { 0 };
	char bad[200];

	if (!hint_bytes_hold(lk, h, why, size))
		return false;
	enum pgw_status st = pgw_linux_task_list(&lk->kernel, h->how.init_task,
						 &h->how.layout, 0, tasks_ret,
						 n_ret, &err);
	if (st != PGW_OK || !linux_tasks_plausible(*tasks_ret, *n_ret, bad,
						   sizeof(bad))) {
		snprintf(why, size, "the task list it reads %s",
			 st != PGW_OK ? "is not whole" : bad);
		pgw_linux_tasks_free(*tasks_ret);
		*tasks_ret = NULL;
		*n_ret = 0;
		return false;
	}
	*how = h->how;
	lk->use.tasks = true;
	lk->found = *h;
	lk->have_found = true;
	return true;
}

void linux_kernel_facts_note(struct pgw_linux_kernel *lk)
{
	struct pgw_kernel_facts *f = &lk->found;
	struct pgw_kernel_btf_info bi;
	char why[200];

	if (lk->how.method == PGW_TASKS_INFERRED || !lk->ks || !lk->kb ||
	    !linux_tasks_plausible(lk->tasks, lk->ntasks, why, sizeof(why)))
		return;
	memset(f, 0, sizeof(*f));
	f->mode = lk->kernel.mode;
	f->root = lk->kernel.root;
	f->root_upper = lk->kernel.root_upper;
	f->enc = lk->kernel.enc;
	f->how = lk->how;
	ks_span(lk->ks, &f->ks_lo, &f->ks_hi);
	pgw_kernel_btf_info(lk->kb, &bi);
	f->btf_va = bi.va;
	f->btf_size = bi.size;
	lk->have_found = bi.va &&
			 span_hash(&lk->kernel, f->ks_lo, f->ks_hi,
				   &f->ks_hash) &&
			 span_hash(&lk->kernel, f->btf_va,
				   f->btf_va + f->btf_size, &f->btf_hash);
}

bool pgw_linux_kernel_found(const struct pgw_linux_kernel *lk,
			    struct pgw_kernel_facts *found_ret)
{
	if (!lk->have_found)
		return false;
	*found_ret = lk->found;
	return true;
}

void pgw_linux_kernel_hint_use(const struct pgw_linux_kernel *lk,
			       struct pgw_kernel_hint_use *use_ret)
{
	*use_ret = lk->use;
}
