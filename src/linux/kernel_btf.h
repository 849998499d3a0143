/* The kernel's BTF as libbpf parsed it, shared by kernel_btf*.c. */
#ifndef PGW_KERNEL_BTF_H
#define PGW_KERNEL_BTF_H

#include "pgwalk.h"

struct btf;

struct pgw_kernel_btf {
	struct btf *btf;
	struct pgw_kernel_btf_info info;
};

/* Does the blob parse and describe struct task_struct?  (Used by the
 * scan to tell the kernel's BTF from other BTF in read-only data.) */
bool pgw_kernel_btf_has_struct(const struct pgw_kernel_btf *kb,
			       const char *name);

/* Enumerator `name` of enum `type`: its value (PGW_E_NOTFOUND when
 * BTF has neither). */
enum pgw_status pgw_kernel_btf_enum_value(const struct pgw_kernel_btf *kb,
					  const char *type, const char *name,
					  int64_t *value_ret,
					  struct pgw_err *err);

/*
 * The 24-byte BTF header at p (n bytes available): true when it is
 * well-formed enough to try, with the blob's whole size in *size_ret.
 */
bool pgw_btf_header_plausible(const uint8_t *p, size_t n,
			      uint64_t *size_ret);

/*
 * Scan [start, end) of kernel virtual memory for the kernel's BTF (see
 * pgw_kernel_btf_open); stops early at the first unreadable byte.
 */
enum pgw_status pgw_kernel_btf_scan(const struct pgw_space *kernel,
				    uint64_t start, uint64_t end,
				    struct pgw_kernel_btf **kb_ret,
				    struct pgw_err *err);

/*
 * How a blob's task_struct reads the image's task list (kernel_btf_fit.c):
 * fits when init_task (kallsyms', else found with the layout) is a
 * swapper with pid 0 whose ring comes back; then how many tasks, how many
 * with a root, and a sum of what was read (equal: the same list).
 */
struct linux_btf_fit {
	bool fits;
	size_t tasks, roots;
	uint64_t sum;
	char why[120];                /* !fits: why not */
};
void linux_btf_fit(const struct pgw_space *kernel,
		   const struct pgw_kallsyms *ks,
		   const struct pgw_kernel_btf *kb, struct linux_btf_fit *fit);

#endif
