/*
 * mkseeds DIR: write the fuzz seed corpora into DIR/<target>/ (the
 * committed fuzz/corpus/ was made with it).  Seeds are small valid images
 * in every paging mode: ELF32/ELF64 cores with QEMU notes and VMCOREINFO,
 * raw images, and walker inputs (header + physical memory, see
 * fuzz/walker.c).
 */
#include <errno.h>
#include <sys/stat.h>

#include "imgwrite.h"

static const char *outdir;

static void save(const char *target, const char *name, const void *p,
		 size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", outdir, target);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		perror(path);
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", outdir, target, name);
	if (iw_write_file(path, p, len) != 0)
		exit(2);
}

/* image_probe has no seeds of its own: it reads every image_* corpus. */
static void save_elf(const char *name, const struct iw_elf *e,
		     const struct iw_mem *m)
{
	struct iw_buf out = { 0 };

	iw_elf_build(e, m, &out, NULL);
	save("image_elf", name, out.p, out.len);
	iw_free(&out);
}

static void save_walker(const char *name, unsigned mode, unsigned flags,
			uint64_t root, uint64_t start, uint64_t end,
			const struct iw_mem *m)
{
	struct iw_buf b = { 0 };

	iw_put_le(&b, mode, 1);
	iw_put_le(&b, flags, 1);
	iw_put_le(&b, 0, 1);
	iw_put_le(&b, root, 8);
	iw_put_le(&b, start, 8);
	iw_put_le(&b, end, 8);
	iw_put_le(&b, UINT64_C(0xffff888000001234), 8);
	iw_put(&b, m->b.p, m->b.len);
	save("walker", name, b.p, b.len);
	iw_free(&b);
}

static const char vmci_64[] =
	"OSRELEASE=6.1.0-seed\nPAGESIZE=4096\n"
	"SYMBOL(init_top_pgt)=ffffffff82001000\nNUMBER(phys_base)=-33554432\n"
	"NUMBER(pgtable_l5_enabled)=0\nKERNELOFFSET=0\n";
static const char vmci_i386[] =
	"OSRELEASE=6.1.0-seed\nPAGESIZE=4096\nSYMBOL(swapper_pg_dir)=c0001000\n";
static const char vmci_pae[] =
	"OSRELEASE=6.1.0-seed\nCONFIG_X86_PAE=y\n"
	"SYMBOL(swapper_pg_dir)=c0001000\n";

/* A copy of memory m, for a seed that changes a few entries. */
static void mem_copy(struct iw_mem *to, const struct iw_mem *m)
{
	memset(to, 0, sizeof(*to));
	iw_frame(to, m->b.len / IW_PAGE - 1);
	memcpy(to->b.p, m->b.p, m->b.len);
}

/*
 * Issue 32's outside attack, as small inputs that reach what it broke
 * through fuzz/exercise_linux.c: a root that maps nothing (ptov's empty
 * reverse map), self-referencing entries and a table pointer past RAM
 * (check skipped both), entries with the C-bit (check and ptov walked
 * without it), two VMCOREINFO notes naming two roots, and PAE slots that
 * each name another page directory (kdump: decompressed outside the
 * scan's budget; mkseeds.sh turns the raw one into a kdump).
 */
static void issue32_seeds(const struct iw_mem *m64, uint64_t r64,
			  const struct iw_mem *mpae)
{
	struct iw_mem m;

	mem_copy(&m, m64);
	memset(iw_frame(&m, 9), 0, IW_PAGE);
	save_walker("issue32-empty-root", 2, 1, 9 << 12, 0, 0, &m);
	iw_entry(&m, r64 >> 12, 1, 8, r64 | IW_TBL | IW_US);
	save_walker("issue32-self-map-user", 2, 4, r64, 0, 0, &m);
	iw_free(&m.b);
	mem_copy(&m, m64);
	iw_entry(&m, r64 >> 12, 300, 8, r64 | IW_TBL);
	iw_entry(&m, r64 >> 12, 301, 8, UINT64_C(0x200000000) | IW_TBL);
	save_walker("issue32-kernel-cycle-table-beyond-ram", 2, 0, r64, 0, 0,
		    &m);
	iw_free(&m.b);

	mem_copy(&m, m64);
	uint8_t seen[64] = { 0 };
	if (m.b.len / IW_PAGE <= sizeof(seen))
		iw_set_bit_below(&m, r64 >> 12, 4, UINT64_C(1) << 47, seen);
	save_walker("issue32-cbit47", 2, 8, r64 | UINT64_C(1) << 47, 0, 0,
		    &m);
	iw_free(&m.b);

	static const char decoy[] =
		"OSRELEASE=6.1.0-seed\nPAGESIZE=4096\n"
		"SYMBOL(init_top_pgt)=ffffffff82009000\n"
		"NUMBER(phys_base)=-33554432\nNUMBER(pgtable_l5_enabled)=0\n"
		"KERNELOFFSET=0\n";
	struct iw_elf two = { .is64 = true, .machine = 62, .vmcoreinfo = decoy,
			      .vmcoreinfo2 = vmci_64, .page_align_data = true };
	save_elf("issue32-two-vmcoreinfo.elf", &two, m64);

	mem_copy(&m, mpae);
	for (unsigned p = 0; p < 4; p++)
		for (unsigned s = 0; s < 128; s++)
			iw_entry(&m, 16 + p, s * 4 + 3, 8,
				 (uint64_t)((p * 128 + s) % 16) << 12 | IW_P);
	save("image_raw", "issue32-pae-forged-slots.raw", m.b.p, m.b.len);
	iw_free(&m.b);
}

int main(int argc, char **argv)
{
	struct iw_mem m64 = { 0 }, m57 = { 0 }, m32 = { 0 }, mpae = { 0 };
	uint64_t r64, r57, r32, rpae;

	if (argc != 2) {
		fprintf(stderr, "usage: mkseeds DIR\n");
		return 2;
	}
	outdir = argv[1];
	if (mkdir(outdir, 0755) != 0 && errno != EEXIST) {
		perror(outdir);
		return 2;
	}
	r64 = iw_tables_x86_64(&m64, false);
	r57 = iw_tables_x86_64(&m57, true);
	r32 = iw_tables_i386(&m32);
	rpae = iw_tables_pae(&mpae);

	struct iw_cpu c64[2] = {
		{ 0x80050033, r64, 0x3506f0, 0xffffffff81000000, 0x10,
		  1u << 21 },
		{ 0x80050033, r64 | 0x8000000000000001ull, 0x3506f0, 0x400000, 0x33,
		  1u << 21 },
	};
	struct iw_cpu c57 = { 0x80050033, r57, 0x3516f0, 0, 0x10, 1u << 21 };
	struct iw_cpu c32 = { 0x80050033, r32, 0x90, 0xc1000000, 0x60, 0 };
	struct iw_cpu cpae = { 0x80050033, rpae, 0x6b0, 0xc1000000, 0x60, 0 };

	/* ELF: one per mode, with CPU notes and/or VMCOREINFO. */
	struct iw_elf e = { .is64 = true, .machine = 62, .cpus = c64,
			    .ncpus = 2, .vmcoreinfo = vmci_64, .nprstatus = 2,
			    .page_align_data = true };
	save_elf("x86-64-qemu.elf", &e, &m64);
	e.ncpus = 0;
	e.page_align_data = false;       /* unaligned data: copying path */
	save_elf("x86-64-vmcoreinfo-unaligned.elf", &e, &m64);
	struct iw_elf e57 = { .is64 = true, .machine = 62, .cpus = &c57,
			      .ncpus = 1, .page_align_data = true };
	save_elf("la57-qemu.elf", &e57, &m57);
	struct iw_elf e32 = { .is64 = false, .machine = 3, .cpus = &c32,
			      .ncpus = 1, .vmcoreinfo = vmci_i386,
			      .page_align_data = true };
	save_elf("i386-qemu.elf", &e32, &m32);
	e32.cpus = NULL;
	e32.ncpus = 0;
	save_elf("i386-vmcoreinfo.elf", &e32, &m32);
	struct iw_elf epae = { .is64 = false, .machine = 3, .cpus = &cpae,
			       .ncpus = 1, .vmcoreinfo = vmci_pae };
	save_elf("pae-qemu.elf", &epae, &mpae);
	/* Several PT_LOADs: a hole, a zero-filled tail, an odd size. */
	struct iw_load loads[] = {
		{ 0, 0, 0x3000, 0x3000 },
		{ 0x4000, 0x4000, 0x3800, 0x5000 },
		{ 0x100000, 0x8000, 0x2000, 0x2000 },
	};
	struct iw_elf eseg = { .is64 = true, .machine = 62, .cpus = c64,
			       .ncpus = 1, .loads = loads, .nloads = 3,
			       .page_align_data = true };
	save_elf("x86-64-segments.elf", &eseg, &m64);

	/* Raw: the same memory as files. */
	save("image_raw", "x86-64.raw", m64.b.p, m64.b.len);
	save("image_raw", "la57.raw", m57.b.p, m57.b.len);
	save("image_raw", "i386.raw", m32.b.p, m32.b.len);
	save("image_raw", "pae.raw", mpae.b.p, mpae.b.len);
	save("image_raw", "odd-size.raw", m64.b.p, m64.b.len - 100);

	/* Walker: modes are indexed as pgw_modes() lists them. */
	save_walker("i386", 0, 0, r32, 0, 0, &m32);
	save_walker("pae", 1, 0, rpae, 0, 0, &mpae);
	save_walker("x86-64", 2, 0, r64, 0, 0, &m64);
	save_walker("la57", 3, 0, r57, 0, 0, &m57);
	save_walker("i386-unmasked-root", 0, 1, r32 + 0x10, 0xbfff0000,
		    0xc0800000, &m32);
	/* Flag 4: layout inference and coalesced runs as well; base 0x1000
	 * (flags 0x10) moves memory up a page. */
	save_walker("x86-64-runs", 2, 2 | 4 | 0x10, r64 + 0x1000,
		    UINT64_C(0xffff800000000000),
		    UINT64_C(0xffff888000400000), &m64);
	save_walker("i386-runs", 0, 2 | 4, r32, 0xc0000000, 0xc1000000, &m32);
	issue32_seeds(&m64, r64, &mpae);
	/* AArch64 decoders over the same memory (the target gives both
	 * halves the root): 4k-48 (index 10), 64k-42 (5, tables of 16
	 * pages) and 16k-52 (12, a 32-entry top table), runs too. */
	save_walker("arm64-4k-48", 10, 0, r64, 0, 0, &m64);
	save_walker("arm64-64k-42-runs", 5, 2 | 4, r64,
		    UINT64_C(0xfffffc0000000000), 0, &m64);
	save_walker("arm64-16k-52-runs", 12, 2 | 4, r64 + 0x100,
		    UINT64_C(0xfff0000000000000), 0, &m64);
	iw_free(&m64.b);
	iw_free(&m57.b);
	iw_free(&m32.b);
	iw_free(&mpae.b);
	return 0;
}
