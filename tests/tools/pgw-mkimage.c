/*
 * pgw-mkimage: build synthetic x86 page tables and write the same physical
 * memory as a raw image and/or an ELF core, for tests.
 *
 * Usage: pgw-mkimage [-r RAW] [-e ELF] [-3] [-q] [-P OFF|end] [-x EXPECT]
 *                    [-L LEAVES] [-R ROOT] [SPEC]
 *   -r RAW     write a raw image: byte N is physical N (sparse; gaps zero)
 *   -e ELF     write an ELF core (ELF64; -3 for ELF32)
 *   -3         ELF32 (physical addresses must fit in 32 bits)
 *   -q         QEMU 7.2 layout: a section table at 0x40, program headers
 *              after it at 0xc0, e_ehsize 8
 *   -P OFF     program headers at file offset OFF, or "end" (after all data)
 *   -x EXPECT  write what pgwalk translate --format=tsv must print in its
 *              columns va, pa, page_size and flags for a sample of
 *              addresses: 3 per leaf (first, middle, last byte),
 *              2 per empty entry of every table built (first, last byte);
 *              entries written with `raw`/`entry` are left out
 *   -L LEAVES  write every leaf built, in address order, as
 *              VA<TAB>SIZE<TAB>EFFECTIVE: the permissions through the
 *              whole chain of entries (rw and user ANDed, nx ORed; PAE
 *              PDPTEs hold none), "rw,user,nx" or a part of it, "-" for
 *              none; the same leaves as -x, not the same addresses
 *   -R ROOT    expectations for this root (default: the first root)
 * SPEC (file or stdin), one command a line, '#' comments; numbers are C
 * literals (0x.., decimal) with an optional K, M, G or T suffix
 * (binary, either case):
 *   mode i386|pae|x86-64|la57    first; sets entry size and levels
 *   root PA                      top table here (PAE: 32-byte aligned);
 *                                later maps go to this root
 *   alloc PA                     put new tables from here on (default: the
 *                                page after the first root)
 *   ram START SIZE [filesz=N]    physical memory the image holds (one
 *                                PT_LOAD each; default [0, last page used));
 *                                filesz < SIZE gives p_memsz > p_filesz
 *   map VA PA SIZE [flags]       map with leaves of page=4k|2m|4m|1g
 *                                (default 4k); flags: rw user pwt pcd a d g
 *                                pat nx pkey=N
 *   upper [at=LEVEL] [flags]     flags of the table entries created from
 *                                here on, P implied (rw user pwt pcd a d g
 *                                nx; default rw user a); at=LEVEL: only
 *                                the entries in tables of that level
 *   raw VA LEVEL VALUE           tables down to LEVEL (pgd p4d pud pmd pte)
 *                                for VA, then VALUE in its slot
 *   entry PA VALUE               VALUE (entry-sized) at physical PA
 *   entries PA VALUE [COUNT [STEP]]
 *                                COUNT entries (default 1) from physical
 *                                PA: VALUE, then each STEP (default 0)
 *                                more than the one before, as
 *                                libkdumpfile's test data writes
 *                                "VALUE*COUNT+STEP"
 *   cbit N                       memory encryption: bit N (12..51) set in
 *                                every table entry and leaf built from
 *                                here on and in every CPU's CR3 (AMD's
 *                                C-bit, as __sme_set and __sme_pa put
 *                                it); leaves expect the flag "enc".
 *                                Again: more bits (for hostile images)
 *   pti                          user copy of the current root at root+4K:
 *                                user half copied, NX set on the kernel
 *                                copy's user half; becomes current root
 *   clone-kernel PA [FIRST]      copy the kernel half of the root at PA
 *                                into the current root, as pgd_ctor does
 *                                (from entry FIRST; default: the upper
 *                                half, i386 entry 768, PAE entry 3)
 *   copy SRC DST [COUNT]         copy the page at SRC to COUNT pages from
 *                                DST (default 1), bytes only
 *   memtext PA note|data         the lines up to a line "end", each ended
 *                                by '\n', at PA: as the kernel's
 *                                VMCOREINFO ELF note (header, name, text)
 *                                or as bare text
 *   fill PA BYTE [SIZE]          fill bytes (default one page)
 *   text PA STRING               the rest of the line, NUL-terminated
 *   cpu CR0 CR3 CR4 [long] [user] [version=N] [size=N]
 *                                a QEMU CPU-state note (long: CS.L=1;
 *                                user: CS RPL 3)
 *   prstatus N                   N NT_PRSTATUS notes
 *   vmcoreinfo KEY=VALUE         a line of the VMCOREINFO note
 *   machine N                    ELF e_machine (default 62, or 3 for
 *                                i386/pae)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096u
#define MAXLVL 5
#define MAXENT 1024

static const char *prog = "pgw-mkimage";
static unsigned lineno;

__attribute__((noreturn, format(printf, 1, 2)))
_Noreturn static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	if (lineno)
		fprintf(stderr, "line %u: ", lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- geometry: our own copy, so tests do not trust the library's ---- */

struct level {
	const char *name;
	unsigned shift, bits;
};

struct gmode {
	const char *name;
	unsigned esize, va_bits, nlev, machine;
	bool canonical, nx;
	struct level lv[MAXLVL];
};

static const struct gmode modes[] = {
	{ "i386", 4, 32, 2, 3, false, false,
	  { { "pgd", 22, 10 }, { "pte", 12, 10 } } },
	{ "pae", 8, 32, 3, 3, false, true,
	  { { "pgd", 30, 2 }, { "pmd", 21, 9 }, { "pte", 12, 9 } } },
	{ "x86-64", 8, 48, 4, 62, true, true,
	  { { "pgd", 39, 9 }, { "pud", 30, 9 }, { "pmd", 21, 9 },
	    { "pte", 12, 9 } } },
	{ "la57", 8, 57, 5, 62, true, true,
	  { { "pgd", 48, 9 }, { "p4d", 39, 9 }, { "pud", 30, 9 },
	    { "pmd", 21, 9 }, { "pte", 12, 9 } } },
};

/* ---- physical memory: sparse pages, sorted by pfn ---- */

struct page {
	uint64_t pfn;
	uint8_t *data;
};

static struct page *pages;
static size_t npages, cap_pages;

static size_t page_find(uint64_t pfn, bool *found)
{
	size_t lo = 0, hi = npages;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (pages[mid].pfn < pfn)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < npages && pages[lo].pfn == pfn;
	return lo;
}

static bool page_used(uint64_t pfn)
{
	bool found;
	page_find(pfn, &found);
	return found;
}

static uint8_t *page_get(uint64_t pfn)
{
	bool found;
	size_t i = page_find(pfn, &found);

	if (found)
		return pages[i].data;
	if (npages == cap_pages) {
		cap_pages = cap_pages ? cap_pages * 2 : 64;
		pages = realloc(pages, cap_pages * sizeof(*pages));
		if (!pages)
			die("out of memory");
	}
	memmove(&pages[i + 1], &pages[i], (npages - i) * sizeof(*pages));
	pages[i].pfn = pfn;
	pages[i].data = xcalloc(1, PAGE);
	npages++;
	return pages[i].data;
}

static void phys_write(uint64_t pa, const void *src, size_t len)
{
	const uint8_t *s = src;

	while (len) {
		size_t in = pa % PAGE, n = PAGE - in;
		if (n > len)
			n = len;
		memcpy(page_get(pa / PAGE) + in, s, n);
		pa += n;
		s += n;
		len -= n;
	}
}

static uint64_t phys_read_entry(uint64_t pa, unsigned esize)
{
	uint64_t v = 0;
	memcpy(&v, page_get(pa / PAGE) + pa % PAGE, esize);
	return v;
}

/* ---- tables the generator built, with what each slot holds ---- */

enum slot { S_EMPTY, S_TABLE, S_LEAF, S_RAW };

struct table {
	uint64_t pa;
	unsigned lvl;            /* index into gmode.lv */
	uint8_t kind[MAXENT];
	int child[MAXENT];       /* table index for S_TABLE */
	uint64_t leaf_pa[MAXENT];
	uint32_t leaf_flags[MAXENT];
	uint32_t table_flags[MAXENT];   /* flags of S_TABLE entries */
};

static struct table **tables;
static size_t ntables;

static const struct gmode *mode;
static int cur_root = -1, first_root = -1;
static uint64_t alloc_next;
static bool alloc_set;

static int table_new(uint64_t pa, unsigned lvl)
{
	struct table *t = xcalloc(1, sizeof(*t));

	t->pa = pa;
	t->lvl = lvl;
	tables = realloc(tables, (ntables + 1) * sizeof(*tables));
	if (!tables)
		die("out of memory");
	tables[ntables] = t;
	page_get(pa / PAGE);
	return (int)ntables++;
}

static uint64_t alloc_page(void)
{
	while (page_used(alloc_next / PAGE))
		alloc_next += PAGE;
	uint64_t pa = alloc_next;
	alloc_next += PAGE;
	return pa;
}

/* Entry flag names in the order pgwalk prints them (enum pgw_flag). */
enum {
	F_P = 1 << 0, F_RW = 1 << 1, F_US = 1 << 2, F_PWT = 1 << 3,
	F_PCD = 1 << 4, F_A = 1 << 5, F_D = 1 << 6, F_PS = 1 << 7,
	F_G = 1 << 8, F_PAT = 1 << 9, F_NX = 1 << 10, F_ENC = 1 << 11,
};
static const char *const flag_names[] = {
	"present", "rw", "user", "pwt", "pcd", "accessed", "dirty", "ps",
	"global", "pat", "nx", "enc",
};

/* `cbit`: the encryption bits every entry built gets. */
static uint64_t cbit_mask;

/* Flags of the table entries walk_to creates (`upper`), per level of the
 * table the entry is in. */
#define UPPER_DEFAULT (F_P | F_RW | F_US | F_A)
static uint32_t upper_flags[MAXLVL] = {
	UPPER_DEFAULT, UPPER_DEFAULT, UPPER_DEFAULT, UPPER_DEFAULT,
	UPPER_DEFAULT,
};

/* PAE PDPTEs hold only P (RW/US/NX are reserved there). */
static bool is_pdpte(unsigned lvl)
{
	return mode->nlev == 3 && lvl == 0;
}

/* The F_ flag a spec word names, or 0. */
static uint32_t flag_by_word(const char *w)
{
	static const struct { const char *n; uint32_t f; } fl[] = {
		{ "rw", F_RW }, { "user", F_US }, { "pwt", F_PWT },
		{ "pcd", F_PCD }, { "a", F_A }, { "d", F_D }, { "g", F_G },
		{ "pat", F_PAT }, { "nx", F_NX },
	};

	for (size_t k = 0; k < sizeof(fl) / sizeof(fl[0]); k++)
		if (strcmp(w, fl[k].n) == 0)
			return fl[k].f;
	return 0;
}

static uint64_t flags_to_bits(uint32_t f, bool large)
{
	static const struct { uint32_t f; unsigned bit; } map[] = {
		{ F_P, 0 }, { F_RW, 1 }, { F_US, 2 }, { F_PWT, 3 },
		{ F_PCD, 4 }, { F_A, 5 }, { F_D, 6 }, { F_G, 8 }, { F_NX, 63 },
	};
	uint64_t v = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (f & map[i].f)
			v |= UINT64_C(1) << map[i].bit;
	if (large)
		v |= UINT64_C(1) << 7;
	if (f & F_PAT)
		v |= UINT64_C(1) << (large ? 12 : 7);
	return v;
}

static unsigned index_of(uint64_t va, unsigned lvl)
{
	const struct level *l = &mode->lv[lvl];
	return (unsigned)((va >> l->shift) & ((UINT64_C(1) << l->bits) - 1));
}

static uint64_t entry_pa(const struct table *t, unsigned idx)
{
	return t->pa + (uint64_t)idx * mode->esize;
}

/* The table at level lvl on the path of va, creating tables on the way. */
static struct table *walk_to(uint64_t va, unsigned lvl)
{
	struct table *t = tables[cur_root];

	for (unsigned l = 0; l < lvl; l++) {
		unsigned i = index_of(va, l);
		if (t->kind[i] == S_LEAF || t->kind[i] == S_RAW)
			die("va 0x%llx: %s entry %u is already a leaf or raw",
			    (unsigned long long)va, mode->lv[l].name, i);
		if (t->kind[i] == S_EMPTY) {
			int c = table_new(alloc_page(), l + 1);
			uint32_t f = is_pdpte(l) ? F_P : upper_flags[l];
			uint64_t e = tables[c]->pa | flags_to_bits(f, false) |
				     cbit_mask;
			phys_write(entry_pa(t, i), &e, mode->esize);
			t->kind[i] = S_TABLE;
			t->child[i] = c;
			t->table_flags[i] = f;
		}
		t = tables[t->child[i]];
	}
	return t;
}

static unsigned level_by_name(const char *name)
{
	for (unsigned l = 0; l < mode->nlev; l++)
		if (strcmp(mode->lv[l].name, name) == 0)
			return l;
	die("mode %s has no level '%s'", mode->name, name);
}

/* ---- spec parsing ---- */

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	if (!s)
		die("missing number");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s || errno)
		die("'%s' is not a number", s);
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	case 'T': case 't': v <<= 40; end++; break;
	}
	if (*end)
		die("'%s' is not a number", s);
	return v;
}

struct ram {
	uint64_t start, size, filesz;
};
static struct ram rams[64];
static size_t nrams;

struct cpu {
	uint64_t cr0, cr3, cr4;
	bool lm, user;
	uint32_t version, size;
};
static struct cpu cpus[64];
static size_t ncpus;
static unsigned nprstatus;
static char *vmcoreinfo;
static size_t vmcoreinfo_len;
static unsigned machine;

static void cmd_map(char **arg, int n)
{
	if (n < 4)
		die("map VA PA SIZE [flags]");
	uint64_t va = num(arg[1]), pa = num(arg[2]), size = num(arg[3]);
	uint64_t psize = 4096;
	uint32_t f = F_P;
	unsigned pkey = 0;

	for (int i = 4; i < n; i++) {
		uint32_t k;
		if (strncmp(arg[i], "page=", 5) == 0) {
			psize = num(arg[i] + 5);
			continue;
		}
		if (strncmp(arg[i], "pkey=", 5) == 0) {
			pkey = (unsigned)num(arg[i] + 5);
			if (pkey > 15 || mode->esize != 8)
				die("pkey is 0..15, 64-bit entries only");
			continue;
		}
		k = flag_by_word(arg[i]);
		if (!k)
			die("unknown flag '%s'", arg[i]);
		f |= k;
	}
	if ((f & F_NX) && !mode->nx)
		die("mode %s has no NX (use raw for that)", mode->name);
	unsigned lvl = mode->nlev;
	for (unsigned l = 0; l < mode->nlev; l++)
		if ((UINT64_C(1) << mode->lv[l].shift) == psize)
			lvl = l;
	if (lvl == mode->nlev)
		die("mode %s has no %llu-byte pages", mode->name,
		    (unsigned long long)psize);
	bool large = lvl != mode->nlev - 1;
	if ((va | pa | size) & (psize - 1))
		die("map: VA, PA and SIZE must be %llu-aligned",
		    (unsigned long long)psize);
	if (large && lvl == 0 && mode->esize == 8)
		die("no leaves in the top table of mode %s", mode->name);
	for (uint64_t off = 0; off < size; off += psize) {
		struct table *t = walk_to(va + off, lvl);
		unsigned i = index_of(va + off, lvl);
		uint64_t p = pa + off;
		uint64_t e = flags_to_bits(f, large) |
			     ((uint64_t)pkey << 59) | cbit_mask;
		if (t->kind[i] != S_EMPTY)
			die("va 0x%llx is already mapped",
			    (unsigned long long)(va + off));
		if (mode->esize == 4 && large) {
			/* PSE-36: PA bits 32..39 go to entry bits 13..20. */
			if (p >> 40)
				die("PSE-36 frames stop at 2^40");
			e |= (p & 0xffc00000u) | ((p >> 32) << 13);
		} else {
			if (mode->esize == 4 && p >> 32)
				die("4 KiB i386 frames stop at 4 GiB");
			e |= p;
		}
		phys_write(entry_pa(t, i), &e, mode->esize);
		t->kind[i] = S_LEAF;
		t->leaf_pa[i] = p;
		t->leaf_flags[i] = f | (large ? F_PS : 0) |
				   (cbit_mask ? F_ENC : 0);
	}
}

static void cmd_upper(char **arg, int n)
{
	uint32_t f = F_P, k;
	int first = 1;
	unsigned lo = 0, hi = MAXLVL;

	if (n > 1 && strncmp(arg[1], "at=", 3) == 0) {
		lo = level_by_name(arg[1] + 3);
		hi = lo + 1;
		if (is_pdpte(lo))
			die("upper: PAE PDPTEs hold no flags but P");
		first = 2;
	}
	for (int i = first; i < n; i++) {
		k = flag_by_word(arg[i]);
		/* PAT is bit 7 of a 4 KiB leaf: PS in a table entry. */
		if (!k || k == F_PAT)
			die("upper: unknown flag '%s'", arg[i]);
		f |= k;
	}
	if ((f & F_NX) && !mode->nx)
		die("mode %s has no NX", mode->name);
	for (unsigned l = lo; l < hi; l++)
		upper_flags[l] = f;
}

static void mark_raw(uint64_t pa)
{
	for (size_t k = 0; k < ntables; k++) {
		struct table *t = tables[k];
		unsigned n = 1u << mode->lv[t->lvl].bits;
		if (pa >= t->pa && pa < t->pa + (uint64_t)n * mode->esize)
			t->kind[(pa - t->pa) / mode->esize] = S_RAW;
	}
}

static void cmd_pti(void)
{
	struct table *k = tables[cur_root];
	unsigned n = 1u << mode->lv[0].bits;
	uint64_t upa = k->pa + PAGE;

	if (k->pa & (2 * PAGE - 1))
		die("pti: the kernel root must be 8 KiB aligned");
	if (page_used(upa / PAGE))
		die("pti: page 0x%llx is in use", (unsigned long long)upa);
	int u = table_new(upa, 0);
	for (unsigned i = 0; i < n / 2; i++) {
		uint64_t e = phys_read_entry(entry_pa(k, i), mode->esize);
		phys_write(entry_pa(tables[u], i), &e, mode->esize);
		tables[u]->kind[i] = k->kind[i];
		tables[u]->child[i] = k->child[i];
		tables[u]->leaf_pa[i] = k->leaf_pa[i];
		tables[u]->leaf_flags[i] = k->leaf_flags[i];
		tables[u]->table_flags[i] = k->table_flags[i];
		/* Linux sets NX on the kernel copy's user half (not on PAE
		 * PDPTEs, where NX is reserved, nor without NX). */
		if ((e & 1) && mode->nx && !is_pdpte(0)) {
			e |= UINT64_C(1) << 63;
			phys_write(entry_pa(k, i), &e, mode->esize);
			k->table_flags[i] |= F_NX;
		}
	}
	cur_root = u;
}

static unsigned kernel_first(void)
{
	unsigned n = 1u << mode->lv[0].bits;

	if (mode->nlev == 2)
		return 768;            /* PAGE_OFFSET 0xc0000000 */
	if (mode->nlev == 3)
		return 3;
	return n / 2;
}

static void cmd_clone_kernel(char **arg, int n)
{
	if (n < 2 || n > 3)
		die("clone-kernel PA [FIRST]");
	uint64_t pa = num(arg[1]);
	unsigned first = n == 3 ? (unsigned)num(arg[2]) : kernel_first();
	unsigned nent = 1u << mode->lv[0].bits;
	struct table *src = NULL, *dst = tables[cur_root];

	for (size_t k = 0; k < ntables && !src; k++)
		if (tables[k]->pa == pa && tables[k]->lvl == 0)
			src = tables[k];
	if (!src)
		die("clone-kernel: no root at 0x%llx", (unsigned long long)pa);
	if (first >= nent)
		die("clone-kernel: entry %u beyond %u", first, nent);
	for (unsigned i = first; i < nent; i++) {
		uint64_t e = phys_read_entry(entry_pa(src, i), mode->esize);
		phys_write(entry_pa(dst, i), &e, mode->esize);
		dst->kind[i] = src->kind[i];
		dst->child[i] = src->child[i];
		dst->leaf_pa[i] = src->leaf_pa[i];
		dst->leaf_flags[i] = src->leaf_flags[i];
	}
}

static void cmd_copy(char **arg, int n)
{
	if (n < 3 || n > 4)
		die("copy SRC DST [COUNT]");
	uint64_t src = num(arg[1]), dst = num(arg[2]);
	uint64_t count = n == 4 ? num(arg[3]) : 1;
	if ((src | dst) % PAGE)
		die("copy: SRC and DST must be page aligned");
	const uint8_t *from = page_get(src / PAGE);
	for (uint64_t i = 0; i < count; i++)
		memcpy(page_get(dst / PAGE + i), from, PAGE);
}

/* memtext: lines gathered until "end", then written. */
static struct {
	bool on, note;
	uint64_t pa;
	char *text;
	size_t len;
} memtext;

static void memtext_line(const char *line)
{
	size_t n = strcspn(line, "\r\n");

	if (n == 3 && strncmp(line, "end", 3) == 0) {
		uint32_t h[3] = { 11, (uint32_t)memtext.len, 0 };
		char name[12] = "VMCOREINFO";
		uint64_t pa = memtext.pa;
		if (memtext.note) {
			phys_write(pa, h, sizeof(h));
			phys_write(pa + 12, name, sizeof(name));
			pa += 24;
		}
		if (memtext.len)
			phys_write(pa, memtext.text, memtext.len);
		free(memtext.text);
		memset(&memtext, 0, sizeof(memtext));
		return;
	}
	memtext.text = realloc(memtext.text, memtext.len + n + 1);
	if (!memtext.text)
		die("out of memory");
	memcpy(memtext.text + memtext.len, line, n);
	memtext.len += n;
	memtext.text[memtext.len++] = '\n';
}

static void add_vmcoreinfo(const char *line)
{
	size_t n = strlen(line);

	vmcoreinfo = realloc(vmcoreinfo, vmcoreinfo_len + n + 2);
	if (!vmcoreinfo)
		die("out of memory");
	memcpy(vmcoreinfo + vmcoreinfo_len, line, n);
	vmcoreinfo_len += n;
	vmcoreinfo[vmcoreinfo_len++] = '\n';
	vmcoreinfo[vmcoreinfo_len] = '\0';
}

static void run_line(char *line)
{
	char *arg[32], *save = NULL;
	int n = 0;

	if (memtext.on) {
		memtext_line(line);
		return;
	}
	/* text PA STRING: the string is the rest of the line, '#' and all. */
	if (strncmp(line, "text", 4) == 0 && (line[4] == ' ' || line[4] == '\t')) {
		char *p = line + 4, *pa;
		p += strspn(p, " \t");
		pa = p;
		p += strcspn(p, " \t\r\n");
		if (*p)
			*p++ = '\0';
		p += strspn(p, " \t");
		p[strcspn(p, "\r\n")] = '\0';
		phys_write(num(pa), p, strlen(p) + 1);
		return;
	}
	line[strcspn(line, "#")] = '\0';
	for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 32;
	     t = strtok_r(NULL, " \t\r\n", &save))
		arg[n++] = t;
	if (n == 0)
		return;
	const char *c = arg[0];
	if (strcmp(c, "mode") == 0) {
		for (size_t i = 0; n == 2 && i < sizeof(modes) / sizeof(modes[0]);
		     i++)
			if (strcmp(modes[i].name, arg[1]) == 0)
				mode = &modes[i];
		if (!mode)
			die("mode i386|pae|x86-64|la57");
		return;
	}
	if (strcmp(c, "ram") == 0) {
		if (n < 3 || nrams == 64)
			die("ram START SIZE [filesz=N]");
		struct ram *r = &rams[nrams++];
		r->start = num(arg[1]);
		r->size = r->filesz = num(arg[2]);
		if (n > 3 && strncmp(arg[3], "filesz=", 7) == 0)
			r->filesz = num(arg[3] + 7);
		if (r->filesz > r->size)
			die("filesz above size");
		return;
	}
	if (strcmp(c, "cpu") == 0) {
		if (n < 4 || ncpus == 64)
			die("cpu CR0 CR3 CR4 [long] [user]");
		struct cpu *p = &cpus[ncpus++];
		p->cr0 = num(arg[1]);
		p->cr3 = num(arg[2]);
		p->cr4 = num(arg[3]);
		p->version = 1;
		for (int i = 4; i < n; i++) {
			if (strcmp(arg[i], "long") == 0)
				p->lm = true;
			else if (strcmp(arg[i], "user") == 0)
				p->user = true;
			else if (strncmp(arg[i], "version=", 8) == 0)
				p->version = (uint32_t)num(arg[i] + 8);
			else if (strncmp(arg[i], "size=", 5) == 0)
				p->size = (uint32_t)num(arg[i] + 5);
			else
				die("cpu: unknown word '%s'", arg[i]);
		}
		return;
	}
	if (strcmp(c, "prstatus") == 0 && n == 2) {
		nprstatus = (unsigned)num(arg[1]);
		return;
	}
	if (strcmp(c, "vmcoreinfo") == 0 && n == 2) {
		add_vmcoreinfo(arg[1]);
		return;
	}
	if (strcmp(c, "machine") == 0 && n == 2) {
		machine = (unsigned)num(arg[1]);
		return;
	}
	if (strcmp(c, "copy") == 0) {
		cmd_copy(arg, n);
		return;
	}
	if (strcmp(c, "memtext") == 0) {
		if (n != 3 || (strcmp(arg[2], "note") && strcmp(arg[2], "data")))
			die("memtext PA note|data");
		memtext.on = true;
		memtext.pa = num(arg[1]);
		memtext.note = strcmp(arg[2], "note") == 0;
		return;
	}
	if (strcmp(c, "fill") == 0 && (n == 3 || n == 4)) {
		uint64_t pa = num(arg[1]), size = n == 4 ? num(arg[3]) : PAGE;
		uint8_t b[PAGE];
		memset(b, (int)num(arg[2]), sizeof(b));
		for (uint64_t off = 0; off < size; off += PAGE)
			phys_write(pa + off, b, size - off < PAGE ?
						     (size_t)(size - off) : PAGE);
		return;
	}
	if (!mode)
		die("'%s' before mode", c);
	if (strcmp(c, "root") == 0 && n == 2) {
		uint64_t pa = num(arg[1]);
		if (pa & (mode->esize == 8 && mode->nlev == 3 ? 31 : PAGE - 1))
			die("root 0x%llx is misaligned", (unsigned long long)pa);
		cur_root = table_new(pa, 0);
		if (first_root < 0)
			first_root = cur_root;
		if (!alloc_set)
			alloc_next = (pa & ~(uint64_t)(PAGE - 1)) + PAGE;
		alloc_set = true;
		return;
	}
	if (strcmp(c, "alloc") == 0 && n == 2) {
		alloc_next = num(arg[1]) & ~(uint64_t)(PAGE - 1);
		alloc_set = true;
		return;
	}
	if (strcmp(c, "upper") == 0) {
		cmd_upper(arg, n);
		return;
	}
	if (strcmp(c, "entry") == 0 && n == 3) {
		uint64_t pa = num(arg[1]), v = num(arg[2]);
		phys_write(pa, &v, mode->esize);
		mark_raw(pa);
		return;
	}
	if (strcmp(c, "entries") == 0 && n >= 3 && n <= 5) {
		uint64_t pa = num(arg[1]), v = num(arg[2]);
		uint64_t count = n > 3 ? num(arg[3]) : 1;
		uint64_t step = n > 4 ? num(arg[4]) : 0;
		if (pa % mode->esize || count > (1u << 20))
			die("entries: PA must be entry-aligned, COUNT at most "
			    "2^20");
		for (uint64_t k = 0; k < count; k++, pa += mode->esize,
			      v += step) {
			phys_write(pa, &v, mode->esize);
			mark_raw(pa);
		}
		return;
	}
	if (strcmp(c, "cbit") == 0 && n == 2) {
		uint64_t b = num(arg[1]);
		if (mode->esize != 8 || b < 12 || b > 51)
			die("cbit N: N in 12..51, 64-bit entries only");
		cbit_mask |= UINT64_C(1) << b;
		return;
	}
	if (cur_root < 0)
		die("'%s' before root", c);
	if (strcmp(c, "map") == 0) {
		cmd_map(arg, n);
	} else if (strcmp(c, "raw") == 0 && n == 4) {
		uint64_t va = num(arg[1]), v = num(arg[3]);
		unsigned lvl = level_by_name(arg[2]);
		struct table *t = walk_to(va, lvl);
		unsigned i = index_of(va, lvl);
		if (t->kind[i] != S_EMPTY)
			die("raw: the slot for va 0x%llx is in use",
			    (unsigned long long)va);
		phys_write(entry_pa(t, i), &v, mode->esize);
		t->kind[i] = S_RAW;
	} else if (strcmp(c, "pti") == 0 && n == 1) {
		cmd_pti();
	} else if (strcmp(c, "clone-kernel") == 0) {
		cmd_clone_kernel(arg, n);
	} else {
		die("unknown or malformed command '%s'", c);
	}
}

/* ---- expectations: the TSV pgwalk must print ---- */

static uint64_t sign_extend(uint64_t va)
{
	if (!mode->canonical)
		return va;
	unsigned s = 64 - mode->va_bits;
	return (uint64_t)((int64_t)(va << s) >> s);
}

static void expect_va(FILE *f, uint64_t va, const struct table *t,
		      unsigned i, uint64_t span)
{
	if (t->kind[i] == S_EMPTY) {
		fprintf(f, "0x%llx\t-\t-\t-\n", (unsigned long long)va);
		return;
	}
	fprintf(f, "0x%llx\t0x%llx\t%llu\t", (unsigned long long)va,
		(unsigned long long)(t->leaf_pa[i] + (va & (span - 1))),
		(unsigned long long)span);
	const char *sep = "";
	for (unsigned b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]);
	     b++)
		if (t->leaf_flags[i] & (1u << b)) {
			fprintf(f, "%s%s", sep, flag_names[b]);
			sep = "|";
		}
	fputc('\n', f);
}

static void expect_table(FILE *f, const struct table *t, uint64_t base)
{
	const struct level *l = &mode->lv[t->lvl];
	uint64_t span = UINT64_C(1) << l->shift;

	for (unsigned i = 0; i < (1u << l->bits); i++) {
		uint64_t va = base + (uint64_t)i * span;
		switch (t->kind[i]) {
		case S_TABLE:
			expect_table(f, tables[t->child[i]], va);
			break;
		case S_EMPTY:
			expect_va(f, sign_extend(va), t, i, span);
			expect_va(f, sign_extend(va + span - 1), t, i, span);
			break;
		case S_LEAF:
			expect_va(f, sign_extend(va), t, i, span);
			expect_va(f, sign_extend(va + span / 2 + 8), t, i,
				  span);
			expect_va(f, sign_extend(va + span - 1), t, i, span);
			break;
		case S_RAW:
			break;
		}
	}
}

/* Effective permissions (F_RW | F_US | F_NX) below an entry with flags f:
 * what the CPU grants through the whole chain. */
static uint32_t eff_through(uint32_t eff, uint32_t f)
{
	return (eff & f & (F_RW | F_US)) | ((eff | f) & F_NX);
}

static void leaves_table(FILE *f, const struct table *t, uint64_t base,
			 uint32_t eff)
{
	const struct level *l = &mode->lv[t->lvl];
	uint64_t span = UINT64_C(1) << l->shift;
	static const struct { uint32_t f; const char *name; } eff_names[] = {
		{ F_RW, "rw" }, { F_US, "user" }, { F_NX, "nx" },
	};

	for (unsigned i = 0; i < (1u << l->bits); i++) {
		uint64_t va = base + (uint64_t)i * span;
		if (t->kind[i] == S_TABLE) {
			leaves_table(f, tables[t->child[i]], va,
				     is_pdpte(t->lvl) ? eff :
				     eff_through(eff, t->table_flags[i]));
		} else if (t->kind[i] == S_LEAF) {
			uint32_t e = eff_through(eff, t->leaf_flags[i]);
			const char *sep = "";
			fprintf(f, "0x%llx\t%llu\t",
				(unsigned long long)sign_extend(va),
				(unsigned long long)span);
			for (size_t k = 0; k < 3; k++)
				if (e & eff_names[k].f) {
					fprintf(f, "%s%s", sep, eff_names[k].name);
					sep = ",";
				}
			fputs(*sep ? "\n" : "-\n", f);
		}
	}
}

/* ---- writing images ---- */

static void xpwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	if (pwrite(fd, buf, len, (off_t)off) != (ssize_t)len)
		die("write: %s", strerror(errno));
}

/* Page data clipped to [lo, hi), written at file offset off(pa). */
static void write_pages(int fd, uint64_t lo, uint64_t hi, uint64_t file_off)
{
	for (size_t i = 0; i < npages; i++) {
		uint64_t pa = pages[i].pfn * PAGE;
		uint64_t a = pa > lo ? pa : lo, b = pa + PAGE < hi ? pa + PAGE : hi;
		if (a < b)
			xpwrite(fd, pages[i].data + (a - pa), (size_t)(b - a),
				file_off + (a - lo));
	}
}

static int create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	return fd;
}

static void write_raw(const char *path)
{
	int fd = create(path);
	uint64_t end = 0;

	for (size_t i = 0; i < nrams; i++)
		if (rams[i].start + rams[i].size > end)
			end = rams[i].start + rams[i].size;
	if (ftruncate(fd, (off_t)end) != 0)
		die("%s: %s", path, strerror(errno));
	for (size_t i = 0; i < nrams; i++)
		write_pages(fd, rams[i].start, rams[i].start + rams[i].size,
			    rams[i].start);
	close(fd);
}

struct buf {
	uint8_t *p;
	size_t len;
};

static void put(struct buf *b, const void *src, size_t n)
{
	b->p = realloc(b->p, b->len + n + 4);
	if (!b->p)
		die("out of memory");
	memcpy(b->p + b->len, src, n);
	b->len += n;
	while (b->len % 4)
		b->p[b->len++] = 0;
}

static void note(struct buf *b, const char *name, uint32_t type,
		 const void *desc, size_t dlen)
{
	uint32_t h[3] = { (uint32_t)strlen(name) + 1, (uint32_t)dlen, type };
	put(b, h, sizeof(h));
	put(b, name, h[0]);
	put(b, desc, dlen);
}

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put_u64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* QEMU's x86 CPU-state note: version, size, 18 registers, 10 segments of
 * 24 bytes (selector, limit, flags, pad, base), cr[5], kernel_gs_base. */
static void qemu_note(struct buf *b, const struct cpu *c)
{
	uint8_t d[8 + 18 * 8 + 10 * 24 + 5 * 8 + 8] = { 0 };
	size_t cs = 8 + 18 * 8, cr = cs + 10 * 24;
	uint32_t flags = c->lm ? 0x00a09b00 : 0x00cf9b00;

	put_u32(d, c->version);
	put_u32(d + 4, c->size ? c->size : (uint32_t)sizeof(d));
	put_u32(d + cs, c->user ? (c->lm ? 0x33 : 0x73) : (c->lm ? 0x10 : 0x60));
	put_u32(d + cs + 8, flags | (c->user ? 0x6000 : 0));
	put_u64(d + cr, c->cr0);
	put_u64(d + cr + 24, c->cr3 | cbit_mask);
	put_u64(d + cr + 32, c->cr4);
	note(b, "QEMU", 0, d, sizeof(d));
}

struct elfopts {
	bool elf32, qemu72, ph_end;
	uint64_t phoff;
};

static void write_elf(const char *path, const struct elfopts *o)
{
	int fd = create(path);
	size_t ehsize = o->elf32 ? 52 : 64, phsize = o->elf32 ? 32 : 56;
	size_t shsize = o->elf32 ? 40 : 64;
	unsigned phnum = 1 + (unsigned)nrams;
	struct buf notes = { 0 };
	uint8_t prstatus[336] = { 0 };
	static const char shstr[] = "\0.shstrtab";

	for (size_t i = 0; i < nprstatus; i++)
		note(&notes, "CORE", 1, prstatus, o->elf32 ? 144 : 336);
	for (size_t i = 0; i < ncpus; i++)
		qemu_note(&notes, &cpus[i]);
	if (vmcoreinfo)
		note(&notes, "VMCOREINFO", 0, vmcoreinfo, vmcoreinfo_len);

	/*
	 * Layout: ehdr, [shdrs], phdrs, notes, [shstrtab], segments (each at
	 * an offset congruent to its address modulo the page size).  -P OFF
	 * moves the program headers to OFF, leaving a gap; -P end puts them
	 * after the last segment.
	 */
	uint64_t off = ehsize, shoff = 0, phoff, noteoff, stroff = 0;
	if (o->qemu72) {
		shoff = 0x40;
		off = shoff + 2 * shsize;
	}
	if (o->phoff && o->phoff < off)
		die("-P 0x%llx overlaps the ELF headers",
		    (unsigned long long)o->phoff);
	phoff = o->phoff ? o->phoff : off;
	if (!o->ph_end)
		off = phoff + phnum * phsize;
	noteoff = off;
	off += notes.len;
	if (o->qemu72) {
		stroff = off;
		off += sizeof(shstr);
	}
	uint64_t segoff[64];
	for (size_t i = 0; i < nrams; i++) {
		off = (off + PAGE - 1) / PAGE * PAGE + rams[i].start % PAGE;
		segoff[i] = off;
		off += rams[i].filesz;
		if (o->elf32 && (rams[i].start + rams[i].size) >> 32)
			die("ELF32 cannot hold physical 0x%llx",
			    (unsigned long long)rams[i].start);
	}
	if (o->ph_end) {
		phoff = (off + 7) / 8 * 8;
		off = phoff + phnum * phsize;
	}
	if (ftruncate(fd, (off_t)off) != 0)
		die("%s: %s", path, strerror(errno));

	uint8_t eh[64] = { 0x7f, 'E', 'L', 'F', o->elf32 ? 1 : 2, 1, 1 };
	uint16_t type = 4, mach = (uint16_t)(machine ? machine : mode ?
					     mode->machine : 62);
	memcpy(eh + 16, &type, 2);
	memcpy(eh + 18, &mach, 2);
	put_u32(eh + 20, 1);
	uint16_t f16[6] = {
		(uint16_t)(o->qemu72 ? 8 : ehsize), (uint16_t)phsize,
		(uint16_t)phnum, (uint16_t)shsize, o->qemu72 ? 2 : 0,
		o->qemu72 ? 1 : 0,
	};
	if (o->elf32) {
		put_u32(eh + 28, (uint32_t)phoff);
		put_u32(eh + 32, (uint32_t)shoff);
		memcpy(eh + 40, f16, sizeof(f16));
	} else {
		put_u64(eh + 32, phoff);
		put_u64(eh + 40, shoff);
		memcpy(eh + 52, f16, sizeof(f16));
	}
	xpwrite(fd, eh, ehsize, 0);

	if (o->qemu72) {
		uint8_t sh[2][64] = { { 0 } };
		put_u32(sh[1], 1);       /* name ".shstrtab" */
		put_u32(sh[1] + 4, 3);   /* SHT_STRTAB */
		if (o->elf32) {
			put_u32(sh[1] + 16, (uint32_t)stroff);
			put_u32(sh[1] + 20, sizeof(shstr));
		} else {
			put_u64(sh[1] + 24, stroff);
			put_u64(sh[1] + 32, sizeof(shstr));
		}
		xpwrite(fd, sh[0], shsize, shoff);
		xpwrite(fd, sh[1], shsize, shoff + shsize);
		xpwrite(fd, shstr, sizeof(shstr), stroff);
	}

	for (unsigned i = 0; i < phnum; i++) {
		uint8_t ph[56] = { 0 };
		uint32_t ptype = i == 0 ? 4 : 1;   /* PT_NOTE, PT_LOAD */
		uint64_t poff = i == 0 ? noteoff : segoff[i - 1];
		uint64_t pa = i == 0 ? 0 : rams[i - 1].start;
		uint64_t fsz = i == 0 ? notes.len : rams[i - 1].filesz;
		uint64_t msz = i == 0 ? notes.len : rams[i - 1].size;
		if (o->elf32) {
			uint32_t v[8] = { ptype, (uint32_t)poff, 0,
					  (uint32_t)pa, (uint32_t)fsz,
					  (uint32_t)msz, i ? 7 : 0, 0 };
			memcpy(ph, v, 32);
		} else {
			put_u32(ph, ptype);
			put_u32(ph + 4, i ? 7 : 0);
			put_u64(ph + 8, poff);
			put_u64(ph + 24, pa);
			put_u64(ph + 32, fsz);
			put_u64(ph + 40, msz);
		}
		xpwrite(fd, ph, phsize, phoff + i * phsize);
	}
	if (notes.len)
		xpwrite(fd, notes.p, notes.len, noteoff);
	for (size_t i = 0; i < nrams; i++)
		write_pages(fd, rams[i].start, rams[i].start + rams[i].filesz,
			    segoff[i]);
	free(notes.p);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *raw = NULL, *elf = NULL, *expect = NULL, *leaves = NULL;
	struct elfopts eo = { 0 };
	uint64_t expect_root = 0;
	bool have_expect_root = false;
	int opt;

	while ((opt = getopt(argc, argv, "r:e:3qP:x:L:R:")) != -1) {
		switch (opt) {
		case 'r': raw = optarg; break;
		case 'e': elf = optarg; break;
		case '3': eo.elf32 = true; break;
		case 'q': eo.qemu72 = true; break;
		case 'P':
			if (strcmp(optarg, "end") == 0)
				eo.ph_end = true;
			else
				eo.phoff = num(optarg);
			break;
		case 'x': expect = optarg; break;
		case 'L': leaves = optarg; break;
		case 'R':
			expect_root = num(optarg);
			have_expect_root = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-r RAW] [-e ELF] [-3] [-q] "
				"[-P OFF|end] [-x EXPECT] [-L LEAVES] [-R ROOT] "
				"[SPEC]\n",
				prog);
			return 2;
		}
	}
	FILE *in = stdin;
	if (optind < argc && !(in = fopen(argv[optind], "r")))
		die("%s: %s", argv[optind], strerror(errno));
	char line[4096];
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		run_line(line);
	}
	if (memtext.on)
		die("memtext without \"end\"");
	lineno = 0;
	if (in != stdin)
		fclose(in);

	if (nrams == 0 && npages) {
		rams[0].start = 0;
		rams[0].size = rams[0].filesz = (pages[npages - 1].pfn + 1) * PAGE;
		nrams = 1;
	}
	if (raw)
		write_raw(raw);
	if (elf)
		write_elf(elf, &eo);
	int r = first_root;
	for (size_t k = 0; have_expect_root && k < ntables; k++)
		if (tables[k]->pa == expect_root && tables[k]->lvl == 0)
			r = (int)k;
	if ((expect || leaves) && r < 0)
		die("no root to expect from");
	if (expect) {
		FILE *f = fopen(expect, "w");
		if (!f)
			die("%s: %s", expect, strerror(errno));
		expect_table(f, tables[r], 0);
		if (fclose(f) != 0)
			die("%s: %s", expect, strerror(errno));
	}
	if (leaves) {
		FILE *f = fopen(leaves, "w");
		if (!f)
			die("%s: %s", leaves, strerror(errno));
		leaves_table(f, tables[r], 0, F_RW | F_US);
		if (fclose(f) != 0)
			die("%s: %s", leaves, strerror(errno));
	}
	return 0;
}
