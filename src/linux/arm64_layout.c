/*
 * arm64 Linux virtual memory map (arch/arm64/include/asm/memory.h,
 * Documentation/arch/arm64/memory.rst), for a kernel running VA bits
 * wide (the mode's: TCR_EL1.T1SZ, not VA_BITS):
 *
 *   [0, 2^VA)                          user space (TTBR0)
 *   [PAGE_OFFSET = -2^VA, PAGE_END)    the linear map, PAGE_END = -2^(VA-1)
 *   [MODULES_VADDR, MODULES_END)       modules
 *   [VMALLOC_START, VMALLOC_END)       vmalloc, holding the kernel image
 *                                      from _text = MODULES_END + KASLR
 *   before 6.9:  fixmap up to VMEMMAP_START - 32 MiB, PCI I/O 16 MiB
 *                8 MiB below VMEMMAP_START, then vmemmap;
 *   6.9 and on:  vmemmap up to VMEMMAP_END = -1 GiB, PCI I/O 16 MiB at
 *                VMEMMAP_END + 8 MiB, fixmap up to FIXADDR_TOP = -8 MiB.
 *
 * VMCOREINFO gives the module, vmalloc and vmemmap bounds and
 * KERNELOFFSET.  Where vmemmap starts is the kernel's own sum: one struct
 * page per page of the linear map, below VMEMMAP_END (VMCOREINFO's
 * VMEMMAP_START is for VA_BITS, lower when a 52-bit kernel runs 47 or 48
 * bits wide).  The kernel image's end is where the walk from _text stops
 * mapping it at va - kimage_voffset.
 */
#include "layout.h"
#include "arm64.h"
#include "../arch/arm64.h"
#include "../lib/names.h"

#define MiB(n) ((uint64_t)(n) << 20)

#define ROWS_COMMON \
	{ "user", "User Space", 0 }, \
	{ "noncanonical", "Non-canonical", 0, .start_var = LV_USER_END }, \
	{ "direct_map", "Linear Mapping", 0, .start_var = LV_PAGE_OFFSET, \
	  .end_var = LV_LINEAR_END }, \
	{ "modules", "Modules", 0, .start_var = LV_MODULES, \
	  .end_var = LV_MODULES_END }, \
	{ "vmalloc", "vmalloc() Area", 0, .start_var = LV_VMALLOC, \
	  .end_var = LV_VMALLOC_END }, \
	{ "kernel_text", "Kernel Image", 0, .start_var = LV_KIMAGE, \
	  .end_var = LV_KIMAGE_END }, \
	{ "vmalloc", "vmalloc() Area", 0, .start_var = LV_KIMAGE_END, \
	  .end_var = LV_VMALLOC_END }, \
	{ "fixmap", "Fixmap Area", 0, .start_var = LV_FIXMAP, \
	  .end_var = LV_FIXMAP_END }, \
	{ "pci_io", "PCI I/O", 0, .start_var = LV_PCI_IO, .size = MiB(16) }, \
	{ "vmemmap", "Vmemmap", 0, .start_var = LV_VMEMMAP, \
	  .end_var = LV_VMEMMAP_END }

static const struct layout_row rows_arm64[] = { ROWS_COMMON };

static void set(struct layout_vals *vals, enum lvar var, uint64_t v)
{
	vals->v[var] = v;
	vals->known[var] = true;
}

struct kimage {
	uint64_t kvoff, end;
};

/* The image's leaves map va - kimage_voffset; the first that does not
 * ends it (holes, [_text, _stext) and freed init memory, are passed). */
static int kimage_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct kimage *k = arg;

	if (leaf->pa != leaf->va - k->kvoff)
		return 1;
	k->end = leaf->va + leaf->size * leaf->count;
	return 0;
}

static uint64_t kimage_end(const struct pgw_space *space, uint64_t text,
			   uint64_t kvoff, uint64_t vmalloc_end)
{
	struct kimage k = { kvoff, 0 };
	struct pgw_walk_ops ops = { .leaf = kimage_leaf };
	/* An image is tens of MiB: 256 MiB bounds the walk. */
	struct pgw_walk_opts opts = {
		.start = text,
		.end = vmalloc_end - text > MiB(256) ? text + MiB(256) :
						       vmalloc_end,
		.max_entries = PGW_DEFAULT_MAX_ENTRIES,
	};
	struct pgw_err err;

	(void)pgw_walk_range(space, &opts, &ops, &k, NULL, NULL, &err);
	return k.end;
}

static const char *const from_vmci[][2] = {
	{ "MODULES_VADDR", "NUMBER(MODULES_VADDR)" },
	{ "MODULES_END", "NUMBER(MODULES_END)" },
	{ "VMALLOC_START", "NUMBER(VMALLOC_START)" },
	{ "VMALLOC_END", "NUMBER(VMALLOC_END)" },
	{ "VMEMMAP_END", "NUMBER(VMEMMAP_END)" },
};
static const enum lvar from_vmci_var[] = {
	LV_MODULES, LV_MODULES_END, LV_VMALLOC, LV_VMALLOC_END, LV_VMEMMAP_END,
};

static void resolve_arm64(const struct layout_era *era,
			  const struct pgw_space *space,
			  const struct pgw_layout_request *req,
			  struct layout_vals *vals, struct pgw_layout *out)
{
	struct pgw_vmci_source s = pgw_vmci_image(space->img);
	unsigned va = space->mode->va_bits;
	uint64_t v, po = 0 - (UINT64_C(1) << va);
	bool new_map = era == &pgw_era_arm64_69;

	(void)req;
	for (int i = 0; i < LV_COUNT; i++)
		vals->known[i] = false;
	set(vals, LV_USER_END, UINT64_C(1) << va);
	set(vals, LV_PAGE_OFFSET, po);
	layout_base(out, "PAGE_OFFSET", po, PGW_BASE_LAYOUT,
		    "-2^%u: the mode's VA size", va);
	set(vals, LV_LINEAR_END, 0 - (UINT64_C(1) << (va - 1)));
	for (size_t i = 0; i < PGW_NELEMS(from_vmci); i++)
		if (linux_arm64_number(&s, from_vmci[i][1], &v)) {
			set(vals, from_vmci_var[i], v);
			if (i != 1 && i != 3)
				layout_base(out, from_vmci[i][0], v,
					    PGW_BASE_VMCOREINFO, "%s",
					    from_vmci[i][1]);
		}
	uint64_t off, kvoff, pages;
	if (vals->known[LV_MODULES_END] &&
	    linux_arm64_number(&s, "KERNELOFFSET", &off) &&
	    linux_arm64_number(&s, "NUMBER(kimage_voffset)", &kvoff)) {
		uint64_t text = vals->v[LV_MODULES_END] + off;
		set(vals, LV_KIMAGE, text);
		layout_base(out, "_text", text, PGW_BASE_VMCOREINFO,
			    "MODULES_END + KERNELOFFSET");
		uint64_t end = vals->known[LV_VMALLOC_END] ?
			kimage_end(space, text, kvoff,
				   vals->v[LV_VMALLOC_END]) : 0;
		if (end) {
			set(vals, LV_KIMAGE_END, end);
			layout_base(out, "_end", end, PGW_BASE_INFERRED,
				    "where the page tables stop mapping the "
				    "image at va - kimage_voffset");
		}
	}
	if (vals->known[LV_VMEMMAP_END] &&
	    linux_arm64_number(&s, "SIZE(page)", &pages)) {
		unsigned shift = pgw_arm64_granule_shift(space->mode);
		uint64_t start = vals->v[LV_VMEMMAP_END] -
				 ((UINT64_C(1) << (va - 1)) >> shift) * pages;
		set(vals, LV_VMEMMAP, start);
		layout_base(out, "VMEMMAP_START", start, PGW_BASE_INFERRED,
			    "VMEMMAP_END - one SIZE(page)=%llu per page of the "
			    "linear map", (unsigned long long)pages);
	}
	if (new_map && vals->known[LV_VMEMMAP_END]) {
		uint64_t pci = vals->v[LV_VMEMMAP_END] + MiB(8);
		set(vals, LV_PCI_IO, pci);
		set(vals, LV_FIXMAP, pci + MiB(16));
		set(vals, LV_FIXMAP_END, 0 - MiB(8));
	} else if (!new_map && vals->known[LV_VMEMMAP] &&
		   vals->known[LV_VMALLOC_END]) {
		uint64_t vs = vals->v[LV_VMEMMAP];
		set(vals, LV_FIXMAP, vals->v[LV_VMALLOC_END]);
		set(vals, LV_FIXMAP_END, vs - MiB(32));
		set(vals, LV_PCI_IO, vs - MiB(24));
	}
	if (vals->known[LV_PCI_IO])
		layout_base(out, "PCI_IO_START", vals->v[LV_PCI_IO],
			    PGW_BASE_LAYOUT, "%s", new_map ?
			    "VMEMMAP_END + 8 MiB (6.9+)" :
			    "VMEMMAP_START - 24 MiB (before 6.9)");
}

const struct layout_era pgw_era_arm64_48 = {
	.name = "arm64",
	.desc = "Linux arm64 before 6.9 (memory.h): linear map, modules, "
		"vmalloc with the kernel image, fixmap, PCI I/O, vmemmap",
	.modes = { &pgw_mode_arm64_4k_48 }, .elf_machine = EM_AARCH64_ID,
	.from = 0, .until = KV(6, 9, 0),
	.rows = rows_arm64, .nrows = PGW_NELEMS(rows_arm64),
	.resolve = resolve_arm64,
};

const struct layout_era pgw_era_arm64_69 = {
	.name = "arm64-6.9",
	.desc = "Linux arm64 6.9+ (memory.h): linear map, modules, vmalloc "
		"with the kernel image, vmemmap, PCI I/O, fixmap at the top",
	.modes = { &pgw_mode_arm64_4k_48 }, .elf_machine = EM_AARCH64_ID,
	.from = KV(6, 9, 0), .until = 0,
	.rows = rows_arm64, .nrows = PGW_NELEMS(rows_arm64),
	.resolve = resolve_arm64,
};
