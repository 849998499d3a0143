/*
 * Where a walk starts: --cr3, --root, a CPU's CR3 from the notes (on
 * arm64, whose notes carry no TTBR, the task the list runs there), a
 * process's mm->pgd from the task list, the kernel's own top table from
 * VMCOREINFO (or found by scan), or CPU 0.  Also PTI: a user-mode CPU's
 * CR3 names the user copy of the top table; the kernel copy is 4 KiB
 * below.
 */
#include "../lib/err.h"
#include "linux.h"
#include "arm64.h"

#include <stdio.h>
#include <string.h>

/* Does translating `va` through root `table` land on `expect`? */
static bool self_maps(struct pgw_image *img, const struct pgw_mode *mode,
		      const struct pgw_enc_bits *enc, uint64_t table,
		      uint64_t va, uint64_t expect)
{
	struct pgw_space sp = { .img = img, .mode = mode, .root = table,
				.enc = *enc };
	struct pgw_xlat x;

	return pgw_translate(&sp, NULL, va, &x) == PGW_STOP_OK &&
	       x.pa == expect;
}

/* The kernel root symbol VMCOREINFO has, even one whose value is not a
 * number (so that a damaged one is named, not called absent). */
static const char *root_symbol_present(const struct pgw_image *img)
{
	static const char *const syms[] = {
		"SYMBOL(init_top_pgt)", "SYMBOL(init_level4_pgt)",
		"SYMBOL(swapper_pg_dir)",
	};

	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (pgw_vmcoreinfo_get(img, syms[i]))
			return syms[i];
	return NULL;
}

/*
 * The kernel's top table from VMCOREINFO.  x86-64 exports init_top_pgt
 * (4.13+) or swapper_pg_dir in the kernel text mapping: physical is
 * va - __START_KERNEL_map + phys_base.  i386 exports swapper_pg_dir in the
 * direct map: physical is va - PAGE_OFFSET, and the right PAGE_OFFSET is
 * the one under which the table maps itself.  Why it gave none goes
 * into why_not (size n).  enc: the tables' encryption bits.
 */
static bool root_from_vmcoreinfo(struct pgw_image *img,
				 const struct pgw_mode *mode,
				 const struct pgw_enc_bits *enc,
				 struct pgw_root *root, char *why_not,
				 size_t n)
{
	uint64_t va = 0;
	const char *sym;
	struct pgw_vmci_source src = pgw_vmci_image(img);

	if (mode->root_select_bit) {
		/* arm64: __pa_symbol(swapper_pg_dir), TTBR1's table. */
		if (linux_arm64_swapper(&src, &root->table, root->why,
					sizeof(root->why))) {
			root->cr3 = root->table;
			return true;
		}
		snprintf(why_not, n, "no SYMBOL(swapper_pg_dir) and "
			 "NUMBER(kimage_voffset) in VMCOREINFO");
		return false;
	}
	if (!linux_kernel_root_symbol(img, &sym, &va)) {
		const char *bad = root_symbol_present(img);
		if (bad)
			snprintf(why_not, n, "VMCOREINFO %s=%.40s is not a "
				 "number", bad, pgw_vmcoreinfo_get(img, bad));
		else
			snprintf(why_not, n, "no kernel root in VMCOREINFO");
		return false;
	}
	if (mode->va_bits > 32) {
		uint64_t phys_base = 0;
		bool have_pb = pgw_vmcoreinfo_u64(img, "NUMBER(phys_base)",
						  &phys_base);
		if (va < LINUX_START_KERNEL_MAP) {
			snprintf(why_not, n, "VMCOREINFO %s=0x%llx is below "
				 "the kernel text mapping 0x%llx", sym,
				 (unsigned long long)va,
				 (unsigned long long)LINUX_START_KERNEL_MAP);
			return false;
		}
		root->table = (va - LINUX_START_KERNEL_MAP + phys_base) &
			      mode->root_mask;
		root->cr3 = root->table;
		snprintf(root->why, sizeof(root->why),
			 "VMCOREINFO %s=0x%llx, phys_base 0x%llx%s", sym,
			 (unsigned long long)va, (unsigned long long)phys_base,
			 have_pb ? "" : " (absent, assumed 0)");
		return true;
	}
	for (size_t i = 0; i < LINUX_NPAGE_OFFSETS_32; i++) {
		uint64_t po = linux_page_offsets_32[i];
		if (va < po)
			continue;
		uint64_t table = (va - po) & mode->root_mask;
		if (!self_maps(img, mode, enc, table, va, va - po))
			continue;
		root->table = table;
		root->cr3 = table;
		snprintf(root->why, sizeof(root->why),
			 "VMCOREINFO %s=0x%llx, PAGE_OFFSET 0x%llx (the table "
			 "maps itself there)", sym, (unsigned long long)va,
			 (unsigned long long)po);
		return true;
	}
	snprintf(why_not, n, "VMCOREINFO %s=0x%llx maps itself under no "
		 "i386 PAGE_OFFSET", sym, (unsigned long long)va);
	return false;
}

/* The kernel's own root: VMCOREINFO's, else one found by scan. */
static bool kernel_root(struct pgw_image *img, const struct pgw_mode *mode,
			const struct pgw_enc_bits *enc,
			const struct linux_scanned_root *scanned,
			struct pgw_root *root, char *why_not, size_t n)
{
	if (root_from_vmcoreinfo(img, mode, enc, root, why_not, n)) {
		root->source = PGW_ROOT_VMCOREINFO;
		return true;
	}
	if (!scanned || !scanned->have)
		return false;
	root->source = PGW_ROOT_SCAN;
	root->table = root->cr3 = scanned->table;
	snprintf(root->why, sizeof(root->why), "%s", scanned->why);
	return true;
}

/* The kernel's root for a request's process or lower half, or why there
 * is none. */
struct kernel_pick {
	struct pgw_root root;
	char why_not[120];
};

static bool pick_kernel(struct pgw_image *img, const struct pgw_mode *mode,
			const struct pgw_root_request *req,
			const struct linux_scanned_root *scanned,
			struct kernel_pick *kp)
{
	memset(kp, 0, sizeof(*kp));
	return kernel_root(img, mode, &req->enc, scanned, &kp->root,
			   kp->why_not, sizeof(kp->why_not));
}

static enum pgw_status from_cpu(struct pgw_image *img,
				const struct pgw_mode *mode,
				const struct pgw_enc_bits *enc, unsigned cpu,
				struct pgw_root *root, struct pgw_err *err)
{
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(img, &cpus);

	if (cpu >= ncpus)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "CPU %u: the image has CPU state for %zu "
				   "CPU%s", cpu, ncpus, ncpus == 1 ? "" : "s");
	if (!cpus[cpu].has_cr)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "CPU %u: its CPU note could not be read (see "
				   "info); give --cr3", cpu);
	root->source = PGW_ROOT_CPU;
	root->cpu = (int)cpu;
	root->cr3 = cpus[cpu].cr3;
	root->table = pgw_cr3_table(mode, root->cr3, enc);
	snprintf(root->why, sizeof(root->why),
		 "CPU %u CR3 0x%llx from the image's notes", cpu,
		 (unsigned long long)root->cr3);
	return PGW_OK;
}

/* The kernel's space, which the task list is read through (its entries
 * read with the request's encryption bits); what: the option asking. */
static enum pgw_status kernel_space(struct pgw_image *img,
				    const struct pgw_mode *mode,
				    const struct pgw_root_request *req,
				    const struct linux_scanned_root *scanned,
				    const char *what, struct pgw_space *kernel,
				    struct pgw_err *err)
{
	struct kernel_pick kp;

	if (!pick_kernel(img, mode, req, scanned, &kp))
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "%s: the task list is read through the "
				   "kernel's page tables, and there is no "
				   "kernel root (%s)", what, kp.why_not);
	const struct pgw_root k = kp.root;
	enum pgw_absence why = pgw_image_page_state(img, k.table >>
							 PGW_PAGE_SHIFT);
	if (why != PGW_ABSENT_NONE)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "%s: the kernel root 0x%llx, which the task "
				   "list is read through, is not in the image "
				   "(%s)", what, (unsigned long long)k.table,
				   pgw_absence_key(why));
	*kernel = (struct pgw_space){ .img = img, .mode = mode,
				      .root = k.table, .enc = req->enc };
	if (mode->root_select_bit) {
		kernel->root = 0;
		kernel->root_upper = k.table;
	}
	return PGW_OK;
}

/* A process's root, from the task list. */
static enum pgw_status from_task(struct pgw_image *img,
				 const struct pgw_mode *mode,
				 const struct pgw_root_request *req,
				 const struct linux_scanned_root *scanned,
				 struct pgw_root *root, struct pgw_err *err)
{
	struct pgw_space kernel;
	struct pgw_linux_kernel *own = NULL, *lk = req->kernel_memo;
	enum pgw_status st = kernel_space(img, mode, req, scanned,
					  req->have_pid ? "--pid" : "--comm",
					  &kernel, err);

	if (st == PGW_OK && !lk && (st = pgw_linux_kernel_new(&own, err)) ==
				       PGW_OK)
		lk = own;
	if (st == PGW_OK)
		st = linux_task_root(lk, &kernel, req, root, err);
	if (st == PGW_OK)
		root->source = PGW_ROOT_TASK;
	pgw_linux_kernel_free(own);
	return st;
}

/* A CPU's root where the notes carry no root register (arm64): the
 * task the list runs there. */
static enum pgw_status from_cpu_task(struct pgw_image *img,
				     const struct pgw_mode *mode,
				     const struct pgw_root_request *req,
				     const struct linux_scanned_root *scanned,
				     struct pgw_root *root,
				     struct pgw_err *err)
{
	struct pgw_space kernel;
	struct pgw_linux_kernel *own = NULL, *lk = req->kernel_memo;
	enum pgw_status st = kernel_space(img, mode, req, scanned, "--cpu",
					  &kernel, err);

	if (st == PGW_OK && !lk && (st = pgw_linux_kernel_new(&own, err)) ==
				       PGW_OK)
		lk = own;
	if (st == PGW_OK)
		st = linux_cpu_task_root(lk, &kernel, req->cpu, root, err);
	pgw_linux_kernel_free(own);
	return st;
}

/* The root req names: its source, CR3 and table, before any check. */
static enum pgw_status pick(struct pgw_image *img,
			    const struct pgw_mode *mode,
			    const struct pgw_root_request *req,
			    const struct linux_scanned_root *scanned,
			    struct pgw_root *root, struct pgw_err *err)
{
	const struct pgw_enc_bits *enc = &req->enc;
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(img, &cpus);
	char why_not[120] = "";

	memset(root, 0, sizeof(*root));
	root->cpu = -1;
	if (mode->root_select_bit && req->have_cr3)
		return pgw_err_set(err, PGW_E_ARG,
				   "--cr3: %s has no CR3: give --ttbr0/--ttbr1, "
				   "--root, --cpu, --pid or --comm", mode->name);
	if (!mode->root_select_bit && (req->have_ttbr0 || req->have_ttbr1))
		return pgw_err_set(err, PGW_E_ARG,
				   "--ttbr0/--ttbr1: %s has one root; give "
				   "--cr3 or --root", mode->name);
	if (req->have_ttbr0 || req->have_ttbr1) {
		root->source = PGW_ROOT_TTBR_OPTION;
		root->cr3 = req->have_ttbr0 ? req->ttbr0 : req->ttbr1;
		root->table = pgw_cr3_table(mode, root->cr3, &req->enc);
		snprintf(root->why, sizeof(root->why), "--ttbr%d=0x%llx",
			 req->have_ttbr0 ? 0 : 1,
			 (unsigned long long)root->cr3);
	} else if (req->have_cr3) {
		root->source = PGW_ROOT_CR3_OPTION;
		root->cr3 = req->cr3;
		root->table = pgw_cr3_table(mode, req->cr3, enc);
		snprintf(root->why, sizeof(root->why), "--cr3=0x%llx",
			 (unsigned long long)req->cr3);
	} else if (req->have_table) {
		if (req->table & ~mode->root_mask)
			return pgw_err_set(err, PGW_E_ARG,
					   "--root=0x%llx is no %s top table's "
					   "address (they are aligned to %llu "
					   "bytes below 2^%u; --cr3 takes a "
					   "register value)",
					   (unsigned long long)req->table,
					   mode->name, (unsigned long long)
					   (mode->root_mask & -mode->root_mask),
					   mode->phys_bits);
		root->source = PGW_ROOT_TABLE;
		root->cr3 = root->table = req->table;
		snprintf(root->why, sizeof(root->why), "--root=0x%llx",
			 (unsigned long long)req->table);
	} else if (req->have_cpu && mode->root_select_bit) {
		return from_cpu_task(img, mode, req, scanned, root, err);
	} else if (req->have_cpu) {
		return from_cpu(img, mode, enc, req->cpu, root, err);
	} else if (req->have_pid || req->comm) {
		return from_task(img, mode, req, scanned, root, err);
	} else if (kernel_root(img, mode, enc, scanned, root, why_not,
			       sizeof(why_not))) {
		/* the kernel's own */
	} else if (!req->kernel && ncpus > 0 && cpus[0].has_cr) {
		root->source = PGW_ROOT_CPU0;
		root->cpu = 0;
		root->cr3 = cpus[0].cr3;
		root->table = pgw_cr3_table(mode, root->cr3, enc);
		snprintf(root->why, sizeof(root->why), "CPU 0 CR3 0x%llx (%s)",
			 (unsigned long long)root->cr3, why_not);
	} else if (req->kernel) {
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no kernel root: %s%s", why_not,
				   scanned ? ", and the kernel-root scan found "
				   "none" : "");
	} else {
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no root: %s, and the image has no CPU "
				   "registers; give --cr3", why_not);
	}
	return PGW_OK;
}

bool linux_root_cr3(struct pgw_image *img, const struct pgw_mode *mode,
		    const struct pgw_root_request *req,
		    const struct linux_scanned_root *scanned,
		    uint64_t *cr3_ret)
{
	/* A process's root is read through the kernel's tables, which are
	 * the ones to ask: the kernel root (else CPU 0's) stands in. */
	struct pgw_root_request r = *req;
	struct pgw_root root;
	struct pgw_err ignored;

	r.have_pid = false;
	r.comm = NULL;
	r.kernel = false;
	if (mode->root_select_bit)
		r.have_cpu = false;
	if (pick(img, mode, &r, scanned, &root, &ignored) != PGW_OK)
		return false;
	*cr3_ret = root.cr3;
	return true;
}

/* A half's table the image lacks: said once, as for one root. */
static enum pgw_status half_in_image(struct pgw_image *img, uint64_t table,
				     const char *half, const struct pgw_root *root,
				     struct pgw_err *err)
{
	enum pgw_absence why = pgw_image_page_state(img, table >>
							     PGW_PAGE_SHIFT);

	if (table && why != PGW_ABSENT_NONE)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "%s root table 0x%llx (%s) is not in the "
				   "image (%s)", half, (unsigned long long)table,
				   root->why, pgw_absence_key(why));
	return PGW_OK;
}

/*
 * A mode with two roots: the halves of the root picked.  The kernel's is
 * the upper (TTBR1); a process's table the lower (TTBR0), under the
 * kernel's upper half, as the CPU runs it; --ttbr0/--ttbr1 each their
 * own, one alone as a process's or the kernel's.
 */
static enum pgw_status two_roots(struct pgw_image *img,
				 const struct pgw_mode *mode,
				 const struct pgw_root_request *req,
				 const struct linux_scanned_root *scanned,
				 struct pgw_root *root, struct pgw_err *err)
{
	struct kernel_pick kp;
	bool kernel = root->source == PGW_ROOT_VMCOREINFO ||
		      root->source == PGW_ROOT_SCAN ||
		      (root->source == PGW_ROOT_TTBR_OPTION &&
		       !req->have_ttbr0);

	if (req->kernel_half)
		return pgw_err_set(err, PGW_E_ARG, "--kernel-root: %s has "
				   "no PTI pairs (TTBR1 holds the kernel)",
				   mode->name);
	if (kernel) {
		root->upper = root->table;
	} else {
		root->lower = root->table;
		if (req->have_ttbr1)
			root->upper = pgw_cr3_table(mode, req->ttbr1,
						    &req->enc);
		else if (pick_kernel(img, mode, req, scanned, &kp))
			root->upper = kp.root.table;
		size_t n = strlen(root->why);
		if (req->have_ttbr1 && req->have_ttbr0)
			snprintf(root->why + n, sizeof(root->why) - n,
				 ", --ttbr1=0x%llx",
				 (unsigned long long)req->ttbr1);
		else
			snprintf(root->why + n, sizeof(root->why) - n,
				 "; upper half: %s", root->upper ?
				 "the kernel's" : "none");
	}
	enum pgw_status st = half_in_image(img, root->lower, "lower", root,
					   err);
	return st == PGW_OK ? half_in_image(img, root->upper, "upper", root,
					    err) : st;
}

enum pgw_status linux_root_resolve(struct pgw_image *img,
				   const struct pgw_mode *mode,
				   const struct pgw_root_request *req,
				   const struct linux_scanned_root *scanned,
				   struct pgw_root *root, struct pgw_err *err)
{
	enum pgw_status st = pick(img, mode, req, scanned, root, err);

	if (st != PGW_OK)
		return st;
	if (mode->root_select_bit)
		return two_roots(img, mode, req, scanned, root, err);
	if (req->kernel_half) {
		struct pgw_pti pti;
		pgw_pti_check(img, mode, &req->enc, root->table, &pti);
		if (!pti.is_user_root)
			return pgw_err_set(err, PGW_E_ARG,
					   "--kernel-root: table 0x%llx does "
					   "not look like a PTI user root",
					   (unsigned long long)root->table);
		root->table = pti.kernel_table;
		size_t n = strlen(root->why);
		snprintf(root->why + n, sizeof(root->why) - n,
			 ", PTI kernel half 0x%llx",
			 (unsigned long long)root->table);
	}
	/* Nothing can translate from a top table the image lacks: say so
	 * once instead of failing every address. */
	enum pgw_absence why = pgw_image_page_state(img, root->table >>
							     PGW_PAGE_SHIFT);
	if (why != PGW_ABSENT_NONE)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "root table 0x%llx (%s) is not in the image "
				   "(%s)", (unsigned long long)root->table,
				   root->why, pgw_absence_key(why));
	return PGW_OK;
}

enum pgw_status pgw_root_resolve(struct pgw_image *img,
				 const struct pgw_mode *mode,
				 const struct pgw_root_request *req,
				 struct pgw_root *root, struct pgw_err *err)
{
	return linux_root_resolve(img, mode, req, NULL, root, err);
}
