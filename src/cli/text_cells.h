/*
 * Words of text output every command spells alike (fmt_text.c defines
 * them; fmt_text_*.c use them).
 */
#ifndef PGW_TEXT_CELLS_H
#define PGW_TEXT_CELLS_H

#include "emit.h"

/* A size the human way, "4K", "2M", "1G" (bytes as "123B"),
 * right-aligned in `width` columns (0: running text). */
void text_size(struct line *l, uint64_t size, int width);
/* Effective permissions: "kernel|user ro|rw exec|nx". */
void text_access(struct line *l, uint32_t eff);

#endif
