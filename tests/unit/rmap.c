/*
 * The reverse map (pgw_rmap) against brute force: i386 tables with
 * thousands of 4 KiB leaves on random frames (many frames mapped several
 * times, runs that coalesce), 4 MiB pages over the same memory, and a
 * page table used by two directory entries; every lookup must list
 * exactly the (va) a scan of the leaves written finds, in va order, and
 * a second owner of the same space doubles the hits, owner by owner.
 */
#include "../tools/imgwrite.h"
#include "imgtest.h"

#define NPT 8            /* page tables, PD entries 0..NPT-1 */
#define MAXMAP 16384

struct mapping {
	uint64_t va, pa, size;
};

static struct mapping maps[MAXMAP];
static size_t nmaps;

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void add_map(uint64_t va, uint64_t pa, uint64_t size)
{
	maps[nmaps++] = (struct mapping){ va, pa, size };
}

static int by_va(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The vas brute force finds for pa, sorted; their count. */
static size_t brute(uint64_t pa, uint64_t *vas)
{
	size_t n = 0;

	for (size_t i = 0; i < nmaps; i++)
		if (pa >= maps[i].pa && pa < maps[i].pa + maps[i].size)
			vas[n++] = maps[i].va + (pa - maps[i].pa);
	qsort(vas, n, sizeof(*vas), by_va);
	return n;
}

int main(void)
{
	struct iw_mem m = { 0 };
	static uint64_t want[MAXMAP], got[MAXMAP];
	static struct pgw_rmap_hit hits[MAXMAP];

	iw_frame(&m, 4095);   /* 16 MiB */
	for (unsigned t = 0; t < NPT; t++) {
		iw_entry(&m, 1, t, 4, (2 + t) * IW_PAGE | IW_TBL | IW_US);
		for (unsigned i = 0; i < 1024; i++) {
			uint64_t pfn;
			if (rnd() % 3 == 0)
				continue;
			/* Runs that coalesce, and frames reused. */
			pfn = i % 16 && rnd() % 4 ? 0x100 + ((t * 1024 + i) %
							     3000) :
						    0x100 + rnd() % 3000;
			iw_entry(&m, 2 + t, i, 4, pfn * IW_PAGE | IW_P | IW_US |
						 (i % 5 ? IW_RW : 0));
			add_map(((uint64_t)t << 22) | ((uint64_t)i << 12),
				pfn * IW_PAGE, IW_PAGE);
		}
	}
	/* Page table 2 again, under another directory entry. */
	iw_entry(&m, 1, 300, 4, 2 * IW_PAGE | IW_TBL);
	for (size_t i = 0, n = nmaps; i < n; i++)
		if (maps[i].va < (UINT64_C(1) << 22))
			add_map(maps[i].va + (UINT64_C(300) << 22), maps[i].pa,
				IW_PAGE);
	/* 4 MiB pages over all of memory, twice over. */
	for (unsigned j = 0; j < 8; j++) {
		uint64_t pa = (uint64_t)(j % 4) << 22;
		iw_entry(&m, 1, 768 + j, 4, pa | IW_P | IW_PS | IW_RW);
		add_map(((uint64_t)(768 + j)) << 22, pa, UINT64_C(1) << 22);
	}

	struct dw_buf b = { .p = m.b.p, .len = m.b.len };
	struct pgw_image *img;
	struct pgw_err err;
	if (open_buf(&b, "raw", &img, &err) != PGW_OK) {
		printf("Bail out! %s\n", err.msg);
		return 1;
	}
	struct pgw_space sp = { img, pgw_mode_by_name("i386"), 0x1000 };
	struct pgw_rmap *rm;
	struct pgw_walk_opts wo = { 0 };
	struct pgw_rmap_stats st;

	ok(pgw_rmap_new(&rm, &err) == PGW_OK &&
	   pgw_rmap_add(rm, &sp, &wo, 0, NULL, &err) == PGW_OK,
	   "the space walked into the map (%zu leaves written)", nmaps);
	pgw_rmap_finish(rm);
	pgw_rmap_stats(rm, &st);
	ok(st.ranges > 0 && st.ranges < nmaps && st.tables_not_in_image == 0 &&
	   st.budget_stops == 0, "%llu ranges for %zu leaves: runs coalesced",
	   (unsigned long long)st.ranges, nmaps);

	unsigned bad = 0, total = 0, multi = 0;
	for (unsigned q = 0; q < 20000; q++) {
		uint64_t pa = q < 4096 ? (uint64_t)q * IW_PAGE + (q % 7) * 100 :
					 rnd() % (UINT64_C(17) << 20);
		size_t nw = brute(pa, want);
		size_t ng = pgw_rmap_lookup(rm, pa, hits, MAXMAP);
		bool same = nw == ng;
		for (size_t i = 0; same && i < ng; i++) {
			got[i] = hits[i].va;
			same = hits[i].owner == 0 && hits[i].pa == pa &&
			       hits[i].va == want[i] &&
			       hits[i].page_size == (hits[i].va >> 22 >= 768 ?
						     UINT64_C(1) << 22 :
						     IW_PAGE);
		}
		if (!same && bad++ < 3)
			printf("# pa 0x%llx: %zu hits, want %zu (first 0x%llx "
			       "vs 0x%llx)\n", (unsigned long long)pa, ng, nw,
			       (unsigned long long)(ng ? got[0] : 0),
			       (unsigned long long)(nw ? want[0] : 0));
		total += (unsigned)nw;
		multi += nw > 2;
	}
	ok(bad == 0, "20000 lookups equal brute force (%u mappings, %u "
	   "addresses with more than 2), in va order", total, multi);

	/* Too little room: the count, and the first hits in order. */
	uint64_t pa = 0x100 * IW_PAGE;
	size_t nw = brute(pa, want);
	size_t ng = pgw_rmap_lookup(rm, pa, hits, 1);
	ok(ng == nw && nw > 1, "room for 1 of %zu: the count is still %zu",
	   nw, ng);

	/* The same space again as owner 1: each hit twice, owner 0 first. */
	ok(pgw_rmap_add(rm, &sp, &wo, 1, NULL, &err) == PGW_OK,
	   "a second owner added");
	pgw_rmap_finish(rm);
	ng = pgw_rmap_lookup(rm, pa, hits, MAXMAP);
	bool order = ng == 2 * nw;
	for (size_t i = 0; order && i < ng; i++)
		order = hits[i].owner == (i >= nw) &&
			hits[i].va == want[i % nw];
	ok(order, "%zu hits for 2 owners: owner by owner, each in va order",
	   ng);
	ok(pgw_rmap_lookup(rm, UINT64_C(0x1100000), hits, MAXMAP) == 0,
	   "an address past every mapping: none");

	pgw_rmap_free(rm);
	pgw_image_close(img);
	iw_free(&m.b);
	return tap_done();
}
