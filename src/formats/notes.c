/*
 * ELF note contents every dump format carries: VMCOREINFO text, QEMU's
 * per-CPU state, NT_PRSTATUS.  ELF cores and kdump sub-headers both hold
 * notes in this layout, so the parsing lives here once.
 */
#include "../lib/err.h"
#include "format.h"
#include "../lib/grow.h"
#include "../lib/bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NT_PRSTATUS_TYPE 1
/* sizeof(struct elf_prstatus) on arm64, and where its pr_reg starts. */
#define ARM64_PRSTATUS_SIZE 392
#define ARM64_PR_REG 112
#define MAX_VMCOREINFO 4096

static void check_numbers(struct pgw_image *img);

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

/*
 * A second VMCOREINFO (a kdump's header copy and its ELF note say the
 * same) is not parsed again, but compared: the first key it gives
 * another value is kept, so that no one picks between two kernels
 * silently (pgw_vmcoreinfo_conflict).
 */
static void compare_second(struct pgw_image *img, const char *p,
			   const char *end)
{
	while (p < end && !img->vmcoreinfo_conflict[0]) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *nul = memchr(p, '\0', (size_t)(le - p));
		if (nul)
			le = nul;
		const char *eq = memchr(p, '=', (size_t)(le - p));
		char key[128];
		size_t klen = eq ? (size_t)(eq - p) : 0;
		if (klen && klen < sizeof(key)) {
			memcpy(key, p, klen);
			key[klen] = '\0';
			const char *was = pgw_vmcoreinfo_get(img, key);
			size_t vlen = (size_t)(le - eq - 1);
			if (was && (strlen(was) != vlen ||
				    memcmp(was, eq + 1, vlen) != 0)) {
				snprintf(img->vmcoreinfo_conflict,
					 sizeof(img->vmcoreinfo_conflict),
					 "%s is %.60s in the first VMCOREINFO "
					 "and %.*s in another", key, was,
					 (int)(vlen < 60 ? vlen : 60), eq + 1);
				pgw_image_add_fact(img, "vmcoreinfo_conflict",
						   "%s",
						   img->vmcoreinfo_conflict);
			}
		}
		if (nul || !nl)
			break;
		p = nl + 1;
	}
}

const char *pgw_vmcoreinfo_conflict(const struct pgw_image *img)
{
	return img->vmcoreinfo_conflict[0] ? img->vmcoreinfo_conflict : NULL;
}

enum pgw_status pgw_image_parse_vmcoreinfo(struct pgw_image *img,
					   const char *text, size_t len,
					   struct pgw_err *err)
{
	const char *p = text, *end = text + len;

	if (img->nvmcoreinfo) {
		compare_second(img, p, end);
		return PGW_OK;
	}
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
	check_numbers(img);
	return PGW_OK;
}

static void free_kvs(struct pgw_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

enum pgw_status pgw_image_adopt_vmcoreinfo(struct pgw_image *img,
					   const char *text, size_t len,
					   uint64_t source_pa,
					   struct pgw_err *err)
{
	struct pgw_kv *note = img->vmcoreinfo;
	size_t nnote = img->nvmcoreinfo;

	/* Parse into an empty list; the note's stays until that worked, so
	 * a failure leaves the image as it was. */
	img->vmcoreinfo = NULL;
	img->nvmcoreinfo = 0;
	enum pgw_status st = pgw_image_parse_vmcoreinfo(img, text, len, err);
	if (st != PGW_OK) {
		free_kvs(img->vmcoreinfo, img->nvmcoreinfo);
		img->vmcoreinfo = note;
		img->nvmcoreinfo = nnote;
		return pgw_err_prefix(err, "VMCOREINFO found at 0x%llx",
				      (unsigned long long)source_pa);
	}
	free_kvs(note, nnote);
	img->vmcoreinfo_in_memory = true;
	img->vmcoreinfo_pa = source_pa;
	pgw_image_add_fact(img, "vmcoreinfo_source",
			   "found in memory at 0x%llx%s",
			   (unsigned long long)source_pa,
			   nnote ? " (replacing the image's note)" : "");
	return PGW_OK;
}

bool pgw_vmcoreinfo_in_memory(const struct pgw_image *img,
			      uint64_t *source_pa_ret)
{
	if (img->vmcoreinfo_in_memory && source_pa_ret)
		*source_pa_ret = img->vmcoreinfo_pa;
	return img->vmcoreinfo_in_memory;
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

/* SYMBOL() and KERNELOFFSET are hex without 0x; NUMBER() and the rest are
 * signed decimal (phys_base is printed as a negative number). */
static bool is_hex_key(const char *key)
{
	return strncmp(key, "SYMBOL(", 7) == 0 ||
	       strcmp(key, "KERNELOFFSET") == 0;
}

/*
 * The value of a numeric key, all of it: digits of its base only (after
 * one '-' for decimal), no sign, space or junk, and no more than 64 bits.
 * strtoull would take "-1" as 2^64-1 in hex, skip leading spaces and stop
 * quietly at junk, so the digits are checked here first.
 */
static enum pgw_status parse_number(const char *key, const char *v,
				    uint64_t *val_ret, struct pgw_err *err)
{
	bool hex = is_hex_key(key);
	bool neg = !hex && *v == '-';
	const char *d = v + neg;
	uint64_t val = 0;
	unsigned base = hex ? 16 : 10;

	/* Decimal values may be written 0x... too (what strtoull's base 0
	 * took before); hex ones never carry the prefix. */
	if (!hex && !neg && d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
		base = 16;
		d += 2;
	}
	if (!*d)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "VMCOREINFO %s=%s is not a number", key, v);
	for (const char *p = d; *p; p++) {
		unsigned digit;
		if (*p >= '0' && *p <= '9')
			digit = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			digit = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			digit = (unsigned)(*p - 'A' + 10);
		else
			return pgw_err_set(err, PGW_E_FORMAT,
					   "VMCOREINFO %s=%s is not a %s "
					   "number", key, v,
					   base == 16 ? "hex" : "decimal");
		if (val > (UINT64_MAX - digit) / base)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "VMCOREINFO %s=%s does not fit 64 "
					   "bits", key, v);
		val = val * base + digit;
	}
	if (neg) {
		/* Down to -2^63: a kernel long. */
		if (val > (UINT64_C(1) << 63))
			return pgw_err_set(err, PGW_E_FORMAT,
					   "VMCOREINFO %s=%s does not fit 64 "
					   "bits", key, v);
		val = ~val + 1;
	}
	*val_ret = val;
	return PGW_OK;
}

enum pgw_status pgw_vmcoreinfo_number(const struct pgw_image *img,
				      const char *key, uint64_t *val_ret,
				      struct pgw_err *err)
{
	const char *v = pgw_vmcoreinfo_get(img, key);

	if (!v)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "VMCOREINFO has no %s", key);
	return parse_number(key, v, val_ret, err);
}

bool pgw_vmcoreinfo_u64(const struct pgw_image *img, const char *key,
			uint64_t *val_ret)
{
	struct pgw_err ignored;

	return pgw_vmcoreinfo_number(img, key, val_ret, &ignored) == PGW_OK;
}

/* Keys whose values are numbers by the kernel's own writers
 * (kernel/crash_core.c: VMCOREINFO_SYMBOL, _NUMBER, _SIZE, _OFFSET,
 * _LENGTH, and the bare ones below). */
static bool is_numeric_key(const char *key)
{
	static const char *const prefixes[] = {
		"SYMBOL(", "NUMBER(", "SIZE(", "OFFSET(", "LENGTH(",
	};
	static const char *const bare[] = { "KERNELOFFSET", "PAGESIZE" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(key, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	for (size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); i++)
		if (strcmp(key, bare[i]) == 0)
			return true;
	return false;
}

/* Say, once per key, which numbers are malformed: they read as absent. */
static void check_numbers(struct pgw_image *img)
{
	for (size_t i = 0; i < img->nvmcoreinfo; i++) {
		const struct pgw_kv *kv = &img->vmcoreinfo[i];
		struct pgw_err err;
		uint64_t v;
		if (is_numeric_key(kv->key) &&
		    parse_number(kv->key, kv->value, &v, &err) != PGW_OK)
			pgw_image_add_fact(img, "vmcoreinfo_malformed",
					   "%s; such values are not used",
					   err.msg);
	}
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

/* CPUs are capped per file: a note is a few hundred bytes of file, but
 * headers pointing at the same notes again would multiply them. */
static enum pgw_status push_cpu(struct pgw_image *img,
				const struct pgw_cpu *cpu, struct pgw_err *err)
{
	if (img->ncpus == PGW_MAX_CPUS) {
		pgw_image_add_fact(img, "cpus_capped",
				   "more than %d CPU notes: the rest ignored",
				   PGW_MAX_CPUS);
		return PGW_OK;
	}
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

/* An AArch64 NT_PRSTATUS's registers, kept in note order (x86's, of
 * other sizes, are only counted: their QEMU notes say more). */
static enum pgw_status arm64_prstatus(struct pgw_image *img,
				      const uint8_t *desc, size_t len,
				      struct pgw_err *err)
{
	struct pgw_arm64_regs r;
	uint64_t w[34];

	if (len != ARM64_PRSTATUS_SIZE || img->narm64_regs == PGW_MAX_CPUS)
		return PGW_OK;
	/* x0..x30, sp, pc, pstate: 34 words in struct order. */
	for (size_t i = 0; i < 34; i++)
		w[i] = pgw_le64(desc + ARM64_PR_REG + 8 * i);
	memcpy(r.x, w, sizeof(r.x));
	r.sp = w[31];
	r.pc = w[32];
	r.pstate = w[33];
	enum pgw_status st = pgw_grow(&img->arm64_regs, img->narm64_regs,
				      sizeof(*img->arm64_regs), err);
	if (st == PGW_OK)
		img->arm64_regs[img->narm64_regs++] = r;
	return st;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

enum pgw_status pgw_image_parse_notes(struct pgw_image *img,
				      const uint8_t *notes, size_t len,
				      bool cut, struct pgw_err *err)
{
	size_t off = 0;

	/* Whatever the headers say, a file's notes are read once and up to
	 * a cap: headers that point at the same notes again, or claim
	 * gigabytes of them, cost no more than that. */
	if (img->note_bytes >= PGW_MAX_NOTE_BYTES) {
		img->notes_capped = true;
		pgw_image_add_fact(img, "notes_capped",
				   "more than %llu bytes of ELF notes: the "
				   "rest ignored",
				   (unsigned long long)PGW_MAX_NOTE_BYTES);
		return PGW_OK;
	}
	if (len > PGW_MAX_NOTE_BYTES - img->note_bytes) {
		len = (size_t)(PGW_MAX_NOTE_BYTES - img->note_bytes);
		cut = true;
		pgw_image_add_fact(img, "notes_capped",
				   "more than %llu bytes of ELF notes: the "
				   "rest ignored",
				   (unsigned long long)PGW_MAX_NOTE_BYTES);
	}
	img->note_bytes += len;
	while (len - off >= 12) {
		uint32_t namesz = pgw_le32(notes + off);
		uint32_t descsz = pgw_le32(notes + off + 4);
		uint32_t type = pgw_le32(notes + off + 8);
		size_t name_off = off + 12;
		size_t desc_off = name_off + align4(namesz);
		bool past = namesz > len - name_off || desc_off > len ||
			    descsz > len - desc_off;
		/* What is left of a cut area ends inside a note: the
		 * caller has said the notes are cut. */
		if (past && cut)
			break;
		if (namesz > len - name_off)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "note at offset %zu: name size %u "
					   "past the end of the notes", off,
					   namesz);
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
			 type == NT_PRSTATUS_TYPE) {
			st = pgw_image_add_prstatus(img, desc, descsz, err);
			if (st == PGW_OK)
				st = arm64_prstatus(img, desc, descsz, err);
		}
		if (st != PGW_OK)
			return pgw_err_prefix(err, "note at offset %zu", off);
		off = desc_off + align4(descsz);
		if (off > len)
			break;
	}
	return PGW_OK;
}
