/*
 * Linux on arm64 (arch/arm64): what its VMCOREINFO says about the paging
 * mode and the kernel's top table, checked by walking.
 */
#ifndef PGW_LINUX_ARM64_H
#define PGW_LINUX_ARM64_H

#include "pgwalk.h"
#include "vmcoreinfo.h"

/* Is this an arm64 kernel's VMCOREINFO (it exports
 * NUMBER(kimage_voffset), which no other architecture does)? */
bool linux_arm64_facts(const struct pgw_vmci_source *s);

/* A number of the facts: SYMBOL() and KERNELOFFSET hex without 0x, the
 * rest decimal or 0x hex (arm64 prints its NUMBER()s in hex). */
bool linux_arm64_number(const struct pgw_vmci_source *s, const char *key,
			uint64_t *v);

/* swapper_pg_dir's physical address (__pa_symbol), and the text saying
 * so in why; false when the facts lack either number. */
bool linux_arm64_swapper(const struct pgw_vmci_source *s, uint64_t *table_ret,
			 char *why, size_t n);

/*
 * swapper_pg_dir's physical address (__pa_symbol: the symbol minus
 * kimage_voffset) and the mode under which it maps itself and _stext:
 * the granule from PAGESIZE, the VA size from TCR_EL1_T1SZ (the one the
 * kernel runs with), else VA_BITS (the one it was built for: a 52-bit
 * kernel runs 47 or 48 bits wide on hardware without LPA2), else any of
 * the granule's.  False with the reason in why.  why also says, on
 * success, what decided.
 */
bool linux_arm64_kernel(struct pgw_image *img,
			const struct pgw_vmci_source *s,
			const struct pgw_mode **mode_ret, uint64_t *table_ret,
			char *why, size_t n);

#endif
