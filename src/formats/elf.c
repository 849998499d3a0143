/*
 * ELF core files (ELF32 and ELF64), as QEMU's dump-guest-memory, the
 * kernel's /proc/vmcore and makedumpfile -E write them.  Physical memory is
 * the PT_LOAD segments by p_paddr.  Program headers are found through
 * e_phoff, never assumed to follow the ELF header: QEMU 7.2 puts a section
 * table first and writes a bogus e_ehsize.
 */
#include "../lib/err.h"
#include "format.h"
#include "../lib/bytes.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

/* Notes bigger than this are not a dump's CPU notes and VMCOREINFO. */
#define MAX_NOTES_SIZE (64u << 20)

struct elf_priv {
	Elf *elf;
	uint8_t *copy;    /* header copy for flattened streams */
};

static bool elf_probe(const uint8_t *head, size_t len)
{
	return len >= EI_NIDENT && memcmp(head, ELFMAG, SELFMAG) == 0;
}

/* The ELF header fields this reader needs, read in one place for both
 * classes (offsets from the ELF specification). */
struct elf_head {
	bool is64;
	size_t ehsize, phsize;      /* what the class defines them to be */
	uint64_t phoff, phentsize, phnum, shoff;
};

static enum pgw_status read_head(const struct pgw_source *src, bool is64,
				 struct elf_head *h, struct pgw_err *err)
{
	uint8_t eh[64];

	*h = (struct elf_head){
		.is64 = is64, .ehsize = is64 ? 64 : 52, .phsize = is64 ? 56 : 32,
	};
	if (src->size < h->ehsize)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "ELF header truncated: the file has %llu of "
				   "its %zu bytes",
				   (unsigned long long)src->size, h->ehsize);
	enum pgw_status st = pgw_source_read(src, 0, eh, h->ehsize, err);
	if (st != PGW_OK)
		return pgw_err_prefix(err, "ELF header");
	h->phoff = is64 ? pgw_le64(eh + 32) : pgw_le32(eh + 28);
	h->shoff = is64 ? pgw_le64(eh + 40) : pgw_le32(eh + 32);
	h->phentsize = pgw_le16(eh + (is64 ? 54 : 42));
	h->phnum = pgw_le16(eh + (is64 ? 56 : 44));
	return PGW_OK;
}

/* Bytes of the stream libelf needs to see: headers and program headers. */
static enum pgw_status header_span(const struct elf_head *h,
				   const struct pgw_source *src,
				   uint64_t *len_ret, struct pgw_err *err)
{
	if (h->phnum == PN_XNUM)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "extended program header count in a "
				   "flattened ELF");
	uint64_t end = h->phoff + h->phentsize * h->phnum;
	/* A flattened file's logical size is whatever its records claim:
	 * the bytes must be there before anything is allocated for them. */
	if (end < h->phoff || end > src->size ||
	    pgw_source_avail(src, 0, (size_t)end) < end)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "program headers (%llu at 0x%llx) are not "
				   "in the file",
				   (unsigned long long)h->phnum,
				   (unsigned long long)h->phoff);
	*len_ret = end > h->ehsize ? end : h->ehsize;
	return PGW_OK;
}

/*
 * The header fields libelf would only call "invalid data", checked first
 * so that a truncated or lying header gets a message that says what is
 * wrong.  Nothing here allocates: counts are checked against the file.
 */
/* (libelf also quietly shortens phnum to the program headers that fit in a
 * truncated file: the header's own count is what must be checked.) */
static enum pgw_status check_header(const struct elf_head *h,
				    const struct pgw_source *src,
				    struct pgw_err *err)
{
	uint64_t phnum = h->phnum;

	if (phnum == 0)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "no program headers: no physical memory");
	if (h->phentsize != h->phsize)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "e_phentsize %llu: ELF%d program headers "
				   "are %zu bytes",
				   (unsigned long long)h->phentsize,
				   h->is64 ? 64 : 32, h->phsize);
	if (phnum == PN_XNUM) {
		/* The real count is in section 0's sh_info: that header must
		 * be in the file (the count is checked after libelf). */
		uint64_t shsize = h->is64 ? 64 : 40;
		if (h->shoff == 0 || h->shoff > src->size ||
		    shsize > src->size - h->shoff)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "e_phnum is PN_XNUM but section "
					   "header 0, which holds the count, "
					   "is not in the file (e_shoff "
					   "0x%llx)",
					   (unsigned long long)h->shoff);
		uint8_t info[4];
		enum pgw_status st = pgw_source_read(
			src, h->shoff + (h->is64 ? 44 : 28), info, 4, err);
		if (st != PGW_OK)
			return pgw_err_prefix(err, "section header 0");
		phnum = pgw_le32(info);
	}
	if (h->phoff > src->size || phnum * h->phsize > src->size - h->phoff ||
	    pgw_source_avail(src, h->phoff, (size_t)(phnum * h->phsize)) <
		    phnum * h->phsize)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%llu program headers at 0x%llx run past "
				   "the end of the file (0x%llx): truncated?",
				   (unsigned long long)phnum,
				   (unsigned long long)h->phoff,
				   (unsigned long long)src->size);
	return PGW_OK;
}

/*
 * One PT_NOTE.  A file cut inside its notes keeps the notes that are whole
 * (the rest are said lost); a note segment larger than any dump's notes is
 * an error.  Only bytes that are in the file are copied.
 */
static enum pgw_status read_notes(struct pgw_image *img, const GElf_Phdr *ph,
				  bool file_cut, struct pgw_err *err)
{
	const uint8_t *p;
	uint8_t *buf = NULL;
	enum pgw_status st;

	if (ph->p_filesz == 0)
		return PGW_OK;
	if (ph->p_filesz > MAX_NOTES_SIZE)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%llu bytes of notes is implausibly large",
				   (unsigned long long)ph->p_filesz);
	size_t len = pgw_source_avail(&img->src, ph->p_offset,
				      (size_t)ph->p_filesz);
	bool cut = len < ph->p_filesz;
	/* Notes past the end of a file whose memory is all there are a
	 * damaged header, not a cut file. */
	if (cut && !file_cut)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%llu bytes of notes at offset 0x%llx run "
				   "past the end of the file (0x%llx), though "
				   "every PT_LOAD is in it",
				   (unsigned long long)ph->p_filesz,
				   (unsigned long long)ph->p_offset,
				   (unsigned long long)img->src.size);
	if (cut)
		pgw_image_add_fact(img, "notes_cut",
				   "%llu bytes of notes at offset 0x%llx, "
				   "%zu of them in the file",
				   (unsigned long long)ph->p_filesz,
				   (unsigned long long)ph->p_offset, len);
	if (len == 0)
		return PGW_OK;
	if (img->src.flattened) {
		buf = malloc(len);
		if (!buf)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	st = pgw_source_get(&img->src, ph->p_offset, len, buf, &p, err);
	if (st == PGW_OK)
		st = pgw_image_parse_notes(img, p, len, cut, err);
	free(buf);
	return st;
}

struct note_span {
	uint64_t off, end;
	size_t idx;
};

static int span_cmp(const void *a, const void *b)
{
	const struct note_span *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * PT_NOTEs whose bytes overlap another's: no writer makes them, and read
 * again they would add every CPU again.  Marks them in skip[] (by program
 * header index); the first by offset of each overlapping group is kept.
 */
static enum pgw_status find_aliased_notes(Elf *elf, size_t phnum,
					  bool *skip, size_t *nskip_ret,
					  struct pgw_err *err)
{
	struct note_span *v = malloc(phnum * sizeof(*v));
	size_t n = 0, nskip = 0;

	if (!v)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_NOTE &&
		    ph.p_filesz && ph.p_offset + ph.p_filesz > ph.p_offset)
			v[n++] = (struct note_span){
				ph.p_offset, ph.p_offset + ph.p_filesz, i };
	}
	qsort(v, n, sizeof(*v), span_cmp);
	uint64_t reach = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && v[i].off < reach) {
			skip[v[i].idx] = true;
			nskip++;
		}
		if (v[i].end > reach)
			reach = v[i].end;
	}
	free(v);
	*nskip_ret = nskip;
	return PGW_OK;
}

static enum pgw_status elf_open(struct pgw_image *img, struct pgw_err *err)
{
	uint8_t ident[EI_NIDENT];
	struct elf_priv *priv;
	enum pgw_status st;
	GElf_Ehdr eh;
	size_t phnum;

	st = pgw_source_read(&img->src, 0, ident, sizeof(ident), err);
	if (st != PGW_OK)
		return pgw_err_prefix(err, "ELF identification truncated");
	if (ident[EI_CLASS] != ELFCLASS32 && ident[EI_CLASS] != ELFCLASS64)
		return pgw_err_set(err, PGW_E_FORMAT, "unknown ELF class %u",
				   ident[EI_CLASS]);
	if (ident[EI_DATA] != ELFDATA2LSB)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "big-endian ELF is not an x86 dump");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pgw_err_set(err, PGW_E_UNSUPPORTED, "libelf: %s",
				   elf_errmsg(-1));
	struct elf_head head;
	st = read_head(&img->src, ident[EI_CLASS] == ELFCLASS64, &head, err);
	if (st == PGW_OK)
		st = check_header(&head, &img->src, err);
	if (st != PGW_OK)
		return st;
	priv = calloc(1, sizeof(*priv));
	if (!priv)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	img->priv = priv;

	if (img->src.flattened) {
		uint64_t len = 0;
		const uint8_t *p;
		st = header_span(&head, &img->src, &len, err);
		if (st != PGW_OK)
			return st;
		priv->copy = malloc(len);
		if (!priv->copy)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		st = pgw_source_get(&img->src, 0, len, priv->copy, &p, err);
		if (st != PGW_OK)
			return st;
		if (p != priv->copy)
			memcpy(priv->copy, p, len);
		priv->elf = elf_memory((char *)priv->copy, len);
	} else {
		/* Native little-endian: libelf reads the map in place and,
		 * opened for reading, never writes to it. */
		priv->elf = elf_memory((char *)img->src.map,
				       (size_t)img->src.size);
	}
	if (!priv->elf)
		return pgw_err_set(err, PGW_E_FORMAT, "libelf: %s",
				   elf_errmsg(-1));
	if (!gelf_getehdr(priv->elf, &eh))
		return pgw_err_set(err, PGW_E_FORMAT, "ELF header: %s",
				   elf_errmsg(-1));
	if (eh.e_type != ET_CORE)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "ELF type %u is not a core file", eh.e_type);
	img->machine = eh.e_machine;
	img->elf_class = ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	if (elf_getphdrnum(priv->elf, &phnum) != 0)
		return pgw_err_set(err, PGW_E_FORMAT, "program headers: %s",
				   elf_errmsg(-1));
	if (eh.e_phoff > img->src.size ||
	    (uint64_t)phnum * eh.e_phentsize > img->src.size - eh.e_phoff)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%zu program headers at 0x%llx run past the "
				   "end of the file: truncated?", phnum,
				   (unsigned long long)eh.e_phoff);
	bool *skip = calloc(phnum ? phnum : 1, sizeof(*skip));
	size_t nskip = 0, nloads = 0, ncut = 0;
	uint64_t expect_end = 0;
	if (!skip)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	st = find_aliased_notes(priv->elf, phnum, skip, &nskip, err);
	/* Is the file cut in its memory (then cut notes are lost too)? */
	bool file_cut = false;
	for (size_t i = 0; st == PGW_OK && i < phnum; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(priv->elf, (int)i, &ph) &&
		    ph.p_type == PT_LOAD && ph.p_filesz &&
		    (ph.p_offset >= img->src.size ||
		     ph.p_filesz > img->src.size - ph.p_offset))
			file_cut = true;
	}
	for (size_t i = 0; st == PGW_OK && i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(priv->elf, (int)i, &ph)) {
			st = pgw_err_set(err, PGW_E_FORMAT,
					 "program header %zu: %s", i,
					 elf_errmsg(-1));
			break;
		}
		if (ph.p_type == PT_NOTE && !skip[i]) {
			st = read_notes(img, &ph, file_cut, err);
			if (st != PGW_OK)
				pgw_err_prefix(err, "PT_NOTE %zu", i);
		} else if (ph.p_type == PT_LOAD &&
			   ph.p_filesz > ph.p_memsz) {
			/* gABI: "The file size may not be larger than the
			 * memory size." */
			st = pgw_err_set(err, PGW_E_FORMAT,
					 "PT_LOAD %zu: p_filesz 0x%llx exceeds "
					 "p_memsz 0x%llx", i,
					 (unsigned long long)ph.p_filesz,
					 (unsigned long long)ph.p_memsz);
		} else if (ph.p_type == PT_LOAD) {
			/* The part past p_filesz is where makedumpfile -E
			 * puts the pages its dump level excluded (zero pages
			 * and the rest alike), so it is excluded, not zeros:
			 * gdb and libkdumpfile read a core's bytes past
			 * p_filesz as absent too.  A part of p_filesz the
			 * file lost is absent (truncated). */
			st = pgw_image_add_segment(img, ph.p_paddr,
						   ph.p_filesz, ph.p_offset,
						   (unsigned)i, err);
			if (st == PGW_OK && ph.p_memsz > ph.p_filesz)
				st = pgw_image_add_absent_segment(
					img, ph.p_paddr + ph.p_filesz,
					ph.p_memsz - ph.p_filesz,
					PGW_ABSENT_EXCLUDED, (unsigned)i, err);
			if (st != PGW_OK)
				pgw_err_prefix(err, "PT_LOAD %zu", i);
			nloads++;
			if (ph.p_filesz &&
			    (ph.p_offset >= img->src.size ||
			     ph.p_filesz > img->src.size - ph.p_offset)) {
				ncut++;
				if (ph.p_offset + ph.p_filesz > expect_end)
					expect_end = ph.p_offset + ph.p_filesz;
			}
		}
	}
	free(skip);
	if (st != PGW_OK)
		return st;
	if (nskip)
		pgw_image_add_fact(img, "notes_aliased",
				   "%zu PT_NOTE headers point into another's "
				   "notes: not read again", nskip);
	st = pgw_image_seal_segments(img, "PT_LOAD", err);
	if (st != PGW_OK)
		return st;
	pgw_image_add_fact(img, "elf_segments", "%zu", nloads);
	if (ncut)
		pgw_image_add_fact(img, "incomplete",
				   "file truncated: %zu of %zu PT_LOADs run past "
				   "its end (0x%llx bytes, 0x%llx expected); "
				   "what is there is read",
				   ncut, nloads,
				   (unsigned long long)img->src.size,
				   (unsigned long long)expect_end);
	return PGW_OK;
}

static void elf_close(struct pgw_image *img)
{
	struct elf_priv *priv = img->priv;

	if (priv->elf)
		elf_end(priv->elf);
	free(priv->copy);
	free(priv);
	img->priv = NULL;
}

const struct pgw_format pgw_format_elf = {
	.name = "elf",
	.probe = elf_probe,
	.open = elf_open,
	.page = pgw_segments_page,
	.page_state = pgw_segments_page_state,
	.absent_bytes = pgw_segments_absent_bytes,
	.evidence = pgw_segments_evidence,
	.unheld_run = pgw_segments_unheld_run,
	.held_span = pgw_segments_held_span,
	.held_pages = pgw_segments_held_pages,
	.close = elf_close,
};
