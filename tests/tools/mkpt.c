/*
 * mkpt: build a raw physical memory image holding page tables described by
 * a small text spec, for golden tests and benchmarks.
 *
 *   mkpt SPEC OUT     writes OUT and prints "cr3 0x..." (the root table)
 *
 * Spec lines (# starts a comment; numbers are 0x-hex or decimal, sizes may
 * end in k, m or g):
 *   mode NAME                       i386, pae, x86-64 or la57 (first line)
 *   memory SIZE                     physical image size (default 8m)
 *   tables ADDR                     page tables are allocated upward from
 *                                   here (default: half of memory)
 *   upper FLAG...                   flags of table entries created from now
 *                                   on (default: rw user)
 *   map VA PA SIZE FLAG...          one leaf; SIZE 4k, 2m, 4m or 1g
 *   fill VA COUNT PA SIZE STRIDE FLAG...
 *                                   COUNT leaves of SIZE, PA advancing by
 *                                   STRIDE
 *   entry VA LEVEL RAW              a raw entry at LEVEL (pgd p4d pud pmd
 *                                   pte) on VA's path
 *   swap VA TYPE OFFSET             a swap PTE, encoded as Linux does
 *   protnone VA PFN                 a PROT_NONE PTE keeping frame PFN
 *   cycle VA LEVEL                  the entry at LEVEL points back at the
 *                                   table that holds the level above's
 * Leaf flags: rw user pwt pcd a d g pat nx (P, and PS on large pages, are
 * implied).  Tables on the way are created present with the `upper` flags.
 */
#include "pgwalk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct pgw_mode *mode;
static uint8_t *mem;
static uint64_t mem_size = 8u << 20, next_table, root;
static uint64_t upper_flags = 0x6;  /* rw user */
static unsigned lineno;
static const char *spec_path;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mkpt: %s:%u: ", spec_path, lineno);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	if (!s)
		die("missing number%s", "");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		die("'%s' is not a number", s);
	switch (*end) {
	case 'k': v <<= 10; end++; break;
	case 'm': v <<= 20; end++; break;
	case 'g': v <<= 30; end++; break;
	}
	if (*end)
		die("'%s' is not a number", s);
	return v;
}

static uint64_t leaf_flags(char **w, bool large)
{
	static const struct { const char *name; unsigned bit; } f[] = {
		{ "rw", 1 }, { "user", 2 }, { "pwt", 3 }, { "pcd", 4 },
		{ "a", 5 }, { "d", 6 }, { "g", 8 }, { "nx", 63 },
	};
	uint64_t v = 0;

	for (; *w; w++) {
		size_t i;
		if (strcmp(*w, "pat") == 0) {
			v |= UINT64_C(1) << (large ? 12 : 7);
			continue;
		}
		for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (strcmp(*w, f[i].name) == 0)
				break;
		if (i == sizeof(f) / sizeof(f[0]))
			die("unknown flag '%s'", *w);
		if (f[i].bit == 63 && !(mode->quirks & PGW_Q_NX))
			die("mode has no NX bit%s", "");
		v |= UINT64_C(1) << f[i].bit;
	}
	return v;
}

static enum pgw_level level_by_name(const char *s)
{
	for (int l = 0; l < PGW_NLEVELS; l++)
		if (s && strcmp(mode->level[l].name, s) == 0 &&
		    mode->level[l].bits)
			return (enum pgw_level)l;
	die("no level '%s' in this mode", s ? s : "");
	return PGW_PTE;
}

static uint64_t get(uint64_t pa)
{
	uint64_t v = 0;

	if (pa + mode->entry_size > mem_size)
		die("entry outside memory%s", "");
	memcpy(&v, mem + pa, mode->entry_size);
	return v;
}

static void put(uint64_t pa, uint64_t v)
{
	if (pa + mode->entry_size > mem_size)
		die("entry outside memory%s", "");
	memcpy(mem + pa, &v, mode->entry_size);
}

static uint64_t new_table(void)
{
	uint64_t t = next_table;

	if (t + PGW_PAGE_SIZE > mem_size)
		die("out of memory for page tables (raise `memory`)%s", "");
	next_table += PGW_PAGE_SIZE;
	return t;
}

static unsigned index_of(uint64_t va, enum pgw_level l)
{
	const struct pgw_level_desc *d = &mode->level[l];

	return (unsigned)((va >> d->shift) & ((UINT64_C(1) << d->bits) - 1));
}

/* Physical address of the entry for va at level `at`, creating tables on
 * the way; *parent_ret gets the table holding the level above's entry. */
static uint64_t slot(uint64_t va, enum pgw_level at, uint64_t *parent_ret)
{
	uint64_t table = root, parent = root;

	for (int l = 0; l < PGW_NLEVELS; l++) {
		if (!mode->level[l].bits)
			continue;
		uint64_t e_pa = table + (uint64_t)index_of(va, l) *
						mode->entry_size;
		if (l == (int)at) {
			if (parent_ret)
				*parent_ret = parent;
			return e_pa;
		}
		uint64_t e = get(e_pa);
		if (!(e & 1)) {
			uint64_t t = new_table();
			/* A PAE PDPTE has only P: RW/US there are reserved. */
			uint64_t fl = (mode->quirks & PGW_Q_PDPTE_NOPERM) &&
						      l == PGW_PGD ?
					      1 : (upper_flags | 1);
			e = t | fl;
			put(e_pa, e);
		} else if (e & 0x80 && l != PGW_PGD) {
			die("a large page is in the way%s", "");
		}
		parent = table;
		table = e & UINT64_C(0x000ffffffffff000);
	}
	die("no such level%s", "");
	return 0;
}

static enum pgw_level level_for_size(uint64_t size)
{
	for (int l = PGW_NLEVELS - 1; l >= 0; l--)
		if (mode->level[l].bits &&
		    pgw_level_span(mode, (enum pgw_level)l) == size) {
			if (l != PGW_PTE && !mode->level[l].leaf_ok)
				break;
			return (enum pgw_level)l;
		}
	die("no page size %s in this mode", "of that size");
	return PGW_PTE;
}

static void map(uint64_t va, uint64_t pa, uint64_t size, char **flags)
{
	enum pgw_level l = level_for_size(size);
	bool large = l != PGW_PTE;
	uint64_t e = 1 | leaf_flags(flags, large);

	if ((va | pa) & (size - 1))
		die("address not aligned to the page size%s", "");
	if (large)
		e |= 0x80;
	if (mode->entry_size == 4 && large) {
		/* PSE-36: physical bits 32..39 in entry bits 13..20. */
		e |= (pa & 0xffc00000) | (((pa >> 32) & 0xff) << 13);
	} else {
		e |= pa;
	}
	put(slot(va, l, NULL), e);
}

static void swap_pte(uint64_t va, uint64_t type, uint64_t offset)
{
	uint64_t e;

	if (mode->entry_size == 4) {
		/* pgtable-2level.h: type in bits 1..5, offset from bit 9. */
		e = (type & 0x1f) << 1 | offset << 9;
	} else {
		/* pgtable_64.h: type in the top 5 bits, offset inverted in
		 * bits 9..58. */
		e = type << 59 | ((~offset & ((UINT64_C(1) << 50) - 1)) << 9);
	}
	put(slot(va, PGW_PTE, NULL), e);
}

static void protnone(uint64_t va, uint64_t pfn)
{
	uint64_t frame = pfn << 12, e;

	if (mode->entry_size == 8) {
		/* L1TF: a non-present frame is stored inverted over the
		 * physical mask (46 bits on x86-64, 44 on PAE). */
		unsigned bits = mode->va_bits > 32 ? 46 : 44;
		frame = ~frame & (((UINT64_C(1) << bits) - 1) & ~UINT64_C(0xfff));
	}
	e = frame | 0x100 | 0x20 | 0x4 | 0x2;  /* PROTNONE, A, US, RW */
	put(slot(va, PGW_PTE, NULL), e);
}

int main(int argc, char **argv)
{
	char line[1024];
	FILE *in, *out;

	if (argc != 3) {
		fprintf(stderr, "usage: mkpt SPEC OUT\n");
		return 2;
	}
	spec_path = argv[1];
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), in)) {
		char *w[16];
		int n = 0;
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		for (char *t = strtok(line, " \t\n"); t && n < 15;
		     t = strtok(NULL, " \t\n"))
			w[n++] = t;
		w[n] = NULL;
		if (n == 0)
			continue;
		if (strcmp(w[0], "mode") == 0) {
			if (mode || !(mode = pgw_mode_by_name(w[1] ? w[1] : "")))
				die("bad mode line%s", "");
			continue;
		}
		if (!mode)
			die("the first line must be `mode`%s", "");
		if (strcmp(w[0], "memory") == 0) {
			if (mem)
				die("`memory` must come before entries%s", "");
			mem_size = num(w[1]);
			continue;
		}
		if (strcmp(w[0], "tables") == 0) {
			if (mem)
				die("`tables` must come before entries%s", "");
			next_table = num(w[1]);
			continue;
		}
		if (!mem) {
			if (!next_table)
				next_table = mem_size / 2;
			mem = calloc(1, mem_size);
			if (!mem)
				die("cannot allocate %s", "memory");
			root = new_table();
		}
		if (strcmp(w[0], "upper") == 0) {
			upper_flags = leaf_flags(w + 1, false);
		} else if (strcmp(w[0], "map") == 0 && n >= 4) {
			map(num(w[1]), num(w[2]), num(w[3]), w + 4);
		} else if (strcmp(w[0], "fill") == 0 && n >= 6) {
			uint64_t va = num(w[1]), count = num(w[2]),
				 pa = num(w[3]), size = num(w[4]),
				 stride = num(w[5]);
			for (uint64_t i = 0; i < count; i++)
				map(va + i * size, pa + i * stride, size, w + 6);
		} else if (strcmp(w[0], "entry") == 0 && n == 4) {
			put(slot(num(w[1]), level_by_name(w[2]), NULL),
			    num(w[3]));
		} else if (strcmp(w[0], "swap") == 0 && n == 4) {
			swap_pte(num(w[1]), num(w[2]), num(w[3]));
		} else if (strcmp(w[0], "protnone") == 0 && n == 3) {
			protnone(num(w[1]), num(w[2]));
		} else if (strcmp(w[0], "cycle") == 0 && n == 3) {
			uint64_t parent;
			uint64_t e_pa = slot(num(w[1]), level_by_name(w[2]),
					     &parent);
			put(e_pa, parent | 0x67);
		} else {
			die("cannot read '%s'", w[0]);
		}
	}
	fclose(in);
	if (!mem)
		die("no entries%s", "");
	out = fopen(argv[2], "wb");
	if (!out || fwrite(mem, 1, mem_size, out) != mem_size ||
	    fclose(out) != 0) {
		perror(argv[2]);
		return 2;
	}
	printf("cr3 0x%llx\n", (unsigned long long)root);
	free(mem);
	return 0;
}
