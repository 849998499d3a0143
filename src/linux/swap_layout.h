/*
 * Where Linux keeps a swap entry's type and offset, by kernel era: the
 * table the decoders read (struct pgw_swap_layout), chosen here because
 * one entry does not say its era and the kernel's version does.
 */
#ifndef PGW_LINUX_SWAP_LAYOUT_H
#define PGW_LINUX_SWAP_LAYOUT_H

#include "pgwalk.h"

/* The layout of mode's machine for the kernel img's VMCOREINFO names
 * (OSRELEASE); NULL when it names none, a kernel older than every era
 * known, or a machine whose decoder needs none (x86). */
const struct pgw_swap_layout *linux_swap_layout(struct pgw_image *img,
						const struct pgw_mode *mode);

/* The same for a kernel version (KV()); NULL as above. */
const struct pgw_swap_layout *linux_swap_layout_for(unsigned elf_machine,
						    uint32_t version);

#endif
