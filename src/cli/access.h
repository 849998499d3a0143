/*
 * Effective execute permission in words, for every mode: x86 has one NX
 * bit; AArch64 says it per exception level (PXN: EL1, UXN: EL0), so a
 * page may be executable at one level only.
 */
#ifndef PGW_CLI_ACCESS_H
#define PGW_CLI_ACCESS_H

#include "pgwalk.h"

/* Executable at some level. */
static inline bool pgw_cli_executable(uint32_t eff)
{
	return !(eff & PGW_F_NX) &&
	       (eff & (PGW_F_PXN | PGW_F_UXN)) != (PGW_F_PXN | PGW_F_UXN);
}

/* "nx", "exec", or on AArch64 "exec-el0" / "exec-el1" where only one
 * level may execute. */
static inline const char *pgw_cli_exec_word(uint32_t eff)
{
	if (!pgw_cli_executable(eff))
		return "nx";
	if (eff & PGW_F_PXN)
		return "exec-el0";
	return eff & PGW_F_UXN ? "exec-el1" : "exec";
}

/* The same as dump's three-column cell: " NX", " x ", " x0", " x1". */
static inline const char *pgw_cli_exec_cell(uint32_t eff)
{
	if (!pgw_cli_executable(eff))
		return " NX";
	if (eff & PGW_F_PXN)
		return " x0";
	return eff & PGW_F_UXN ? " x1" : " x ";
}

#endif
