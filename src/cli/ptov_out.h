/*
 * What `ptov` prints: a mapping record per virtual address that maps a
 * physical one, in each root; one with va null when none does; one for
 * an input line that is not an address (ptov_out.c: the types and their
 * text; cmd_ptov.c fills them in).
 */
#ifndef PGW_PTOV_OUT_H
#define PGW_PTOV_OUT_H

#include "name_cells.h"
#include "record.h"

#define MAPPING_FIELDS(F, S)                                              \
	F(S, pa, HEX, 0)                                                  \
	F(S, va, OHEX, RF_NULL)                                           \
	F(S, root, OHEX, RF_NULL)                                         \
	F(S, pid, OU64, RF_NULL)                                          \
	F(S, comm, BYTES, RF_NULL)                                        \
	F(S, kind, WORD, 0)                                               \
	F(S, page_size, OU64, 0)                                          \
	F(S, level, WORD, 0)                                              \
	F(S, flags, FLAGS, 0)                                             \
	F(S, effective, FLAGS, 0)                                         \
	F(S, same_frame_pages, OU64, 0)                                   \
	F(S, protnone, OBOOL, 0)                                          \
	F(S, name, GROUP(name_rec), 0)
RECORD_STRUCT(mapping_rec, MAPPING_FIELDS);

#define PTOV_BAD_FIELDS(F, S)                                             \
	F(S, pa, OHEX, RF_NULL)                                           \
	F(S, va, OHEX, RF_NULL)                                           \
	F(S, input, BYTES, 0)                                             \
	F(S, reason, WORD, 0)
RECORD_STRUCT(ptov_bad_rec, PTOV_BAD_FIELDS);

extern const struct rec_table ptov_table;

#endif
