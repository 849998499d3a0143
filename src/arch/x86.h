/* x86 register and entry bits shared by the arch files (SDM vol. 3, ch. 4). */
#ifndef PGW_X86_H
#define PGW_X86_H

#include "pgwalk.h"

#define X86_CR0_PG    (UINT64_C(1) << 31)
#define X86_CR4_PSE   (UINT64_C(1) << 4)
#define X86_CR4_PAE   (UINT64_C(1) << 5)
#define X86_CR4_LA57  (UINT64_C(1) << 12)
#define X86_EFER_LMA  (UINT64_C(1) << 10)
#define X86_EFER_NXE  (UINT64_C(1) << 11)
/* Code-segment descriptor flags as QEMU stores them: L is bit 21. */
#define X86_DESC_L    (UINT32_C(1) << 21)

#define EM_386_ID     3
#define EM_X86_64_ID  62

/* Linux's x86-64 kernel text mapping base (__START_KERNEL_map). */
#define X86_64_START_KERNEL_MAP UINT64_C(0xffffffff80000000)
/* PTI keeps the user copy of the top table in the next 4 KiB page. */
#define X86_PTI_USER_BIT (UINT64_C(1) << 12)

/* 32-bit kernels' PAGE_OFFSET choices, most common first (root.c). */
#define X86_NPAGE_OFFSETS_32 3
extern const uint64_t pgw_x86_page_offsets_32[X86_NPAGE_OFFSETS_32];

void pgw_x86_decode(const struct pgw_mode *mode, enum pgw_level lvl,
		    uint64_t raw, struct pgw_entry *out);

#endif
