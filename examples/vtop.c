/*
 * vtop: translate virtual addresses inside a memory dump with libpgwalk.
 *
 *   cc -o vtop vtop.c $(pkg-config --cflags --libs pgwalk)
 *   ./vtop IMAGE CPU ADDR...
 *
 * Opens IMAGE (any format pgwalk reads), lets the library choose the paging
 * mode, translates the addresses as one batch from CPU's CR3 ("-" for the
 * kernel's own page tables) and prints one line per address:
 *
 *   0xffffffff81000000	0x1000000
 *   0x1234000	-	not present (pmd)
 *
 * Exit status: 0 every address translated, 1 some did not, 2 an error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pgwalk.h>

static int fail(const char *what, const struct pgw_err *err)
{
	fprintf(stderr, "vtop: %s: %s\n", what, err->msg);
	return 2;
}

int main(int argc, char **argv)
{
	struct pgw_err err = { 0 };
	struct pgw_image *img;
	struct pgw_space_request req = { 0 };
	struct pgw_space space;
	struct pgw_space_why why;
	int status = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: vtop IMAGE CPU|- ADDR...\n");
		return 2;
	}
	if (strcmp(argv[2], "-") != 0) {
		req.root.have_cpu = true;
		req.root.cpu = (unsigned)atoi(argv[2]);
	}

	if (pgw_image_open(&img, argv[1], NULL, &err) != PGW_OK)
		return fail(argv[1], &err);
	if (pgw_space_open(img, &req, &space, &why, &err) != PGW_OK) {
		pgw_image_close(img);
		return fail(argv[1], &err);
	}

	/* The addresses as one batch, through a paging-structure cache
	 * (NULL, when there is no memory for one, walks each from the
	 * root: the same answers). */
	size_t n = (size_t)argc - 3;
	uint64_t *va = calloc(n, sizeof(*va));
	struct pgw_answer *a = calloc(n, sizeof(*a));
	struct pgw_xlat_cache *cache = pgw_xlat_cache_new();

	if (!va || !a) {
		fprintf(stderr, "vtop: out of memory\n");
		status = 2;
		n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		const char *arg = argv[i + 3];
		char *end;

		va[i] = strtoull(arg, &end, 16);
		if (*arg == '\0' || *end != '\0') {
			fprintf(stderr, "vtop: %s: not a hex address\n", arg);
			status = 2;
			n = 0;
		}
	}
	pgw_translate_many(&space, cache, va, n, a);
	for (size_t i = 0; i < n; i++) {
		if (a[i].stop == PGW_STOP_OK) {
			printf("0x%" PRIx64 "\t0x%" PRIx64 "\n", va[i], a[i].pa);
		} else {
			printf("0x%" PRIx64 "\t-\t%s (%s)\n", va[i],
			       pgw_stop_text(a[i].stop),
			       space.mode->level[a[i].level].name);
			status = 1;
		}
	}
	pgw_xlat_cache_free(cache);
	free(a);
	free(va);
	pgw_image_close(img);
	return status;
}
