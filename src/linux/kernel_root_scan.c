/*
 * The kernel's own top-level table without VMCOREINFO (older kernels, or
 * none in the image).  It is the one top table whose user half is empty
 * and whose kernel half maps a linear direct map of physical memory that
 * maps the table itself; on x86-64 it also lies inside the kernel image,
 * which the kernel text mapping (from __START_KERNEL_map, PML4/PML5 entry
 * 511) maps, and that tells it from freed process tables, which copy the
 * same kernel half.  A quick look at each page picks candidates for every
 * mode; the few that pass are walked.
 */
#include "../lib/err.h"
#include "../formats/image_page.h"
#include "scan.h"
#include "../arch/x86.h"
#include "linux.h"
#include "../lib/grow.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What pgw_find_direct_map may walk per call (detect.c's own bound),
 * charged against the entry budget, and the text mapping's walk. */
#define DIRECT_MAP_COST (UINT64_C(1) << 14)
#define TEXT_WALK_BUDGET (UINT64_C(1) << 16)
#define KERNEL_IMAGE_SPAN (UINT64_C(1) << 30)   /* KERNEL_IMAGE_SIZE */
#define MAX_CANDIDATES 65536
#define MEMO 256
#define TEXT_EXTENTS 64

struct cand {
	uint64_t table;
	const struct pgw_mode *mode;
	uint64_t page_offset;    /* 32-bit: the PAGE_OFFSET it was seen with */
	uint64_t hash;           /* of its kernel half */
};

/* A virtually and physically contiguous stretch of the text mapping. */
struct extent {
	uint64_t va, pa, size;
};

/* Validation that depends only on the kernel half's bytes, kept for the
 * copies a hostile image (or many freed i386 tables) may hold. */
struct memo {
	uint64_t hash;
	const struct pgw_mode *mode;
	struct pgw_enc_bits enc;         /* what its tables are read with */
	bool dm_found;
	uint64_t dm_base;
	unsigned dm_matches;
	size_t ntext;
	struct extent text[TEXT_EXTENTS];
};

struct finder {
	struct pgw_image *img;
	struct pgw_enc_bits enc;         /* the caller's encryption bits */
	bool infer_enc;                  /* none given: a candidate's own */
	const struct pgw_mode *only;     /* the caller's mode, or NULL */
	const struct pgw_mode *m[4];     /* i386, pae, x86-64, la57 */
	struct cand *cands;
	size_t ncands;
	struct pgw_scan_stats *stats;
	struct pgw_err err;
	bool failed;
	struct memo *memo;
	size_t nmemo;
	uint64_t budget;
};

static bool want(const struct finder *f, const struct pgw_mode *m)
{
	return !f->only || f->only == m;
}

/* A candidate, hashed where the page is at hand (a worker's). */
static void add(const struct finder *f, struct pgw_scan_chunk *chunk,
		uint64_t table, const struct pgw_mode *m, uint64_t po,
		const uint8_t *page)
{
	struct cand c = {
		.table = table, .mode = m, .page_offset = po,
		.hash = pgw_fnv64(page, m == f->m[1] ? 32 : PGW_PAGE_SIZE),
	};

	pgw_scan_emit(chunk, table, &c);
}

static int take(void *arg, const void *rec)
{
	struct finder *f = arg;

	f->stats->candidates++;
	if (f->ncands == MAX_CANDIDATES) {
		pgw_scan_incomplete(f->stats, "more than %d candidate "
				    "kernel roots: the rest were not "
				    "examined", MAX_CANDIDATES);
		return 0;
	}
	if (pgw_grow(&f->cands, f->ncands, sizeof(*f->cands), &f->err) !=
	    PGW_OK) {
		f->failed = true;
		return 1;
	}
	memcpy(&f->cands[f->ncands++], rec, sizeof(*f->cands));
	return 0;
}

static unsigned present_from(const uint8_t *page, unsigned esize,
			     unsigned from, unsigned to)
{
	unsigned n = 0;

	for (unsigned i = from; i < to; i++)
		n += pgw_buf_entry(page, esize, i) != 0;
	return n;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	static const uint8_t zero[PGW_PAGE_SIZE];

	return memcmp(p, zero, n) == 0;
}

/* The kernel text mapping hangs off the last entry on every x86-64
 * kernel; the user half of the kernel's own root is empty. */
static void look_64(const struct finder *f, struct pgw_scan_chunk *chunk,
		    uint64_t pa, const uint8_t *page)
{
	uint64_t e511 = pgw_buf_entry(page, 8, 511);
	struct pgw_entry e;

	if (!(e511 & 1) || !(want(f, f->m[2]) || want(f, f->m[3])))
		return;
	f->m[2]->decode(f->m[2], PGW_PGD, e511, &f->enc, &e);
	if (e.kind != PGW_ENT_TABLE || e.reserved ||
	    !all_zero(page, PGW_PAGE_SIZE / 2) ||
	    present_from(page, 8, 256, 512) < 3)
		return;
	for (unsigned k = 2; k < 4; k++)
		if (want(f, f->m[k]))
			add(f, chunk, pa, f->m[k], 0, page);
}

/* i386: the top PDE (fixmap) and PAGE_OFFSET's are there, nothing
 * below PAGE_OFFSET. */
static void look_i386(const struct finder *f, struct pgw_scan_chunk *chunk,
		      uint64_t pa, const uint8_t *page)
{
	if (!want(f, f->m[0]) || !(pgw_buf_entry(page, 4, 1023) & 1))
		return;
	for (size_t i = 0; i < LINUX_NPAGE_OFFSETS_32; i++) {
		uint64_t po = linux_page_offsets_32[i];
		unsigned k = (unsigned)(po >> 22);
		if ((pgw_buf_entry(page, 4, k) & 1) && all_zero(page, 4 * k) &&
		    present_from(page, 4, k, 1024) >= 3)
			add(f, chunk, pa, f->m[0], po, page);
	}
}

/* PAE: swapper_pg_dir is a page-aligned PDPT in an otherwise empty page
 * (head_32.S fills the page); its user PDPTEs are empty. */
static void look_pae(const struct finder *f, struct pgw_scan_chunk *chunk,
		     uint64_t pa, const uint8_t *page)
{
	if (!want(f, f->m[1]) || !all_zero(page + 32, PGW_PAGE_SIZE - 32))
		return;
	for (size_t i = 0; i < LINUX_NPAGE_OFFSETS_32; i++) {
		uint64_t po = linux_page_offsets_32[i];
		unsigned k = (unsigned)(po >> 30);
		bool ok = all_zero(page, 8 * k);
		for (unsigned j = k; ok && j < 4; j++) {
			struct pgw_entry e;
			f->m[1]->decode(f->m[1], PGW_PGD,
					pgw_buf_entry(page, 8, j), &f->enc,
					&e);
			ok = e.kind == PGW_ENT_TABLE && !e.reserved;
		}
		if (ok)
			add(f, chunk, pa, f->m[1], po, page);
	}
}

static void look(const void *arg, struct pgw_scan_chunk *chunk, uint64_t pa,
		 const uint8_t *page)
{
	const struct finder *f = arg;

	look_64(f, chunk, pa, page);
	look_i386(f, chunk, pa, page);
	look_pae(f, chunk, pa, page);
}

/* ---- validation ---- */

static int text_leaf(void *arg, const struct pgw_leaf *l)
{
	struct memo *m = arg;
	struct extent *last = m->ntext ? &m->text[m->ntext - 1] : NULL;

	if (last && last->va + last->size == l->va &&
	    last->pa + last->size == l->pa) {
		last->size += l->size;
		return 0;
	}
	if (m->ntext == TEXT_EXTENTS)
		return 1;
	m->text[m->ntext].va = l->va;
	m->text[m->ntext].pa = l->pa;
	m->text[m->ntext].size = l->size;
	m->ntext++;
	return 0;
}

/* The memo for this candidate's kernel half, computed on first use;
 * NULL when the budget is spent. */
static const struct memo *memo_for(struct finder *f, const struct cand *c)
{
	struct memo tmp = { .hash = c->hash, .mode = c->mode, .enc = f->enc };
	struct pgw_space sp = { f->img, c->mode, c->table, f->enc };
	struct pgw_enc_choice ch = { 0 };

	for (size_t i = 0; i < f->nmemo; i++)
		if (f->memo[i].hash == c->hash && f->memo[i].mode == c->mode)
			return &f->memo[i];
	if (f->budget < DIRECT_MAP_COST + TEXT_WALK_BUDGET)
		return NULL;
	f->budget -= DIRECT_MAP_COST + TEXT_WALK_BUDGET;
	f->stats->entries += DIRECT_MAP_COST;
	tmp.dm_found = pgw_find_direct_map(&sp, &tmp.dm_base,
					   &tmp.dm_matches);
	/* An SME kernel's tables walk only without their C-bit: asked of
	 * the tables of a candidate that failed (bounded: 64 tables). */
	if (!tmp.dm_found && f->infer_enc &&
	    pgw_enc_infer(f->img, c->mode, c->table, &ch)) {
		tmp.enc = sp.enc = ch.bits;
		tmp.dm_found = pgw_find_direct_map(&sp, &tmp.dm_base,
						   &tmp.dm_matches);
	}
	if (tmp.dm_found && c->mode->va_bits > 32) {
		struct pgw_walk_ops ops = { .leaf = text_leaf };
		struct pgw_walk_opts o = {
			.start = LINUX_START_KERNEL_MAP,
			.end = LINUX_START_KERNEL_MAP + KERNEL_IMAGE_SPAN,
			.max_entries = TEXT_WALK_BUDGET,
		};
		struct pgw_walk_stats ws = { 0 };
		struct pgw_err ignored;
		(void)pgw_walk_range(&sp, &o, &ops, &tmp, &ws, NULL, &ignored);
		f->stats->entries += ws.entries;
	}
	if (f->nmemo == MEMO) {
		/* Many different kernel halves: a hostile image.  Keep the
		 * answer in the last slot; the budget bounds the work. */
		f->memo[MEMO - 1] = tmp;
		return &f->memo[MEMO - 1];
	}
	f->memo[f->nmemo] = tmp;
	return &f->memo[f->nmemo++];
}

struct verdict {
	bool ok;
	unsigned matches, samples;
	struct pgw_enc_bits enc;
	uint64_t base, text_va;
};

static void validate(struct finder *f, const struct cand *c,
		     struct verdict *v)
{
	const struct memo *m = memo_for(f, c);
	struct pgw_space sp = { f->img, c->mode, c->table, f->enc };
	struct pgw_xlat x;

	memset(v, 0, sizeof(*v));
	if (!m || !m->dm_found)
		return;
	sp.enc = v->enc = m->enc;
	if (c->mode->va_bits <= 32 && m->dm_base != c->page_offset)
		return;
	/* The direct map maps the table itself... */
	if (pgw_translate(&sp, NULL, m->dm_base + c->table, &x) !=
		    PGW_STOP_OK ||
	    x.pa != c->table)
		return;
	v->base = m->dm_base;
	v->matches = m->dm_matches;
	v->samples = pgw_direct_map_samples(f->img);
	if (c->mode->va_bits <= 32) {
		v->ok = true;
		return;
	}
	/* ...and on x86-64 so does the kernel text mapping: the kernel's
	 * root is part of its image. */
	for (size_t i = 0; i < m->ntext; i++)
		if (c->table >= m->text[i].pa &&
		    c->table - m->text[i].pa < m->text[i].size) {
			v->text_va = m->text[i].va + (c->table - m->text[i].pa);
			v->ok = true;
		}
}

/* ---- choosing ---- */

static bool cpu_selects(const struct finder *f, const struct pgw_mode *mode,
			const struct pgw_enc_bits *enc, uint64_t table)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(f->img, &cpus);

	for (size_t i = 0; i < n; i++)
		if (cpus[i].has_cr &&
		    pgw_cr3_table(mode, cpus[i].cr3, enc) == table)
			return true;
	return false;
}

/* head_32.S puts empty_zero_page right after swapper_pg_dir. */
static bool zero_page_follows(struct pgw_image *img, uint64_t table)
{
	const uint8_t *page;
	struct pgw_err ignored;
	uint64_t next = (table & ~(PGW_PAGE_SIZE - 1)) + PGW_PAGE_SIZE;

	return pgw_image_page(img, next >> PGW_PAGE_SHIFT, &page,
			      &ignored) == PGW_OK &&
	       all_zero(page, PGW_PAGE_SIZE);
}

/*
 * i386: head_32.S puts initial_page_table 8 KiB below swapper_pg_dir,
 * and setup_arch copies swapper_pg_dir's kernel half into it: a table
 * there that shares most of this one's kernel half.
 */
static bool initial_table_below(struct finder *f, const struct cand *c)
{
	uint8_t mine[PGW_PAGE_SIZE], below[PGW_PAGE_SIZE];
	struct pgw_err ignored;
	unsigned first = (unsigned)(c->page_offset >> 22), n = 0, same = 0;

	if (c->mode != f->m[0] || c->table < 2 * PGW_PAGE_SIZE ||
	    pgw_image_read(f->img, c->table, mine, sizeof(mine), &ignored) ||
	    pgw_image_read(f->img, c->table - 2 * PGW_PAGE_SIZE, below,
			   sizeof(below), &ignored))
		return false;
	for (unsigned i = first; i < 1024; i++) {
		uint64_t e = pgw_buf_entry(mine, 4, i);
		if (!e)
			continue;
		n++;
		same += pgw_same_entry(e, pgw_buf_entry(below, 4, i));
	}
	return n && 2 * same >= n;
}

/*
 * Rank of a valid candidate: a CPU on it, then (32-bit, where freed
 * process tables are exact copies) the neighbours head_32.S gives
 * swapper_pg_dir: initial_page_table below, empty_zero_page above.  A
 * deeper mode must do strictly better on the direct map (see choose).
 */
static unsigned rank(struct finder *f, const struct cand *c,
		     const struct verdict *v)
{
	unsigned r = 0;

	if (cpu_selects(f, c->mode, &v->enc, c->table))
		r |= 4;
	if (initial_table_below(f, c))
		r |= 2;
	if (c->mode->va_bits <= 32 && zero_page_follows(f->img, c->table))
		r |= 1;
	return r;
}

static void describe(struct pgw_kernel_root_found *k, const struct cand *c,
		     const struct verdict *v, unsigned r)
{
	size_t n = 0;

	n += (size_t)snprintf(k->why + n, sizeof(k->why) - n,
			      "kernel-root scan: %s table, user half empty, "
			      "direct map at 0x%" PRIx64 " (%u/%u samples) "
			      "maps it", c->mode->name, v->base, v->matches,
			      v->samples);
	if (v->text_va && n < sizeof(k->why))
		n += (size_t)snprintf(k->why + n, sizeof(k->why) - n,
				      ", and the kernel text mapping holds it "
				      "at 0x%" PRIx64, v->text_va);
	if (v->enc.enc && n < sizeof(k->why))
		n += (size_t)snprintf(k->why + n, sizeof(k->why) - n,
				      ", read without C-bit %u",
				      (unsigned)__builtin_ctzll(v->enc.enc));
	if (k->ntied && n < sizeof(k->why))
		snprintf(k->why + n, sizeof(k->why) - n,
			 "; %zu other table%s as good (copies of its kernel "
			 "half), chosen: %s", k->ntied,
			 k->ntied == 1 ? "" : "s",
			 r & 4 ? "a CPU's CR3 selects it" :
			 r & 2 ? "initial_page_table lies 8 KiB below it" :
			 r & 1 ? "a zero page follows it (empty_zero_page)" :
				 "the lowest");
}

static enum pgw_status choose(struct finder *f,
			      struct pgw_kernel_root_found *k,
			      struct pgw_err *err)
{
	const struct cand *best = NULL;
	struct verdict bv = { 0 };
	unsigned brank = 0;
	size_t valid = 0;
	uint64_t best_table = 0, last_valid = UINT64_MAX;

	for (size_t i = 0; i < f->ncands; i++) {
		const struct cand *c = &f->cands[i];
		struct verdict v;
		validate(f, c, &v);
		if (!v.ok)
			continue;
		unsigned r = rank(f, c, &v);
		bool same_table = best && c->table == best_table;
		valid += c->table != last_valid;
		last_valid = c->table;
		/* Same page under a deeper mode: only a better direct map
		 * wins (ties to the shallower mode). */
		if (same_table ? v.matches > bv.matches :
				 !best || r > brank) {
			best = c;
			bv = v;
			brank = r;
			best_table = c->table;
		}
	}
	if (!best) {
		if (f->budget < DIRECT_MAP_COST + TEXT_WALK_BUDGET)
			pgw_scan_incomplete(f->stats, "the entry budget ran "
					    "out validating candidates");
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no kernel root found: none of %zu "
				   "candidate tables maps a direct map that "
				   "maps itself%s (%llu pages looked at%s%s)",
				   f->ncands, f->only && f->only->va_bits <= 32 ?
				   "" : " (and, x86-64, lies in the kernel "
				   "text mapping)",
				   (unsigned long long)f->stats->scanned,
				   f->stats->complete ? "" : "; ",
				   f->stats->complete ? "" : f->stats->why);
	}
	k->mode = best->mode;
	k->table = best->table;
	k->enc = bv.enc;
	k->direct_map = bv.base;
	k->text_va = bv.text_va;
	k->ntied = valid - 1;
	describe(k, best, &bv, brank);
	return PGW_OK;
}

enum pgw_status pgw_kernel_root_scan(struct pgw_image *img,
				     const struct pgw_mode *mode,
				     const struct pgw_scan_opts *opts,
				     struct pgw_kernel_root_found *found,
				     struct pgw_err *err)
{
	struct finder f = {
		.img = img, .only = mode, .stats = &found->scan,
		.enc = opts ? opts->enc : (struct pgw_enc_bits){ 0 },
		.infer_enc = !opts || (!opts->enc.enc && !opts->enc.shared),
		.m = { pgw_mode_by_name("i386"), pgw_mode_by_name("pae"),
		       pgw_mode_by_name("x86-64"), pgw_mode_by_name("la57") },
	};
	enum pgw_status st;

	memset(found, 0, sizeof(*found));
	f.memo = calloc(MEMO, sizeof(*f.memo));
	if (!f.memo)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	f.budget = pgw_scan_entry_budget(img, opts);
	struct pgw_finder finder = {
		.arg = &f, .rec_size = sizeof(struct cand), .look = look,
		.take = take,
	};
	st = pgw_phys_scan(img, opts, &finder, &found->scan, err);
	if (f.failed)
		st = pgw_err_set(err, f.err.status, "%s", f.err.msg);
	if (st == PGW_OK)
		st = choose(&f, found, err);
	free(f.cands);
	free(f.memo);
	return st;
}
