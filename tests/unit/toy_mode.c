/*
 * Adding a paging mode is one table plus its decoder: a toy 2-level mode
 * defined here alone, with its own entry format, walked by the generic
 * walker.  Nothing in the library knows it.
 *
 * The toy: 24-bit virtual addresses; a 64-entry top table (index bits
 * 18..23) and 64-entry page tables (bits 12..17) of 8-byte entries, 512
 * bytes each, so two tables can share a page.  An entry: bit 0 valid,
 * bit 1 "points to a table" (top level only; else the top entry maps a
 * 256 KiB page), bit 2 writable, bit 3 user, bit 4 no-execute, the frame
 * from bit 9 up (tables are 512-byte aligned, pages page-aligned), bits
 * 48..63 reserved.
 */
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "pgwalk.h"

enum { T_V = 1, T_TBL = 2, T_W = 4, T_U = 8, T_NX = 16 };
#define T_ADDR UINT64_C(0x0000fffffffffe00)
#define T_RSVD UINT64_C(0xffff000000000000)

static void toy_decode(const struct pgw_mode *mode, enum pgw_level lvl,
		       uint64_t raw, const struct pgw_enc_bits *enc,
		       struct pgw_entry *e)
{
	static const struct { uint64_t bit; uint32_t flag; } flags[] = {
		{ T_V, PGW_F_PRESENT }, { T_W, PGW_F_RW }, { T_U, PGW_F_USER },
		{ T_NX, PGW_F_NX },
	};
	uint64_t span = pgw_level_span(mode, lvl);

	(void)enc;   /* the toy's entries have no encryption bits */
	memset(e, 0, sizeof(*e));
	e->raw = raw;
	if (!(raw & T_V)) {
		e->kind = PGW_ENT_NOT_PRESENT;
		e->np_kind = raw ? PGW_NP_OTHER : PGW_NP_NONE;
		return;
	}
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (raw & flags[i].bit)
			e->flags |= flags[i].flag;
	e->reserved = raw & T_RSVD;
	if (lvl == PGW_PGD && (raw & T_TBL)) {
		e->kind = PGW_ENT_TABLE;
		e->addr = raw & T_ADDR;
	} else {
		e->kind = PGW_ENT_LEAF;
		e->reserved |= raw & T_TBL;   /* no table below the bottom */
		e->addr = raw & T_ADDR & ~(span - 1);
		if (lvl == PGW_PGD)
			e->flags |= PGW_F_PS;
	}
	e->perm = e->flags & (PGW_F_RW | PGW_F_USER | PGW_F_NX);
}

#define FOLDED(n) { .name = n }

static const struct pgw_mode toy = {
	.name = "toy2",
	.desc = "a 2-level toy mode defined by the test",
	.entry_size = 8, .va_bits = 24, .phys_bits = 48,
	.root_mask = T_ADDR,
	.perm = { .and_bits = PGW_F_RW | PGW_F_USER, .or_bits = PGW_F_NX },
	.level = {
		[PGW_PGD] = { "pgd", "T1", 18, 6, true },
		[PGW_P4D] = FOLDED("p4d"),
		[PGW_PUD] = FOLDED("pud"),
		[PGW_PMD] = FOLDED("pmd"),
		[PGW_PTE] = { "pte", "T0", 12, 6, true },
	},
	.decode = toy_decode,
};

#define MEM (1u << 20)
#define ROOT 0x1000u
#define PT0 0x1200u      /* shares the root's page */
#define PT3 0x1400u

static uint8_t mem[MEM];

static void put(uint64_t pa, uint64_t v)
{
	memcpy(mem + pa, &v, sizeof(v));
}

/* The toy's physical memory, as a raw image. */
static struct pgw_image *build(void)
{
	char path[] = "/tmp/pgw-toy-XXXXXX";
	struct pgw_image_open_opts o = { .format = "raw" };
	struct pgw_image *img = NULL;
	struct pgw_err err = { 0 };
	int fd = mkstemp(path);

	put(ROOT + 0 * 8, PT0 | T_V | T_TBL | T_W | T_U);
	put(PT0 + 0 * 8, 0x5000 | T_V | T_W | T_U);
	put(PT0 + 1 * 8, 0x6000 | T_V | T_U);
	put(PT0 + 3 * 8, 0x9000 | T_V | T_U | (UINT64_C(1) << 50));
	put(PT0 + 63 * 8, 0x7000 | T_V | T_W | T_U | T_NX);
	put(ROOT + 1 * 8, 0x40000 | T_V | T_W);               /* 256 KiB */
	put(ROOT + 2 * 8, 0x200000 | T_V | T_TBL | T_W | T_U);  /* past MEM */
	put(ROOT + 3 * 8, PT3 | T_V | T_TBL | T_W);             /* no user */
	put(PT3 + 0 * 8, 0x8000 | T_V | T_W | T_U);
	if (fd < 0 || write(fd, mem, sizeof(mem)) != (ssize_t)sizeof(mem) ||
	    close(fd) != 0 || pgw_image_open(&img, path, &o, &err) != PGW_OK) {
		fprintf(stderr, "toy image: %s\n", err.msg);
		exit(2);
	}
	unlink(path);
	return img;
}

struct want {
	uint64_t va;
	enum pgw_stop stop;
	enum pgw_level level;
	uint64_t pa, size;
	uint32_t eff;
};

static const struct want want[] = {
	{ 0x000123, PGW_STOP_OK, PGW_PTE, 0x5123, 4096, PGW_F_RW | PGW_F_USER },
	{ 0x001fff, PGW_STOP_OK, PGW_PTE, 0x6fff, 4096, PGW_F_USER },
	{ 0x002000, PGW_STOP_NOT_PRESENT, PGW_PTE, 0, 0, 0 },
	{ 0x003000, PGW_STOP_RESERVED, PGW_PTE, 0, 0, 0 },
	{ 0x03f010, PGW_STOP_OK, PGW_PTE, 0x7010, 4096,
	  PGW_F_RW | PGW_F_USER | PGW_F_NX },
	{ 0x041234, PGW_STOP_OK, PGW_PGD, 0x41234, 0x40000, PGW_F_RW },
	{ 0x080000, PGW_STOP_TABLE_BEYOND_MEMORY, PGW_PTE, 0, 0, 0 },
	{ 0x0c0008, PGW_STOP_OK, PGW_PTE, 0x8008, 4096, PGW_F_RW },
	{ 0x100000, PGW_STOP_NOT_PRESENT, PGW_PGD, 0, 0, 0 },
	{ 0x1000000, PGW_STOP_BEYOND_SPACE, PGW_PGD, 0, 0, 0 },
};

struct seen {
	const struct pgw_space *sp;
	uint64_t next;           /* where the next item must start */
	unsigned leaves, holes, stop[PGW_NSTOPS], agree;
};

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	struct seen *s = arg;
	struct pgw_xlat x;

	s->leaves++;
	s->agree += l->va == s->next &&
		    pgw_translate(s->sp, NULL, l->va + 5, &x) == PGW_STOP_OK &&
		    x.pa == l->pa + 5 && x.page_size == l->size &&
		    x.level == l->level && x.eff_flags == l->eff_flags;
	s->next = l->va + l->size * l->count;
	return 0;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct seen *s = arg;
	struct pgw_xlat x;

	s->holes++;
	s->stop[h->stop]++;
	s->agree += h->va == s->next &&
		    pgw_translate(s->sp, NULL, h->va, &x) == h->stop;
	s->next = h->end;
	return 0;
}

static int on_run(void *arg, const struct pgw_run *r)
{
	struct seen *s = arg;

	s->agree += r->va == s->next;
	s->next = r->end;
	s->leaves += r->kind == PGW_RUN_MAP;
	return 0;
}

int main(void)
{
	struct pgw_image *img = build();
	struct pgw_space sp = { .img = img, .mode = &toy, .root = ROOT };
	struct pgw_xlat x;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct want *w = &want[i];
		enum pgw_stop st = pgw_translate(&sp, NULL, w->va, &x);
		ok(st == w->stop && x.level == w->level &&
			   (st != PGW_STOP_OK ||
			    (x.pa == w->pa && x.page_size == w->size &&
			     x.eff_flags == w->eff)),
		   "translate 0x%llx: %s at %s", (unsigned long long)w->va,
		   pgw_stop_key(w->stop), toy.level[w->level].hw_name);
	}
	pgw_translate(&sp, NULL, 0x03f010, &x);
	ok(x.nsteps == 2 && x.step[0].table == ROOT && x.step[0].index == 0 &&
		   x.step[1].table == PT0 && x.step[1].index == 63 &&
		   x.step[1].entry_pa == PT0 + 63 * 8,
	   "translate records both levels: the root, then the table "
	   "sharing its page");

	/* The whole space, leaf by leaf and hole by hole. */
	struct seen s = { .sp = &sp };
	struct pgw_walk_ops ops = { .leaf = on_leaf, .hole = on_hole };
	struct pgw_walk_opts wo = { 0 };
	struct pgw_walk_stats stats;
	struct pgw_err err = { 0 };
	enum pgw_status st = pgw_walk_range(&sp, &wo, &ops, &s, &stats, NULL,
					    &err);
	ok(st == PGW_OK, "range walk completes");
	is_u64(s.leaves, 5, "range walk: 5 leaves (4 pages, one 256 KiB)");
	is_u64(s.stop[PGW_STOP_RESERVED], 1, "... one reserved-bits hole");
	is_u64(s.stop[PGW_STOP_TABLE_BEYOND_MEMORY], 1,
	       "... one table beyond memory");
	is_u64(s.stop[PGW_STOP_NOT_PRESENT], (64 - 4) + 63 + (64 - 4),
	       "... and every empty entry a not-present hole");
	is_u64(s.agree, s.leaves + s.holes,
	       "every item follows the last and translate agrees with it");
	is_u64(s.next, UINT64_C(1) << 24, "... up to the top of the space");
	is_u64(stats.tables, 3, "three tables read");

	/* Coalesced, as dump prints them. */
	struct seen r = { .sp = &sp };
	struct pgw_run_opts ro = { 0 };
	struct pgw_run_ops rops = { .run = on_run };
	st = pgw_walk_runs(&sp, &ro, &rops, &r, NULL, NULL, &err);
	ok(st == PGW_OK && r.agree && r.next == UINT64_C(1) << 24,
	   "runs tile the space (%u of them)", r.agree);
	is_u64(r.leaves, 5, "five map runs: no two leaves join (permissions, "
	       "page size or physical contiguity differ)");
	pgw_image_close(img);
	return tap_done();
}
