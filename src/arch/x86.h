/* x86 register and entry bits, the modes and the decoder (SDM vol. 3, ch. 4):
 * hardware only. */
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

extern const struct pgw_mode pgw_mode_i386, pgw_mode_pae, pgw_mode_x86_64,
	pgw_mode_la57;

void pgw_x86_decode(const struct pgw_mode *mode, enum pgw_level lvl,
		    uint64_t raw, const struct pgw_enc_bits *enc,
		    struct pgw_entry *out);

#endif
