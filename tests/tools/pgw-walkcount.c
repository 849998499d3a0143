/*
 * pgw-walkcount IMAGE CPU|0xCR3: walk CPU's (or that CR3's) whole address
 * space through the library and print what was found and how long it took:
 *   leaves=N holes=N tables=N entries=N mapped=BYTES seconds=S
 * For benchmarks (bench/kdump.sh) and for comparing formats: the same
 * guest state must give the same counts in every format.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgwalk.h"

struct count {
	uint64_t leaves, holes, mapped;
};

static int leaf(void *arg, const struct pgw_leaf *l)
{
	struct count *c = arg;
	c->leaves++;
	c->mapped += l->size;
	return 0;
}

static int hole(void *arg, const struct pgw_hole *h)
{
	struct count *c = arg;
	(void)h;
	c->holes++;
	return 0;
}

int main(int argc, char **argv)
{
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_space_request req = { 0 };
	struct pgw_space sp;
	struct pgw_space_why why;

	if (argc != 3) {
		fprintf(stderr, "usage: pgw-walkcount IMAGE CPU|0xCR3\n");
		return 64;
	}
	if (strncmp(argv[2], "0x", 2) == 0) {
		req.root.have_cr3 = true;
		req.root.cr3 = strtoull(argv[2], NULL, 16);
	} else {
		req.root.have_cpu = true;
		req.root.cpu = (unsigned)atoi(argv[2]);
	}
	if (pgw_image_open(&img, argv[1], NULL, &err) != PGW_OK ||
	    pgw_space_open(img, &req, &sp, &why, &err) != PGW_OK) {
		fprintf(stderr, "pgw-walkcount: %s\n", err.msg);
		return 1;
	}
	struct pgw_walk_opts o = { 0 };
	struct pgw_walk_ops ops = { .leaf = leaf, .hole = hole };
	struct pgw_walk_stats st = { 0 };
	struct count c = { 0 };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	enum pgw_status s = pgw_walk_range(&sp, &o, &ops, &c, &st, NULL, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (s != PGW_OK) {
		fprintf(stderr, "pgw-walkcount: %s\n", err.msg);
		return 1;
	}
	printf("leaves=%" PRIu64 " holes=%" PRIu64 " tables=%" PRIu64
	       " entries=%" PRIu64 " mapped=%" PRIu64 " seconds=%.4f\n",
	       c.leaves, c.holes, st.tables, st.entries, c.mapped,
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	pgw_image_close(img);
	return 0;
}
