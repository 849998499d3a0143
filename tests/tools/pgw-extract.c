/*
 * pgw-extract: cut a small test sample out of a big ELF dump.  Keeps every
 * page-table page reachable from each CPU's CR3 and from the kernel root
 * (found with the library's range walk and its table callback), the code
 * page at each CPU's RIP, and the data pages of chosen virtual addresses,
 * and writes them as a sparse ELF64 core: one PT_LOAD per run of adjacent
 * pages, the original notes (QEMU CPU state, VMCOREINFO, NT_PRSTATUS)
 * copied verbatim, the original ELF machine.  Everything else is left out, so translations still work
 * while most frames are "not in image".  Output is deterministic.
 *
 * Usage: pgw-extract [-m MODE] [-a VAFILE] IMAGE OUT
 *   -m MODE    paging mode (default: detected as pgwalk detects it)
 *   -a VAFILE  also keep the data page of each virtual address in VAFILE
 *              (hex, one per line; '#' comments), through every root
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgwalk.h"

_Noreturn static void die(const char *what, const char *msg)
{
	fprintf(stderr, "pgw-extract: %s: %s\n", what, msg);
	exit(2);
}

/* ---- a set of page frame numbers ---- */

struct pfns {
	uint64_t *v;
	size_t n, cap;
};

static void pfn_add(struct pfns *s, uint64_t pfn)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("memory", "out of memory");
	}
	s->v[s->n++] = pfn;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void pfn_sort_unique(struct pfns *s)
{
	size_t k = 0;

	qsort(s->v, s->n, sizeof(*s->v), cmp_u64);
	for (size_t i = 0; i < s->n; i++)
		if (k == 0 || s->v[i] != s->v[k - 1])
			s->v[k++] = s->v[i];
	s->n = k;
}

/* ---- collecting pages ---- */

static int on_table(void *arg, enum pgw_level lvl, uint64_t table_pa,
		    uint64_t va)
{
	(void)lvl;
	(void)va;
	pfn_add(arg, table_pa >> PGW_PAGE_SHIFT);
	return 0;
}

static void walk_root(const struct pgw_space *sp, struct pfns *set)
{
	struct pgw_walk_ops ops = { .table = on_table };
	struct pgw_walk_opts opts = { 0 };
	struct pgw_err err = { 0 };

	if (pgw_walk_range(sp, &opts, &ops, set, NULL, NULL, &err) != PGW_OK)
		die("range walk", err.msg);
}

static void data_pages(const struct pgw_space *sp, const char *file,
		       struct pfns *set)
{
	FILE *f = fopen(file, "r");
	char line[256];

	if (!f)
		die(file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *end;
		struct pgw_xlat x;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		uint64_t va = strtoull(line, &end, 16);
		if (end == line)
			die(file, "not an address");
		if (pgw_translate(sp, NULL, va, &x) == PGW_STOP_OK &&
		    x.data_in_image)
			pfn_add(set, x.pa >> PGW_PAGE_SHIFT);
	}
	fclose(f);
}

/* ---- the notes of the original, verbatim ---- */

struct blob {
	uint8_t *p;
	size_t len;
};

static struct blob original_notes(const char *path)
{
	struct blob b = { 0 };
	int fd = open(path, O_RDONLY);
	Elf *e;
	size_t n;

	if (fd < 0)
		die(path, strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &n) != 0)
		die(path, elf_errmsg(-1));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		b.p = realloc(b.p, b.len + ph.p_filesz);
		if (!b.p)
			die("memory", "out of memory");
		if (pread(fd, b.p + b.len, ph.p_filesz, (off_t)ph.p_offset) !=
		    (ssize_t)ph.p_filesz)
			die(path, "short read of the notes");
		b.len += ph.p_filesz;
	}
	elf_end(e);
	close(fd);
	return b;
}

/* ---- writing ---- */

static void xpwrite(int fd, const void *p, size_t len, uint64_t off)
{
	if (pwrite(fd, p, len, (off_t)off) != (ssize_t)len)
		die("write", strerror(errno));
}

static void write_elf(const char *out, struct pgw_image *img,
		      const struct pfns *set, const struct blob *notes)
{
	/* Runs of adjacent frames become one PT_LOAD each. */
	size_t nruns = 0;
	for (size_t i = 0; i < set->n; i++)
		nruns += i == 0 || set->v[i] != set->v[i - 1] + 1;
	size_t phnum = 1 + nruns;
	uint64_t off = 64 + phnum * 56 + notes->len;
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(out, strerror(errno));

	Elf64_Ehdr eh = { 0 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_CORE;
	eh.e_machine = (Elf64_Half)pgw_image_machine(img);
	eh.e_version = EV_CURRENT;
	eh.e_phoff = 64;
	eh.e_ehsize = 64;
	eh.e_phentsize = 56;
	eh.e_phnum = (Elf64_Half)phnum;
	xpwrite(fd, &eh, sizeof(eh), 0);

	Elf64_Phdr nph = { .p_type = PT_NOTE, .p_offset = 64 + phnum * 56,
			   .p_filesz = notes->len, .p_memsz = notes->len };
	xpwrite(fd, &nph, sizeof(nph), 64);
	xpwrite(fd, notes->p, notes->len, nph.p_offset);

	off = (off + PGW_PAGE_SIZE - 1) & ~(PGW_PAGE_SIZE - 1);
	size_t ph = 1;
	for (size_t i = 0; i < set->n;) {
		size_t j = i + 1;
		while (j < set->n && set->v[j] == set->v[j - 1] + 1)
			j++;
		Elf64_Phdr lph = {
			.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X,
			.p_offset = off,
			.p_paddr = set->v[i] << PGW_PAGE_SHIFT,
			.p_filesz = (j - i) * PGW_PAGE_SIZE,
			.p_memsz = (j - i) * PGW_PAGE_SIZE,
		};
		xpwrite(fd, &lph, sizeof(lph), 64 + ph++ * 56);
		for (size_t k = i; k < j; k++) {
			uint8_t page[PGW_PAGE_SIZE];
			struct pgw_err err = { 0 };
			if (pgw_image_read_page(img, set->v[k], page, &err))
				die("page", err.msg);
			xpwrite(fd, page, PGW_PAGE_SIZE, off);
			off += PGW_PAGE_SIZE;
		}
		i = j;
	}
	if (close(fd) != 0)
		die(out, strerror(errno));
}

int main(int argc, char **argv)
{
	const char *mode_name = NULL, *vafile = NULL;
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	struct pgw_mode_choice mc;
	struct pfns set = { 0 };
	int opt;

	while ((opt = getopt(argc, argv, "m:a:")) != -1) {
		if (opt == 'm')
			mode_name = optarg;
		else if (opt == 'a')
			vafile = optarg;
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	const char *in = argv[optind], *out = argv[optind + 1];
	if (pgw_image_open(&img, in, NULL, &err) != PGW_OK)
		die(in, err.msg);
	if (mode_name) {
		mc.mode = pgw_mode_by_name(mode_name);
		if (!mc.mode)
			die(mode_name, "unknown mode");
	} else if (pgw_detect_mode(img, 0, false, NULL, &mc, &err) != PGW_OK) {
		die(in, err.msg);
	}

	/* The kernel root, then every CPU's. */
	const struct pgw_cpu *cpus;
	size_t ncpus = pgw_image_cpus(img, &cpus);
	struct pgw_root_request req = { 0 };
	struct pgw_root root;
	for (int c = -1; c < (int)ncpus; c++) {
		req.have_cpu = c >= 0;
		req.cpu = (unsigned)c;
		if (pgw_root_resolve(img, mc.mode, &req, &root, &err) != PGW_OK)
			die("root", err.msg);
		struct pgw_space sp = { img, mc.mode, root.table };
		walk_root(&sp, &set);
		if (vafile)
			data_pages(&sp, vafile, &set);
		/* The code page each CPU was running, through its own root. */
		struct pgw_xlat x;
		if (c >= 0 && cpus[c].has_rip &&
		    pgw_translate(&sp, NULL, cpus[c].rip, &x) == PGW_STOP_OK &&
		    x.data_in_image)
			pfn_add(&set, x.pa >> PGW_PAGE_SHIFT);
	}
	pfn_sort_unique(&set);

	struct blob notes = original_notes(in);
	write_elf(out, img, &set, &notes);
	fprintf(stderr, "pgw-extract: %s: %zu pages (%s), %zu bytes of notes\n",
		out, set.n, mc.mode->name, notes.len);
	free(notes.p);
	free(set.v);
	pgw_image_close(img);
	return 0;
usage:
	fprintf(stderr, "usage: pgw-extract [-m MODE] [-a VAFILE] IMAGE OUT\n");
	return 2;
}
