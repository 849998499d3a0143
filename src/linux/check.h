/*
 * What pgw_check_open gathers once for every root's check (check_open.c)
 * and the helpers the rule files share (check.c, check_roots.c).
 */
#ifndef PGW_LINUX_CHECK_H
#define PGW_LINUX_CHECK_H

#include "kernel_half.h"
#include "linux.h"

/* Kernel text, read-only data. */
#define CHECK_NTEXT 2
struct check_text {
	const char *name;        /* "text", "read-only data" */
	uint64_t va, pa, len;    /* len 0: unknown */
};

struct pgw_check {
	struct pgw_space kernel;
	struct pgw_khalf kh;
	uint64_t kernel_start;   /* first VA of the kernel half */
	bool nx;                 /* the mode has NX */
	bool no_nx_said;
	struct check_text text[CHECK_NTEXT];
	char text_why[256];      /* empty: text and rodata known */
	uint64_t ram_limit;      /* frames from here up are beyond RAM */
	uint64_t linear[2];      /* AArch64: the linear map, which maps RAM
				    and nothing else ([1] 0: unknown) */
	uint64_t guard[2];       /* x86-64's guard hole, which the kernel's
				    W+X walk skips ([1] 0: none) */
	uint64_t pcibios[2];     /* i386: the PCI BIOS area in the direct
				    map ([1] 0: none) */
	long ldt_index;          /* x86-64: the top-level slot of the LDT
				    remap (-1: none) */
	uint64_t vsyscall_pa;    /* x86-64: the frame of kallsyms'
				    __vsyscall_page, which the kernel maps
				    at LINUX_VSYSCALL_PAGE */
	bool vsyscall_known;
	uint64_t *ktables;       /* the kernel root's tables, sorted */
	size_t nktables;
};

/* Executable at some level: x86's NX clear, or AArch64's PXN or UXN. */
static inline bool check_executable(uint32_t eff)
{
	return !(eff & PGW_F_NX) &&
	       (eff & (PGW_F_PXN | PGW_F_UXN)) != (PGW_F_PXN | PGW_F_UXN);
}

/* The walk to va as evidence: every entry read on the way. */
void check_evidence_path(const struct pgw_space *space, uint64_t va,
			 struct pgw_finding *f);
/* A finding of rule over [va, end) in space's root appended to *found
 * (*n in use), with the walk to va as evidence when asked; NULL when
 * out of memory (then *failed, and err, say so; also when *failed is
 * set already). */
struct pgw_finding *check_add(struct pgw_finding **found, size_t *n,
			      enum pgw_status *failed, struct pgw_err *err,
			      const struct pgw_space *space,
			      const struct pgw_task *owner,
			      enum pgw_rule rule, enum pgw_severity sev,
			      uint64_t va, uint64_t end, bool evidence);
/* Give findings to fn (sorted by address first, when asked). */
enum pgw_status check_emit(struct pgw_finding *f, size_t n, bool sort,
			   pgw_finding_fn fn, void *arg,
			   struct pgw_err *err);
/* The kernel-half entries of space's root that differ from the kernel
 * root's, appended to *found (check_roots.c). */
enum pgw_status check_kernel_half(struct pgw_check *ck,
				  const struct pgw_space *space,
				  const struct pgw_task *owner,
				  struct pgw_finding **found, size_t *n,
				  struct pgw_err *err);

#endif
