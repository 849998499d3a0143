/*
 * check and roots in a mode with two roots (AArch64), on a synthetic
 * memory: the kernel's upper half with a writable block EL1 may execute
 * and a page EL0 may read, a process's lower half with a page EL0 may
 * write and execute and a user mapping of one of its own page tables.
 * Each is a finding of its rule; the kernel half is no process's to
 * compare; the roots scan finds the process's table and no other.
 */
#include "imgtest.h"
#include "arch/arm64.h"

#define B(n) (UINT64_C(1) << (n))
#define T 3
#define AF B(10)
#define USER B(6)
#define RO B(7)
#define PXN B(53)
#define UXN B(54)

static void put(uint8_t *m, uint64_t pa, uint64_t v)
{
	memcpy(m + pa, &v, sizeof(v));
}

struct got {
	unsigned n[PGW_NRULES];
	enum pgw_severity sev[PGW_NRULES];
	uint64_t va[PGW_NRULES], root[PGW_NRULES];
};

static int on_finding(void *arg, const struct pgw_finding *f)
{
	struct got *g = arg;

	g->n[f->rule]++;
	g->sev[f->rule] = f->severity;
	g->va[f->rule] = f->va;
	g->root[f->rule] = f->root;
	return 0;
}

int main(void)
{
	size_t len = 4 << 20;
	uint8_t *m = calloc(1, len);
	const uint64_t kroot = 0x200000, uroot = 0x100000;

	/* Kernel (TTBR1), 4k-48: L0[511] -> L1[511] -> L2: [0] a 2 MiB
	 * block RW, EL1-executable; [1] a table with a page EL0 may read. */
	put(m, kroot + 8 * 511, 0x201000 | T);
	put(m, 0x201000 + 8 * 511, 0x202000 | T);
	put(m, 0x202000, 0x200000 | 1 | AF | UXN);
	put(m, 0x202000 + 8, 0x203000 | T);
	put(m, 0x203000, 0x300000 | T | AF | USER | RO | PXN | UXN);
	/* Process (TTBR0): L0[0] -> L1[0] -> L2[0] -> L3: [0] EL0 RW and
	 * EL0-executable; [1] EL0 RW mapping of its own L3 table. */
	put(m, uroot, 0x101000 | T);
	put(m, 0x101000, 0x102000 | T);
	put(m, 0x102000, 0x103000 | T);
	put(m, 0x103000, 0x310000 | T | AF | USER);
	put(m, 0x103000 + 8, 0x103000 | T | AF | USER | UXN);
	struct pgw_image *img = open_raw_bytes(m, len);
	struct pgw_space kernel = { .img = img, .mode = &pgw_mode_arm64_4k_48,
				    .root_upper = kroot };
	struct pgw_space proc = kernel;
	proc.root = uroot;
	struct pgw_check *ck;
	struct pgw_err err = { 0 };
	struct got g = { 0 };

	ok(pgw_check_open(&kernel, &ck, &err) == PGW_OK,
	   "check opens on a space with two roots: %s", err.msg);
	struct pgw_check_root_opts ko = { .kernel_root = true };
	struct pgw_check_stats st;
	ok(pgw_check_root(ck, &kernel, &ko, on_finding, &g, &st, &err) ==
	   PGW_OK, "the kernel's space is checked: %s", err.msg);
	uint64_t kva = UINT64_C(0xffffffffc0000000);
	ok(g.n[PGW_RULE_WX] == 1 && g.sev[PGW_RULE_WX] == PGW_SEV_HIGH &&
	   g.va[PGW_RULE_WX] == kva && g.root[PGW_RULE_WX] == kroot &&
	   st.kernel_wx_pages == 512,
	   "wx: the kernel block EL1 may write and execute (512 pages), "
	   "named by TTBR1's table (%u found, at 0x%llx, root 0x%llx, "
	   "%llu pages)", g.n[PGW_RULE_WX],
	   (unsigned long long)g.va[PGW_RULE_WX],
	   (unsigned long long)g.root[PGW_RULE_WX],
	   (unsigned long long)st.kernel_wx_pages);
	ok(g.n[PGW_RULE_USER_KERNEL] == 1 &&
	   g.va[PGW_RULE_USER_KERNEL] == kva + B(21),
	   "user-kernel: the kernel page EL0 may read");
	memset(&g, 0, sizeof(g));
	struct pgw_check_root_opts uo = { .user_half_only = true };
	ok(pgw_check_root(ck, &proc, &uo, on_finding, &g, &st, &err) ==
	   PGW_OK, "the process's lower half is checked: %s", err.msg);
	ok(g.n[PGW_RULE_WX] == 1 && g.sev[PGW_RULE_WX] == PGW_SEV_LOW &&
	   g.va[PGW_RULE_WX] == 0 && g.root[PGW_RULE_WX] == uroot,
	   "wx: the page EL0 may write and execute (PXN implied, UXN "
	   "clear)");
	ok(g.n[PGW_RULE_PT_WRITABLE] == 1 &&
	   g.va[PGW_RULE_PT_WRITABLE] == 0x1000,
	   "pt-writable: the process's own page table, EL0-writable");
	ok(g.n[PGW_RULE_USER_KERNEL] == 0 && g.n[PGW_RULE_KERNEL_HALF] == 0,
	   "nothing of the kernel half in a process's lower-half walk");
	pgw_check_close(ck);

	/* The roots scan with arm64's own evidence: the kernel's root, then
	 * the process's top table; its lower tables (children of it) and
	 * the last-level tables (page descriptors) are none. */
	struct pgw_roots *roots = NULL;
	ok(pgw_roots_scan(img, &pgw_mode_arm64_4k_48, kroot, NULL, &roots,
			  &err) == PGW_OK && roots->n == 2 &&
	   roots->root[0].table == kroot &&
	   roots->root[0].kind == PGW_RK_KERNEL &&
	   roots->root[1].table == uroot &&
	   roots->root[1].kind == PGW_RK_PROCESS &&
	   roots->root[1].user_access_leaves == 2,
	   "roots: the kernel's, then the process's table (2 EL0 pages), "
	   "none of the lower tables: %s", err.msg);
	pgw_roots_free(roots);
	pgw_image_close(img);
	free(m);
	return tap_done();
}
