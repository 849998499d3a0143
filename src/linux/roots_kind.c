/*
 * What each root the scan found is, from a walk of its user half: a
 * process maps user pages; the rest are named for what they most likely
 * are (freed tables, text_poke's mm, identity maps that copy the kernel
 * half, tables of the kernel image, stale copies, garbage), each with the
 * reason, so nothing in the list is unexplained.
 */
#include "../lib/err.h"
#include "roots.h"
#include "scan.h"
#include "../walk/step.h"
#include "../arch/x86.h"
#include "linux.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pgw_root_kind_key(enum pgw_root_kind kind)
{
	static const char *const keys[PGW_NROOT_KINDS] = {
		[PGW_RK_KERNEL] = "kernel",
		[PGW_RK_PROCESS] = "process",
		[PGW_RK_EMPTY] = "empty",
		[PGW_RK_TABLES_ONLY] = "tables-only",
		[PGW_RK_SUPERVISOR_ONLY] = "supervisor-only",
		[PGW_RK_KERNEL_IMAGE] = "kernel-image",
		[PGW_RK_SHARED_TABLES] = "shared-tables",
		[PGW_RK_BAD_USER_HALF] = "bad-user-half",
		[PGW_RK_FOREIGN] = "foreign-kernel-half",
		[PGW_RK_UNVERIFIED] = "unverified",
	};
	return (unsigned)kind < PGW_NROOT_KINDS ? keys[kind] : "?";
}

/* ---- the user-half walk ---- */

struct user_walk {
	struct roots_walk *w;
	enum pgw_level second;   /* level of the tables the top one names */
};

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	struct roots_walk *w = ((struct user_walk *)arg)->w;

	w->leaves += l->count;
	w->bytes += l->size * l->count;
	if (l->eff_flags & PGW_F_USER)
		w->access_leaves += l->count;
	else if (l->va == l->pa && l->count == 1)
		w->user.identity_leaves++;
	return 0;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct roots_walk *w = ((struct user_walk *)arg)->w;

	switch (h->stop) {
	case PGW_STOP_RESERVED:
	case PGW_STOP_CYCLE:
	case PGW_STOP_BAD_LEAF:
	case PGW_STOP_TABLE_BEYOND_MEMORY:
		if (!w->user.bad) {
			w->user.bad = true;
			w->user.bad_hole = *h;
		}
		break;
	default:
		break;
	}
	return 0;
}

static int on_table(void *arg, enum pgw_level lvl, uint64_t table_pa,
		    uint64_t va)
{
	struct user_walk *uw = arg;
	struct roots_walk *w = uw->w;

	(void)va;
	if (lvl == PGW_PGD)
		return 0;
	w->tables++;
	if (lvl == uw->second && w->user.ntables < ROOTS_USER_TABLES_KEPT)
		w->user.tables[w->user.ntables++] = table_pa;
	return 0;
}

uint64_t pgw_roots_walk_cap(uint64_t left)
{
	uint64_t share = left / 16;

	if (share < PGW_DEFAULT_MAX_ENTRIES)
		share = PGW_DEFAULT_MAX_ENTRIES;
	return share < left ? share : left;
}

void pgw_roots_walk_half(const struct roots_ctx *ctx, struct pgw_image *img,
			 uint64_t table, uint64_t cap, struct roots_walk *w)
{
	struct user_walk uw = { w, pgw_next_level(ctx->mode, PGW_PGD + 1) };
	struct pgw_space sp = { img, ctx->mode, table, ctx->enc };
	struct pgw_walk_ops ops = { on_leaf, on_hole, on_table };
	/* The lower canonical half on x86-64; up to PAGE_OFFSET on 32-bit. */
	struct pgw_walk_opts o = {
		.start = 0,
		.end = ctx->mode->va_bits > 32 ?
			       UINT64_C(1) << (ctx->mode->va_bits - 1) :
			       ctx->out->kernel_start,
		.max_entries = cap,
	};
	struct pgw_walk_stats st = { 0 };
	struct pgw_err err;

	memset(w, 0, sizeof(*w));
	w->st = pgw_walk_range(&sp, &o, &ops, &uw, &st, NULL, &err);
	w->ran = (struct pgw_walk_ahead){
		.cap = cap, .entries = st.entries, .cut = w->st == PGW_E_LIMIT,
	};
	if (w->st != PGW_OK && w->st != PGW_E_LIMIT)
		snprintf(w->user.unwalked, sizeof(w->user.unwalked), "%.100s",
			 err.msg);
}

/*
 * A root whose top table's user half is byte for byte one already walked
 * (a copy: a hostile image may hold thousands) takes that walk's
 * results.  key: the hash of its user half.
 */
static bool reuse_walk(struct roots_ctx *ctx, size_t i, uint64_t key)
{
	uint8_t mine[PGW_PAGE_SIZE], other[PGW_PAGE_SIZE];
	size_t len = (size_t)ctx->kh->first * ctx->kh->esize;
	struct pgw_err ignored;
	bool read = false;

	for (struct pgw_table_slot *m = pgw_table_find(&ctx->memo, key);
	     m->value; m = pgw_table_next(&ctx->memo, key, m)) {
		struct pgw_root_found *src = &ctx->out->root[m->value - 1];
		if (!read &&
		    pgw_image_read(ctx->img, ctx->out->root[i].table, mine,
				   len, &ignored) != PGW_OK)
			return false;
		read = true;
		if (pgw_image_read(ctx->img, src->table, other, len,
				   &ignored) != PGW_OK ||
		    memcmp(mine, other, len) != 0)
			continue;
		struct pgw_root_found *r = &ctx->out->root[i];
		r->user_bytes = src->user_bytes;
		r->user_leaves = src->user_leaves;
		r->user_access_leaves = src->user_access_leaves;
		r->user_tables = src->user_tables;
		ctx->user[i] = ctx->user[m->value - 1];
		return true;
	}
	return false;
}

bool pgw_roots_half_key(const struct roots_ctx *ctx, struct pgw_image *img,
			uint64_t table, uint64_t *key)
{
	uint8_t mine[PGW_PAGE_SIZE];
	size_t len = (size_t)ctx->kh->first * ctx->kh->esize;
	struct pgw_err ignored;

	if (pgw_image_read(img, table, mine, len, &ignored) != PGW_OK)
		return false;
	*key = pgw_fnv64(mine, len);
	return true;
}

/*
 * A walk may use a sixteenth of what is left (at least the walker's own
 * default, pgw_roots_walk_cap), so one hostile table cannot leave every
 * root after it unwalked; honest walks read each of their tables once and
 * stay far below (the whole budget is 512 entries per page of the image).
 * A walk run ahead is taken by the rule of src/walk/walk_ahead.h.
 */
void pgw_roots_walk_user(struct roots_ctx *ctx, size_t i,
			 const struct roots_walk *ahead, bool has_key,
			 uint64_t key)
{
	struct pgw_root_found *r = &ctx->out->root[i];
	struct roots_user *u = &ctx->user[i];

	if (pgw_image_page_state(ctx->img, r->table >> PGW_PAGE_SHIFT) !=
	    PGW_ABSENT_NONE) {
		snprintf(u->unwalked, sizeof(u->unwalked),
			 "its table is not in the image");
		return;
	}
	bool keep = ctx->memo.slot && i < UINT32_MAX && has_key;
	if (keep && reuse_walk(ctx, i, key))
		return;
	if (ctx->budget == 0) {
		snprintf(u->unwalked, sizeof(u->unwalked),
			 "the walk budget ran out before its turn");
		pgw_scan_incomplete(&ctx->out->scan, "the entry budget ran "
				    "out before every root was walked");
		return;
	}
	uint64_t cap = pgw_roots_walk_cap(ctx->budget);
	struct roots_walk now;
	const struct roots_walk *w = ahead;
	if (!w || !pgw_walk_ahead_fits(&w->ran, cap)) {
		pgw_roots_walk_half(ctx, ctx->img, r->table, cap, &now);
		w = &now;
	}
	ctx->out->scan.entries += w->ran.entries;
	ctx->budget = w->ran.entries < ctx->budget ?
			      ctx->budget - w->ran.entries : 0;
	r->user_bytes = w->bytes;
	r->user_leaves = w->leaves;
	r->user_access_leaves = w->access_leaves;
	r->user_tables = w->tables;
	*u = w->user;
	if (w->st == PGW_E_LIMIT) {
		snprintf(u->unwalked, sizeof(u->unwalked),
			 "the walk of its user half stopped at the entry "
			 "budget (%" PRIu64 " entries)", w->ran.entries);
		pgw_scan_incomplete(&ctx->out->scan, "the entry budget (%"
				    PRIu64 " for a walk) stopped the walk of "
				    "a root's user half", cap);
		return;
	}
	u->walked = w->st == PGW_OK;
	if (u->walked && keep)
		pgw_table_add(&ctx->memo, key, (uint32_t)(i + 1));
}

/* ---- the kernel image (x86-64) ---- */

static int image_leaf(void *arg, const struct pgw_leaf *l)
{
	struct roots_ctx *ctx = arg;
	uint64_t start = l->pa, end = l->pa + l->size;

	if (ctx->nimage && ctx->image[ctx->nimage - 1].end == start) {
		ctx->image[ctx->nimage - 1].end = end;
		return 0;
	}
	if (ctx->nimage == ROOTS_MAX_IMAGE_EXTENTS)
		return 1;
	ctx->image[ctx->nimage].start = start;
	ctx->image[ctx->nimage].end = end;
	ctx->nimage++;
	return 0;
}

/* Leaves of the kernel text mapping, where __START_KERNEL_map maps the
 * kernel image (KERNEL_IMAGE_SIZE, 1 GiB with KASLR). */
#define IMAGE_WALK_BUDGET (UINT64_C(1) << 16)

void pgw_roots_find_image(struct roots_ctx *ctx)
{
	struct pgw_space sp = { ctx->img, ctx->mode, ctx->out->kernel_root,
				ctx->enc };
	struct pgw_walk_ops ops = { .leaf = image_leaf };
	struct pgw_walk_opts o = {
		.start = LINUX_START_KERNEL_MAP,
		.end = LINUX_START_KERNEL_MAP + (UINT64_C(1) << 30),
		.max_entries = IMAGE_WALK_BUDGET,
	};
	struct pgw_err err;

	if (ctx->mode->va_bits <= 32)
		return;
	(void)pgw_walk_range(&sp, &o, &ops, ctx, NULL, NULL, &err);
}

static bool in_image(const struct roots_ctx *ctx, uint64_t pa,
		     uint64_t *start, uint64_t *end)
{
	for (size_t i = 0; i < ctx->nimage; i++)
		if (pa >= ctx->image[i].start && pa < ctx->image[i].end) {
			*start = ctx->image[i].start;
			*end = ctx->image[i].end;
			return true;
		}
	return false;
}

/* ---- shared user tables ---- */

struct owner {
	uint64_t table;
	size_t root;
};

static int by_owner(const void *a, const void *b)
{
	const struct owner *x = a, *y = b;

	if (x->table != y->table)
		return x->table < y->table ? -1 : 1;
	return x->root < y->root ? -1 : x->root > y->root;
}

/*
 * Roots whose user half points at a table another root's does too.  Live
 * processes never share the tables their top table names (hugetlb shares
 * only page directories, further down), so one of them is a stale copy.
 * A root a CPU runs on is live; the others sharing with it are marked.
 * `shared[i]` gets 1 + the index of a root sharing with i.
 */
static enum pgw_status find_shared(struct roots_ctx *ctx, size_t *shared,
				   struct pgw_err *err)
{
	size_t n = 0;
	struct owner *o;

	for (size_t i = 1; i < ctx->out->n; i++)
		n += ctx->user[i].ntables;
	if (n == 0)
		return PGW_OK;
	o = calloc(n, sizeof(*o));
	if (!o)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	n = 0;
	for (size_t i = 1; i < ctx->out->n; i++)
		for (unsigned t = 0; t < ctx->user[i].ntables; t++) {
			o[n].table = ctx->user[i].tables[t];
			o[n++].root = i;
		}
	qsort(o, n, sizeof(*o), by_owner);
	for (size_t a = 0; a < n;) {
		size_t b = a + 1, live = SIZE_MAX;
		while (b < n && o[b].table == o[a].table)
			b++;
		for (size_t k = a; k < b; k++)
			if (ctx->out->root[o[k].root].ncpus)
				live = o[k].root;
		for (size_t k = a; k < b; k++) {
			size_t me = o[k].root, other = live;
			for (size_t m = a; other == SIZE_MAX && m < b; m++)
				if (o[m].root != me)
					other = o[m].root;
			if (me != live && other != SIZE_MAX && !shared[me])
				shared[me] = other + 1;
		}
		a = b;
	}
	free(o);
	return PGW_OK;
}

/* ---- naming ---- */

static void set_kind(struct pgw_root_found *r, enum pgw_root_kind kind,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_kind(struct pgw_root_found *r, enum pgw_root_kind kind,
		     const char *fmt, ...)
{
	va_list ap;

	r->kind = kind;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
}

/* The kernel-half numbers are in the record; the reason says the rest. */
static void name_root(struct roots_ctx *ctx, size_t i, size_t shared)
{
	struct pgw_root_found *r = &ctx->out->root[i];
	const struct roots_user *u = &ctx->user[i];
	struct pgw_khalf_cmp kc = { .entries = r->kernel_entries,
				    .same = r->kernel_same };
	uint64_t s, e;
	unsigned depth = 0;

	/* One table per level below the top: a single chain (PAE
	 * preallocates every user page directory). */
	for (enum pgw_level l = PGW_P4D; l < PGW_NLEVELS; l++)
		depth += ctx->mode->level[l].bits != 0;
	if (ctx->kh->pae)
		depth += ctx->kh->first - 1;
	if (i == 0)
		set_kind(r, PGW_RK_KERNEL, "the kernel root; kernel half: %s",
			 ctx->kh->why);
	else if (ctx->from_cpu[i] &&
		 pgw_image_page_state(ctx->img, r->table >> PGW_PAGE_SHIFT) !=
			 PGW_ABSENT_NONE)
		set_kind(r, PGW_RK_UNVERIFIED, "a CPU's CR3 selects it, but "
			 "its table is not in the image");
	else if (ctx->from_cpu[i] && !pgw_khalf_mostly(&kc))
		set_kind(r, PGW_RK_FOREIGN, "a CPU's CR3 selects it, but only "
			 "%u of %u kernel-half entries equal the kernel "
			 "root's%s%s", r->kernel_same, r->kernel_entries,
			 u->walked ? "" : "; ", u->unwalked);
	else if (!u->walked)
		set_kind(r, PGW_RK_UNVERIFIED, "%s", u->unwalked);
	else if (u->bad)
		set_kind(r, PGW_RK_BAD_USER_HALF, "its user half holds an "
			 "entry no kernel writes (%s at va 0x%" PRIx64 ", "
			 "entry 0x%" PRIx64 " at 0x%" PRIx64 "): not a live "
			 "page table", pgw_stop_text(u->bad_hole.stop),
			 u->bad_hole.va, u->bad_hole.entry.raw,
			 u->bad_hole.entry_pa);
	else if (r->user_leaves && !r->user_access_leaves)
		set_kind(r, PGW_RK_SUPERVISOR_ONLY, "its user half maps no "
			 "user-accessible page (%" PRIu64 " of %" PRIu64
			 " supervisor pages at va == pa): an identity map that "
			 "copies the kernel half (the real-mode "
			 "trampoline_pgd, EFI's efi_mm, i386 "
			 "initial_page_table), no process",
			 u->identity_leaves, r->user_leaves);
	else if (!r->user_leaves && in_image(ctx, r->table, &s, &e))
		set_kind(r, PGW_RK_KERNEL_IMAGE, "maps no user page and lies "
			 "inside the kernel image (0x%" PRIx64 "-0x%" PRIx64
			 "): a table of the kernel image (early_top_pgt), no "
			 "process", s, e);
	else if (!r->user_leaves && !r->user_tables)
		set_kind(r, PGW_RK_EMPTY, "its user half holds nothing: a "
			 "freed table (exit_mmap clears the user entries "
			 "before pgd_free) or an mm not yet filled");
	else if (!r->user_leaves)
		set_kind(r, PGW_RK_TABLES_ONLY, "its user half holds %" PRIu64
			 " table%s but maps no page: %s", r->user_tables,
			 r->user_tables == 1 ? "" : "s",
			 r->user_tables <= depth ?
			 "a chain of tables, like text_poke's poking_mm (its "
			 "PTE is cleared after each patch)" :
			 "an mm being torn down, or poking_mm");
	else if (shared) {
		set_kind(r, PGW_RK_SHARED_TABLES, "its user half points at "
			 "page tables that root 0x%" PRIx64 " uses too: a "
			 "stale copy or a freed table (processes do not share "
			 "these)", ctx->out->root[shared - 1].table);
		r->other = shared - 1;
	} else
		set_kind(r, PGW_RK_PROCESS, "its user half maps user pages");
}

enum pgw_status pgw_roots_classify(struct roots_ctx *ctx,
				   struct pgw_err *err)
{
	size_t *shared = calloc(ctx->out->n, sizeof(*shared));
	enum pgw_status st;

	if (!shared)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	st = find_shared(ctx, shared, err);
	for (size_t i = 0; st == PGW_OK && i < ctx->out->n; i++)
		name_root(ctx, i, shared[i]);
	free(shared);
	return st;
}
