/*
 * An address's name (addr_names.h) in each format: JSON's `symbol`, or
 * `path`, `path_truncated` (only when true) and `file_offset`, each
 * absent when unknown; CSV/TSV's cells symbol, path, file_offset,
 * path_truncated (empty when unknown); text's words " symbol=NAME" or
 * " path=PATH file_offset=0x..".  Names come from the image: escaped.
 */
#ifndef PGW_NAME_CELLS_H
#define PGW_NAME_CELLS_H

#include "addr_names.h"
#include "delimited.h"

/* The CSV/TSV columns, appended to a command's when it names. */
#define NAME_COLS "symbol,path,file_offset,path_truncated"

void json_name(struct line *l, const struct addr_name *nm);
void delim_name(struct line *l, const struct delim *d,
		const struct addr_name *nm);
void text_name(struct line *l, const struct addr_name *nm);

/* o's name for va in process pid's space, if o names addresses and va
 * has one: true with *nm. */
static inline bool out_name(const struct out *o, int32_t pid, uint64_t va,
			    struct addr_name *nm)
{
	return o->names && names_find(o->names, pid, va, nm);
}

#endif
