/*
 * What `read` prints: a data record per piece of bytes, a gap record per
 * stretch --skip-unreadable skips, and in text the end address (read_out.c:
 * the types, their text, and the records made of cmd_read.c's pieces).
 */
#ifndef PGW_READ_OUT_H
#define PGW_READ_OUT_H

#include "output.h"

/* read: bytes that lie in one 4 KiB page (virtual, or physical with
 * --phys). */
struct read_piece {
	uint64_t addr;           /* where they start: va, or pa (--phys) */
	uint64_t pa;             /* their physical address */
	const uint8_t *data;
	size_t size;
	bool protnone;           /* read from a PROT_NONE entry's frame */
};

/* A stretch read skipped (--skip-unreadable): g->va is where it starts
 * (a physical address with --phys), size its bytes within the read. */
struct read_skip {
	const struct pgw_read_gap *g;
	uint64_t size;
};

/* Text (hexdump -C) keeps the line being filled and the last one
 * printed, to squeeze repeats into "*" as hexdump does. */
struct hexdump {
	uint64_t addr;           /* address of line[0] */
	uint8_t line[16];
	size_t have;
	uint8_t prev[16];
	bool have_prev;          /* prev is the full line just before */
	bool starred;            /* a "*" stands for repeats of prev */
	int digits;              /* address width */
};

#define READ_DATA_FIELDS(F, S)                                            \
	F(S, va, OHEX, RF_NULL)                                           \
	F(S, pa, HEX, 0)                                                  \
	F(S, size, U64, 0)                                                \
	F(S, hex, HEXDATA, 0)                                             \
	F(S, protnone, OBOOL, 0)
RECORD_STRUCT(read_data_rec, READ_DATA_FIELDS);

/* A stretch of virtual addresses skipped: pa where the data is missing,
 * level where the walk stopped. */
#define READ_GAP_FIELDS(F, S)                                             \
	F(S, va, HEX, 0)                                                  \
	F(S, end, END, 0)                                                 \
	F(S, size, U64, 0)                                                \
	F(S, pa, OHEX, 0)                                                 \
	F(S, level, WORD, 0)                                              \
	F(S, reason, WORD, 0)                                             \
	F(S, absence, WORD, 0)
RECORD_STRUCT(read_gap_rec, READ_GAP_FIELDS);

/* --phys: a stretch of physical addresses skipped. */
#define READ_PGAP_FIELDS(F, S)                                            \
	F(S, va, OHEX, RF_NULL)                                           \
	F(S, pa, HEX, 0)                                                  \
	F(S, end, END, 0)                                                 \
	F(S, size, U64, 0)                                                \
	F(S, reason, WORD, 0)                                             \
	F(S, absence, WORD, 0)
RECORD_STRUCT(read_pgap_rec, READ_PGAP_FIELDS);

extern const struct rec_table read_table;

/* The records of a piece, of a gap and of the end, out in o's format. */
void read_say_data(struct out *o, const struct read_piece *p);
void read_say_gap(struct out *o, const struct read_skip *s);
void read_say_end(struct out *o, uint64_t end);

#endif
