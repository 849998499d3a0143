/*
 * pgw-randaddr: random virtual addresses for benchmarks, half inside
 * mapped pages and half inside holes, drawn from a range walk of one
 * address space (the library's leaf and hole callbacks).  A leaf or a hole
 * is picked uniformly, then an offset inside it, so 4 KiB pages are drawn
 * as often as 1 GiB ones.  The sequence depends only on the seed.
 *
 * Usage: pgw-randaddr [-n COUNT] [-s SEED] [-c CPU] [-m MODE] IMAGE
 *   -n COUNT  addresses to print (default 1000000)
 *   -s SEED   random seed (default 1)
 *   -c CPU    walk CPU N's address space (default: the kernel root)
 *   -m MODE   paging mode (default: detected)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgwalk.h"

struct span {
	uint64_t va, size;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

static void add(struct spans *s, uint64_t va, uint64_t size)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v) {
			fputs("pgw-randaddr: out of memory\n", stderr);
			exit(2);
		}
	}
	s->v[s->n].va = va;
	s->v[s->n].size = size;
	s->n++;
}

struct collect {
	struct spans leaves, holes;
};

static int on_leaf(void *arg, const struct pgw_leaf *l)
{
	add(&((struct collect *)arg)->leaves, l->va, l->size);
	return 0;
}

static int on_hole(void *arg, const struct pgw_hole *h)
{
	/* end 0 means 2^64; a hole's size then wraps to 2^64 - va. */
	add(&((struct collect *)arg)->holes, h->va, h->end - h->va);
	return 0;
}

/* xorshift64*: small, fast and good enough to spread addresses. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

_Noreturn static void die(const char *what, const char *msg)
{
	fprintf(stderr, "pgw-randaddr: %s: %s\n", what, msg);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long count = 1000000, seed = 1;
	int cpu = -1, opt;
	const char *mode_name = NULL;

	while ((opt = getopt(argc, argv, "n:s:c:m:")) != -1) {
		switch (opt) {
		case 'n': count = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'c': cpu = atoi(optarg); break;
		case 'm': mode_name = optarg; break;
		default: goto usage;
		}
	}
	if (argc - optind != 1)
		goto usage;

	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_space_request req = {
		.mode = mode_name,
		.root = { .have_cpu = cpu >= 0, .cpu = (unsigned)cpu },
	};
	struct pgw_space sp;
	struct pgw_space_why why;
	if (pgw_image_open(&img, argv[optind], NULL, &err) != PGW_OK)
		die(argv[optind], err.msg);
	if (pgw_space_open(img, &req, &sp, &why, &err) != PGW_OK)
		die("space", err.msg);

	struct collect c = { { 0 }, { 0 } };
	struct pgw_walk_ops ops = { .leaf = on_leaf, .hole = on_hole };
	struct pgw_walk_opts wo = { 0 };
	if (pgw_walk_range(&sp, &wo, &ops, &c, NULL, NULL, &err) != PGW_OK)
		die("walk", err.msg);
	if (!c.leaves.n || !c.holes.n)
		die("walk", "no leaves or no holes");

	uint64_t s = seed ? seed : 1;
	static char buf[1 << 16];
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	for (unsigned long long i = 0; i < count; i++) {
		const struct spans *from = (i & 1) ? &c.holes : &c.leaves;
		const struct span *sp2 = &from->v[rnd(&s) % from->n];
		uint64_t off = sp2->size ? rnd(&s) % sp2->size : rnd(&s);
		printf("0x%llx\n", (unsigned long long)(sp2->va + off));
	}
	fprintf(stderr, "pgw-randaddr: %llu addresses from %zu leaves and "
		"%zu holes (%s, root 0x%llx)\n", count, c.leaves.n,
		c.holes.n, sp.mode->name, (unsigned long long)sp.root);
	free(c.leaves.v);
	free(c.holes.v);
	pgw_image_close(img);
	return fflush(stdout) ? 1 : 0;
usage:
	fputs("usage: pgw-randaddr [-n COUNT] [-s SEED] [-c CPU] [-m MODE] "
	      "IMAGE\n", stderr);
	return 2;
}
