/*
 * i386 Linux virtual memory map (2-level and PAE), after
 * arch/x86/include/asm/pgtable_32_areas.h (4.15+) and page_32_types.h:
 *
 *   [0, PAGE_OFFSET)                   user space (VMSPLIT_3G: 0xc0000000)
 *   [PAGE_OFFSET, high_memory)         lowmem: the linear map of low RAM
 *   [VMALLOC_START, VMALLOC_END)       vmalloc, modules too; VMALLOC_START
 *                                      = high_memory + 8 MiB
 *   [PKMAP_BASE, + PMD_SIZE)           persistent kmaps (CONFIG_HIGHMEM)
 *   [LDT_BASE_ADDR, + PMD_SIZE)        LDT remap (4.19+)
 *   [CPU_ENTRY_AREA_BASE, FIXADDR_TOP) cpu_entry_area, then the fixmap
 *
 * with CPU_ENTRY_AREA_BASE PMD-aligned below the fixmap, LDT_BASE_ADDR the
 * PMD below it, PKMAP_BASE the PMD below that, and VMALLOC_END two pages
 * under the lowest of them.  Nothing in VMCOREINFO says these, and the
 * fixmap's size depends on NR_CPUS, so:
 *   PAGE_OFFSET          the linear mapping of physical 0 (page tables);
 *   high_memory          the end of that linear mapping (page tables);
 *   CPU_ENTRY_AREA_BASE  the IDTR base of a CPU in the image: since 4.15
 *                        the kernel loads the IDT from the read-only page
 *                        that opens the cpu_entry_area (idt_map_in_cea);
 *                        without CPU state, the PMD boundary below the
 *                        fixmap whose page is an IDT;
 *   PKMAP_BASE           present when its page table exists (HIGHMEM).
 */
#include "layout.h"

#define MiB(n) ((uint64_t)(n) << 20)
#define FIXADDR_TOP UINT64_C(0xfffff000)
#define VMALLOC_OFFSET MiB(8)

static const struct layout_row rows_i386[] = {
	{ "user", "User Space", 0 },
	{ "direct_map", "Low Kernel Mapping", 0xc0000000,
	  .start_var = LV_PAGE_OFFSET, .end_var = LV_HIGH_MEMORY },
	{ "vmalloc", "vmalloc() Area", 0, .start_var = LV_VMALLOC,
	  .end_var = LV_VMALLOC_END },
	{ "pkmap", "Persistent kmap() Area", 0, .start_var = LV_PKMAP,
	  .size_var = LV_PMD_SIZE },
	{ "ldt_remap", "LDT remap", 0, .start_var = LV_LDT,
	  .size_var = LV_PMD_SIZE, .since = KV(4, 19, 0) },
	{ "cpu_entry_area", "CPU entry Area + Fixmap", 0,
	  .start_var = LV_CPU_ENTRY },
	{ "unused", "unused", FIXADDR_TOP, .size = 0x1000 },
};

struct lowmem {
	uint64_t page_offset, end;
};

/* Linear leaves from PAGE_OFFSET; the first other mapping is vmalloc. */
static int lowmem_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct lowmem *l = arg;

	if (leaf->pa != leaf->va - l->page_offset)
		return 1;
	l->end = leaf->va + leaf->size;
	return 0;
}

static uint64_t find_high_memory(const struct pgw_space *space, uint64_t po)
{
	struct lowmem l = { po, 0 };
	struct pgw_walk_ops ops = { .leaf = lowmem_leaf };
	struct pgw_walk_opts opts = {
		.start = po, .end = 0,
		/* Lowmem is at most 896 MiB: 229 K leaves in 4 KiB pages. */
		.max_entries = PGW_DEFAULT_MAX_ENTRIES,
	};
	struct pgw_err err;

	(void)pgw_walk_range(space, &opts, &ops, &l, NULL, NULL, &err);
	return l.end;
}

/* Is there a page table under va (the walk reaches the PTE level)? */
static bool has_page_table(const struct pgw_space *space, uint64_t va)
{
	struct pgw_xlat x;
	enum pgw_stop st = pgw_translate(space, NULL, va, &x);

	return st == PGW_STOP_OK ? x.level == PGW_PTE :
				st == PGW_STOP_NOT_PRESENT && x.level == PGW_PTE;
}

static bool cpu_entry_area(const struct pgw_space *space, uint64_t pmd,
			   uint64_t floor, uint64_t *base_ret, int *cpu_ret)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(space->img, &cpus);

	for (size_t i = 0; i < n; i++) {
		uint64_t b = cpus[i].idt_base;
		/* Before 4.15 the IDT is idt_table in lowmem: not this. */
		if (cpus[i].has_idt && b % pmd == 0 && b > floor &&
		    b < FIXADDR_TOP) {
			*base_ret = b;
			*cpu_ret = (int)i;
			return true;
		}
	}
	return false;
}

/* i386 __KERNEL_CS (GDT entry 12), and the gates an IDT holds for the
 * 32 exceptions: interrupt (0xe) and trap (0xf) gates, present, into the
 * kernel; #DF alone is a task gate. */
#define KERNEL_CS 0x60
#define IDT_EXCEPTIONS 32
#define IDT_MIN_GATES 16
/* PMD boundaries looked at below FIXADDR_TOP: the fixmap is a few MiB. */
#define CEA_CANDIDATES 32

static unsigned kernel_gates(const uint8_t *idt, uint64_t page_offset)
{
	unsigned n = 0;

	for (unsigned i = 0; i < IDT_EXCEPTIONS; i++) {
		const uint8_t *g = idt + 8 * i;
		unsigned sel = g[2] | g[3] << 8, type = g[5] & 0x1f;
		uint64_t handler = (uint64_t)(g[0] | g[1] << 8) |
				   (uint64_t)(g[6] | g[7] << 8) << 16;
		n += (g[5] & 0x80) && (type == 0xe || type == 0xf) &&
		     sel == KERNEL_CS && handler >= page_offset;
	}
	return n;
}

/*
 * Without a CPU's IDTR: the PMD boundary under FIXADDR_TOP (and above
 * floor) whose page is an IDT, since CPU_ENTRY_AREA_BASE is PMD aligned
 * and its first page is the read-only IDT.
 */
static bool idt_in_tables(const struct pgw_space *space, uint64_t pmd,
			  uint64_t floor, uint64_t page_offset,
			  uint64_t *base_ret, unsigned *gates_ret)
{
	uint64_t b = FIXADDR_TOP & ~(pmd - 1);

	for (unsigned i = 0; i < CEA_CANDIDATES && b > floor; i++, b -= pmd) {
		uint8_t idt[8 * IDT_EXCEPTIONS];
		struct pgw_err err;
		if (pgw_read_virt(space, b, idt, sizeof(idt), NULL, &err) !=
		    PGW_OK)
			continue;
		unsigned n = kernel_gates(idt, page_offset);
		if (n >= IDT_MIN_GATES) {
			*base_ret = b;
			*gates_ret = n;
			return true;
		}
	}
	return false;
}

static void set(struct layout_vals *vals, enum lvar var, uint64_t v)
{
	vals->v[var] = v;
	vals->known[var] = true;
}

static void resolve_i386(const struct layout_era *era,
			 const struct pgw_space *space,
			 const struct pgw_layout_request *req,
			 struct layout_vals *vals, struct pgw_layout *out)
{
	uint32_t version = vals->version;
	/* PMD_SIZE: what one page table maps (4 MiB, PAE 2 MiB). */
	const struct pgw_level_desc *pte = &space->mode->level[PGW_PTE];
	uint64_t pmd = UINT64_C(1) << (pte->shift + pte->bits);
	uint64_t po, hm, vs, cea;
	unsigned matches;
	int cpu;

	(void)era;
	for (int i = 0; i < LV_COUNT; i++)
		vals->known[i] = false;
	set(vals, LV_PMD_SIZE, pmd);

	if (req->page_offset_base) {
		po = req->page_offset_base;
		layout_base(out, "PAGE_OFFSET", po, PGW_BASE_OPTION,
			    "--page-offset-base");
	} else if (pgw_find_direct_map(space, &po, &matches)) {
		layout_base(out, "PAGE_OFFSET", po, PGW_BASE_INFERRED,
			    "the page tables map physical 0 there, linearly "
			    "(%u/%u samples)", matches,
			    pgw_direct_map_samples(space->img));
	} else {
		po = 0xc0000000;
		layout_base(out, "PAGE_OFFSET", po, PGW_BASE_DEFAULT,
			    "no linear map of physical 0 found; VMSPLIT_3G");
	}
	set(vals, LV_PAGE_OFFSET, po);

	hm = find_high_memory(space, po);
	if (hm) {
		set(vals, LV_HIGH_MEMORY, hm);
		layout_base(out, "high_memory", hm, PGW_BASE_INFERRED,
			    "end of the linear map from PAGE_OFFSET");
	}

	if (req->vmalloc_base) {
		vs = req->vmalloc_base;
		layout_base(out, "VMALLOC_START", vs, PGW_BASE_OPTION,
			    "--vmalloc-base");
	} else if (hm) {
		vs = hm + VMALLOC_OFFSET;
		layout_base(out, "VMALLOC_START", vs, PGW_BASE_INFERRED,
			    "high_memory + VMALLOC_OFFSET (8 MiB)");
	} else {
		vs = 0;
	}
	if (vs)
		set(vals, LV_VMALLOC, vs);

	unsigned gates;
	bool old = version && version < KV(4, 15, 0);
	if (!old && cpu_entry_area(space, pmd, vs ? vs : po, &cea, &cpu)) {
		layout_base(out, "CPU_ENTRY_AREA_BASE", cea, PGW_BASE_CPU,
			    "CPU %d IDTR base: the read-only IDT opens the "
			    "cpu_entry_area (4.15+)", cpu);
	} else if (!old && idt_in_tables(space, pmd, vs ? vs : po, po, &cea,
					 &gates)) {
		layout_base(out, "CPU_ENTRY_AREA_BASE", cea, PGW_BASE_INFERRED,
			    "the page tables map an IDT there (%u of the %d "
			    "exception gates into the kernel), and the "
			    "read-only IDT opens the cpu_entry_area (4.15+)",
			    gates, IDT_EXCEPTIONS);
	} else {
		layout_base(out, "VMALLOC_END", FIXADDR_TOP, PGW_BASE_DEFAULT,
			    "not located (%s): the vmalloc() Area is shown up "
			    "to FIXADDR_TOP",
			    old ? "kernels before 4.15 have no cpu_entry_area" :
				  "no CPU in the image has an IDTR base in the "
				  "cpu_entry_area, and no IDT is mapped at a "
				  "PMD boundary below the fixmap");
		return;
	}
	set(vals, LV_CPU_ENTRY, cea);
	uint64_t below = cea;
	if (version == 0 || version >= KV(4, 19, 0)) {
		below = cea - pmd;
		set(vals, LV_LDT, below);
		layout_base(out, "LDT_BASE_ADDR", below, PGW_BASE_INFERRED,
			    "the PMD below CPU_ENTRY_AREA_BASE (4.19+)");
	}
	uint64_t vend = below - 2 * PGW_PAGE_SIZE;
	if (has_page_table(space, below - pmd)) {
		set(vals, LV_PKMAP, below - pmd);
		layout_base(out, "PKMAP_BASE", below - pmd, PGW_BASE_INFERRED,
			    "the PMD below that, whose page table exists "
			    "(CONFIG_HIGHMEM)");
		vend = below - pmd - 2 * PGW_PAGE_SIZE;
	}
	set(vals, LV_VMALLOC_END, vend);
	layout_base(out, "VMALLOC_END", vend, PGW_BASE_INFERRED,
		    "two pages below the next area");
}

const struct layout_era pgw_era_i386 = {
	.name = "i386",
	.desc = "Linux i386, 2-level and PAE (pgtable_32_areas.h): lowmem at "
		"PAGE_OFFSET, vmalloc, pkmap, cpu_entry_area, fixmap",
	.modes = { &pgw_mode_i386, &pgw_mode_pae }, .from = 0, .until = 0,
	.rows = rows_i386, .nrows = sizeof(rows_i386) / sizeof(rows_i386[0]),
	.resolve = resolve_i386,
	.direct_default = 0xc0000000,
};
