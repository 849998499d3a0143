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
#include "record.h"

/* The CSV/TSV columns, appended to a command's when it names. */
#define NAME_COLS "symbol,path,file_offset,path_truncated"

void json_name(struct line *l, const struct addr_name *nm);
void delim_name(struct line *l, const struct delim *d,
		const struct addr_name *nm);
void text_name(struct line *l, struct addr_name *nm);

/* o's name for va in process pid's space, if o names addresses and va
 * has one: true with *nm. */
static inline bool out_name(const struct out *o, int32_t pid, uint64_t va,
			    struct addr_name *nm)
{
	return o->names && names_find(o->names, pid, va, nm);
}

/* o's name for a hit at va (have_va false: --phys, none) in the space
 * of process pid (have_pid false: the space's own). */
static inline bool out_hit_name(const struct out *o, bool have_va,
				uint64_t va, bool have_pid, int32_t pid,
				struct addr_name *nm)
{
	return have_va && out_name(o, have_pid ? pid : -1, va, nm);
}

/* A name as the record schemas' fields: GROUP(name_rec) in a field list
 * adds symbol, path, file_offset and path_truncated to a record type,
 * each absent when unknown. */
#define NAME_FIELDS(F, S)                                                 \
	F(S, symbol, TEXT, 0)                                             \
	F(S, path, BYTES, 0)                                              \
	F(S, file_offset, OHEX, 0)                                        \
	F(S, path_truncated, OBOOL, 0)
RECORD_STRUCT(name_rec, NAME_FIELDS);

/* o's name for va in process pid's space (-1: the space's own) in *r
 * (its symbol spelled in nm): r, or NULL when va has none. */
const struct name_rec *name_rec_of(const struct out *o, int32_t pid,
				   uint64_t va, struct addr_name *nm,
				   struct name_rec *r);
/* A name's text words (" symbol=..." or " path=... file_offset=0x.."). */
void text_name_rec(struct line *l, const struct name_rec *r);

#endif
