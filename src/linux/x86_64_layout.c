/*
 * x86-64 Linux virtual memory maps, one table per era, from the kernel's
 * own documentation:
 *
 *   2.6.11  Documentation/x86_64/mm.txt as the 4-level patch set wrote it
 *           (Andi Kleen, Jul 2004: patch 9/10 of "alternate 4-level page
 *           tables patches"); vmemmap added in 2.6.24.
 *   2.6.27  Documentation/x86/x86_64/mm.txt, 2.6.27 .. 4.19: the direct
 *           map moved to 0xffff880000000000 behind a hypervisor guard
 *           hole; later additions noted per row (KASAN 4.0, espfix 3.16,
 *           EFI 3.14, cpu_entry_area and LDT remap 4.15).
 *   4.20    Documentation/x86/x86_64/mm.rst, 4-level: LDT remap moved in
 *           front of the direct map, which starts at 0xffff888000000000.
 *   la57    the same files' 5-level tables (4.14 .. 4.19, and 4.20+).
 *
 * KASLR (CONFIG_RANDOMIZE_MEMORY, 4.8+) moves the direct map, vmalloc and
 * vmemmap inside [direct map default, kaslr_end), each to a 1 GiB (PUD)
 * boundary, in that order (arch/x86/mm/kaslr.c); VMCOREINFO does not
 * export the results.  They are inferred from the page tables:
 *
 *   page_offset_base  the linear mapping of physical 0 (pgw_find_direct_map,
 *                     confirmed by sample translations);
 *   vmalloc_base      the first mapping above the direct map's reach
 *                     (page_offset_base + the RAM size rounded up to 1 TiB,
 *                     KASLR's own granule), rounded down to 1 GiB: vmalloc
 *                     hands out addresses lowest first, so its first
 *                     allocations sit at its base;
 *   vmemmap_base      the first mapping past the vmalloc area (vmalloc_base
 *                     + its fixed size), rounded down to 1 GiB: the struct
 *                     page of pfn 0 sits exactly at the base.
 *
 * When the direct map sits at its default base the kernel did not
 * randomize (memory KASLR moves all three or none), and the era's values
 * hold.  The kernel text area ends at MODULES_VADDR = __START_KERNEL_map +
 * KERNEL_IMAGE_SIZE, which VMCOREINFO exports (4.x+); a non-zero
 * KERNELOFFSET, or randomized memory bases (CONFIG_RANDOMIZE_MEMORY depends
 * on it), imply CONFIG_RANDOMIZE_BASE and its 1 GiB image.
 */
#include "layout.h"
#include "linux.h"

#include <string.h>

#define KiB(n) ((uint64_t)(n) << 10)
#define MiB(n) ((uint64_t)(n) << 20)
#define GiB(n) ((uint64_t)(n) << 30)
#define TiB(n) ((uint64_t)(n) << 40)
#define PiB(n) ((uint64_t)(n) << 50)

#define START_KERNEL UINT64_C(0xffffffff81000000)  /* default _text */

/* Everything from the cpu_entry_area up, common to 4.20+ 4- and 5-level. */
#define TAIL_420 \
	{ "cpu_entry_area", "CPU entry Area", 0xfffffe0000000000, .size = TiB(1) / 2 }, \
	{ "espfix", "ESPfix Area", 0xffffff0000000000, .size = TiB(1) / 2 }, \
	{ "efi", "EFI Runtime Services", 0xffffffef00000000, .size = GiB(64) }, \
	{ "kernel_text", "High Kernel Mapping", 0xffffffff80000000, .end_var = LV_MODULES }, \
	{ "modules", "Modules", 0xffffffffa0000000, .start_var = LV_MODULES }, \
	{ "fixmap", "Fixmap Area", 0xffffffffff000000 }, \
	{ "vsyscall", "vsyscall", 0xffffffffff600000, .size = KiB(4) }

#define USER_4L \
	{ "user", "User Space", 0 }, \
	{ "noncanonical", "Non-canonical", 0x0000800000000000 }

#define USER_5L \
	{ "user", "User Space", 0 }, \
	{ "noncanonical", "Non-canonical", 0x0100000000000000 }

static const struct layout_row rows_2611[] = {
	USER_4L,
	{ "guard", "Guard Hole", 0xffff800000000000 },
	{ "direct_map", "Low Kernel Mapping", 0xffff810000000000,
	  .start_var = LV_PAGE_OFFSET, .size = TiB(64) },
	{ "vmalloc", "vmalloc() Area", 0xffffc20000000000,
	  .start_var = LV_VMALLOC, .size = TiB(32) },
	{ "vmemmap", "Vmemmap", 0xffffe20000000000, .start_var = LV_VMEMMAP,
	  .size = TiB(1), .since = KV(2, 6, 24) },
	{ "kernel_text", "High Kernel Mapping", 0xffffffff80000000,
	  .size = MiB(40) },
	{ "modules", "Modules", 0xffffffff88000000, .size = MiB(1919) },
};

static const struct layout_row rows_2627[] = {
	USER_4L,
	{ "guard", "Guard Hole", 0xffff800000000000 },
	{ "direct_map", "Low Kernel Mapping", 0xffff880000000000,
	  .start_var = LV_PAGE_OFFSET, .size = TiB(64) },
	{ "vmalloc", "vmalloc() Area", 0xffffc90000000000,
	  .start_var = LV_VMALLOC, .size = TiB(32) },
	{ "vmemmap", "Vmemmap", 0xffffea0000000000, .start_var = LV_VMEMMAP,
	  .size = TiB(1) },
	{ "kasan", "KASAN shadow", 0xffffec0000000000, .size = TiB(16),
	  .since = KV(4, 0, 0), .unrandomized = true },
	{ "cpu_entry_area", "CPU entry Area", 0xfffffe0000000000,
	  .size = TiB(1) / 2, .since = KV(4, 15, 0) },
	{ "ldt_remap", "LDT remap", 0xfffffe8000000000, .size = TiB(1) / 2,
	  .since = KV(4, 15, 0) },
	{ "espfix", "ESPfix Area", 0xffffff0000000000, .size = TiB(1) / 2,
	  .since = KV(3, 16, 0) },
	{ "efi", "EFI Runtime Services", 0xffffffef00000000, .size = GiB(64),
	  .since = KV(3, 14, 0) },
	{ "kernel_text", "High Kernel Mapping", 0xffffffff80000000,
	  .end_var = LV_MODULES },
	{ "modules", "Modules", 0xffffffffa0000000, .start_var = LV_MODULES },
	{ "fixmap", "Fixmap Area", 0xffffffffff000000 },
	{ "vsyscall", "vsyscall", 0xffffffffff600000, .size = KiB(4) },
};

static const struct layout_row rows_420[] = {
	USER_4L,
	{ "guard", "Guard Hole", 0xffff800000000000 },
	{ "ldt_remap", "LDT remap", 0xffff880000000000, .size = TiB(1) / 2 },
	{ "direct_map", "Low Kernel Mapping", 0xffff888000000000,
	  .start_var = LV_PAGE_OFFSET, .size = TiB(64) },
	{ "vmalloc", "vmalloc() Area", 0xffffc90000000000,
	  .start_var = LV_VMALLOC, .size = TiB(32) },
	{ "vmemmap", "Vmemmap", 0xffffea0000000000, .start_var = LV_VMEMMAP,
	  .size = TiB(1) },
	{ "kasan", "KASAN shadow", 0xffffec0000000000, .size = TiB(16),
	  .unrandomized = true },
	TAIL_420,
};

static const struct layout_row rows_la57_414[] = {
	USER_5L,
	{ "guard", "Guard Hole", 0xff00000000000000 },
	{ "direct_map", "Low Kernel Mapping", 0xff10000000000000,
	  .start_var = LV_PAGE_OFFSET, .size = PiB(32) },
	{ "ldt_remap", "LDT remap", 0xff90000000000000, .size = PiB(4),
	  .since = KV(4, 15, 0) },
	{ "vmalloc", "vmalloc() Area", 0xffa0000000000000,
	  .start_var = LV_VMALLOC, .size = TiB(12800) },
	{ "vmemmap", "Vmemmap", 0xffd4000000000000, .start_var = LV_VMEMMAP,
	  .size = PiB(1) / 2 },
	{ "kasan", "KASAN shadow", 0xffdf000000000000,
	  .size = 0xfffffc0000000000 - 0xffdf000000000000,
	  .unrandomized = true },
	{ "cpu_entry_area", "CPU entry Area", 0xfffffe0000000000,
	  .size = TiB(1) / 2, .since = KV(4, 15, 0) },
	{ "espfix", "ESPfix Area", 0xffffff0000000000, .size = TiB(1) / 2 },
	{ "efi", "EFI Runtime Services", 0xffffffef00000000, .size = GiB(64) },
	{ "kernel_text", "High Kernel Mapping", 0xffffffff80000000,
	  .end_var = LV_MODULES },
	{ "modules", "Modules", 0xffffffffa0000000, .start_var = LV_MODULES },
	{ "fixmap", "Fixmap Area", 0xffffffffff000000 },
	{ "vsyscall", "vsyscall", 0xffffffffff600000, .size = KiB(4) },
};

static const struct layout_row rows_la57_420[] = {
	USER_5L,
	{ "guard", "Guard Hole", 0xff00000000000000 },
	{ "ldt_remap", "LDT remap", 0xff10000000000000, .size = PiB(1) / 4 },
	{ "direct_map", "Low Kernel Mapping", 0xff11000000000000,
	  .start_var = LV_PAGE_OFFSET, .size = PiB(32) },
	{ "vmalloc", "vmalloc() Area", 0xffa0000000000000,
	  .start_var = LV_VMALLOC, .size = TiB(12800) },
	{ "vmemmap", "Vmemmap", 0xffd4000000000000, .start_var = LV_VMEMMAP,
	  .size = PiB(1) / 2 },
	{ "kasan", "KASAN shadow", 0xffdf000000000000,
	  .size = 0xfffffc0000000000 - 0xffdf000000000000,
	  .unrandomized = true },
	TAIL_420,
};

static bool has_var(const struct layout_era *era, enum lvar var)
{
	for (size_t i = 0; i < era->nrows; i++)
		if (era->rows[i].start_var == var)
			return true;
	return false;
}

static uint64_t phys_top(struct pgw_image *img)
{
	const struct pgw_phys_range *r;
	size_t n = pgw_image_ranges(img, &r);
	uint64_t top = 0;

	for (size_t i = 0; i < n; i++)
		if (r[i].start + r[i].size > top)
			top = r[i].start + r[i].size;
	return top;
}

static void direct_map(const struct layout_era *era,
		       const struct pgw_space *space,
		       const struct pgw_layout_request *req, bool can_move,
		       struct layout_vals *vals, struct pgw_layout *out)
{
	uint64_t dm = 0, def = era->direct_default;
	unsigned matches = 0;
	const char *name = "page_offset_base";

	if (req->page_offset_base) {
		vals->v[LV_PAGE_OFFSET] = req->page_offset_base;
		layout_base(out, name, req->page_offset_base, PGW_BASE_OPTION,
			    "--page-offset-base");
		return;
	}
	if (!pgw_find_direct_map(space, &dm, &matches)) {
		layout_base(out, name, def, PGW_BASE_DEFAULT,
			    "no linear map of physical 0 in the page tables; "
			    "the era's base");
		return;
	}
	vals->v[LV_PAGE_OFFSET] = dm;
	if (dm == def && !can_move)
		layout_base(out, name, dm, PGW_BASE_LAYOUT,
			    "fixed in this era; the page tables map physical "
			    "0 there (%u/%u samples)", matches,
			    pgw_direct_map_samples(space->img));
	else
		layout_base(out, name, dm, PGW_BASE_INFERRED,
			    "the page tables map physical 0 there, linearly "
			    "(%u/%u samples)%s", matches,
			    pgw_direct_map_samples(space->img),
			    dm == def ? "; the era's default: not randomized" :
					"");
}

/* First mapping in [from, to), rounded down to KASLR's 1 GiB granule. */
static bool first_gib(const struct pgw_space *space, uint64_t from,
		      uint64_t to, uint64_t *base_ret, uint64_t *first_ret)
{
	struct pgw_leaf leaf;

	if (from == 0 || (to && from >= to) ||
	    !layout_first_leaf(space, from, to, &leaf))
		return false;
	*first_ret = leaf.va;
	*base_ret = leaf.va & ~(GiB(1) - 1);
	return true;
}

static void moved_bases(const struct layout_era *era,
			const struct pgw_space *space,
			const struct pgw_layout_request *req, uint32_t version,
			struct layout_vals *vals, struct pgw_layout *out)
{
	uint64_t kaslr_end = era->kaslr_end;
	uint64_t base, first;

	/* Before cpu_entry_area (4.15) KASLR reached up to the espfix area. */
	if (version && version < KV(4, 15, 0))
		kaslr_end = 0xffffff0000000000;

	if (req->vmalloc_base) {
		vals->v[LV_VMALLOC] = req->vmalloc_base;
		layout_base(out, "vmalloc_base", req->vmalloc_base,
			    PGW_BASE_OPTION, "--vmalloc-base");
	} else if (!vals->randomized) {
		layout_base(out, "vmalloc_base", vals->v[LV_VMALLOC],
			    PGW_BASE_LAYOUT, "fixed: the direct map is at its "
			    "default base, so memory KASLR is off");
	} else {
		uint64_t reach = phys_top(space->img);
		reach = (reach + TiB(1) - 1) & ~(TiB(1) - 1);
		if (reach < TiB(1))
			reach = TiB(1);
		if (first_gib(space, vals->v[LV_PAGE_OFFSET] + reach,
			      kaslr_end, &base, &first)) {
			vals->v[LV_VMALLOC] = base;
			layout_base(out, "vmalloc_base", base,
				    PGW_BASE_INFERRED,
				    "first mapping past the direct map's "
				    "reach (0x%llx), rounded down to 1 GiB",
				    (unsigned long long)first);
		} else {
			layout_base(out, "vmalloc_base", vals->v[LV_VMALLOC],
				    PGW_BASE_DEFAULT, "nothing mapped past "
				    "the direct map; the era's base");
		}
	}

	if (!has_var(era, LV_VMEMMAP) || (version && version < KV(2, 6, 24)))
		return;
	if (req->vmemmap_base) {
		vals->v[LV_VMEMMAP] = req->vmemmap_base;
		layout_base(out, "vmemmap_base", req->vmemmap_base,
			    PGW_BASE_OPTION, "--vmemmap-base");
	} else if (!vals->randomized) {
		layout_base(out, "vmemmap_base", vals->v[LV_VMEMMAP],
			    PGW_BASE_LAYOUT, "fixed: the direct map is at its "
			    "default base, so memory KASLR is off");
	} else if (first_gib(space, vals->v[LV_VMALLOC] + era->vmalloc_size,
			     kaslr_end, &base, &first)) {
		vals->v[LV_VMEMMAP] = base;
		layout_base(out, "vmemmap_base", base, PGW_BASE_INFERRED,
			    "first mapping past the vmalloc area (0x%llx)%s",
			    (unsigned long long)first,
			    first == base ? ", on a 1 GiB boundary: the "
					    "struct page of pfn 0" :
					    ", rounded down to 1 GiB");
	} else {
		layout_base(out, "vmemmap_base", vals->v[LV_VMEMMAP],
			    PGW_BASE_DEFAULT, "nothing mapped past the vmalloc "
			    "area; the era's base");
	}
}

static void kernel_image(const struct layout_era *era,
			 const struct pgw_space *space,
			 struct layout_vals *vals, struct pgw_layout *out)
{
	struct pgw_image *img = space->img;
	uint64_t v, off = 0;
	bool have_off = pgw_vmcoreinfo_u64(img, "KERNELOFFSET", &off);

	if (pgw_vmcoreinfo_u64(img, "SYMBOL(_stext)", &v))
		layout_base(out, "_stext", v, PGW_BASE_VMCOREINFO,
			    "SYMBOL(_stext)");
	else if (have_off)
		layout_base(out, "_stext", START_KERNEL + off,
			    PGW_BASE_VMCOREINFO,
			    "__START_KERNEL 0x%llx + KERNELOFFSET 0x%llx",
			    (unsigned long long)START_KERNEL,
			    (unsigned long long)off);

	if (!has_var(era, LV_MODULES))
		return;
	if (pgw_vmcoreinfo_u64(img, "NUMBER(KERNEL_IMAGE_SIZE)", &v) &&
	    v > 0 && v <= GiB(1)) {
		vals->v[LV_MODULES] = LINUX_START_KERNEL_MAP + v;
		layout_base(out, "MODULES_VADDR", vals->v[LV_MODULES],
			    PGW_BASE_VMCOREINFO, "__START_KERNEL_map + "
			    "NUMBER(KERNEL_IMAGE_SIZE)=%llu",
			    (unsigned long long)v);
	} else if ((have_off && off != 0) || vals->randomized) {
		vals->v[LV_MODULES] = LINUX_START_KERNEL_MAP + GiB(1);
		layout_base(out, "MODULES_VADDR", vals->v[LV_MODULES],
			    PGW_BASE_INFERRED, "%s CONFIG_RANDOMIZE_BASE, "
			    "whose kernel image area is 1 GiB",
			    have_off && off != 0 ?
				    "a non-zero KERNELOFFSET implies" :
				    "randomized memory bases (CONFIG_RANDOMIZE_"
				    "MEMORY) imply");
	} else {
		layout_base(out, "MODULES_VADDR", vals->v[LV_MODULES],
			    PGW_BASE_DEFAULT, "the era's 512 MiB kernel image "
			    "area (no KERNEL_IMAGE_SIZE in VMCOREINFO)");
	}
}

static void resolve_x86_64(const struct layout_era *era,
			   const struct pgw_space *space,
			   const struct pgw_layout_request *req,
			   struct layout_vals *vals, struct pgw_layout *out)
{
	uint32_t version = vals->version;
	bool can_move = era->kaslr_since &&
			(version == 0 || version >= era->kaslr_since);

	direct_map(era, space, req, can_move, vals, out);
	vals->randomized = vals->v[LV_PAGE_OFFSET] != era->direct_default;
	moved_bases(era, space, req, version, vals, out);
	kernel_image(era, space, vals, out);
}

#define ROWS(r) .rows = r, .nrows = sizeof(r) / sizeof(r[0])

const struct layout_era pgw_era_x86_64_2611 = {
	.name = "x86-64-2.6.11",
	.desc = "Linux 2.6.11-2.6.26 x86-64 4-level (the 4-level patch set's "
		"mm.txt): direct map 0xffff810000000000",
	.modes = { &pgw_mode_x86_64 },
	.from = KV(2, 6, 11), .until = KV(2, 6, 27),
	ROWS(rows_2611), .resolve = resolve_x86_64,
	.vmalloc_size = TiB(32),
	.direct_default = 0xffff810000000000,
};

const struct layout_era pgw_era_x86_64_2627 = {
	.name = "x86-64-2.6.27",
	.desc = "Linux 2.6.27-4.19 x86-64 4-level (x86_64/mm.txt): direct map "
		"0xffff880000000000, KASLR from 4.8",
	.modes = { &pgw_mode_x86_64 },
	.from = KV(2, 6, 27), .until = KV(4, 20, 0),
	ROWS(rows_2627), .resolve = resolve_x86_64,
	.kaslr_since = KV(4, 8, 0), .kaslr_end = 0xfffffe0000000000,
	.vmalloc_size = TiB(32),
	.direct_default = 0xffff880000000000,
};

const struct layout_era pgw_era_x86_64_420 = {
	.name = "x86-64-4.20",
	.desc = "Linux 4.20+ x86-64 4-level (x86_64/mm.rst): direct map "
		"0xffff888000000000, LDT remap in front of it",
	.modes = { &pgw_mode_x86_64 }, .from = KV(4, 20, 0), .until = 0,
	ROWS(rows_420), .resolve = resolve_x86_64,
	.kaslr_since = KV(4, 8, 0), .kaslr_end = 0xfffffe0000000000,
	.vmalloc_size = TiB(32),
	.direct_default = 0xffff888000000000,
};

const struct layout_era pgw_era_la57_414 = {
	.name = "la57-4.14",
	.desc = "Linux 4.14-4.19 x86-64 5-level (x86_64/mm.txt): direct map "
		"0xff10000000000000",
	.modes = { &pgw_mode_la57 },
	.from = KV(4, 14, 0), .until = KV(4, 20, 0),
	ROWS(rows_la57_414), .resolve = resolve_x86_64,
	.kaslr_since = KV(4, 14, 0), .kaslr_end = 0xfffffe0000000000,
	.vmalloc_size = TiB(12800),
	.direct_default = 0xff10000000000000,
};

const struct layout_era pgw_era_la57_420 = {
	.name = "la57-4.20",
	.desc = "Linux 4.20+ x86-64 5-level (x86_64/mm.rst): direct map "
		"0xff11000000000000",
	.modes = { &pgw_mode_la57 }, .from = KV(4, 20, 0), .until = 0,
	ROWS(rows_la57_420), .resolve = resolve_x86_64,
	.kaslr_since = KV(4, 14, 0), .kaslr_end = 0xfffffe0000000000,
	.vmalloc_size = TiB(12800),
	.direct_default = 0xff11000000000000,
};
