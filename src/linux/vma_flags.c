/*
 * vm_flags in words: the perms column of /proc/PID/maps, and smaps'
 * VmFlags mnemonics.  The bit of each mnemonic is 6.1's on x86-64
 * (include/linux/mm.h; fs/proc/task_mmu.c's table); a set bit without
 * one is "??", as the kernel prints it.
 */
#include "pgwalk.h"

static const char words[64][3] = {
	[0] = "rd", [1] = "wr", [2] = "ex", [3] = "sh", [4] = "mr",
	[5] = "mw", [6] = "me", [7] = "ms", [8] = "gd", [9] = "um",
	[10] = "pf", [12] = "uw", [13] = "lo", [14] = "io", [15] = "sr",
	[16] = "rr", [17] = "dc", [18] = "de", [20] = "ac", [21] = "nr",
	[22] = "ht", [23] = "sf", [24] = "ar", [25] = "wf", [26] = "dd",
	[27] = "sd", [28] = "mm", [29] = "hg", [30] = "nh", [31] = "mg",
	[37] = "ui",
};

/* Protection keys' bits, which smaps prints as ProtectionKey instead. */
#define PKEY_BITS (UINT64_C(0xf) << 32)

void pgw_vma_perms(uint64_t flags, char buf[5])
{
	buf[0] = flags & PGW_VM_READ ? 'r' : '-';
	buf[1] = flags & PGW_VM_WRITE ? 'w' : '-';
	buf[2] = flags & PGW_VM_EXEC ? 'x' : '-';
	buf[3] = flags & PGW_VM_SHARED ? 's' : 'p';
	buf[4] = '\0';
}

const char *pgw_vma_flag_name(unsigned bit)
{
	if (bit >= 64 || (PKEY_BITS & UINT64_C(1) << bit))
		return NULL;
	return words[bit][0] ? words[bit] : "??";
}
