/*
 * Tables that map one frame everywhere.  KASAN's shadow is terabytes of
 * mappings of one zero page through a handful of shared tables, and a
 * hostile image can do the same at any depth; re-walking such a table each
 * time it is reached costs minutes and prints millions of identical lines.
 * A walk remembers every table it found uniform (all entries the same leaf,
 * or all the same pointer to a uniform table) and, meeting it again,
 * reports its whole span as one repeated leaf.
 */
#ifndef PGW_UNIFORM_H
#define PGW_UNIFORM_H

#include "pgwalk.h"

struct pgw_uniform {
	struct pgw_entry leaf;   /* the bottom leaf every page maps */
	enum pgw_level level;    /* its level (its size is that level's span) */
	uint32_t perm;           /* RW/USER/NX of the chain, combined */
};

struct pgw_uniform_memo;

struct pgw_uniform_memo *pgw_uniform_memo_new(void);
void pgw_uniform_memo_free(struct pgw_uniform_memo *memo);
const struct pgw_uniform *pgw_uniform_find(const struct pgw_uniform_memo *memo,
					   uint64_t table, enum pgw_level lvl);
/* Remember; silently forgets nothing but stops adding past its cap. */
void pgw_uniform_add(struct pgw_uniform_memo *memo, uint64_t table,
		     enum pgw_level lvl, const struct pgw_uniform *u);

#endif
