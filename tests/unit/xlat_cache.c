/*
 * pgw_translate through the paging-structure cache gives exactly what
 * it gives without one: every field of the answer and of every step (of
 * those pgw_translate_last fills in, which must be the last alone when a
 * slot holds the walk above it), and the batch's answers
 * (pgw_translate_many) what the walk answers, for every address of windows around each mapping of the
 * imgwrite spaces (x86-64, LA57, i386, PAE: 4 KiB, 2 MiB, 4 MiB and 1 GiB
 * pages, not-present entries at every level, swap and PROT_NONE entries,
 * reserved bits, a table past the end of memory, non-canonical and
 * beyond-the-space addresses), asked in order, backwards and in a random
 * order, with the space changing under one cache (another root, another
 * mode, another image) so that stale slots would show.  The range walk's
 * undecoded next leaf (range.c: a leaf differing from the one before only
 * in frame bits) equal to translating it: runs of leaves whose entries
 * differ in the PAT bit of large pages, in PSE-36's high frame bits, in
 * flags, in a reserved bit; the same leaves translated through a fresh
 * cache twice (its entry memo must not take a PAT or PSE-36 bit for a
 * frame bit).  A kdump whose page cache gives table pages up between
 * translations (the slots' kept pages must not be read then), and images
 * opened in turn, each where the one before may have been.  And the lazy
 * library loader (dynlib.h): a library that is not there is an error
 * saying which and why, every time; one that is gives its symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../tools/imgwrite.h"
#include "../tools/xlat_equal.h"
#include "imgtest.h"
#include "lib/dynlib.h"
#include "walk/slot_hash.h"

/* Addresses: windows of 4 KiB steps around each base, then the order. */
struct vas {
	uint64_t *v;
	size_t n;
};

static void window(struct vas *a, uint64_t base, unsigned pages)
{
	for (unsigned i = 0; i < pages; i++) {
		a->v = realloc(a->v, (a->n + 2) * sizeof(*a->v));
		a->v[a->n++] = base + (uint64_t)i * 4096 + (i * 0x123 & 0xfff);
		a->v[a->n++] = base - (uint64_t)(i + 1) * 4096;
	}
}

/* Brief answers given by compare: leaves (of them, with the data not
 * in the image), stops. */
static unsigned long brief_leaves, brief_absent, brief_stops;

/* The answers of every address as one batch (pgw_translate_many), in
 * runs of 1 to 97, through c and without a cache, each held to the walk
 * from the root; the count that differ (the first shown). */
static unsigned compare_many(const struct pgw_space *sp,
			     struct pgw_xlat_cache *c, const struct vas *a)
{
	struct pgw_answer *got = malloc(a->n * sizeof(*got) + 1);
	unsigned bad = 0;

	for (int cached = 0; cached < 2; cached++) {
		memset(got, 0x5a, a->n * sizeof(*got));
		for (size_t i = 0, run = 1; i < a->n; i += run, run = run % 97 + 1)
			pgw_translate_many(sp, cached ? c : NULL, a->v + i,
					   a->n - i < run ? a->n - i : run,
					   got + i);
		for (size_t i = 0; i < a->n; i++) {
			struct pgw_xlat want;
			pgw_translate(sp, NULL, a->v[i], &want);
			if (!xe_same_answer(&want, &got[i]) && bad++ < 1)
				printf("# va 0x%llx: pgw_translate_many (%s) "
				       "answers %s at %d, walked %s at %d\n",
				       (unsigned long long)a->v[i],
				       cached ? "cached" : "no cache",
				       pgw_stop_key(got[i].stop),
				       (int)got[i].level,
				       pgw_stop_key(want.stop),
				       (int)want.level);
		}
	}
	free(got);
	return bad;
}

/* Translate every address without the cache, and through it with every
 * step (pgw_translate) and with the last (pgw_translate_last),
 * the two taking turns at asking first, and briefly (pgw_translate_brief,
 * when it answers) before and after them, and all as one batch
 * (compare_many); the count of answers that differ (each shown). */
static unsigned compare(const struct pgw_space *sp, struct pgw_xlat_cache *c,
			const struct vas *a)
{
	unsigned bad = 0;

	for (size_t i = 0; i < a->n; i++) {
		struct pgw_xlat want, got, last;
		bool same, same_last, same_brief;
		/* Briefly as a batch asks (before the cache is filled for
		 * this address, after whatever the image gave up), then
		 * after the walks. */
		struct pgw_answer early, b;
		bool asked_early = xe_brief_ask(sp, c, a->v[i], &early);
		xe_three_ways(sp, c, a->v[i], i & 1, &want, &got, &last, &same,
			      &same_last);
		if (xe_brief(sp, c, a->v[i], &want, &b, &same_brief)) {
			brief_leaves += b.stop == PGW_STOP_OK;
			brief_absent += b.stop == PGW_STOP_OK &&
					b.absence != PGW_ABSENT_NONE;
			brief_stops += b.stop != PGW_STOP_OK;
		}
		if (asked_early && !xe_same_brief(&want, &early))
			same_brief = false;
		if ((!same || !same_last || !same_brief) && bad++ < 5)
			printf("# va 0x%llx: cached %s at %d%s%s, walked %s at "
			       "%d\n", (unsigned long long)a->v[i],
			       pgw_stop_key(got.stop), (int)got.level,
			       same_last ? "" : " (the last step alone differs)",
			       same_brief ? "" : " (the brief answer differs)",
			       pgw_stop_key(want.stop), (int)want.level);
	}
	return bad + compare_many(sp, c, a);
}

static void shuffle(struct vas *a, unsigned seed)
{
	for (size_t i = a->n; i > 1; i--) {
		seed = seed * 1103515245u + 12345u;
		size_t j = (seed >> 8) % i;
		uint64_t t = a->v[i - 1];
		a->v[i - 1] = a->v[j];
		a->v[j] = t;
	}
}

static void reverse(struct vas *a)
{
	for (size_t i = 0; i < a->n / 2; i++) {
		uint64_t t = a->v[i];
		a->v[i] = a->v[a->n - 1 - i];
		a->v[a->n - 1 - i] = t;
	}
}

static void check_orders(const char *what, const struct pgw_space *sp,
			 struct pgw_xlat_cache *c, struct vas *a)
{
	unsigned long leaves = brief_leaves, stops = brief_stops;
	unsigned bad = compare(sp, c, a);

	leaves = brief_leaves - leaves;
	stops = brief_stops - stops;
	ok(bad == 0 && leaves > 0 && stops > 0, "%s: %zu addresses in order "
	   "(%lu leaves and %lu stops of them brief)", what, a->n, leaves,
	   stops);
	reverse(a);
	ok(compare(sp, c, a) == 0, "%s: backwards", what);
	shuffle(a, 7);
	ok(compare(sp, c, a) == 0, "%s: shuffled", what);
}

/* Every leaf pgw_walk_range reports must be what translating its first
 * address says: entry, frame, level, effective permissions. */
struct leaf_check {
	const struct pgw_space *sp;
	unsigned leaves, bad;
};

static int check_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct leaf_check *k = arg;
	struct pgw_xlat x;

	k->leaves++;
	pgw_translate(k->sp, NULL, leaf->va, &x);
	if (x.stop != PGW_STOP_OK || x.level != leaf->level ||
	    x.pa != leaf->pa || x.eff_flags != leaf->eff_flags ||
	    !xe_same_entry(&x.step[x.nsteps - 1].entry, &leaf->entry)) {
		if (k->bad++ < 5)
			printf("# leaf at 0x%llx: walked pa 0x%llx raw 0x%llx, "
			       "translated %s pa 0x%llx\n",
			       (unsigned long long)leaf->va,
			       (unsigned long long)leaf->pa,
			       (unsigned long long)leaf->entry.raw,
			       pgw_stop_key(x.stop), (unsigned long long)x.pa);
	}
	return 0;
}

static void check_range(const char *what, const struct pgw_space *sp,
			unsigned want_leaves)
{
	struct leaf_check k = { .sp = sp };
	struct pgw_walk_opts wo = { 0 };
	struct pgw_walk_ops ops = { .leaf = check_leaf };
	struct pgw_err err = { 0 };

	enum pgw_status st = pgw_walk_range(sp, &wo, &ops, &k, NULL, NULL,
					    &err);
	ok(st == PGW_OK && k.bad == 0 && k.leaves == want_leaves,
	   "%s: %u leaves walked, %u unlike their translation", what,
	   k.leaves, k.bad);
}

/* Each address of a through one fresh cache twice (its entry memo full
 * the second time): the answers cache and walk give alike. */
static void check_memo(const char *what, const struct pgw_space *sp,
		       const struct vas *a)
{
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	unsigned bad = compare(sp, c, a);

	bad += compare(sp, c, a);
	ok(c && bad == 0, "%s: %zu addresses through the cache's entry memo, "
	   "twice, %u unlike their walk", what, a->n, bad);
	pgw_xlat_cache_free(c);
}

/* Range walks over leaves that follow each other but for a bit that is
 * not a frame bit; translations through the cache too, whose entry memo
 * takes an entry for one of its kind decoded before only where they
 * differ in frame bits. */
static void test_next_leaf(void)
{
	struct iw_mem m = { 0 };
	const uint64_t pat_large = UINT64_C(1) << 12;

	/* x86-64: PML4 1 -> PDPT 2 -> PD 3 (2 MiB leaves, PAT on every
	 * third) and PD[100] -> PT 4 (4 KiB leaves: a frame repeated, flags
	 * changing, a reserved bit, an NX bit, a high frame). */
	for (uint64_t f = 0; f <= 5; f++)
		memset(iw_frame(&m, f), 0, IW_PAGE);
	iw_entry(&m, 1, 0, 8, 2u << 12 | IW_TBL | IW_US);
	iw_entry(&m, 2, 0, 8, 3u << 12 | IW_TBL | IW_US);
	for (unsigned i = 0; i < 64; i++)
		iw_entry(&m, 3, i, 8, (uint64_t)i << 21 | IW_P | IW_RW | IW_PS |
					 (i % 3 == 1 ? pat_large : 0));
	iw_entry(&m, 3, 100, 8, 4u << 12 | IW_TBL | IW_US);
	for (unsigned i = 0; i < 512; i++) {
		uint64_t e = (uint64_t)(i / 2) << 12 | IW_P | IW_US;
		if (i % 7 == 3)
			e |= IW_RW;
		if (i % 11 == 5)
			e |= IW_NX;
		if (i == 300)
			e |= UINT64_C(1) << 52 | UINT64_C(1) << 62;  /* pkey */
		if (i >= 400)
			e |= UINT64_C(0xfff0000000);   /* above the image */
		iw_entry(&m, 4, i, 8, e);
	}
	struct pgw_image *img = open_raw_bytes(m.b.p, m.b.len);
	struct pgw_space sp = { img, pgw_mode_by_name("x86-64"), 0x1000 };
	check_range("x86-64 2 MiB and 4 KiB leaves", &sp, 64 + 512);
	struct vas a = { 0 };
	for (uint64_t i = 0; i < 64; i++) {
		a.v = realloc(a.v, (a.n + 1) * sizeof(*a.v));
		a.v[a.n++] = i << 21 | 0x1234;
	}
	window(&a, UINT64_C(100) << 21, 512);
	check_memo("x86-64 2 MiB leaves with PAT and 4 KiB leaves",
		   &sp, &a);
	free(a.v);
	pgw_image_close(img);
	iw_free(&m.b);

	/* i386 with PSE: 4 MiB leaves whose frames cross 4 GiB (PSE-36
	 * puts PA bits 32..39 in entry bits 13..20) and 4 KiB leaves. */
	struct iw_mem m32 = { 0 };
	for (uint64_t f = 0; f <= 2; f++)
		memset(iw_frame(&m32, f), 0, IW_PAGE);
	for (unsigned i = 0; i < 16; i++) {
		uint64_t pa = UINT64_C(0xfe000000) + (uint64_t)i * 0x400000;
		uint64_t e = (pa & 0xffc00000) | (pa >> 32 & 0xff) << 13 |
			     IW_P | IW_RW | IW_PS;
		iw_entry(&m32, 1, 16 + i, 4, e);
	}
	iw_entry(&m32, 1, 0, 4, 2u << 12 | IW_TBL);
	for (unsigned i = 0; i < 1024; i++)
		iw_entry(&m32, 2, i, 4, (uint64_t)i << 12 | IW_P |
					 (i % 5 == 2 ? IW_RW : 0));
	img = open_raw_bytes(m32.b.p, m32.b.len);
	struct pgw_space sp32 = { img, pgw_mode_by_name("i386"), 0x1000 };
	check_range("i386 PSE-36 4 MiB leaves across 4 GiB", &sp32,
		    16 + 1024);
	struct vas b = { 0 };
	for (uint64_t i = 0; i < 16; i++) {
		b.v = realloc(b.v, (b.n + 1) * sizeof(*b.v));
		b.v[b.n++] = (16 + i) << 22 | 0x2345;
	}
	window(&b, 0, 1024);
	check_memo("i386 PSE-36 4 MiB leaves", &sp32, &b);
	free(b.v);
	pgw_image_close(img);
	iw_free(&m32.b);
}

/* Entry idx of the table at frame pfn, rewritten in the file behind an
 * open raw image (its mapping shares the page cache, so the image sees
 * it): what no image does, to show what the cache remembered. */
static void poke(int fd, uint64_t pfn, unsigned idx, uint64_t v)
{
	if (pwrite(fd, &v, 8, (off_t)(pfn * IW_PAGE + idx * 8)) != 8) {
		printf("Bail out! pwrite: %s\n", strerror(errno));
		exit(1);
	}
}

/* What the cache's coarser levels hold: a walk that stopped at the top
 * level holds for the whole 512 GiB span, one that stopped at the PDPT
 * for its 1 GiB, and the PD table a 1 GiB span leads to serves every
 * 2 MiB of it.  Each is filled by one address; the tables are then
 * changed under the cache, and another address of the span (another
 * 2 MiB and 1 GiB span, so no finer slot has it) still gets the
 * remembered walk, which a cache keyed by 2 MiB alone would not. */
static void test_coarse_levels(void)
{
	struct iw_mem m = { 0 };

	/* PML4 1: [1] -> PDPT 2, [0] and [2] not present.  PDPT 2: [0] ->
	 * PD 3, [3] not present.  PD 3: [0] -> PT 4, [1] a 2 MiB leaf,
	 * [7] not present.  PT 4: [5] a 4 KiB leaf.  Frames 5-6 spare. */
	for (uint64_t f = 0; f <= 6; f++)
		memset(iw_frame(&m, f), 0, IW_PAGE);
	iw_entry(&m, 1, 1, 8, 2u << 12 | IW_TBL);
	iw_entry(&m, 2, 0, 8, 3u << 12 | IW_TBL);
	iw_entry(&m, 3, 0, 8, 4u << 12 | IW_TBL);
	iw_entry(&m, 3, 1, 8, UINT64_C(0x200000) | IW_P | IW_PS);
	iw_entry(&m, 4, 5, 8, UINT64_C(0x6000) | IW_P);
	struct dw_buf b = { .p = m.b.p, .len = m.b.len };
	char *path = tmp_save(&b);
	struct pgw_image_open_opts o = { .format = "raw" };
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	int fd = open(path, O_WRONLY);
	if (fd < 0 || pgw_image_open(&img, path, &o, &err) != PGW_OK) {
		printf("Bail out! %s %s\n", path, err.msg);
		exit(1);
	}
	struct pgw_space sp = { img, pgw_mode_by_name("x86-64"), 0x1000 };
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	const uint64_t g = UINT64_C(1) << 30, t = UINT64_C(1) << 39;
	const uint64_t top_hole = 5 * g + 0x1000;    /* PML4[0] */
	const uint64_t pud_hole = t + 3 * g;         /* PDPT[3] */
	const uint64_t pt_leaf = t + 0x5123;         /* PD[0] -> PT 4 */
	struct pgw_xlat x;

	/* Fill: each walk as the walk without the cache says. */
	unsigned bad = 0;
	const uint64_t first[] = { top_hole, pud_hole, pt_leaf };
	for (size_t i = 0; i < 3; i++) {
		struct pgw_xlat want;
		pgw_translate(&sp, NULL, first[i], &want);
		pgw_translate(&sp, c, first[i], &x);
		bad += !xe_same_xlat(&want, &x);
	}
	ok(bad == 0, "coarse levels: three walks filled as walked");

	/* Change the tables: PML4[0] -> PDPT 5 with a 1 GiB leaf in every
	 * slot, PDPT 2 [3] a 1 GiB leaf, PDPT 2 [0] -> PD 6 (empty). */
	for (unsigned i = 0; i < 512; i++)
		poke(fd, 5, i, (uint64_t)i << 30 | IW_P | IW_PS);
	poke(fd, 1, 0, 5u << 12 | IW_TBL);
	poke(fd, 2, 3, UINT64_C(0x40000000) | IW_P | IW_PS);
	poke(fd, 2, 0, 6u << 12 | IW_TBL);

	const uint64_t top2 = 300 * g + 0x7000;   /* same 512 GiB span */
	pgw_translate(&sp, NULL, top2, &x);
	bool walked = x.stop == PGW_STOP_OK;
	pgw_translate(&sp, c, top2, &x);
	ok(walked && x.stop == PGW_STOP_NOT_PRESENT && x.level == PGW_PGD &&
	   x.nsteps == 1, "another 1 GiB of the top-level hole: the "
	   "remembered stop (%s at level %d), not the changed table",
	   pgw_stop_key(x.stop), (int)x.level);

	const uint64_t pud2 = pud_hole + 77 * (UINT64_C(1) << 21) + 0x10;
	pgw_translate(&sp, NULL, pud2, &x);
	walked = x.stop == PGW_STOP_OK;
	pgw_translate(&sp, c, pud2, &x);
	ok(walked && x.stop == PGW_STOP_NOT_PRESENT && x.level == PGW_PUD &&
	   x.nsteps == 2, "another 2 MiB of the 1 GiB hole: the remembered "
	   "stop (%s at level %d)", pgw_stop_key(x.stop), (int)x.level);

	/* PD 3 [1], the 2 MiB leaf, through the remembered PDPT entry; the
	 * walk now goes to the empty PD 6. */
	const uint64_t pd2 = t + 0x200000 + 0x4321;
	pgw_translate(&sp, NULL, pd2, &x);
	walked = x.stop == PGW_STOP_NOT_PRESENT;
	pgw_translate(&sp, c, pd2, &x);
	ok(walked && x.stop == PGW_STOP_OK && x.level == PGW_PMD &&
	   x.pa == 0x204321 && x.nsteps == 3 && x.step[2].table == 0x3000,
	   "another 2 MiB of the 1 GiB span: the remembered PD table "
	   "(%s, pa 0x%llx)", pgw_stop_key(x.stop),
	   (unsigned long long)x.pa);

	/* A new root empties it all: the changed tables answer. */
	sp.root = 0x1000 | 0x8;   /* PWT: the same table, another root */
	pgw_translate(&sp, c, top2, &x);
	ok(x.stop == PGW_STOP_OK && x.pa == 300 * g + 0x7000,
	   "another root: walked anew (pa 0x%llx)", (unsigned long long)x.pa);

	pgw_xlat_cache_free(c);
	pgw_image_close(img);
	close(fd);
	unlink(path);
	free(path);
	iw_free(&m.b);
}

/*
 * Two 2 MiB spans that share a finest slot (slot_hash.h) and the low 16
 * bits of their tags, each a 2 MiB leaf of a frame of its own, asked in
 * turn: each gets its own frame (the slot's check word tells them apart;
 * one that compared the generation alone, or a part of the tag, answers
 * the second from the first's slot).
 */
static void test_slot_shared(void)
{
	/* Tags 2^16 apart share their low 16 bits, and the 1023 such tags
	 * above a small one in the user half (2^26 spans) hold one of its
	 * slot with odds of 63 %: a few small tags are tried. */
	uint64_t ta = 0, tb = 0;
	bool found = false;

	for (uint64_t a = 1; a < 64 && !found; a++)
		for (uint64_t b = a + 0x10000; b < UINT64_C(1) << 26 && !found;
		     b += 0x10000)
			if (pgw_slot_index(a, pgw_slots_log2[0]) ==
			    pgw_slot_index(b, pgw_slots_log2[0])) {
				ta = a;
				tb = b;
				found = true;
			}
	ok(found, "two 2 MiB spans sharing a slot and their tags' low bits: "
	   "0x%llx and 0x%llx", (unsigned long long)ta << 21,
	   (unsigned long long)tb << 21);
	if (!found)
		return;

	/* PML4 1; a span's PDPT is 2 (3 for b's when another PML4 entry)
	 * and its PD 4 (5 for b's when another PDPT entry); the spans 2 MiB
	 * leaves of 1 and 2 GiB. */
	struct iw_mem m = { 0 };
	for (uint64_t f = 0; f <= 5; f++)
		memset(iw_frame(&m, f), 0, IW_PAGE);
	uint64_t pdpt_b = ta >> 18 == tb >> 18 ? 2 : 3;
	uint64_t pd_b = ta >> 9 == tb >> 9 ? 4 : 5;
	iw_entry(&m, 1, (unsigned)(ta >> 18), 8, 2u << 12 | IW_TBL);
	iw_entry(&m, 1, (unsigned)(tb >> 18), 8, pdpt_b << 12 | IW_TBL);
	iw_entry(&m, 2, (unsigned)(ta >> 9 & 511), 8, 4u << 12 | IW_TBL);
	iw_entry(&m, pdpt_b, (unsigned)(tb >> 9 & 511), 8, pd_b << 12 | IW_TBL);
	iw_entry(&m, 4, ta & 511, 8, UINT64_C(1) << 30 | IW_P | IW_PS);
	iw_entry(&m, pd_b, tb & 511, 8, UINT64_C(2) << 30 | IW_P | IW_PS);
	struct pgw_image *img = open_raw_bytes(m.b.p, m.b.len);
	struct pgw_space sp = { img, pgw_mode_by_name("x86-64"), 0x1000 };
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	const uint64_t va[] = { ta << 21 | 0x1234, tb << 21 | 0x5678,
				ta << 21 | 0x9abc, tb << 21 };
	const uint64_t pa[] = { (UINT64_C(1) << 30) + 0x1234,
				(UINT64_C(2) << 30) + 0x5678,
				(UINT64_C(1) << 30) + 0x9abc,
				UINT64_C(2) << 30 };
	unsigned bad = 0;

	for (size_t i = 0; i < 4; i++) {
		struct pgw_xlat want, got;
		pgw_translate(&sp, NULL, va[i], &want);
		pgw_translate(&sp, c, va[i], &got);
		bad += !xe_same_xlat(&want, &got) || want.stop != PGW_STOP_OK ||
		       want.pa != pa[i];
	}
	ok(bad == 0, "the two asked in turn: %u of 4 answers not their own "
	   "frame", bad);
	pgw_xlat_cache_free(c);
	pgw_image_close(img);
	iw_free(&m.b);
}

/*
 * A kdump (zlib) of the x86-64 space: its pages come from the image's
 * bounded cache, which gives pages up as others are read, so a table page
 * a slot keeps may be another page's bytes by the time it is asked
 * again.  Between every few translations the test reads more pages than
 * the image's cache holds (the padding frames: page tables of leaves of
 * the direct map's kind but other frames, so that an entry read from a
 * page given up would pass for one and answer wrongly); the cache must
 * still answer as the walk does, in full and briefly.
 */
static void test_evicted_pages(const struct vas *a)
{
	struct iw_mem m = { 0 };
	uint64_t root = iw_tables_x86_64(&m, false);
	uint64_t first_pad = m.b.len / IW_PAGE, npad = 1200;

	for (uint64_t f = first_pad; f < first_pad + npad; f++) {
		memset(iw_frame(&m, f), 0, IW_PAGE);
		for (unsigned i = 0; i < 512; i++)
			iw_entry(&m, f, i, 8, (f * 512 + i) << 12 | IW_P |
						      IW_RW | IW_A | IW_D |
						      IW_G | IW_NX);
	}
	struct dw_mem dm = { m.b.p, m.b.len / IW_PAGE,
			     calloc(m.b.len / IW_PAGE, 1) };
	struct dw_kdump_opts ko = { .codec = DW_ZLIB, .machine = "x86_64" };
	struct dw_buf b = { 0 };
	struct pgw_image *img;
	struct pgw_err err;
	dw_write_kdump(&b, &dm, &ko, NULL);
	if (open_buf(&b, NULL, &img, &err) != PGW_OK) {
		printf("Bail out! kdump of the x86-64 space: %s\n", err.msg);
		exit(1);
	}
	struct pgw_space sp = { img, pgw_mode_by_name("x86-64"), root };
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	struct vas v = { malloc(a->n * sizeof(*a->v)), a->n };
	memcpy(v.v, a->v, a->n * sizeof(*a->v));
	unsigned bad = 0;
	uint8_t page[IW_PAGE];

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < v.n; i += 48) {
			struct vas part = { v.v + i,
					    v.n - i < 48 ? v.n - i : 48 };
			bad += compare(&sp, c, &part);
			for (uint64_t f = 0; f < npad; f++)
				pgw_image_read_page(img, first_pad + f, page,
						    &err);
		}
		shuffle(&v, 11);
	}
	ok(bad == 0, "kdump: %zu addresses in order and shuffled, more pages "
	   "than its cache holds read between every 48: %u answers unlike "
	   "the walk", v.n, bad);
	check_orders("kdump, nothing read between", &sp, c, &v);
	pgw_xlat_cache_free(c);
	pgw_image_close(img);
	free(v.v);
	free(dm.kind);
	dw_free(&b);
	iw_free(&m.b);
}

/*
 * One cache through four images in turn, each closed before the next is
 * opened: the next may well be allocated where the one before was, with
 * the same mode and root, and must still be walked anew (every other one
 * has no direct map under its root).
 */
static void test_reopened(const struct vas *a)
{
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	unsigned bad = 0, same_place = 0;
	uintptr_t before = 0;   /* the address of the image closed last */

	for (int round = 0; round < 4; round++) {
		struct iw_mem m = { 0 };
		uint64_t root = iw_tables_x86_64(&m, false);
		if (round & 1)   /* no direct map under this root */
			iw_entry(&m, root >> 12, 273, 8, 0);
		struct pgw_image *img = open_raw_bytes(m.b.p, m.b.len);
		struct pgw_space sp = { img, pgw_mode_by_name("x86-64"),
					root };
		same_place += (uintptr_t)img == before;
		before = (uintptr_t)img;
		bad += compare(&sp, c, a);
		pgw_image_close(img);
		iw_free(&m.b);
	}
	ok(bad == 0, "four images opened in turn, each closed before the "
	   "next (%u of 3 where the one before was), one cache: %u answers "
	   "unlike the walk", same_place, bad);
	pgw_xlat_cache_free(c);
}

/* pgw_translate_brief over a run: the answers up to the first that
 * needs a walk, in order, and nothing written past them. */
static void test_brief_runs(const struct pgw_space *sp, uint64_t dm)
{
	struct pgw_xlat_cache *c;
	struct pgw_xlat x;
	struct pgw_answer b[4];

	/* The direct map's first 2 MiB (4 KiB pages) walked once through a
	 * fresh cache: its slot and the kind of its leaves known; its
	 * second 2 MiB, a large page, not asked yet. */
	c = pgw_xlat_cache_new();
	unsigned first;
	pgw_translate_last(sp, c, dm + 0x1000, &x, &first);
	uint64_t va[4] = { dm + 0x2000, dm + 0x3abc, dm + 0x200000,
			   dm + 0x4000 };
	memset(b, 0x5a, sizeof(b));
	size_t n = pgw_translate_brief(sp, c, va, 4, b);
	struct pgw_xlat w0, w1;
	pgw_translate(sp, NULL, va[0], &w0);
	pgw_translate(sp, NULL, va[1], &w1);
	bool untouched = b[2].pa == UINT64_C(0x5a5a5a5a5a5a5a5a) &&
			 b[3].pa == UINT64_C(0x5a5a5a5a5a5a5a5a);
	ok(n == 2 && xe_same_brief(&w0, &b[0]) && xe_same_brief(&w1, &b[1]) &&
	   untouched, "pgw_translate_brief: a run answered up to the "
	   "address that needs a walk (%zu of 4), nothing written past them",
	   n);
	pgw_translate_last(sp, c, va[2], &x, &first);
	ok(x.stop == PGW_STOP_OK && pgw_translate_brief(sp, c, va + 3, 1, b) == 1,
	   "... and after that walk, the rest of the run");
	ok(pgw_translate_brief(sp, c, va, 0, b) == 0, "... none of none");
	pgw_xlat_cache_free(c);
}

int main(void)
{
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	struct iw_mem m64 = { 0 }, m57 = { 0 }, m32 = { 0 }, mpae = { 0 };

	ok(c != NULL, "a cache");
	/* x86-64: the imgwrite space, plus a table past the end of memory
	 * and an entry with a reserved bit. */
	uint64_t root64 = iw_tables_x86_64(&m64, false);
	iw_entry(&m64, 3, 3, 8, UINT64_C(0x40000000) | IW_TBL);
	iw_entry(&m64, 3, 4, 8, UINT64_C(0x800000) | IW_P | IW_PS |
				 UINT64_C(0x2000));
	struct pgw_image *img64 = open_raw_bytes(m64.b.p, m64.b.len);
	struct pgw_space sp64 = { img64, pgw_mode_by_name("x86-64"), root64 };
	struct vas a = { 0 };
	const uint64_t dm = UINT64_C(0xffff888000000000);
	window(&a, dm, 1100);                 /* 4 KiB, 2 MiB, holes */
	window(&a, dm + UINT64_C(0x40000000), 8);   /* 1 GiB page */
	window(&a, UINT64_C(0x400000), 600);  /* user, PROT_NONE, swap */
	window(&a, UINT64_C(0xffffffff81000000), 600);
	window(&a, UINT64_C(0x0000800000000000), 4);   /* non-canonical */
	window(&a, UINT64_C(0x00007ffffffff000), 4);
	check_orders("x86-64", &sp64, c, &a);

	/* The same cache, another root in the same image: the kernel's
	 * PDPT as a top table would be wrong, so use PML4 copies that
	 * differ. */
	uint8_t *copy = iw_frame(&m64, 9);   /* may move m64.b.p */
	memcpy(copy, m64.b.p + 0x1000, IW_PAGE);
	iw_entry(&m64, 9, 273, 8, 0);   /* no direct map under this root */
	pgw_image_close(img64);
	img64 = open_raw_bytes(m64.b.p, m64.b.len);
	sp64.img = img64;
	struct pgw_space other = { img64, sp64.mode, UINT64_C(0x9000) };
	unsigned bad = 0;
	for (size_t i = 0; i < a.n; i++) {
		struct pgw_xlat want, got;
		const struct pgw_space *s = i & 1 ? &other : &sp64;
		pgw_translate(s, NULL, a.v[i], &want);
		pgw_translate(s, c, a.v[i], &got);
		bad += !xe_same_xlat(&want, &got);
	}
	ok(bad == 0, "two roots of one image asked in turn through one "
	   "cache: %u answers differ", bad);

	uint64_t root57 = iw_tables_x86_64(&m57, true);
	struct pgw_image *img57 = open_raw_bytes(m57.b.p, m57.b.len);
	struct pgw_space sp57 = { img57, pgw_mode_by_name("la57"), root57 };
	check_orders("la57", &sp57, c, &a);

	uint64_t root32 = iw_tables_i386(&m32);
	struct pgw_image *img32 = open_raw_bytes(m32.b.p, m32.b.len);
	struct pgw_space sp32 = { img32, pgw_mode_by_name("i386"), root32 };
	struct vas b = { 0 };
	window(&b, UINT64_C(0xc0000000), 1100);   /* 4 KiB, 4 MiB, holes */
	window(&b, UINT64_C(0x400000), 1100);     /* shared PT, PROT_NONE */
	window(&b, UINT64_C(0xfffff000), 2);      /* the top, and beyond */
	window(&b, UINT64_C(0x100000000), 2);
	check_orders("i386", &sp32, c, &b);

	uint64_t rootpae = iw_tables_pae(&mpae);
	struct pgw_image *imgpae = open_raw_bytes(mpae.b.p, mpae.b.len);
	struct pgw_space sppae = { imgpae, pgw_mode_by_name("pae"), rootpae };
	check_orders("pae", &sppae, c, &b);

	/* After all that, back to the first space: nothing stale. */
	check_orders("x86-64 again", &sp64, c, &a);
	/* What pgw_translate_last is for: a 4 KiB page and a hole under a
	 * remembered PMD-level slot give the last step alone. */
	struct pgw_xlat lx;
	unsigned first;
	pgw_translate_last(&sp64, c, dm + 0x1234, &lx, &first);
	pgw_translate_last(&sp64, c, dm + 0x2234, &lx, &first);
	ok(lx.stop == PGW_STOP_OK && lx.nsteps == 4 && first == 3,
	   "pgw_translate_last: the last step alone from a remembered walk "
	   "(%u of %u steps)", lx.nsteps - first, lx.nsteps);
	/* A hole at the PMD level: a final slot's last step. */
	uint64_t hole = 0;
	for (uint64_t va = dm; va < dm + (UINT64_C(1) << 30) && !hole;
	     va += UINT64_C(1) << 21) {
		pgw_translate(&sp64, NULL, va, &lx);
		if (lx.stop == PGW_STOP_NOT_PRESENT && lx.nsteps == 3)
			hole = va;
	}
	pgw_translate_last(&sp64, c, hole, &lx, &first);
	pgw_translate_last(&sp64, c, hole + 0x5000, &lx, &first);
	ok(hole && lx.stop == PGW_STOP_NOT_PRESENT && lx.nsteps == 3 &&
	   first == 2, "... and from a remembered stop at the PMD "
	   "level (0x%llx: %u of %u steps)", (unsigned long long)hole,
	   lx.nsteps - first, lx.nsteps);
	ok(pgw_translate(&sp64, NULL, dm, &(struct pgw_xlat){ 0 }) ==
	   PGW_STOP_OK, "no cache: pgw_translate itself");

	test_next_leaf();
	test_coarse_levels();
	test_slot_shared();
	test_evicted_pages(&a);
	test_reopened(&a);
	test_brief_runs(&sp64, dm);
	ok(brief_absent > 0, "brief answers over the test: %lu leaves (%lu "
	   "with the data not in the image) and %lu stops at empty entries "
	   "or at tables the image lacks, each as walked", brief_leaves,
	   brief_absent, brief_stops);

	/* The loader. */
	void *fn = NULL;
	const struct pgw_dynsym none_syms[] = { { "nothing", &fn } };
	struct pgw_dynlib none = { "frobnication", "libpgw-none.so.0",
				   "libfrob", none_syms, 1, 0, "" };
	struct pgw_err err = { 0 };
	for (int i = 0; i < 2; i++)
		ok(pgw_dynlib_load(&none, &err) == PGW_E_UNSUPPORTED &&
		   strstr(err.msg, "frobnication is needed and cannot be "
			  "loaded: libpgw-none.so.0") &&
		   strstr(err.msg, "install libfrob"),
		   "a library that is not there (try %d): %s", i + 1, err.msg);
	const struct pgw_dynsym c_syms[] = { { "strlen", &fn } };
	struct pgw_dynlib libc = { "libc", "libc.so.6", "libc6", c_syms, 1,
				   0, "" };
	ok(pgw_dynlib_load(&libc, &err) == PGW_OK && fn &&
	   ((size_t (*)(const char *))fn)("four") == 4,
	   "one that is: its strlen counts");
	const struct pgw_dynsym bad_syms[] = { { "pgw_no_such_fn", &fn } };
	struct pgw_dynlib nosym = { "libc", "libc.so.6", "libc6", bad_syms, 1,
				    0, "" };
	ok(pgw_dynlib_load(&nosym, &err) == PGW_E_UNSUPPORTED &&
	   strstr(err.msg, "has no pgw_no_such_fn"),
	   "a symbol it lacks: %s", err.msg);

	pgw_xlat_cache_free(c);
	pgw_image_close(img64);
	pgw_image_close(img57);
	pgw_image_close(img32);
	pgw_image_close(imgpae);
	iw_free(&m64.b);
	iw_free(&m57.b);
	iw_free(&m32.b);
	iw_free(&mpae.b);
	free(a.v);
	free(b.v);
	return tap_done();
}
