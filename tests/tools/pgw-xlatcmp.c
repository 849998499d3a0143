/*
 * pgw-xlatcmp: a batch of addresses translated four ways on one image:
 * from the root (pgw_translate), and through one paging-structure cache
 * with every step (pgw_translate) and with the last alone
 * (pgw_translate_last), the two taking turns at asking first, and
 * briefly (pgw_translate_brief, when it answers) before and after them,
 * and in batches of 1000 through a cache of their own
 * (pgw_translate_many); each answer held to the root walk's field by
 * field (xlat_equal.h).  The unit test
 * does this on built spaces; this tool does it on real dumps in every
 * image format, where the tables are a kernel's.  With -e N, N frames
 * drawn at random (random(), unseeded) are read between two addresses,
 * so that a decompressing image's page cache gives up the table pages
 * the cache's slots keep (those must then be read anew).
 *
 * Usage: pgw-xlatcmp [-f FORMAT] [-c CPU | -r CR3] [-m MODE] [-e N]
 *                    IMAGE < addresses
 * Prints "N addresses: K answers differ (...); B answered briefly, E
 * before their walk; ..."
 * and the first five that differ;
 * exits 0 when none differ, 1 when some do, 2 on a usage, input or open
 * error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgwalk.h"
#include "xlat_equal.h"

/* Addresses asked of pgw_translate_many at once. */
#define BATCH 1000

_Noreturn static void die(const char *what, const char *msg)
{
	fprintf(stderr, "pgw-xlatcmp: %s: %s\n", what, msg);
	exit(2);
}

/* va[0..n-1] as one batch through c (pgw_translate_many), each answer
 * held to the walk from the root: how many differ (the first five, with
 * *shown, printed). */
static unsigned long long batch(const struct pgw_space *sp,
				struct pgw_xlat_cache *c, const uint64_t *va,
				size_t n, unsigned long long *shown)
{
	static struct pgw_answer a[BATCH];
	unsigned long long bad = 0;
	struct pgw_xlat want;

	memset(a, 0x5a, sizeof(a));
	pgw_translate_many(sp, c, va, n, a);
	for (size_t i = 0; i < n; i++) {
		pgw_translate(sp, NULL, va[i], &want);
		if (xe_same_answer(&want, &a[i]))
			continue;
		bad++;
		if ((*shown)++ < 5)
			printf("va 0x%" PRIx64 ": walked %s pa 0x%" PRIx64
			       "; the batch's answer %s pa 0x%" PRIx64 "\n",
			       va[i], pgw_stop_key(want.stop), want.pa,
			       pgw_stop_key(a[i].stop), a[i].pa);
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct pgw_image_open_opts io = { 0 };
	struct pgw_space_request req = { 0 };
	unsigned evict = 0;
	int opt;

	while ((opt = getopt(argc, argv, "f:c:r:m:e:")) != -1) {
		switch (opt) {
		case 'f': io.format = optarg; break;
		case 'c':
			req.root.have_cpu = true;
			req.root.cpu = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'r':
			req.root.have_cr3 = true;
			req.root.cr3 = strtoull(optarg, NULL, 0);
			break;
		case 'm': req.mode = optarg; break;
		case 'e': evict = (unsigned)strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (argc - optind != 1)
		goto usage;

	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_space sp;
	struct pgw_space_why why;
	if (pgw_image_open(&img, argv[optind], &io, &err) != PGW_OK)
		die(argv[optind], err.msg);
	if (pgw_space_open(img, &req, &sp, &why, &err) != PGW_OK)
		die("space", err.msg);
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	if (!c)
		die("cache", "out of memory");
	struct pgw_evidence ev;
	pgw_image_evidence(img, &ev);
	uint64_t frames = ev.pages_ram ? ev.pages_ram : 1;

	/* Heap, not stack: three answers of ~1 KiB each per address. */
	struct pgw_xlat *want = malloc(sizeof(*want)),
			*got = malloc(sizeof(*got)),
			*last = malloc(sizeof(*last));
	static uint8_t page[PGW_PAGE_SIZE];
	if (!want || !got || !last)
		die("answers", "out of memory");
	unsigned long long n = 0, bad = 0, bad_cached = 0, bad_last = 0,
			   bad_brief = 0, bad_many = 0, briefs = 0,
			   early_briefs = 0, reads = 0;
	/* The batch, asked again through a cache of its own. */
	struct pgw_xlat_cache *many_cache = pgw_xlat_cache_new();
	static uint64_t vas[BATCH];
	if (!many_cache)
		die("cache", "out of memory");
	char line[128];
	while (fgets(line, sizeof(line), stdin)) {
		char *end;
		uint64_t va = strtoull(line, &end, 0);
		if (end == line || (*end != '\n' && *end != '\0'))
			die("stdin", "a line that is not an address");
		bool same, same_last, same_brief;
		/* Briefly as a batch asks (after the pages read since the
		 * address before), then after the walks. */
		struct pgw_answer early, b;
		bool asked_early = xe_brief_ask(&sp, c, va, &early);
		xe_three_ways(&sp, c, va, n & 1, want, got, last, &same,
			      &same_last);
		briefs += xe_brief(&sp, c, va, want, &b, &same_brief);
		early_briefs += asked_early;
		if (asked_early && !xe_same_brief(want, &early))
			same_brief = false;
		bad_cached += !same;
		bad_last += !same_last;
		bad_brief += !same_brief;
		if ((!same || !same_last || !same_brief) && bad++ < 5)
			printf("va 0x%" PRIx64 ": walked %s pa 0x%" PRIx64
			       "; cached %s pa 0x%" PRIx64 "%s; last %s pa 0x%"
			       PRIx64 "%s%s\n", va, pgw_stop_key(want->stop),
			       want->pa, pgw_stop_key(got->stop), got->pa,
			       same ? "" : " (differs)",
			       pgw_stop_key(last->stop), last->pa,
			       same_last ? "" : " (differs)",
			       same_brief ? "" : "; the brief answer differs");
		for (unsigned i = 0; i < evict; i++) {
			/* random() unseeded: the same frames every run. */
			uint64_t pfn = (uint64_t)random() % frames;
			struct pgw_err e2 = { 0 };
			if (pgw_image_read_page(img, pfn, page, &e2) == PGW_OK)
				reads++;
		}
		vas[n % BATCH] = va;
		n++;
		if (n % BATCH == 0)
			bad_many += batch(&sp, many_cache, vas, BATCH, &bad);
	}
	if (ferror(stdin))
		die("stdin", "read error");
	bad_many += batch(&sp, many_cache, vas, n % BATCH, &bad);
	printf("%llu addresses: %llu answers differ (every step %llu, the "
	       "last alone %llu, brief %llu, batch %llu); %llu answered "
	       "briefly, %llu before their walk; %llu pages read between them "
	       "(%s, %s, root 0x%" PRIx64 ")\n", n, bad, bad_cached, bad_last,
	       bad_brief, bad_many, briefs, early_briefs, reads,
	       pgw_image_format(img), sp.mode->name, sp.root);
	pgw_xlat_cache_free(many_cache);
	free(want);
	free(got);
	free(last);
	pgw_xlat_cache_free(c);
	pgw_image_close(img);
	if (fflush(stdout))
		return 2;
	return n == 0 ? 2 : bad ? 1 : 0;
usage:
	fputs("usage: pgw-xlatcmp [-f FORMAT] [-c CPU | -r CR3] [-m MODE] "
	      "[-e N] IMAGE < addresses\n", stderr);
	return 2;
}
