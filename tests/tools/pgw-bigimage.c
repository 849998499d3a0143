/*
 * pgw-bigimage: a server-sized sparse raw image with a real guest's data
 * in it, for `make bench` (bench/bigimage.sh).
 *
 * Usage: pgw-bigimage SRC.raw OUT.raw GIB [STRIDE_GIB]
 *
 * SRC is an x86-64 (4- or 5-level) guest's raw memory, x64-4l-a's mem.raw.
 * OUT is GIB GiB: SRC at 0, as it was, then a copy of SRC at every
 * STRIDE_GIB (default 4) GiB from 4 GiB up to GIB, in which the processes'
 * page tables are relocated into the copy: every present entry of a table
 * a process's user half reaches, and the user-half entries of each
 * process's top table, that point into SRC's memory point to the same
 * offset in the copy.  Their kernel halves stay the kernel's (as every
 * process's does), so each copy adds processes of the one kernel whose
 * user memory lies above 4 GiB, walked, checked and searched like the
 * original's.  The kernel's VMCOREINFO pages are not copied: one kernel,
 * whose two copies of it are where they were.  The rest is holes (truncate), and all-zero pages are not
 * written: the file stays sparse.  The processes are the roots
 * pgw_roots_scan finds in SRC.
 *
 * Prints: copies=N tables=T top_tables=R entries=E data_mib=M.
 * Exit status: 0, 1 on an error (said on stderr), 64 usage.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgwalk.h"

#define PAGE 4096
#define ADDR_MASK UINT64_C(0x000ffffffffff000)

enum table_kind { NOT_TABLE, LOWER, TOP };

struct tables {
	uint8_t *kind;           /* per page of SRC */
	uint64_t npages;
};

static const char *prog = "pgw-bigimage";

static int mark_table(void *arg, enum pgw_level lvl, uint64_t pa,
		      uint64_t va)
{
	struct tables *t = arg;
	uint64_t pfn = pa / PAGE;

	(void)va;
	if (lvl != PGW_PGD && pfn < t->npages && t->kind[pfn] == NOT_TABLE)
		t->kind[pfn] = LOWER;
	return 0;
}

/* Each process's user half: its top tables and the tables below. */
static int find_tables(struct pgw_image *img, struct tables *t)
{
	struct pgw_space_request req = { 0 };
	struct pgw_space sp;
	struct pgw_space_why why;
	struct pgw_roots *rs;
	struct pgw_err err;

	if (pgw_space_open(img, &req, &sp, &why, &err) != PGW_OK ||
	    pgw_roots_scan(img, sp.mode, sp.root, NULL, &rs, &err) != PGW_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	if (sp.mode->entry_size != 8 || sp.mode->va_bits < 48) {
		fprintf(stderr, "%s: %s: only x86-64 guests reach above 4 GiB\n",
			prog, sp.mode->name);
		pgw_roots_free(rs);
		return 1;
	}
	struct pgw_walk_ops ops = { .table = mark_table };
	struct pgw_walk_opts wo = { .start = 0, .end = rs->kernel_start };
	for (size_t i = 0; i < rs->n; i++) {
		const struct pgw_root_found *r = &rs->root[i];
		if (r->kind != PGW_RK_PROCESS || r->table / PAGE >= t->npages)
			continue;
		struct pgw_space ps = { img, sp.mode, r->table, sp.enc };
		struct pgw_walk_stats st;
		int stopped;
		if (pgw_walk_range(&ps, &wo, &ops, t, &st, &stopped, &err) !=
		    PGW_OK)
			fprintf(stderr, "%s: root 0x%" PRIx64 ": %s (its "
				"tables so far are relocated)\n", prog,
				r->table, err.msg);
		t->kind[r->table / PAGE] = TOP;
		if (r->pti_user && r->pti_user / PAGE < t->npages)
			t->kind[r->pti_user / PAGE] = TOP;
	}
	pgw_roots_free(rs);
	return 0;
}

/* Point a table page's entries into the copy at base. */
static uint64_t relocate(uint8_t *page, enum table_kind kind, uint64_t size,
			 uint64_t base)
{
	/* A top table's upper half is the kernel's, as in every process. */
	unsigned n = kind == TOP ? PAGE / 16 : PAGE / 8;
	uint64_t moved = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t e;
		memcpy(&e, page + i * 8, 8);
		if (!(e & 1) || (e & ADDR_MASK) >= size)
			continue;
		e += base;
		memcpy(page + i * 8, &e, 8);
		moved++;
	}
	return moved;
}

/* The kernel's VMCOREINFO pages (its text, its note): a server has one
 * kernel, so the copies leave them out. */
static bool vmcoreinfo_page(const uint8_t *p)
{
	static const char os[] = "OSRELEASE=", name[] = "VMCOREINFO";

	return memcmp(p, os, sizeof(os) - 1) == 0 ||
	       (p[0] == 11 && memcmp(p + 12, name, sizeof(name)) == 0 &&
		memcmp(p + 24, os, sizeof(os) - 1) == 0);
}

static bool all_zero(const uint8_t *p)
{
	static const uint8_t zero[PAGE];

	return memcmp(p, zero, PAGE) == 0;
}

int main(int argc, char **argv)
{
	struct pgw_image *img;
	struct pgw_err err;
	struct stat st;
	struct tables t = { 0 };
	uint8_t page[PAGE];
	uint64_t entries = 0, data = 0, ntables = 0, ntop = 0;
	unsigned copies = 0;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s SRC.raw OUT.raw GIB [STRIDE_GIB]\n",
			prog);
		return 64;
	}
	uint64_t gib = strtoull(argv[3], NULL, 10);
	uint64_t stride = argc == 5 ? strtoull(argv[4], NULL, 10) : 4;
	int src = open(argv[1], O_RDONLY);
	if (src < 0 || fstat(src, &st) || st.st_size % PAGE ||
	    !gib || !stride || (uint64_t)st.st_size > (stride << 30)) {
		fprintf(stderr, "%s: %s: not a raw image of whole pages that "
			"fits the stride, or no size\n", prog, argv[1]);
		return 64;
	}
	uint64_t size = (uint64_t)st.st_size;
	struct pgw_image_open_opts oo = { .format = "raw" };
	if (pgw_image_open(&img, argv[1], &oo, &err) != PGW_OK) {
		fprintf(stderr, "%s: %s\n", prog, err.msg);
		return 1;
	}
	t.npages = size / PAGE;
	t.kind = calloc(t.npages, 1);
	if (!t.kind || find_tables(img, &t))
		return 1;
	pgw_image_close(img);
	for (uint64_t i = 0; i < t.npages; i++) {
		ntables += t.kind[i] == LOWER;
		ntop += t.kind[i] == TOP;
	}
	int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || ftruncate(out, (off_t)(gib << 30))) {
		perror(argv[2]);
		return 1;
	}
	/* The original first, then the copies. */
	for (uint64_t base = 0; base + size <= gib << 30;
	     base = base ? base + (stride << 30) : UINT64_C(4) << 30) {
		for (uint64_t pfn = 0; pfn < t.npages; pfn++) {
			if (pread(src, page, PAGE, (off_t)(pfn * PAGE)) != PAGE) {
				perror(argv[1]);
				return 1;
			}
			if (base && t.kind[pfn])
				entries += relocate(page, t.kind[pfn], size,
						    base);
			if (all_zero(page) || (base && vmcoreinfo_page(page)))
				continue;
			if (pwrite(out, page, PAGE, (off_t)(base + pfn * PAGE)) !=
			    PAGE) {
				perror(argv[2]);
				return 1;
			}
			data += PAGE;
		}
		copies += base != 0;
	}
	if (close(out)) {
		perror(argv[2]);
		return 1;
	}
	printf("copies=%u tables=%" PRIu64 " top_tables=%" PRIu64 " entries=%"
	       PRIu64 " data_mib=%" PRIu64 "\n", copies, ntables, ntop, entries,
	       data >> 20);
	free(t.kind);
	return 0;
}
