/*
 * Hostile page tables: cycles, shared tables that would make a walk
 * exponential, entries past the end of memory.  Each walk must end in
 * under a second (sanitizer builds get more room) with the right result:
 * cycles reported as holes, the entry budget stopping the rest with a
 * message that says so.  Images are written as raw files by the test.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "pgwalk.h"
#include "../tools/imgwrite.h"

#if defined(__SANITIZE_ADDRESS__)
#define TIME_LIMIT 20.0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TIME_LIMIT 20.0
#endif
#endif
#ifndef TIME_LIMIT
#define TIME_LIMIT 1.0
#endif

struct counts {
	uint64_t leaves, pages, holes, stop[16], tables;
	uint64_t last_leaf_pa;
};

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	struct counts *c = arg;
	c->leaves++;
	c->pages += l->count;
	c->last_leaf_pa = l->pa;
	return 0;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	struct counts *c = arg;
	c->holes++;
	c->stop[h->stop & 15]++;
	return 0;
}

static int on_table(void *arg, enum pgw_level lvl, uint64_t pa, uint64_t va)
{
	struct counts *c = arg;
	(void)lvl, (void)pa, (void)va;
	c->tables++;
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Write m as a raw image and open it. */
static struct pgw_image *open_mem(const struct iw_mem *m)
{
	char path[] = "/tmp/pgw-hostile-XXXXXX";
	int fd = mkstemp(path);
	struct pgw_image_open_opts o = { .format = "raw" };
	struct pgw_image *img = NULL;
	struct pgw_err err = { 0 };

	if (fd < 0 || write(fd, m->b.p, m->b.len) != (ssize_t)m->b.len) {
		perror(path);
		exit(2);
	}
	close(fd);
	if (pgw_image_open(&img, path, &o, &err) != PGW_OK) {
		fprintf(stderr, "%s\n", err.msg);
		exit(2);
	}
	unlink(path);
	return img;
}

struct result {
	enum pgw_status st;
	struct pgw_walk_stats stats;
	struct counts c;
	struct pgw_err err;
	double secs;
};

/* expand: report every page of a shared uniform table as its own leaf (as
 * dump --leaves does), so that only the budget bounds the walk. */
static bool expand;

static void walk(const struct iw_mem *m, const char *mode, uint64_t root,
		 uint64_t max_entries, struct result *r)
{
	struct pgw_image *img = open_mem(m);
	struct pgw_space sp = { img, pgw_mode_by_name(mode), root };
	struct pgw_walk_ops ops = { on_leaf, on_hole, on_table };
	struct pgw_walk_opts opts = { 0, 0, max_entries, expand };
	double t0;

	memset(r, 0, sizeof(*r));
	t0 = now();
	r->st = pgw_walk_range(&sp, &opts, &ops, &r->c, &r->stats, NULL,
			       &r->err);
	r->secs = now() - t0;
	pgw_image_close(img);
}

static bool budget_msg(const struct result *r)
{
	char want[96];

	snprintf(want, sizeof(want), "entry budget of %llu exhausted",
		 (unsigned long long)PGW_DEFAULT_MAX_ENTRIES);
	return r->st == PGW_E_LIMIT && strstr(r->err.msg, want) &&
	       strstr(r->err.msg, "--max-entries");
}

int main(void)
{
	struct result r;

	/* A PML4 whose every entry points at itself: 512 cycles, no
	 * descent, done at once. */
	{
		struct iw_mem m = { 0 };
		iw_h_self_pml4(&m);
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(r.st == PGW_OK, "self-pointing PML4: walk completes (%s)",
		   r.err.msg);
		is_u64(r.stats.cycles, 512, "self-pointing PML4: 512 cycles");
		is_u64(r.c.stop[PGW_STOP_CYCLE], 512,
		       "self-pointing PML4: 512 cycle holes");
		is_u64(r.c.leaves, 0, "self-pointing PML4: no leaves");
		is_u64(r.stats.entries, 512, "self-pointing PML4: 512 entries");
		ok(r.secs < TIME_LIMIT, "self-pointing PML4: %.3f s", r.secs);
		iw_free(&m.b);
	}
	/* The same in LA57: the PML5 points at itself everywhere. */
	{
		struct iw_mem m = { 0 };
		iw_fill(&m, 1, 512, 8, 0x1000 | IW_TBL);
		walk(&m, "la57", 0x1000, 0, &r);
		ok(r.st == PGW_OK && r.stats.cycles == 512,
		   "self-pointing PML5: 512 cycles, completes");
		iw_free(&m.b);
	}
	/* i386: a PD whose 1024 entries all point at one PT, whose 1024
	 * entries map one frame: 2^20 pages.  The PT is walked once and met
	 * again 1023 times as a shared uniform table, reported at once. */
	{
		struct iw_mem m = { 0 };
		iw_h_i386_shared_pt(&m);
		walk(&m, "i386", 0x1000, 0, &r);
		ok(r.st == PGW_OK, "i386 shared PT: completes (%s)", r.err.msg);
		is_u64(r.c.pages, 1024 * 1024, "i386 shared PT: 2^20 pages");
		is_u64(r.stats.shared, 1023,
		       "i386 shared PT: met again 1023 times, reported at once");
		is_u64(r.stats.entries, 1024 + 1024,
		       "i386 shared PT: walked once");
		is_u64(r.stats.cycles, 0, "i386 shared PT: no cycles");
		ok(r.secs < TIME_LIMIT, "i386 shared PT: %.3f s", r.secs);
		/* Expanded, every visit is walked: 2^20 leaves, inside the
		 * default budget. */
		expand = true;
		walk(&m, "i386", 0x1000, 0, &r);
		expand = false;
		ok(r.st == PGW_OK, "i386 shared PT expanded: completes (%s)",
		   r.err.msg);
		is_u64(r.c.leaves, 1024 * 1024,
		       "i386 shared PT expanded: 2^20 leaves");
		is_u64(r.stats.entries, 1024 + 1024 * 1024,
		       "i386 shared PT expanded: entries counted per visit");
		is_u64(r.c.tables, 1025,
		       "i386 shared PT expanded: PT walked 1024 times");
		ok(r.secs < TIME_LIMIT, "i386 shared PT expanded: %.3f s",
		   r.secs);
		iw_free(&m.b);
	}
	/* PAE fully populated (4 PDPTEs, every PD and PT entry present,
	 * all shared): 1050628 entries, the most a 32-bit walk can take,
	 * inside the default budget. */
	{
		struct iw_mem m = { 0 };
		iw_fill(&m, 1, 4, 8, 0x2000 | IW_P);
		iw_fill(&m, 2, 512, 8, 0x3000 | IW_TBL);
		iw_fill(&m, 3, 512, 8, 0x4000 | IW_P | IW_RW);
		iw_frame(&m, 4);
		expand = true;
		walk(&m, "pae", 0x1000, 0, &r);
		expand = false;
		ok(r.st == PGW_OK, "PAE fully populated: completes (%s)",
		   r.err.msg);
		is_u64(r.stats.entries, 4 + 4 * 512 + 2048 * 512,
		       "PAE fully populated: 1050628 entries");
		ok(r.stats.entries <= PGW_DEFAULT_MAX_ENTRIES,
		   "the largest 32-bit walk fits the default budget");
		iw_free(&m.b);
	}
	/* A ring through four levels: PML4 -> A -> B -> PT, every entry
	 * present, the PT mapping the PML4's frame.  No table repeats on a
	 * path, so no cycle: 2^36 pages.  Each table is uniform, so the walk
	 * reports repeats at once; expanded, the budget stops it. */
	{
		struct iw_mem m = { 0 };
		iw_h_ring4(&m);
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(r.st == PGW_OK, "four-level ring: completes (%s)", r.err.msg);
		is_u64(r.c.pages, UINT64_C(1) << 36,
		       "four-level ring: 2^36 pages, all of frame 0x1000");
		ok(r.c.last_leaf_pa == 0x1000 && r.stats.entries < 4096,
		   "four-level ring: %llu entries examined",
		   (unsigned long long)r.stats.entries);
		ok(r.secs < TIME_LIMIT, "four-level ring: %.3f s", r.secs);
		expand = true;
		walk(&m, "x86-64", 0x1000, 0, &r);
		expand = false;
		ok(budget_msg(&r), "four-level ring expanded: budget message "
		   "(%s)", r.err.msg);
		ok(r.stats.entries <= PGW_DEFAULT_MAX_ENTRIES + 1,
		   "four-level ring expanded: stops at the budget");
		ok(r.secs < TIME_LIMIT, "four-level ring expanded: %.3f s",
		   r.secs);
		iw_free(&m.b);
	}
	/* A chain that loops back through four levels: PML4 -> A -> B, and
	 * B's entries point at the PML4 again.  Each is a cycle (reported,
	 * not descended), but there are 512^3 of them: the budget ends it. */
	{
		struct iw_mem m = { 0 };
		iw_h_loop_back(&m);
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(budget_msg(&r), "loop back to the PML4: budget message (%s)",
		   r.err.msg);
		ok(r.stats.cycles > 0 &&
		   r.c.stop[PGW_STOP_CYCLE] == r.stats.cycles,
		   "loop back to the PML4: cycles reported as holes (%llu)",
		   (unsigned long long)r.stats.cycles);
		is_u64(r.c.leaves, 0, "loop back: nothing followed to a leaf");
		ok(r.secs < TIME_LIMIT, "loop back: %.3f s", r.secs);
		/* With a small budget the cycles are all there is to see. */
		iw_fill(&m, 1, 512, 8, 0);
		iw_entry(&m, 1, 0, 8, 0x2000 | IW_TBL);
		iw_fill(&m, 2, 512, 8, 0);
		iw_entry(&m, 2, 0, 8, 0x3000 | IW_TBL);
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(r.st == PGW_OK && r.stats.cycles == 512 &&
		   r.c.stop[PGW_STOP_CYCLE] == 512,
		   "one path looping back: 512 cycle holes, completes");
		iw_free(&m.b);
	}
	/* 512 GiB of 4 KiB pages, all mapping one frame through shared
	 * tables: 2^27 pages, reported at once; expanded, 2^27 entries, so
	 * the budget stops it. */
	{
		struct iw_mem m = { 0 };
		iw_h_512g_one_frame(&m);
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(r.st == PGW_OK, "512 GiB onto one frame: completes (%s)",
		   r.err.msg);
		is_u64(r.c.pages, UINT64_C(1) << 27,
		       "512 GiB onto one frame: 2^27 pages");
		ok(r.c.last_leaf_pa == 0x5000,
		   "512 GiB onto one frame: all of frame 0x5000");
		ok(r.secs < TIME_LIMIT, "512 GiB onto one frame: %.3f s",
		   r.secs);
		expand = true;
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(budget_msg(&r), "512 GiB onto one frame expanded: budget "
		   "message (%s)", r.err.msg);
		ok(r.c.leaves > 0 && r.c.last_leaf_pa == 0x5000,
		   "512 GiB expanded: leaves reported up to the budget");
		ok(r.secs < TIME_LIMIT, "512 GiB expanded: %.3f s", r.secs);
		/* An explicit budget is honoured and named. */
		walk(&m, "x86-64", 0x1000, 1000, &r);
		expand = false;
		ok(r.st == PGW_E_LIMIT &&
		   strstr(r.err.msg, "entry budget of 1000 exhausted") &&
		   r.stats.entries == 1001,
		   "explicit budget: %s", r.err.msg);
		iw_free(&m.b);
	}
	/* Entries past the end of physical memory: reported, never read. */
	{
		struct iw_mem m = { 0 };
		struct pgw_xlat x;
		iw_h_beyond_memory(&m);
		walk(&m, "x86-64", 0x1000, 0, &r);
		ok(r.st == PGW_OK, "table past memory: walk completes");
		is_u64(r.c.stop[PGW_STOP_TABLE_BEYOND_MEMORY], 1,
		       "table past memory: one beyond-memory hole");
		ok(strcmp(pgw_stop_text(PGW_STOP_TABLE_BEYOND_MEMORY),
			  "page table beyond the end of physical memory") == 0 &&
		   strcmp(pgw_stop_key(PGW_STOP_TABLE_BEYOND_MEMORY),
			  "table-beyond-memory") == 0,
		   "beyond-memory stop text and key");
		struct pgw_image *img = open_mem(&m);
		struct pgw_space sp = { img, pgw_mode_by_name("x86-64"),
					0x1000 };
		ok(pgw_translate(&sp, NULL, 0x1234, &x) ==
			   PGW_STOP_TABLE_BEYOND_MEMORY,
		   "table past memory: translate stops for the same reason");
		pgw_image_close(img);
		/* The root itself past memory: one hole over everything. */
		walk(&m, "x86-64", UINT64_C(0x7fff000000), 0, &r);
		ok(r.st == PGW_OK && r.c.stop[PGW_STOP_TABLE_BEYOND_MEMORY] == 2 &&
		   r.c.holes == 3,
		   "root past memory: beyond-memory holes for both halves");
		iw_free(&m.b);
	}
	/* A root not aligned to its table: read as the CPU reads CR3, from
	 * the aligned table, never across the page end. */
	{
		struct iw_mem m = { 0 };
		struct pgw_xlat x;
		iw_entry(&m, 1, 511, 8, 0x2000 | IW_TBL);
		iw_entry(&m, 2, 511, 8, UINT64_C(0x40000000) | IW_P | IW_PS);
		struct pgw_image *img = open_mem(&m);
		struct pgw_space sp = { img, pgw_mode_by_name("x86-64"),
					0x1ffc };
		ok(pgw_translate(&sp, NULL, UINT64_MAX, &x) == PGW_STOP_OK &&
		   x.step[0].table == 0x1000,
		   "unaligned root: translate uses the aligned table");
		pgw_image_close(img);
		walk(&m, "x86-64", 0x1ffc, 0, &r);
		ok(r.st == PGW_OK && r.c.leaves == 1,
		   "unaligned root: range walk uses the aligned table");
		walk(&m, "pae", 0x1ffc, 0, &r);
		ok(r.st == PGW_OK, "unaligned PAE root: walk completes");
		iw_free(&m.b);
	}
	/* The same root in the last page of a zero-copy image: reading the
	 * table from the root's own offset ran past the end of the mapping
	 * (a crash before roots were aligned; fuzz/corpus/walker/crash-*). */
	{
		struct iw_mem m = { 0 };
		iw_frame(&m, 1);
		const char *modes[] = { "x86-64", "la57", "i386", "pae" };
		for (size_t i = 0; i < 4; i++) {
			walk(&m, modes[i], 0x1ffc, 0, &r);
			ok(r.st == PGW_OK && r.c.leaves == 0,
			   "%s: unaligned root in the last page: no read past "
			   "the image", modes[i]);
		}
		/* PTI's table comparison from the same root: an entry that
		 * straddles the page end is read as one, not past it. */
		struct pgw_image *img = open_mem(&m);
		struct pgw_pti pti;
		for (size_t i = 0; i < 4; i++) {
			pgw_pti_check(img, pgw_mode_by_name(modes[i]), NULL,
				      0x1ffc, &pti);
			ok(!pti.is_user_root, "%s: PTI check of an unaligned "
			   "table at the image's end", modes[i]);
		}
		pgw_image_close(img);
		iw_free(&m.b);
	}
	return tap_done();
}
