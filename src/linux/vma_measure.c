/*
 * A VMA measured against the page tables, as smaps measures it
 * (fs/proc/task_mmu.c): one range walk over the VMA, each leaf and hole
 * clipped to it and counted once.  A present pte with the special bit
 * (_PAGE_SPECIAL, bit 9: the zero page, PFN and mixed mappings) is no
 * normal page: smaps leaves it out of Rss, and so does rss here.
 */
#include "pgwalk.h"

#include <string.h>

#define VM_HUGETLB UINT64_C(0x400000)
#define PTE_SPECIAL (UINT64_C(1) << 9)

static const char *const state_keys[PGW_NPAGE_STATES] = {
	[PGW_PAGE_PRESENT] = "present", [PGW_PAGE_PROTNONE] = "protnone",
	[PGW_PAGE_SWAP] = "swap", [PGW_PAGE_OTHER_NP] = "other-non-present",
	[PGW_PAGE_EMPTY] = "empty", [PGW_PAGE_UNKNOWN] = "table-not-in-image",
};

const char *pgw_page_state_key(enum pgw_page_state s)
{
	return (unsigned)s < PGW_NPAGE_STATES ? state_keys[s] : "?";
}

struct measure {
	const struct pgw_space *user;
	const struct pgw_vma *vma;
	struct pgw_vma_usage *u;
	pgw_vma_page_fn page;
	void *arg;
	bool hugetlb;
};

/* [*va, *end) inside the VMA; false when nothing is. */
static bool clip(const struct pgw_vma *v, uint64_t *va, uint64_t *end)
{
	if (*va < v->start)
		*va = v->start;
	if (*end == 0 || *end > v->end)
		*end = v->end;
	return *va < *end;
}

static int leaf(void *arg, const struct pgw_leaf *lf)
{
	struct measure *m = arg;
	struct pgw_vma_usage *u = m->u;
	uint64_t total = lf->size * (lf->count ? lf->count : 1);
	uint64_t va = lf->va, end = lf->va + total;

	if (!clip(m->vma, &va, &end))
		return 0;
	uint64_t n = end - va;
	bool special = lf->level == PGW_PTE && (lf->entry.raw & PTE_SPECIAL);
	uint64_t absent = pgw_image_absent_bytes(m->user->img,
						 lf->pa + (va - lf->va) %
							 lf->size, n, NULL);
	u->present += n;
	u->not_in_image += absent;
	if (m->hugetlb) {
		u->hugetlb += n;
		u->kernel_page_size = lf->size;
	} else {
		if (!special)
			u->rss += n;
		if (lf->level != PGW_PTE)
			u->thp += n;
	}
	if (!m->page)
		return 0;
	struct pgw_vma_page p = {
		.va = va, .end = end, .state = PGW_PAGE_PRESENT,
		.pa = lf->pa + (va - lf->va) % lf->size,
		.page_size = lf->size, .in_image = absent == 0,
		.special = special, .entry = &lf->entry,
	};
	return m->page(m->arg, &p);
}

static int hole(void *arg, const struct pgw_hole *h)
{
	struct measure *m = arg;
	struct pgw_vma_usage *u = m->u;
	uint64_t va = h->va, end = h->end;
	enum pgw_page_state st;

	if (!clip(m->vma, &va, &end))
		return 0;
	uint64_t n = end - va;
	if (h->stop == PGW_STOP_TABLE_NOT_IN_IMAGE ||
	    h->stop == PGW_STOP_TABLE_BEYOND_MEMORY) {
		st = PGW_PAGE_UNKNOWN;
		u->unknown += n;
	} else {
		switch (h->stop == PGW_STOP_NOT_PRESENT ? h->entry.np_kind :
							  PGW_NP_OTHER) {
		case PGW_NP_NONE:
			st = PGW_PAGE_EMPTY;
			u->empty += n;
			break;
		case PGW_NP_PROTNONE:
			st = PGW_PAGE_PROTNONE;
			u->protnone += n;
			if (m->hugetlb)
				u->hugetlb += n;
			else
				u->rss += n;
			break;
		case PGW_NP_SWAP:
			st = PGW_PAGE_SWAP;
			u->swap += n;
			break;
		default:
			st = PGW_PAGE_OTHER_NP;
			u->other_np += n;
			break;
		}
	}
	if (!m->page)
		return 0;
	struct pgw_vma_page p = {
		.va = va, .end = end, .state = st,
		.entry = st == PGW_PAGE_UNKNOWN ? NULL : &h->entry,
	};
	if (st == PGW_PAGE_PROTNONE) {
		uint64_t size = UINT64_C(1)
				<< m->user->mode->level[h->level].shift;
		p.page_size = size;
		p.pa = (h->entry.np_pfn << 12) + (va - h->va) % size;
	}
	return m->page(m->arg, &p);
}

enum pgw_status pgw_vma_measure(const struct pgw_space *user,
				const struct pgw_vma *vma,
				struct pgw_vma_usage *usage_ret,
				pgw_vma_page_fn page, void *arg,
				struct pgw_err *err)
{
	struct measure m = {
		.user = user, .vma = vma, .u = usage_ret, .page = page,
		.arg = arg, .hugetlb = vma->flags & VM_HUGETLB,
	};
	struct pgw_walk_opts o = { .start = vma->start, .end = vma->end };
	struct pgw_walk_ops ops = { .leaf = leaf, .hole = hole };
	int stopped = 0;

	memset(usage_ret, 0, sizeof(*usage_ret));
	usage_ret->kernel_page_size = m.hugetlb ? 0 : 4096;
	enum pgw_status st = pgw_walk_range(user, &o, &ops, &m, NULL, &stopped,
					    err);
	/* smaps says the hstate's, whatever the leaves. */
	if (m.hugetlb && vma->huge_page_size)
		usage_ret->kernel_page_size = vma->huge_page_size;
	usage_ret->complete = st == PGW_OK;
	return st;
}
