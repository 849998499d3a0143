/*
 * Building small synthetic memory images for tests, fuzz seeds and the
 * corrupt-dump corpus: a growable physical memory, page-table helpers, and
 * writers for raw files and ELF cores (ELF32/ELF64, QEMU CPU notes,
 * VMCOREINFO).  Header-only: each test tool is one .c file.
 *
 * The ELF writer records where the interesting parts of the file are
 * (header, program headers, notes, first segment), so that the corrupt
 * corpus can truncate or patch exactly there.
 */
#ifndef PGW_IMGWRITE_H
#define PGW_IMGWRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IW_PAGE 4096u

/* ---- a growable byte buffer ---- */

struct iw_buf {
	uint8_t *p;
	size_t len, cap;
};

static inline void iw_reserve(struct iw_buf *b, size_t len)
{
	if (len <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < len)
		cap *= 2;
	uint8_t *p = realloc(b->p, cap);
	if (!p) {
		perror("imgwrite");
		exit(2);
	}
	memset(p + b->cap, 0, cap - b->cap);
	b->p = p;
	b->cap = cap;
}

static inline void iw_put(struct iw_buf *b, const void *data, size_t len)
{
	if (!len)
		return;     /* data may be NULL then (an empty note area) */
	iw_reserve(b, b->len + len);
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

static inline void iw_zero(struct iw_buf *b, size_t len)
{
	iw_reserve(b, b->len + len);
	memset(b->p + b->len, 0, len);
	b->len += len;
}

static inline void iw_align(struct iw_buf *b, size_t a)
{
	if (b->len % a)
		iw_zero(b, a - b->len % a);
}

static inline void iw_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void iw_put_le(struct iw_buf *b, uint64_t v, unsigned n)
{
	uint8_t tmp[8];
	iw_le(tmp, v, n);
	iw_put(b, tmp, n);
}

static inline void iw_free(struct iw_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

static inline int iw_write_file(const char *path, const void *data,
				size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return -1;
	}
	if ((len && fwrite(data, 1, len, f) != len) || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/* ---- physical memory: page frames from 0 up ---- */

struct iw_mem {
	struct iw_buf b;    /* b.len is the memory size */
};

static inline uint8_t *iw_frame(struct iw_mem *m, uint64_t pfn)
{
	size_t need = (size_t)(pfn + 1) * IW_PAGE;
	if (m->b.len < need)
		iw_zero(&m->b, need - m->b.len);
	return m->b.p + pfn * IW_PAGE;
}

/* Entry idx of the table at frame pfn (entry size 4 or 8). */
static inline void iw_entry(struct iw_mem *m, uint64_t pfn, unsigned idx,
			    unsigned esize, uint64_t val)
{
	iw_le(iw_frame(m, pfn) + (size_t)idx * esize, val, esize);
}

/* Fill a page with a recognisable pattern (frame number, then bytes). */
static inline void iw_pattern(struct iw_mem *m, uint64_t pfn)
{
	uint8_t *p = iw_frame(m, pfn);
	for (unsigned i = 0; i < IW_PAGE; i++)
		p[i] = (uint8_t)(pfn * 13 + i);
}

/* Entry bits. */
#define IW_P   UINT64_C(0x001)
#define IW_RW  UINT64_C(0x002)
#define IW_US  UINT64_C(0x004)
#define IW_A   UINT64_C(0x020)
#define IW_D   UINT64_C(0x040)
#define IW_PS  UINT64_C(0x080)
#define IW_G   UINT64_C(0x100)
#define IW_NX  (UINT64_C(1) << 63)
#define IW_TBL (IW_P | IW_RW | IW_A)

/* ---- ELF cores ---- */

/* One CPU for a QEMU note. */
struct iw_cpu {
	uint64_t cr0, cr3, cr4, rip;
	uint32_t cs_selector, cs_flags;
	uint64_t sp;                /* written in its NT_PRSTATUS (with
				       iw_elf's cpu_prstatus) */
};

/* A PT_LOAD: physical [pa, pa+filesz) from memory at mem_off; memsz may
 * exceed filesz (zero fill). */
struct iw_load {
	uint64_t pa, mem_off, filesz, memsz;
};

struct iw_elf {
	bool is64;
	unsigned machine;           /* 62 x86-64, 3 i386 */
	const struct iw_cpu *cpus;
	size_t ncpus;
	const char *vmcoreinfo;     /* NULL: none */
	const char *vmcoreinfo2;    /* a second VMCOREINFO note after it (a
				       hostile image's); NULL: none */
	unsigned nprstatus;         /* empty CORE/NT_PRSTATUS notes */
	bool cpu_prstatus;          /* an x86-64 NT_PRSTATUS per CPU of cpus,
				       with its rip, cs and sp */
	const struct iw_load *loads;/* NULL: one PT_LOAD of all memory */
	size_t nloads;
	bool page_align_data;       /* segment data starts page aligned */
};

/* Where things landed in the written file. */
struct iw_layout {
	size_t ehdr_size;
	size_t phoff, phentsize, phnum;
	size_t notes_off, notes_size;
	size_t data_off;            /* first segment's bytes */
	size_t note_off[16];        /* each note's header */
	size_t nnotes;
};

/* QEMU's x86 CPU-state note: version, size, 18 registers, 10 segments of
 * 24 bytes (selector, limit, flags, pad, base), cr[0..4], kernel_gs_base. */
#define IW_QEMU_NOTE_SIZE (8 + 18 * 8 + 10 * 24 + 5 * 8 + 8)

static inline void iw_note(struct iw_buf *b, struct iw_layout *lay,
			   const char *name, uint32_t type, const void *desc,
			   size_t dlen)
{
	if (lay && lay->nnotes < 16)
		lay->note_off[lay->nnotes++] = b->len;
	iw_put_le(b, strlen(name) + 1, 4);
	iw_put_le(b, dlen, 4);
	iw_put_le(b, type, 4);
	iw_put(b, name, strlen(name) + 1);
	iw_align(b, 4);
	iw_put(b, desc, dlen);
	iw_align(b, 4);
}

static inline void iw_qemu_desc(uint8_t *d, const struct iw_cpu *c)
{
	memset(d, 0, IW_QEMU_NOTE_SIZE);
	iw_le(d, 1, 4);
	iw_le(d + 4, IW_QEMU_NOTE_SIZE, 4);
	iw_le(d + 8 + 16 * 8, c->rip, 8);
	size_t cs = 8 + 18 * 8;
	iw_le(d + cs, c->cs_selector, 4);
	iw_le(d + cs + 8, c->cs_flags, 4);
	size_t cr = cs + 10 * 24;
	iw_le(d + cr, c->cr0, 8);
	iw_le(d + cr + 24, c->cr3, 8);
	iw_le(d + cr + 32, c->cr4, 8);
}

/* The whole note area for e. */
static inline void iw_notes(struct iw_buf *b, const struct iw_elf *e,
			    struct iw_layout *lay)
{
	uint8_t prstatus[336] = { 0 };   /* x86-64 elf_prstatus size */

	for (unsigned i = 0; i < e->nprstatus; i++)
		iw_note(b, lay, "CORE", 1, prstatus,
			e->is64 ? sizeof(prstatus) : 144);
	/* elf_prstatus: pr_reg at 112, rip, cs and rsp its registers 16,
	 * 17 and 19. */
	for (size_t i = 0; e->cpu_prstatus && i < e->ncpus; i++) {
		uint8_t p[336] = { 0 };
		iw_le(p + 32, i + 1, 4);          /* pr_pid: QEMU's CPU + 1 */
		iw_le(p + 112 + 16 * 8, e->cpus[i].rip, 8);
		iw_le(p + 112 + 17 * 8, e->cpus[i].cs_selector, 8);
		iw_le(p + 112 + 19 * 8, e->cpus[i].sp, 8);
		iw_note(b, lay, "CORE", 1, p, sizeof(p));
	}
	for (size_t i = 0; i < e->ncpus; i++) {
		uint8_t d[IW_QEMU_NOTE_SIZE];
		iw_qemu_desc(d, &e->cpus[i]);
		iw_note(b, lay, "QEMU", 0, d, sizeof(d));
	}
	if (e->vmcoreinfo)
		iw_note(b, lay, "VMCOREINFO", 0, e->vmcoreinfo,
			strlen(e->vmcoreinfo));
	if (e->vmcoreinfo2)
		iw_note(b, lay, "VMCOREINFO", 0, e->vmcoreinfo2,
			strlen(e->vmcoreinfo2));
}

/* Serialise memory m as an ELF core into out; lay (may be NULL) tells
 * where the parts are. */
static inline void iw_elf_build(const struct iw_elf *e,
				const struct iw_mem *m, struct iw_buf *out,
				struct iw_layout *lay)
{
	struct iw_layout l = { 0 };
	struct iw_load whole = { 0, 0, m->b.len, m->b.len };
	const struct iw_load *loads = e->loads ? e->loads : &whole;
	size_t nloads = e->loads ? e->nloads : 1;
	size_t eh = e->is64 ? 64 : 52, phe = e->is64 ? 56 : 32;
	struct iw_buf notes = { 0 };

	iw_notes(&notes, e, &l);
	l.ehdr_size = eh;
	l.phoff = eh;
	l.phentsize = phe;
	l.phnum = 1 + nloads;
	l.notes_off = eh + phe * l.phnum;
	l.notes_size = notes.len;
	for (size_t i = 0; i < l.nnotes; i++)
		l.note_off[i] += l.notes_off;
	size_t data = l.notes_off + notes.len;
	if (e->page_align_data)
		data = (data + IW_PAGE - 1) / IW_PAGE * IW_PAGE;
	l.data_off = data;

	out->len = 0;
	/* e_ident */
	uint8_t id[16] = { 0x7f, 'E', 'L', 'F', e->is64 ? 2 : 1, 1, 1 };
	iw_put(out, id, 16);
	iw_put_le(out, 4, 2);              /* ET_CORE */
	iw_put_le(out, e->machine, 2);
	iw_put_le(out, 1, 4);              /* EV_CURRENT */
	unsigned w = e->is64 ? 8 : 4;
	iw_put_le(out, 0, w);              /* entry */
	iw_put_le(out, l.phoff, w);
	iw_put_le(out, 0, w);              /* shoff */
	iw_put_le(out, 0, 4);              /* flags */
	iw_put_le(out, eh, 2);
	iw_put_le(out, phe, 2);
	iw_put_le(out, l.phnum, 2);
	iw_put_le(out, e->is64 ? 64 : 40, 2);  /* shentsize */
	iw_put_le(out, 0, 2);              /* shnum */
	iw_put_le(out, 0, 2);              /* shstrndx */

	/* PT_NOTE, then the loads (data laid out in order). */
	size_t off = data;
	for (size_t i = 0; i <= nloads; i++) {
		uint32_t type = i == 0 ? 4 : 1;
		uint64_t o = i == 0 ? l.notes_off : off;
		uint64_t pa = i == 0 ? 0 : loads[i - 1].pa;
		uint64_t fs = i == 0 ? notes.len : loads[i - 1].filesz;
		uint64_t ms = i == 0 ? 0 : loads[i - 1].memsz;
		if (i)
			off += (size_t)fs;
		if (e->is64) {
			iw_put_le(out, type, 4);
			iw_put_le(out, i ? 7 : 0, 4);   /* flags RWX */
			iw_put_le(out, o, 8);
			iw_put_le(out, i ? UINT64_C(0xffff888000000000) + pa
					 : 0, 8);
			iw_put_le(out, pa, 8);
			iw_put_le(out, fs, 8);
			iw_put_le(out, ms, 8);
			iw_put_le(out, 0, 8);
		} else {
			iw_put_le(out, type, 4);
			iw_put_le(out, o, 4);
			iw_put_le(out, i ? 0xc0000000u + pa : 0, 4);
			iw_put_le(out, pa, 4);
			iw_put_le(out, fs, 4);
			iw_put_le(out, ms, 4);
			iw_put_le(out, i ? 7 : 0, 4);
			iw_put_le(out, 0, 4);
		}
	}
	iw_put(out, notes.p, notes.len);
	iw_zero(out, data - out->len);
	for (size_t i = 0; i < nloads; i++) {
		const struct iw_load *ld = &loads[i];
		if (ld->mem_off + ld->filesz <= m->b.len)
			iw_put(out, m->b.p + ld->mem_off, (size_t)ld->filesz);
		else
			iw_zero(out, (size_t)ld->filesz);
	}
	iw_free(&notes);
	if (lay)
		*lay = l;
}

/* ---- canned page tables ---- */

/*
 * A small x86-64 address space in frames 0..7 (and 8, the PML5, for LA57):
 * the direct map at 0xffff888000000000 (4 KiB pages for frames 0..7, then
 * a 2 MiB page past the memory), the kernel text map at 0xffffffff81000000,
 * a user page at 0x400000 shared through the same PDPT, a swap entry and a
 * PROT_NONE entry.  Returns the root table's physical address.
 */
static inline uint64_t iw_tables_x86_64(struct iw_mem *m, bool la57)
{
	const unsigned E = 8;
	uint64_t pml5 = 8, pml4 = 1, pdpt = 2, pd = 3, pt = 4, upt = 5,
		 kpdpt = 6, kpd = 7;

	iw_pattern(m, 0);
	for (uint64_t f = 1; f <= 7; f++)
		memset(iw_frame(m, f), 0, IW_PAGE);
	if (la57) {
		memset(iw_frame(m, pml5), 0, IW_PAGE);
		iw_entry(m, pml5, 0, E, pml4 << 12 | IW_TBL | IW_US);
		iw_entry(m, pml5, 511, E, pml4 << 12 | IW_TBL);
	}
	/* direct map: PML4[273] -> pdpt -> pd -> pt */
	iw_entry(m, pml4, 273, E, pdpt << 12 | IW_TBL);
	iw_entry(m, pdpt, 0, E, pd << 12 | IW_TBL);
	iw_entry(m, pd, 0, E, pt << 12 | IW_TBL);
	for (unsigned i = 0; i < 8; i++)
		iw_entry(m, pt, i, E, (uint64_t)i << 12 | IW_P | IW_RW | IW_A |
					   IW_D | IW_G | IW_NX);
	/* swap type 3, offset 0x77 (stored inverted in bits 9..58) */
	iw_entry(m, pt, 8, E, UINT64_C(3) << 59 |
				  ((~UINT64_C(0x77) << 9) &
				   ((UINT64_C(1) << 59) - (UINT64_C(1) << 9))));
	iw_entry(m, pd, 1, E, UINT64_C(0x200000) | IW_P | IW_RW | IW_PS | IW_NX);
	iw_entry(m, pdpt, 1, E, UINT64_C(0x40000000) | IW_P | IW_PS);
	/* user: PML4[0] -> pdpt (shared) , and pd[2] -> upt: 0x400000 */
	iw_entry(m, pml4, 0, E, pdpt << 12 | IW_TBL | IW_US);
	iw_entry(m, pd, 2, E, upt << 12 | IW_TBL | IW_US);
	iw_entry(m, upt, 0, E, UINT64_C(5) << 12 | IW_P | IW_US | IW_A);
	iw_entry(m, upt, 1, E, UINT64_C(0x6000) | IW_G);  /* PROT_NONE */
	/* kernel text: PML4[511] -> kpdpt[510] -> kpd[8] (2 MiB, frame 0) */
	iw_entry(m, pml4, 511, E, kpdpt << 12 | IW_TBL);
	iw_entry(m, kpdpt, 510, E, kpd << 12 | IW_TBL);
	iw_entry(m, kpd, 8, E, IW_P | IW_PS | IW_G);
	return (la57 ? pml5 : pml4) << 12;
}

/* i386 two-level: PD at frame 1, PT at frame 2; PAGE_OFFSET 0xc0000000. */
static inline uint64_t iw_tables_i386(struct iw_mem *m)
{
	iw_pattern(m, 0);
	iw_pattern(m, 3);
	memset(iw_frame(m, 1), 0, IW_PAGE);
	memset(iw_frame(m, 2), 0, IW_PAGE);
	iw_entry(m, 1, 768, 4, 2u << 12 | IW_TBL);
	for (unsigned i = 0; i < 8; i++)
		iw_entry(m, 2, i, 4, (uint64_t)i << 12 | IW_P | IW_RW | IW_G);
	iw_entry(m, 1, 769, 4, UINT64_C(0x400000) | IW_P | IW_PS);
	iw_entry(m, 1, 1, 4, 2u << 12 | IW_TBL | IW_US);    /* shared PT */
	iw_entry(m, 1, 2, 4, UINT64_C(0x1c000) | IW_G);     /* PROT_NONE */
	return 1u << 12;
}

/* PAE: PDPT (32 bytes) at 0x1000, PD at frame 2, PT at frame 3. */
static inline uint64_t iw_tables_pae(struct iw_mem *m)
{
	iw_pattern(m, 0);
	for (uint64_t f = 1; f <= 3; f++)
		memset(iw_frame(m, f), 0, IW_PAGE);
	iw_entry(m, 1, 3, 8, 2u << 12 | IW_P);
	iw_entry(m, 1, 0, 8, 2u << 12 | IW_P);               /* shared PD */
	iw_entry(m, 2, 0, 8, 3u << 12 | IW_TBL);
	for (unsigned i = 0; i < 8; i++)
		iw_entry(m, 3, i, 8, (uint64_t)i << 12 | IW_P | IW_RW | IW_NX);
	iw_entry(m, 2, 1, 8, UINT64_C(0x200000) | IW_P | IW_PS);
	return 1u << 12;
}

/* Set bit in every present entry of the x86-64 table at pfn (level lvl:
 * 4 the top) and below it, each table once (seen: a byte per frame of
 * m): a C-bit, as SME's __sme_set puts it in every entry. */
static inline void iw_set_bit_below(struct iw_mem *m, uint64_t pfn,
				    unsigned lvl, uint64_t bit, uint8_t *seen)
{
	if (pfn >= m->b.len / IW_PAGE || seen[pfn])
		return;
	seen[pfn] = 1;
	for (unsigned i = 0; i < 512; i++) {
		uint8_t *e = iw_frame(m, pfn) + (size_t)i * 8;
		uint64_t v = 0;
		for (unsigned b = 0; b < 8; b++)
			v |= (uint64_t)e[b] << (8 * b);
		if (!(v & IW_P))
			continue;
		iw_le(e, v | bit, 8);
		if (lvl > 1 && !(v & IW_PS))
			iw_set_bit_below(m, (v & UINT64_C(0x000ffffffffff000)) >>
					 12, lvl - 1, bit, seen);
	}
}

/* ---- hostile page tables (tests/unit/hostile_walk.c, mkhostile) ---- */

/* Every entry of the table at frame pfn holds val. */
static inline void iw_fill(struct iw_mem *m, uint64_t pfn, unsigned n,
			   unsigned esize, uint64_t val)
{
	for (unsigned i = 0; i < n; i++)
		iw_entry(m, pfn, i, esize, val);
}

struct iw_hostile {
	const char *name;
	const char *mode;
	const char *what;
	void (*build)(struct iw_mem *m);   /* root table at 0x1000 */
};

/* A PML4 whose every entry points at itself. */
static inline void iw_h_self_pml4(struct iw_mem *m)
{
	iw_fill(m, 1, 512, 8, 0x1000 | IW_TBL);
	iw_frame(m, 3);
}

/* i386: a PD whose 1024 entries all point at one PT mapping one frame. */
static inline void iw_h_i386_shared_pt(struct iw_mem *m)
{
	iw_fill(m, 1, 1024, 4, 0x2000 | IW_TBL);
	iw_fill(m, 2, 1024, 4, 0x3000 | IW_P | IW_RW);
	iw_frame(m, 3);
}

/* A ring through four levels: PML4 -> A -> B -> PT, all entries present,
 * the PT mapping the PML4's frame (no table repeats on a path). */
static inline void iw_h_ring4(struct iw_mem *m)
{
	iw_fill(m, 1, 512, 8, 0x2000 | IW_TBL);
	iw_fill(m, 2, 512, 8, 0x3000 | IW_TBL);
	iw_fill(m, 3, 512, 8, 0x4000 | IW_TBL);
	iw_fill(m, 4, 512, 8, 0x1000 | IW_P | IW_RW);
}

/* A chain looping back through the levels: PML4 -> A -> B -> PML4. */
static inline void iw_h_loop_back(struct iw_mem *m)
{
	iw_fill(m, 1, 512, 8, 0x2000 | IW_TBL);
	iw_fill(m, 2, 512, 8, 0x3000 | IW_TBL);
	iw_fill(m, 3, 512, 8, 0x1000 | IW_TBL);
}

/* 512 GiB of 4 KiB pages all mapping one frame, through shared tables. */
static inline void iw_h_512g_one_frame(struct iw_mem *m)
{
	iw_entry(m, 1, 0, 8, 0x2000 | IW_TBL);
	iw_fill(m, 2, 512, 8, 0x3000 | IW_TBL);
	iw_fill(m, 3, 512, 8, 0x4000 | IW_TBL);
	iw_fill(m, 4, 512, 8, 0x5000 | IW_P | IW_RW | IW_NX);
	iw_frame(m, 5);
}

/* A PML4 entry pointing past the end of physical memory, one valid. */
static inline void iw_h_beyond_memory(struct iw_mem *m)
{
	iw_entry(m, 1, 0, 8, UINT64_C(0x7fff000000) | IW_TBL);
	iw_entry(m, 1, 1, 8, 0x2000 | IW_TBL);
	iw_frame(m, 2);
}

static const struct iw_hostile iw_hostiles[] = {
	{ "self-pml4", "x86-64", "cycles", iw_h_self_pml4 },
	{ "i386-shared-pt", "i386", "complete", iw_h_i386_shared_pt },
	{ "ring4", "x86-64", "shared", iw_h_ring4 },
	{ "loop-back", "x86-64", "budget", iw_h_loop_back },
	{ "512g-one-frame", "x86-64", "shared", iw_h_512g_one_frame },
	{ "beyond-memory", "x86-64", "beyond", iw_h_beyond_memory },
};

#endif
