/*
 * Virtual memory read in place (vread.c): for library readers that would
 * copy a large object only to hand it to something that copies it again
 * (BTF to libbpf), when the image holds it as one stretch of its mapped
 * file.
 */
#ifndef PGW_WALK_IN_PLACE_H
#define PGW_WALK_IN_PLACE_H

#include "pgwalk.h"

/*
 * [va, va + len) of space as one pointer into the image's mapped file,
 * when every byte translates and the frames lie one after another in a
 * zero-copy image (raw, ELF, LiME); NULL otherwise (then copy with
 * pgw_read_virt, which says why a byte cannot be read).  Valid until
 * the next read of the image.
 */
const uint8_t *pgw_virt_in_place(const struct pgw_space *space, uint64_t va,
				 size_t len);

#endif
