/*
 * mkhostile DIR: write the hostile page-table images (imgwrite.h's
 * iw_hostiles: cycles, shared tables, a ring through four levels, entries
 * past memory) into DIR as raw files, root table at 0x1000, and
 * DIR/MANIFEST with "NAME <TAB> MODE <TAB> EXPECTATION" lines.  Used by
 * tests/cli/hostile.t; tests/unit/hostile_walk.c walks the same tables.
 *
 * The loop-back chain is also written in files that claim far more memory
 * than they hold, which once multiplied the default entry budget (512 per
 * claimed page) into hours of walking: an ELF core with a PT_LOAD of
 * p_filesz 0 and p_memsz 2^62, and a kdump whose RAM bitmap claims 8 Mi
 * pages (all filtered).  The budget must stay the default.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "dumpwriter.h"
#include "imgwrite.h"

static int claims(const char *dir, FILE *mf, const struct iw_mem *m)
{
	char path[4096];
	struct iw_buf elf = { 0 };
	struct iw_load loads[] = {
		{ 0, 0, m->b.len, m->b.len },
		{ UINT64_C(1) << 40, 0, 0, UINT64_C(1) << 62 },
	};
	struct iw_elf e = { .is64 = true, .machine = 62, .loads = loads,
			    .nloads = 2 };

	iw_elf_build(&e, m, &elf, NULL);
	snprintf(path, sizeof(path), "%s/loop-back-claims.elf", dir);
	if (iw_write_file(path, elf.p, elf.len) != 0)
		return 2;
	fprintf(mf, "loop-back-claims.elf\tx86-64\tbudget\n");
	iw_free(&elf);

	/* 8 Mi pages of RAM, all but the chain's filtered out.  The memory
	 * the writer indexes is reserved, never touched past the chain. */
	struct dw_mem d = { .npages = UINT64_C(8) << 20 };
	d.data = mmap(NULL, d.npages * DW_PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	d.kind = calloc(d.npages, 1);
	if (d.data == MAP_FAILED || !d.kind)
		return 2;
	memcpy(d.data, m->b.p, m->b.len);
	for (uint64_t pfn = m->b.len / DW_PAGE; pfn < d.npages; pfn++)
		d.kind[pfn] = DW_FILTERED;
	struct dw_kdump_opts o = { .codec = DW_ZLIB, .layout = 64,
				   .machine = "x86_64", .dump_level = 16 };
	struct dw_buf k;
	dw_write_kdump(&k, &d, &o, NULL);
	snprintf(path, sizeof(path), "%s/loop-back-claims.kdump", dir);
	if (dw_save(&k, path) != 0)
		return 2;
	fprintf(mf, "loop-back-claims.kdump\tx86-64\tbudget\n");
	dw_free(&k);
	munmap(d.data, d.npages * DW_PAGE);
	free(d.kind);
	return 0;
}

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
		if (h->build == iw_h_loop_back && claims(argv[1], mf, &m))
			return 2;
		iw_free(&m.b);
	}
	return fclose(mf) == 0 ? 0 : 2;
}
