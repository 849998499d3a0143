/*
 * The root scan's working state, shared by roots_scan.c (finding the
 * candidates) and roots_kind.c (walking each one and naming what it is).
 */
#ifndef PGW_LINUX_ROOTS_H
#define PGW_LINUX_ROOTS_H

#include "kernel_half.h"
#include "../lib/table.h"
#include "../walk/walk_ahead.h"

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

/* One walk of a root's user half, wherever it ran. */
struct roots_walk {
	struct pgw_walk_ahead ran;  /* its cap (0: not walked), entries */
	enum pgw_status st;         /* PGW_E_LIMIT: it met its cap */
	uint64_t bytes, leaves, access_leaves, tables;
	struct roots_user user;     /* unwalked: the walk's error */
};

/* Walk the user half of the top table at `table` through img (the
 * calling thread's or a worker's), at most cap entries. */
void pgw_roots_walk_half(const struct roots_ctx *ctx, struct pgw_image *img,
			 uint64_t table, uint64_t cap, struct roots_walk *w);
/* The entry budget of the next walk when `left` are left. */
uint64_t pgw_roots_walk_cap(uint64_t left);
/* The hash the memo knows the user half of the table at `table` by;
 * false when it cannot be read. */
bool pgw_roots_half_key(const struct roots_ctx *ctx, struct pgw_image *img,
			uint64_t table, uint64_t *key);
/*
 * Root i's user half, in root order (the budget and the memo are
 * spent and filled in that order): out->root[i]'s user_* counts and
 * ctx->user[i], from `ahead` (a walk run on a worker; NULL: none) when
 * it stands for the walk due here, else walked now.  has_key, key: its
 * pgw_roots_half_key.
 */
void pgw_roots_walk_user(struct roots_ctx *ctx, size_t i,
			 const struct roots_walk *ahead, bool has_key,
			 uint64_t key);
/* The index of the root whose top table is `table` among the scan's
 * (the kernel root's aside), or -1; reads only the roots' tables. */
long pgw_roots_table_index(const struct pgw_roots *roots, uint64_t table);
/* Each root's kernel half compared in full, its PTI user copy paired and
 * its user half walked, on the image's threads, merged in root order. */
enum pgw_status pgw_roots_per_root(struct roots_ctx *ctx,
				   struct pgw_err *err);
/* The kernel image's physical extents (x86-64), from the kernel root. */
void pgw_roots_find_image(struct roots_ctx *ctx);
/* Name every root's kind and say why; marks shared user tables. */
enum pgw_status pgw_roots_classify(struct roots_ctx *ctx,
				   struct pgw_err *err);

#endif
