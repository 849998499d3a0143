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

#endif
