/*
 * ELF core files (ELF32 and ELF64), as QEMU's dump-guest-memory, the
 * kernel's /proc/vmcore and makedumpfile -E write them.  Physical memory is
 * the PT_LOAD segments by p_paddr.  Program headers are found through
 * e_phoff, never assumed to follow the ELF header: QEMU 7.2 puts a section
 * table first and writes a bogus e_ehsize.
 */
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
	if (end < h->phoff || end > src->size)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "program headers (%llu at 0x%llx) run past "
				   "the end of the file",
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
	if (h->phoff > src->size || phnum * h->phsize > src->size - h->phoff)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%llu program headers at 0x%llx run past "
				   "the end of the file (0x%llx): truncated?",
				   (unsigned long long)phnum,
				   (unsigned long long)h->phoff,
				   (unsigned long long)src->size);
	return PGW_OK;
}

static enum pgw_status read_notes(struct pgw_image *img, const GElf_Phdr *ph,
				  struct pgw_err *err)
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
	if (ph->p_offset > img->src.size ||
	    ph->p_filesz > img->src.size - ph->p_offset)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%llu bytes of notes at offset 0x%llx run "
				   "past the end of the file (0x%llx): "
				   "truncated?",
				   (unsigned long long)ph->p_filesz,
				   (unsigned long long)ph->p_offset,
				   (unsigned long long)img->src.size);
	if (img->src.flattened) {
		buf = malloc(ph->p_filesz);
		if (!buf)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	st = pgw_source_get(&img->src, ph->p_offset, ph->p_filesz, buf, &p,
			    err);
	if (st == PGW_OK)
		st = pgw_image_parse_notes(img, p, ph->p_filesz, err);
	free(buf);
	return st;
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
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(priv->elf, (int)i, &ph))
			return pgw_err_set(err, PGW_E_FORMAT,
					   "program header %zu: %s", i,
					   elf_errmsg(-1));
		if (ph.p_type == PT_NOTE) {
			st = read_notes(img, &ph, err);
			if (st != PGW_OK)
				return pgw_err_prefix(err, "PT_NOTE %zu", i);
		} else if (ph.p_type == PT_LOAD) {
			/* The part past p_filesz is zero by the ELF rules;
			 * makedumpfile -E uses that for zero pages. */
			st = pgw_image_add_segment(img, ph.p_paddr,
						   ph.p_filesz, ph.p_offset,
						   err);
			if (st == PGW_OK && ph.p_memsz > ph.p_filesz)
				st = pgw_image_add_zero_segment(
					img, ph.p_paddr + ph.p_filesz,
					ph.p_memsz - ph.p_filesz, err);
			if (st != PGW_OK)
				return pgw_err_prefix(err, "PT_LOAD %zu", i);
		}
	}
	st = pgw_image_seal_segments(img, err);
	if (st != PGW_OK)
		return st;
	img->zero_copy = !img->src.flattened && pgw_segments_page_aligned(img);
	pgw_image_add_fact(img, "elf_segments", "%zu", img->nsegs);
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
	.has_page = pgw_segments_has_page,
	.close = elf_close,
};
