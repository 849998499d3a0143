/*
 * The parts of mkcorrupt's corpus beyond the plain ELF cuts and patches:
 * ELF notes built to cost (aliased PT_NOTEs, repeated unreadable CPU
 * notes, malformed VMCOREINFO numbers) and kdump, flattened, LiME and AVML
 * images cut at their boundaries or damaged in one page.  Included by
 * mkcorrupt.c after its emit helpers; every image goes to its MANIFEST.
 */
#ifndef PGW_CORRUPT_DUMPS_H
#define PGW_CORRUPT_DUMPS_H

#include "dumpwriter.h"

/* Where corrupt.t translates: a 2 MiB page of the direct map in both the
 * ELF's and the synthetic dumps' tables. */
#define CD_ROOT_ARGS "--cr3=0x1000 --mode=x86-64"

static const char cd_vmcoreinfo[] =
	"OSRELEASE=6.1.0-corrupt\n"
	"SYMBOL(init_top_pgt)=ffffffff82001000\n"
	"NUMBER(phys_base)=-33554432\n"
	"NUMBER(pgtable_l5_enabled)=0\n";

/*
 * 2001 PT_NOTE headers all pointing at one 1 MiB area of minimal "QEMU"
 * notes (each a CPU pgwalk cannot read), then the image's own notes and
 * memory: the notes are read once and the CPUs capped, not 2001 times.
 */
static void cd_note_alias(const struct iw_buf *elf,
			  const struct iw_layout *lay)
{
	enum { NALIAS = 2001, NOTE = 20 };
	size_t phnum = NALIAS + 3;
	size_t junk_off = 64 + phnum * 56;
	size_t junk_len = ((size_t)1 << 20) / NOTE * NOTE;
	size_t notes_off = junk_off + junk_len;
	size_t data_off = (notes_off + lay->notes_size + 4095) / 4096 * 4096;
	struct iw_buf b = { 0 };

	iw_put(&b, elf->p, 64);
	iw_le(b.p + 56, phnum, 2);
	for (size_t i = 0; i < phnum; i++) {
		uint8_t ph[56] = { 0 };
		bool load = i > NALIAS;
		uint64_t pa = i == NALIAS + 2 ? 0x4000 : 0;
		iw_le(ph, load ? 1 : 4, 4);
		iw_le(ph + 8, i < NALIAS ? junk_off : load ?
			      data_off + pa : notes_off, 8);
		iw_le(ph + 24, pa, 8);
		iw_le(ph + 32, i < NALIAS ? junk_len : load ? 0x4000 :
			       lay->notes_size, 8);
		iw_le(ph + 40, load ? 0x4000 : 0, 8);
		iw_put(&b, ph, sizeof(ph));
	}
	for (size_t i = 0; i < junk_len / NOTE; i++) {
		uint8_t n[NOTE] = { 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				    'Q', 'E', 'M', 'U' };
		iw_put(&b, n, sizeof(n));
	}
	iw_put(&b, elf->p + lay->notes_off, lay->notes_size);
	iw_zero(&b, data_off - b.len);
	iw_put(&b, elf->p + lay->data_off, 0x8000);
	emit_tr("note-alias-2001", EX_OK,
		"notes_aliased: 2000 PT_NOTE headers|"
		"cpus_capped: more than 8192 CPU notes", EX_OK, "",
		b.p, b.len);
	iw_free(&b);
}

static void hostile_elf_notes(const struct iw_elf *e, const struct iw_mem *m,
			      const struct iw_buf *elf,
			      const struct iw_layout *lay)
{
	struct iw_buf out = { 0 };
	struct iw_layout l;

	cd_note_alias(elf, lay);

	/* 17 CPU notes pgwalk cannot read, in a file also cut short: both
	 * facts are there, the first counted, not repeated. */
	struct iw_cpu cpus[17];
	for (int i = 0; i < 17; i++)
		cpus[i] = e->cpus[0];
	struct iw_elf many = *e;
	many.cpus = cpus;
	many.ncpus = 17;
	iw_elf_build(&many, m, &out, &l);
	for (size_t i = 0; i < 17; i++)
		iw_le(out.p + l.notes_off + i * (20 + IW_QEMU_NOTE_SIZE) + 20,
		      2, 4);
	emit_tr("cpu-notes-17-bad-cut", EX_PARTIAL,
		"cpu_note_skipped: CPU 0: QEMU CPU note version 2 (know 1) "
		"(17 times)|file truncated: 1 of 2 PT_LOADs", EX_OK, "",
		out.p, l.data_off + 0x6000);

	/* VMCOREINFO numbers that are not numbers: said, and not used. */
	struct iw_elf junk = *e;
	junk.vmcoreinfo = "OSRELEASE=6.1.0-corrupt\n"
			  "SYMBOL(init_top_pgt)=ffffffff82001000\n"
			  "NUMBER(phys_base)=-547352576junk\n";
	iw_elf_build(&junk, m, &out, NULL);
	emit("vmcoreinfo-junk-number", EX_NOROOT,
	     "vmcoreinfo_malformed: VMCOREINFO "
	     "NUMBER(phys_base)=-547352576junk is not a decimal number",
	     out.p, out.len);
	junk.vmcoreinfo = "OSRELEASE=6.1.0-corrupt\n"
			  "SYMBOL(init_top_pgt)=1ffffffff82001000\n"
			  "NUMBER(phys_base)=-33554432\n";
	iw_elf_build(&junk, m, &out, NULL);
	/* The symbol is not used: the root is CPU 0's CR3, which works. */
	emit_tr("vmcoreinfo-overflow", EX_OK,
		"vmcoreinfo_malformed: VMCOREINFO "
		"SYMBOL(init_top_pgt)=1ffffffff82001000 does not fit 64 bits",
		EX_OK, "", out.p, out.len);
	iw_free(&out);
}

/* The table frame that maps ADDR's 2 MiB page in the synthetic memory. */
static uint64_t cd_pd_pfn(const struct dw_mem *m, uint64_t cr3)
{
	uint64_t pml4e = *dw_entry(m, cr3 >> 12, 273);   /* 0xffff888... */
	uint64_t pdpte = *dw_entry(m, (pml4e >> 12) & 0xffffffffff, 0);
	return (pdpte >> 12) & 0xffffffffff;
}

static uint64_t cd_desc_off(const struct dw_buf *b,
			    const struct dw_kdump_info *in, uint64_t idx)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b->p[in->desc_off + idx * 24 + (size_t)i];
	return v;
}

static void cd_kdump(const struct dw_mem *m, const struct dw_synth *s)
{
	struct dw_kdump_opts o = { .codec = DW_ZLIB, .layout = 64,
				   .machine = "x86_64",
				   .vmcoreinfo = cd_vmcoreinfo };
	struct dw_kdump_info in;
	struct dw_buf b, f;
	uint64_t pd = cd_pd_pfn(m, s->cr3);
	char text[160];

	dw_write_kdump(&b, m, &o, &in);
	emit("kdump-valid", EX_OK, "compression: zlib", b.p, b.len);
	emit("kdump-cut-header", EX_BAD, "disk_dump_header truncated",
	     b.p, 100);
	emit("kdump-cut-bitmap", EX_BAD, "truncated before any page", b.p,
	     in.bitmap1 + 10);
	/* Cut in the descriptors: five are whole, but all page data
	 * follows the descriptors, so no page is there (the root neither). */
	snprintf(text, sizeof(text), "file truncated: %llu of %llu dumped "
		 "pages missing (%llu truncated", (unsigned long long)in.ndumped,
		 (unsigned long long)in.ndumped,
		 (unsigned long long)in.ndumped);
	emit("kdump-cut-descriptors", EX_NOROOT, text, b.p,
	     in.desc_off + 5 * 24 + 7);
	/* Cut in the data: every table before the cut reads; the data
	 * page ADDR maps is gone (translate still answers). */
	emit_tr("kdump-cut-after-tables", EX_PARTIAL, "file truncated", EX_OK, "",
		b.p, cd_desc_off(&b, &in, 64));
	/* Cut inside the directory's own data: that table is a hole. */
	emit_tr("kdump-cut-in-table", EX_PARTIAL, "file truncated", EX_PARTIAL,
		"", b.p, cd_desc_off(&b, &in, pd) + 3);
	/* The same cuts of the flattened form. */
	struct dw_flat_opts fo = { .rec_size = 4096 };
	dw_flatten(&f, &b, &fo);
	emit_tr("flat-kdump-cut-after-tables", EX_PARTIAL,
		"flattened_incomplete|file truncated", EX_OK, "", f.p,
		4096 + (cd_desc_off(&b, &in, 64) + 4095) / 4096 * (4096 + 16));
	dw_free(&f);

	/* One bad descriptor: that page is corrupt, nothing else. */
	uint8_t save[24];
	memcpy(save, b.p + in.desc_off + pd * 24, 24);
	dw_le(&b, in.desc_off + pd * 24 + 8, 0, 4);
	emit_tr("kdump-desc-size-0", EX_PARTIAL, "compression: zlib", EX_PARTIAL,
		"", b.p, b.len);
	memcpy(b.p + in.desc_off + pd * 24, save, 24);
	dw_le(&b, in.desc_off + pd * 24, UINT64_C(1) << 40, 8);
	emit_tr("kdump-desc-offset-2^40", EX_PARTIAL, "compression: zlib",
		EX_PARTIAL, "", b.p, b.len);
	memcpy(b.p + in.desc_off + pd * 24, save, 24);
	/* Its compressed bytes damaged: corrupt when read. */
	b.p[cd_desc_off(&b, &in, pd) + 2] ^= 0xff;
	emit_tr("kdump-data-damaged", EX_OK, "compression: zlib", EX_PARTIAL,
		"", b.p, b.len);
	b.p[cd_desc_off(&b, &in, pd) + 2] ^= 0xff;

	/*
	 * Flattened files claiming what their records do not hold: bitmaps
	 * for 2^40 pages (a rank table of 2 GiB), found only at a logical
	 * offset far beyond the records but one.
	 */
	dw_le(&b, in.max_mapnr64_off, UINT64_C(1) << 40, 8);
	dw_le(&b, in.bitmap_blocks_off, UINT64_C(1) << 26, 4);
	dw_flatten(&f, &b, &(struct dw_flat_opts){ .no_end = true });
	dw_flat_record(&f, UINT64_C(1) << 39, "x", 1);
	dw_be64(&f, f.len, UINT64_MAX);
	dw_be64(&f, f.len, UINT64_MAX);
	emit("flat-max-mapnr-2^40", EX_BAD, "are not in the file", f.p,
	     f.len);
	dw_free(&f);
	dw_free(&b);
}

static void cd_flat_elf(void)
{
	struct iw_mem m = { 0 };
	struct iw_buf elf = { 0 };
	struct dw_buf in = { 0 }, f;
	uint64_t root = iw_tables_x86_64(&m, false);
	struct iw_cpu cpu = { 0x80050033, root, 0x3506f0, 0, 0x10, 1u << 21 };
	struct iw_elf e = { .is64 = true, .machine = 62, .cpus = &cpu,
			    .ncpus = 1, .page_align_data = true };

	iw_elf_build(&e, &m, &elf, NULL);
	dw_put(&in, 0, elf.p, elf.len);
	dw_le(&in, 32, UINT64_C(1) << 44, 8);   /* e_phoff: 16 TiB */
	dw_flatten(&f, &in, &(struct dw_flat_opts){ .no_end = true });
	dw_flat_record(&f, UINT64_C(1) << 45, "x", 1);
	dw_be64(&f, f.len, UINT64_MAX);
	dw_be64(&f, f.len, UINT64_MAX);
	emit("flat-elf-phoff-2^44", EX_BAD, "program headers", f.p, f.len);
	dw_free(&f);
	dw_free(&in);
	iw_free(&elf);
	iw_free(&m.b);
}

static void cd_lime_avml(const struct dw_mem *m, uint64_t pd)
{
	struct dw_buf b;

	dw_write_lime(&b, m);
	/* No notes, so no mode or root for info (3); translate is given
	 * them.  Cut after the tables: they read. */
	emit_tr("lime-cut", EX_NOROOT, "file truncated: range 0", EX_OK,
		CD_ROOT_ARGS, b.p, 32 + (1 << 20) + 5);
	dw_free(&b);
#ifdef PGW_HAVE_SNAPPY
	dw_write_avml(&b, m, m->npages * DW_PAGE, 4096);
	/* One chunk per page after the 32-byte header and the 10-byte
	 * stream identifier: damage the directory's CRC. */
	size_t pos = 32 + 10;
	for (uint64_t k = 0; k < pd; k++)
		pos += 4 + (b.p[pos + 1] | b.p[pos + 2] << 8 |
			    (size_t)b.p[pos + 3] << 16);
	b.p[pos + 4] ^= 0x55;
	emit_tr("avml-crc-table", EX_NOROOT, "avml_ranges", EX_PARTIAL,
		CD_ROOT_ARGS, b.p, b.len);
	dw_free(&b);
#else
	(void)pd;
#endif
}

static void dump_formats(void)
{
	struct dw_mem m;
	struct dw_synth s;

	dw_synth_mem(&m, 1024, 7, &s);
	cd_kdump(&m, &s);
	cd_lime_avml(&m, cd_pd_pfn(&m, s.cr3));
	cd_flat_elf();
	free(m.data);
	free(m.kind);
}

#endif
