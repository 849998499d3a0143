/*
 * pgw-xlatswitch: addresses of several CPUs' spaces of one image asked in
 * the order given through ONE paging-structure cache (pgw_translate)
 * and through another asked one address at a time (pgw_translate_many), so
 * that the caches must follow each change of root: slots a walk of one
 * root filled must never answer for another.  Reads lines "cpuN VA" (the
 * first two columns of QEMU's gva2gpa.txt) and prints, per line,
 * "VA<TAB>PA<TAB>PA" (the cached answer, then the batch's; PA "-" where
 * no frame is reached), for the test to hold to QEMU's own answers.
 *
 * Usage: pgw-xlatswitch [-f FORMAT] [-m MODE] [-r CPU=CR3]... IMAGE < lines
 * Without -r a CPU's root is its CR3 from the image's CPU notes; with it
 * (raw images) the given CR3.  Exits 0, or 2 on a usage, input or open
 * error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgwalk.h"

#define MAX_CPUS 8

_Noreturn static void die(const char *what, const char *msg)
{
	fprintf(stderr, "pgw-xlatswitch: %s: %s\n", what, msg);
	exit(2);
}

/* pa in pgwalk's spelling, or "-" where no frame was reached. */
static void put_pa(enum pgw_stop stop, uint64_t pa)
{
	if (stop == PGW_STOP_OK)
		printf("\t0x%" PRIx64, pa);
	else
		fputs("\t-", stdout);
}

int main(int argc, char **argv)
{
	struct pgw_image_open_opts io = { 0 };
	const char *mode = NULL;
	bool have_cr3[MAX_CPUS] = { false };
	uint64_t cr3[MAX_CPUS];
	int opt;

	while ((opt = getopt(argc, argv, "f:m:r:")) != -1) {
		char *end;
		unsigned long cpu;
		switch (opt) {
		case 'f': io.format = optarg; break;
		case 'm': mode = optarg; break;
		case 'r':
			cpu = strtoul(optarg, &end, 0);
			if (*end != '=' || cpu >= MAX_CPUS)
				goto usage;
			cr3[cpu] = strtoull(end + 1, NULL, 0);
			have_cr3[cpu] = true;
			break;
		default: goto usage;
		}
	}
	if (argc - optind != 1)
		goto usage;

	struct pgw_image *img;
	struct pgw_err err = { 0 };
	if (pgw_image_open(&img, argv[optind], &io, &err) != PGW_OK)
		die(argv[optind], err.msg);
	struct pgw_space sp[MAX_CPUS];
	bool opened[MAX_CPUS] = { false };
	struct pgw_xlat_cache *cached = pgw_xlat_cache_new(),
			      *many = pgw_xlat_cache_new();
	struct pgw_xlat *x = malloc(sizeof(*x));
	if (!cached || !many || !x)
		die("cache", "out of memory");

	char line[256];
	while (fgets(line, sizeof(line), stdin)) {
		unsigned cpu;
		uint64_t va;
		if (sscanf(line, "cpu%u %" SCNx64, &cpu, &va) != 2 ||
		    cpu >= MAX_CPUS)
			die("stdin", "a line that is not \"cpuN VA\"");
		if (!opened[cpu]) {
			struct pgw_space_request req = { .mode = mode };
			struct pgw_space_why why;
			if (have_cr3[cpu]) {
				req.root.have_cr3 = true;
				req.root.cr3 = cr3[cpu];
			} else {
				req.root.have_cpu = true;
				req.root.cpu = cpu;
			}
			if (pgw_space_open(img, &req, &sp[cpu], &why, &err) !=
			    PGW_OK)
				die("space", err.msg);
			opened[cpu] = true;
		}
		struct pgw_answer a;
		pgw_translate(&sp[cpu], cached, va, x);
		pgw_translate_many(&sp[cpu], many, &va, 1, &a);
		printf("0x%" PRIx64, va);
		put_pa(x->stop, x->pa);
		put_pa(a.stop, a.pa);
		putchar('\n');
	}
	if (ferror(stdin))
		die("stdin", "read error");
	free(x);
	pgw_xlat_cache_free(many);
	pgw_xlat_cache_free(cached);
	pgw_image_close(img);
	return fflush(stdout) ? 2 : 0;
usage:
	fputs("usage: pgw-xlatswitch [-f FORMAT] [-m MODE] [-r CPU=CR3]... "
	      "IMAGE < lines\n", stderr);
	return 2;
}
