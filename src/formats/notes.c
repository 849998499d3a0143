/*
 * ELF note contents every dump format carries: VMCOREINFO text, QEMU's
 * per-CPU state, NT_PRSTATUS.  ELF cores and kdump sub-headers both hold
 * notes in this layout, so the parsing lives here once.
 */
#include "format.h"
#include "../lib/grow.h"
#include "../lib/bytes.h"

#include <stdlib.h>
#include <string.h>

#define NT_PRSTATUS_TYPE 1
#define MAX_VMCOREINFO 4096

static enum pgw_status add_kv(struct pgw_image *img, const char *k, size_t klen,
			      const char *v, size_t vlen, struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&img->vmcoreinfo, img->nvmcoreinfo,
				      sizeof(*img->vmcoreinfo), err);
	if (st != PGW_OK)
		return st;
	struct pgw_kv *kv = &img->vmcoreinfo[img->nvmcoreinfo];
	kv->key = strndup(k, klen);
	kv->value = strndup(v, vlen);
	if (!kv->key || !kv->value) {
		free(kv->key);
		free(kv->value);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	img->nvmcoreinfo++;
	return PGW_OK;
}

enum pgw_status pgw_image_parse_vmcoreinfo(struct pgw_image *img,
					   const char *text, size_t len,
					   struct pgw_err *err)
{
	const char *p = text, *end = text + len;

	/* A second VMCOREINFO (kdump header and ELF note) would duplicate. */
	if (img->nvmcoreinfo)
		return PGW_OK;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *eq = memchr(p, '=', (size_t)(le - p));
		/* The note may be NUL-padded; stop at the first NUL. */
		const char *nul = memchr(p, '\0', (size_t)(le - p));
		if (nul)
			le = nul;
		if (eq && eq < le && eq > p &&
		    img->nvmcoreinfo == MAX_VMCOREINFO) {
			/* Heap in proportion to a note's line count, which
			 * the file controls: a kernel writes ~200 lines. */
			pgw_image_add_fact(img, "vmcoreinfo",
					   "more than %d entries: the rest "
					   "ignored", MAX_VMCOREINFO);
			break;
		}
		if (eq && eq < le && eq > p) {
			enum pgw_status st = add_kv(img, p, (size_t)(eq - p),
						    eq + 1,
						    (size_t)(le - eq - 1), err);
			if (st != PGW_OK)
				return st;
		}
		if (nul || !nl)
			break;
		p = nl + 1;
	}
	return PGW_OK;
}

const char *pgw_vmcoreinfo_get(const struct pgw_image *img, const char *key)
{
	for (size_t i = 0; i < img->nvmcoreinfo; i++)
		if (strcmp(img->vmcoreinfo[i].key, key) == 0)
			return img->vmcoreinfo[i].value;
	return NULL;
}

size_t pgw_vmcoreinfo_count(const struct pgw_image *img)
{
	return img->nvmcoreinfo;
}

bool pgw_vmcoreinfo_u64(const struct pgw_image *img, const char *key,
			uint64_t *val_ret)
{
	const char *v = pgw_vmcoreinfo_get(img, key);
	char *end;

	if (!v || !*v)
		return false;
	/* SYMBOL() and KERNELOFFSET are hex without 0x; NUMBER() is signed
	 * decimal (phys_base is printed as a negative number). */
	if (strncmp(key, "SYMBOL(", 7) == 0 ||
	    strcmp(key, "KERNELOFFSET") == 0) {
		*val_ret = strtoull(v, &end, 16);
	} else if (*v == '-') {
		*val_ret = (uint64_t)strtoll(v, &end, 10);
	} else {
		*val_ret = strtoull(v, &end, 0);
	}
	return *end == '\0';
}

/*
 * QEMU's x86 CPU-state note (target/i386/arch_dump.c): version 1, then its
 * own size, 18 registers, 10 segment records of 24 bytes, cr[0..4], and
 * fields added later that only `size` tells about.
 */
enum {
	QEMU_NOTE_VERSION = 1,
	QEMU_OFF_RIP = 8 + 16 * 8,
	QEMU_OFF_CS = 8 + 18 * 8,
	QEMU_SEG_SIZE = 24,
	QEMU_OFF_IDT_BASE = QEMU_OFF_CS + 9 * QEMU_SEG_SIZE + 16,
	QEMU_OFF_CR = QEMU_OFF_CS + 10 * QEMU_SEG_SIZE,
	QEMU_MIN_SIZE = QEMU_OFF_CR + 5 * 8,
};

static enum pgw_status push_cpu(struct pgw_image *img,
				const struct pgw_cpu *cpu, struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&img->cpus, img->ncpus,
				      sizeof(*img->cpus), err);
	if (st != PGW_OK)
		return st;
	img->cpus[img->ncpus++] = *cpu;
	return PGW_OK;
}

enum pgw_status pgw_image_add_qemu_cpu(struct pgw_image *img,
				       const uint8_t *desc, size_t len,
				       struct pgw_err *err)
{
	struct pgw_cpu cpu = { 0 };

	if (len < 8)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "QEMU CPU note too short (%zu bytes)", len);
	uint32_t version = pgw_le32(desc), size = pgw_le32(desc + 4);
	if (version != QEMU_NOTE_VERSION)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "QEMU CPU note version %u (know 1)", version);
	if (size > len || size < QEMU_MIN_SIZE)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "QEMU CPU note claims %u bytes, has %zu, "
				   "needs at least %d", size, len,
				   QEMU_MIN_SIZE);
	cpu.has_rip = true;
	cpu.rip = pgw_le64(desc + QEMU_OFF_RIP);
	cpu.has_cs = true;
	cpu.cs_selector = pgw_le32(desc + QEMU_OFF_CS);
	cpu.cs_flags = pgw_le32(desc + QEMU_OFF_CS + 8);
	cpu.has_idt = true;
	cpu.idt_base = pgw_le64(desc + QEMU_OFF_IDT_BASE);
	cpu.has_cr = true;
	cpu.cr0 = pgw_le64(desc + QEMU_OFF_CR);
	cpu.cr2 = pgw_le64(desc + QEMU_OFF_CR + 16);
	cpu.cr3 = pgw_le64(desc + QEMU_OFF_CR + 24);
	cpu.cr4 = pgw_le64(desc + QEMU_OFF_CR + 32);

	return push_cpu(img, &cpu, err);
}

/*
 * A CPU note pgwalk cannot read must not make the memory unreadable: the
 * CPU keeps its place (so --cpu=N still names the right one) with no
 * registers, and `info` says why.
 */
static enum pgw_status qemu_note(struct pgw_image *img, const uint8_t *desc,
				 size_t len, struct pgw_err *err)
{
	enum pgw_status st = pgw_image_add_qemu_cpu(img, desc, len, err);

	if (st == PGW_OK || st == PGW_E_NOMEM)
		return st;
	pgw_image_add_fact(img, "cpu_note_skipped", "CPU %zu: %s", img->ncpus,
			   err->msg);
	struct pgw_cpu none = { 0 };
	return push_cpu(img, &none, err);
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

enum pgw_status pgw_image_parse_notes(struct pgw_image *img,
				      const uint8_t *notes, size_t len,
				      struct pgw_err *err)
{
	size_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz = pgw_le32(notes + off);
		uint32_t descsz = pgw_le32(notes + off + 4);
		uint32_t type = pgw_le32(notes + off + 8);
		size_t name_off = off + 12;
		if (namesz > len - name_off)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "note at offset %zu: name size %u "
					   "past the end of the notes", off,
					   namesz);
		size_t desc_off = name_off + align4(namesz);
		if (desc_off > len || descsz > len - desc_off)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "note at offset %zu: descriptor "
					   "size %u past the end of the notes",
					   off, descsz);
		const char *name = (const char *)notes + name_off;
		size_t nlen = namesz ? strnlen(name, namesz) : 0;
		const uint8_t *desc = notes + desc_off;
		enum pgw_status st = PGW_OK;

		if (nlen == 10 && memcmp(name, "VMCOREINFO", 10) == 0)
			st = pgw_image_parse_vmcoreinfo(img,
							(const char *)desc,
							descsz, err);
		else if (nlen == 4 && memcmp(name, "QEMU", 4) == 0)
			st = qemu_note(img, desc, descsz, err);
		else if (nlen == 4 && memcmp(name, "CORE", 4) == 0 &&
			 type == NT_PRSTATUS_TYPE)
			img->nprstatus++;
		if (st != PGW_OK)
			return pgw_err_prefix(err, "note at offset %zu", off);
		off = desc_off + align4(descsz);
		if (off > len)
			break;
	}
	return PGW_OK;
}
