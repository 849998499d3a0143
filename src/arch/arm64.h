/* AArch64 VMSAv8-64 stage 1 (EL1&0) translation: the modes and the
 * descriptor decoder (Arm ARM D8, "The AArch64 Virtual Memory System
 * Architecture"): hardware only. */
#ifndef PGW_ARM64_H
#define PGW_ARM64_H

#include "pgwalk.h"

#define EM_AARCH64_ID 183

extern const struct pgw_mode pgw_mode_arm64_4k_39, pgw_mode_arm64_4k_48,
	pgw_mode_arm64_4k_52, pgw_mode_arm64_16k_36, pgw_mode_arm64_16k_47,
	pgw_mode_arm64_16k_48, pgw_mode_arm64_16k_52, pgw_mode_arm64_64k_42,
	pgw_mode_arm64_64k_48, pgw_mode_arm64_64k_52;

void pgw_arm64_decode(const struct pgw_mode *mode, enum pgw_level lvl,
		      uint64_t raw, const struct pgw_enc_bits *enc,
		      struct pgw_entry *out);

/* The granule of a mode: its last level's page size. */
static inline unsigned pgw_arm64_granule_shift(const struct pgw_mode *mode)
{
	return mode->level[PGW_PTE].shift;
}

#endif
