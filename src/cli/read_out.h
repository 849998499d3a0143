/*
 * The records of read and ptov in each output format (fmt_*_read.c,
 * fmt_*_ptov.c), hooked into the formatters of fmt_*.c.
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

void text_read_data(struct out *o, const struct read_piece *p);
void text_read_gap(struct out *o, const struct read_skip *s);
void text_read_end(struct out *o, uint64_t end);
void json_read_data(struct out *o, const struct read_piece *p);
void json_read_gap(struct out *o, const struct read_skip *s);


/* CSV and TSV: delimited.h (delim_read_*, delim_ptov_*). */

#endif
