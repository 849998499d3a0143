/*
 * walkstats IMAGE [MODE ROOT]: how much work a whole-space walk of IMAGE
 * is: entries, tables, leaves, cycles, holes and the time it took, for
 * every root the image offers (kernel root and each CPU's CR3), plus the
 * entries the direct-map search needs.  The evidence behind
 * PGW_DEFAULT_MAX_ENTRIES (man pgwalk, LIMITS); used by tests/cli/limits.t.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgwalk.h"

static int count_leaf(void *arg, const struct pgw_leaf *leaf)
{
	(void)leaf;
	(*(uint64_t *)arg)++;
	return 0;
}

static int count_hole(void *arg, const struct pgw_hole *hole)
{
	(void)hole;
	(*((uint64_t *)arg + 1))++;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void walk(struct pgw_image *img, const struct pgw_mode *mode,
		 uint64_t root, const char *what, uint64_t budget)
{
	struct pgw_space sp = { img, mode, root };
	struct pgw_walk_ops ops = { count_leaf, count_hole, NULL };
	struct pgw_walk_opts opts = { 0, 0, budget };
	struct pgw_walk_stats st = { 0 };
	struct pgw_err err = { 0 };
	uint64_t counts[2] = { 0, 0 };
	double t0 = now();
	enum pgw_status s = pgw_walk_range(&sp, &opts, &ops, counts, &st, NULL,
					   &err);
	double dt = now() - t0;
	uint64_t base = 0;
	unsigned matches = 0;

	printf("%s mode=%s root=0x%" PRIx64 " status=%s entries=%" PRIu64
	       " tables=%" PRIu64 " leaves=%" PRIu64 " holes=%" PRIu64
	       " cycles=%" PRIu64 " seconds=%.3f entries_per_sec=%.0f\n",
	       what, mode->name, root, pgw_status_name(s), st.entries,
	       st.tables, counts[0], counts[1], st.cycles, dt,
	       dt > 0 ? (double)st.entries / dt : 0.0);
	if (s != PGW_OK)
		printf("  %s\n", err.msg);
	if (pgw_find_direct_map(&sp, &base, &matches))
		printf("  direct map at 0x%" PRIx64 " (%u samples)\n", base,
		       matches);
}

int main(int argc, char **argv)
{
	struct pgw_image_open_opts o = { 0 };
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_mode_choice ch;
	struct pgw_root root;
	const struct pgw_cpu *cpus;
	uint64_t budget = getenv("BUDGET") ? strtoull(getenv("BUDGET"), NULL,
						      0) : 0;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: walkstats IMAGE [MODE ROOT]\n");
		return 2;
	}
	if (argc == 4)
		o.format = "raw";
	if (pgw_image_open(&img, argv[1], &o, &err) != PGW_OK) {
		fprintf(stderr, "walkstats: %s\n", err.msg);
		return 1;
	}
	if (argc == 4) {
		const struct pgw_mode *m = pgw_mode_by_name(argv[2]);
		if (!m) {
			fprintf(stderr, "walkstats: no mode %s\n", argv[2]);
			return 2;
		}
		walk(img, m, strtoull(argv[3], NULL, 0), "given", budget);
		pgw_image_close(img);
		return 0;
	}
	if (pgw_detect_mode(img, 0, false, NULL, &ch, &err) != PGW_OK) {
		fprintf(stderr, "walkstats: %s\n", err.msg);
		return 1;
	}
	struct pgw_root_request req = { 0 };
	if (pgw_root_resolve(img, ch.mode, &req, &root, &err) == PGW_OK)
		walk(img, ch.mode, root.table, "kernel", budget);
	size_t n = pgw_image_cpus(img, &cpus);
	for (size_t i = 0; i < n; i++) {
		char what[32];
		snprintf(what, sizeof(what), "cpu%zu", i);
		walk(img, ch.mode, pgw_cr3_table(ch.mode, cpus[i].cr3, NULL),
		     what, budget);
	}
	pgw_image_close(img);
	return 0;
}
