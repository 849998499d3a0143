/*
 * mkhostile DIR: write the hostile page-table images (imgwrite.h's
 * iw_hostiles: cycles, shared tables, a ring through four levels, entries
 * past memory) into DIR as raw files, root table at 0x1000, and
 * DIR/MANIFEST with "NAME <TAB> MODE <TAB> EXPECTATION" lines.  Used by
 * tests/cli/hostile.t; tests/unit/hostile_walk.c walks the same tables.
 */
#include <errno.h>
#include <sys/stat.h>

#include "imgwrite.h"

int main(int argc, char **argv)
{
	char path[4096];
	FILE *mf;

	if (argc != 2) {
		fprintf(stderr, "usage: mkhostile DIR\n");
		return 2;
	}
	if (mkdir(argv[1], 0755) != 0 && errno != EEXIST) {
		perror(argv[1]);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/MANIFEST", argv[1]);
	mf = fopen(path, "w");
	if (!mf) {
		perror(path);
		return 2;
	}
	for (size_t i = 0; i < sizeof(iw_hostiles) / sizeof(iw_hostiles[0]);
	     i++) {
		const struct iw_hostile *h = &iw_hostiles[i];
		struct iw_mem m = { 0 };
		h->build(&m);
		snprintf(path, sizeof(path), "%s/%s.raw", argv[1], h->name);
		if (iw_write_file(path, m.b.p, m.b.len) != 0)
			return 2;
		fprintf(mf, "%s.raw\t%s\t%s\n", h->name, h->mode, h->what);
		iw_free(&m.b);
	}
	return fclose(mf) == 0 ? 0 : 2;
}
