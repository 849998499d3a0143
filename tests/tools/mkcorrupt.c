/*
 * mkcorrupt DIR: write the corrupt-dump corpus into DIR, generated at test
 * time from valid images (tests/cli/corrupt.t runs it).  DIR/MANIFEST has
 * one line per image:
 *
 *   NAME <TAB> EXIT <TAB> TEXT [<TAB> TRANSLATE_EXIT [<TAB> ARGS]]
 *
 * meaning `pgwalk info DIR/NAME` exits with EXIT (src/cli/exit_codes.h:
 * 2 when the image lacks pages it describes, cut or damaged)
 * and `pgwalk translate [ARGS] DIR/NAME ADDR` with TRANSLATE_EXIT (EXIT
 * when not given).  When an image cannot be opened (EXIT 65, 66, 69) both
 * print one line on stderr naming the file and containing TEXT; when it
 * opens (0, or 3 for no root), info's output contains TEXT.  TEXT may
 * list several strings separated by '|', all expected.  Truncations are
 * made at every boundary of each format's layout (an ELF core's
 * identification, header, program headers, each note, the page data; a
 * kdump's header, bitmaps, descriptors and data), and headers are patched
 * to claim what the file does not hold.  What a cut file still holds is
 * read (TEXT names the fact that says it is cut).
 */
#include <errno.h>
#include <sys/stat.h>

#include "imgwrite.h"

static const char *dir;
static FILE *manifest;

/* An image, what info says (exit, text) and translate's exit and args. */
static void emit_tr(const char *name, int exit_code, const char *text,
		    int tr_exit, const char *tr_args, const void *p,
		    size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (iw_write_file(path, p, len) != 0)
		exit(2);
	fprintf(manifest, "%s\t%d\t%s\t%d\t%s\n", name, exit_code, text,
		tr_exit, tr_args);
}

static void emit(const char *name, int exit_code, const char *text,
		 const void *p, size_t len)
{
	emit_tr(name, exit_code, text, exit_code, "", p, len);
}

/* A copy of the valid image with `len` bytes at `off` replaced. */
static void patched_tr(const char *name, int exit_code, const char *text,
		       int tr_exit, const struct iw_buf *base, size_t off,
		       uint64_t val, unsigned len)
{
	uint8_t *p = malloc(base->len);

	if (!p)
		exit(2);
	memcpy(p, base->p, base->len);
	iw_le(p + off, val, len);
	emit_tr(name, exit_code, text, tr_exit, "", p, base->len);
	free(p);
}

static void patched(const char *name, int exit_code, const char *text,
		    const struct iw_buf *base, size_t off, uint64_t val,
		    unsigned len)
{
	patched_tr(name, exit_code, text, exit_code, base, off, val, len);
}

enum {
	EX_OK = 0, EX_UNMAPPED = 1, EX_PARTIAL = 2, EX_NOROOT = 3, EX_BAD = 65,
	EX_NOINPUT = 66, EX_UNSUPPORTED = 69,
};

#include "corrupt_dumps.h"

/* ELF64 field offsets. */
enum {
	EH_TYPE = 16, EH_PHOFF = 32, EH_SHOFF = 40, EH_PHENTSIZE = 54,
	EH_PHNUM = 56, EH_SHNUM = 60,
	PH_OFFSET = 8, PH_PADDR = 24, PH_FILESZ = 32, PH_MEMSZ = 40,
};

int main(int argc, char **argv)
{
	struct iw_mem m = { 0 };
	struct iw_buf elf = { 0 };
	struct iw_layout lay;
	char path[4096];
	static const char vmci[] = "OSRELEASE=6.1.0-corrupt\n"
				   "SYMBOL(init_top_pgt)=ffffffff82001000\n"
				   "NUMBER(phys_base)=-33554432\n";

	if (argc != 2) {
		fprintf(stderr, "usage: mkcorrupt DIR\n");
		return 2;
	}
	dir = argv[1];
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		perror(dir);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	manifest = fopen(path, "w");
	if (!manifest) {
		perror(path);
		return 2;
	}

	uint64_t root = iw_tables_x86_64(&m, false);
	struct iw_cpu cpu = { 0x80050033, root, 0x3506f0, 0, 0x10, 1u << 21 };
	struct iw_load loads[] = {
		{ 0, 0, 0x4000, 0x4000 },
		{ 0x4000, 0x4000, 0x4000, 0x4000 },
	};
	struct iw_elf e = { .is64 = true, .machine = 62, .cpus = &cpu,
			    .ncpus = 1, .vmcoreinfo = vmci, .loads = loads,
			    .nloads = 2, .page_align_data = true };
	iw_elf_build(&e, &m, &elf, &lay);
	size_t ph_note = lay.phoff, ph_load0 = lay.phoff + lay.phentsize,
	       ph_load1 = lay.phoff + 2 * lay.phentsize;

	/* The valid image itself must open (exit 0, no message). */
	emit("valid.elf", 0, "", elf.p, elf.len);

	/*
	 * Truncated at every boundary of the layout, and inside each part.
	 * Before the program headers end nothing can be read (65); after,
	 * the file opens and keeps what it holds, saying it is cut: no
	 * memory before the data (no root: 3), the first PT_LOAD's tables
	 * after it (translate works).
	 */
	const struct {
		const char *name;
		size_t len;
		int info, tr;
		const char *text;
	} cut[] = {
		{ "cut-magic", 3, EX_BAD, EX_BAD,
		  "not a recognised memory image" },
		{ "cut-ident", 12, EX_BAD, EX_BAD,
		  "not a recognised memory image" },
		{ "cut-header", 40, EX_BAD, EX_BAD, "ELF header" },
		{ "cut-header-end", lay.ehdr_size, EX_BAD, EX_BAD,
		  "program headers" },
		{ "cut-phdrs", lay.phoff + lay.phentsize + 20, EX_BAD, EX_BAD,
		  "program headers" },
		{ "cut-phdrs-end", lay.notes_off, EX_NOROOT, EX_NOROOT,
		  "notes_cut|file truncated: 2 of 2 PT_LOADs" },
		{ "cut-note-header", lay.notes_off + 6, EX_NOROOT, EX_NOROOT,
		  "notes_cut|file truncated" },
		{ "cut-note-desc", lay.note_off[0] + 40, EX_NOROOT, EX_NOROOT,
		  "notes_cut|file truncated" },
		{ "cut-last-note", lay.note_off[lay.nnotes - 1] + 30,
		  EX_NOROOT, EX_NOROOT, "notes_cut|file truncated" },
		{ "cut-notes-end", lay.notes_off + lay.notes_size, EX_NOROOT,
		  EX_NOROOT, "file truncated: 2 of 2 PT_LOADs" },
		{ "cut-first-page", lay.data_off + 100, EX_NOROOT, EX_NOROOT,
		  "file truncated: 2 of 2 PT_LOADs" },
		{ "cut-mid-page", lay.data_off + 0x1000 + 7, EX_NOROOT,
		  EX_NOROOT, "file truncated: 2 of 2 PT_LOADs" },
		{ "cut-second-load", lay.data_off + 0x4000 + 0x2000, EX_PARTIAL,
		  EX_OK, "file truncated: 1 of 2 PT_LOADs" },
		{ "cut-last-byte", elf.len - 1, EX_PARTIAL, EX_OK,
		  "file truncated: 1 of 2 PT_LOADs" },
	};
	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		emit_tr(cut[i].name, cut[i].info, cut[i].text, cut[i].tr, "",
			elf.p, cut[i].len);
	emit("empty", EX_BAD, "empty file", elf.p, 0);

	/* Header claims. */
	patched("phnum-65534", EX_BAD, "65534 program headers", &elf,
		EH_PHNUM, 65534, 2);
	/* PN_XNUM: the real count is in section 0, which is not there. */
	patched("phnum-xnum", EX_BAD, "PN_XNUM", &elf, EH_PHNUM, 0xffff, 2);
	patched("phoff-past-end", EX_BAD, "program headers", &elf, EH_PHOFF,
		UINT64_C(1) << 62, 8);
	/* Section headers are not used by a core dump reader: claims about
	 * them must cost nothing and change nothing (exit 0). */
	patched("shnum-huge", 0, "", &elf, EH_SHNUM, 0xfff0, 2);
	patched("shoff-past-end", 0, "", &elf, EH_SHOFF,
		UINT64_C(0x7fffffffffff0000), 8);
	/* PN_XNUM with a section 0 that claims 2^32-1 program headers. */
	{
		struct iw_buf x = { 0 };
		iw_put(&x, elf.p, elf.len);
		size_t sh = x.len;
		iw_zero(&x, 64);
		iw_le(x.p + sh + 44, 0xffffffff, 4);   /* sh_info */
		iw_le(x.p + EH_SHOFF, sh, 8);
		iw_le(x.p + EH_SHNUM - 2, 64, 2);      /* e_shentsize */
		iw_le(x.p + EH_SHNUM, 1, 2);
		iw_le(x.p + EH_PHNUM, 0xffff, 2);
		emit("phnum-xnum-4g", EX_BAD, "4294967295 program headers",
		     x.p, x.len);
		iw_free(&x);
	}
	patched("phentsize-small", EX_BAD, "program header", &elf,
		EH_PHENTSIZE, 8, 2);
	patched("type-exec", EX_BAD, "not a core file", &elf, EH_TYPE, 2, 2);
	patched("class-3", EX_BAD, "unknown ELF class 3", &elf, 4, 3, 1);
	patched("big-endian", EX_UNSUPPORTED, "big-endian", &elf, 5, 2, 1);

	/* Segments.  Data past the end of the file is a cut file: the
	 * rest reads, and info says how much is missing. */
	patched_tr("load-offset-past-end", EX_PARTIAL,
		   "file truncated: 1 of 2 PT_LOADs|0x10000004000 expected",
		   EX_OK, &elf, ph_load1 + PH_OFFSET, UINT64_C(1) << 40, 8);
	patched("load-offset-huge", EX_BAD, "overflows", &elf,
		ph_load1 + PH_OFFSET, UINT64_MAX - 0x100, 8);
	patched("load-filesz-huge", EX_BAD, "exceeds p_memsz", &elf,
		ph_load0 + PH_FILESZ, UINT64_C(1) << 62, 8);
	/* Two PT_LOADs for the same memory from different bytes: never
	 * "first wins"; where they differ the pages are corrupt (the
	 * tables in frames 2-3 here, so translate fails; frame 1, the
	 * root, is the first PT_LOAD's alone). */
	patched_tr("load-overlap", EX_PARTIAL, "overlapping_segments: 1 stretch",
		   EX_PARTIAL, &elf, ph_load1 + PH_PADDR, 0x2000, 8);
	patched("load-same-pa", EX_NOROOT, "overlapping_segments", &elf,
		ph_load1 + PH_PADDR, 0, 8);
	/* An excluded tail (p_memsz > p_filesz) over the next PT_LOAD: the
	 * next PT_LOAD's bytes win, so its tables read; the rest of the
	 * tail is excluded (info: incomplete). */
	patched_tr("zero-fill-over-next", EX_PARTIAL, "excluded_overlaps", EX_OK,
		   &elf, ph_load0 + PH_MEMSZ, 0x4000 + 0x200000, 8);
	patched("load-wraps", EX_BAD, "wraps", &elf, ph_load1 + PH_PADDR,
		UINT64_MAX - 0x1000, 8);
	patched("load-memsz-wraps", EX_BAD, "wraps", &elf,
		ph_load1 + PH_MEMSZ, UINT64_MAX - 0x2000, 8);

	/* Notes. */
	/* Notes past the end of a file that holds all its memory: a damaged
	 * header, not a cut file. */
	patched("note-offset-past-end", EX_BAD,
		"though every PT_LOAD is in it", &elf, ph_note + PH_OFFSET,
		UINT64_C(1) << 50, 8);
	patched("note-filesz-huge", EX_BAD, "PT_NOTE", &elf,
		ph_note + PH_FILESZ, UINT64_C(1) << 40, 8);
	patched("note-namesz-overflow", EX_BAD, "name size", &elf,
		lay.note_off[0], 0xffffffff, 4);
	patched("note-descsz-overflow", EX_BAD, "descriptor size", &elf,
		lay.note_off[0] + 4, 0xfffffffd, 4);
	patched("note-descsz-past-area", EX_BAD, "descriptor size", &elf,
		lay.note_off[lay.nnotes - 1] + 4, lay.notes_size, 4);
	/* A CPU note lying about its size, or of an unknown version: that
	 * CPU is skipped (`info` says why), the image stays usable. */
	patched("qemu-note-size", 0, "", &elf, lay.note_off[0] + 20 + 4,
		0x7fffffff, 4);
	patched("qemu-note-version", 0, "", &elf, lay.note_off[0] + 20, 9, 4);

	/* A VMCOREINFO of 100000 lines: opens, keeps a bounded number. */
	{
		struct iw_buf text = { 0 }, out = { 0 };
		char line[32];
		for (int i = 0; i < 100000; i++) {
			int n = snprintf(line, sizeof(line), "KEY%d=%d\n", i, i);
			iw_put(&text, line, (size_t)n);
		}
		iw_put(&text, "", 1);
		struct iw_elf big = e;
		big.vmcoreinfo = (const char *)text.p;
		iw_elf_build(&big, &m, &out, NULL);
		emit("vmcoreinfo-100000-lines", 0, "", out.p, out.len);
		iw_free(&text);
		iw_free(&out);
	}

	hostile_elf_notes(&e, &m, &elf, &lay);
	dump_formats();

	/* Not files. */
	snprintf(path, sizeof(path), "%s/a-directory", dir);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		perror(path);
		return 2;
	}
	fprintf(manifest, "a-directory\t%d\tis a directory\n", EX_NOINPUT);
	snprintf(path, sizeof(path), "%s/a-fifo", dir);
	if (mkfifo(path, 0644) != 0 && errno != EEXIST) {
		perror(path);
		return 2;
	}
	fprintf(manifest, "a-fifo\t%d\tnot a regular file\n", EX_NOINPUT);
	fprintf(manifest, "does-not-exist\t%d\tNo such file\n", EX_NOINPUT);

	if (fclose(manifest) != 0)
		return 2;
	iw_free(&elf);
	iw_free(&m.b);
	return 0;
}
