/*
 * The root scan's working state, shared by roots_scan.c (finding the
 * candidates) and roots_kind.c (walking each one and naming what it is).
 */
#ifndef PGW_LINUX_ROOTS_H
#define PGW_LINUX_ROOTS_H

#include "kernel_half.h"
#include "../lib/table.h"

/* Second-level user tables kept per root to tell shared ones. */
#define ROOTS_USER_TABLES_KEPT 16
#define ROOTS_MAX_IMAGE_EXTENTS 64

struct roots_user {
	uint64_t tables[ROOTS_USER_TABLES_KEPT];
	unsigned ntables;
	uint64_t identity_leaves;   /* supervisor leaves with va == pa */
	bool bad;                   /* an entry no kernel writes */
	struct pgw_hole bad_hole;
	bool walked;                /* false: budget ran out, or no table */
	char unwalked[120];         /* why not */
};

struct roots_ctx {
	struct pgw_image *img;
	const struct pgw_mode *mode;
	struct pgw_enc_bits enc;    /* the entries' encryption bits */
	struct pgw_khalf *kh;
	struct pgw_roots *out;
	struct roots_user *user;    /* per root, parallel to out->root */
	bool *from_cpu;             /* per root: added for a CPU's CR3 */
	uint64_t budget;            /* entries left for the user-half walks */
	/* Walks already done, by the hash of the top table's user half
	 * (its root + 1): identical tables (copies) walk identically. */
	struct pgw_table memo;
	uint64_t max_roots;
	/* x86-64: physical extents of the kernel image's text mapping */
	struct {
		uint64_t start, end;
	} image[ROOTS_MAX_IMAGE_EXTENTS];
	size_t nimage;
};

/* Walk root i's user half: out->root[i]'s user_* counts, ctx->user[i]. */
void pgw_roots_walk_user(struct roots_ctx *ctx, size_t i);
/* The kernel image's physical extents (x86-64), from the kernel root. */
void pgw_roots_find_image(struct roots_ctx *ctx);
/* Name every root's kind and say why; marks shared user tables. */
enum pgw_status pgw_roots_classify(struct roots_ctx *ctx,
				   struct pgw_err *err);

#endif
