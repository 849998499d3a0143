/* Memory-map layouts: every era's rows tile the address space, with and
 * without KASLR-moved bases, and rows appear by kernel version. */
#include "tap.h"

#include "linux/layout.h"

#include <string.h>

static const struct layout_era *const eras[] = {
	&pgw_era_x86_64_2611, &pgw_era_x86_64_2627, &pgw_era_x86_64_420,
	&pgw_era_la57_414, &pgw_era_la57_420, &pgw_era_i386,
	&pgw_era_arm64_48, &pgw_era_arm64_69,
};

static bool tiles(const struct pgw_layout *l, uint64_t top, const char *what)
{
	bool good = l->nregions > 1 && l->nregions < PGW_LAYOUT_MAX_REGIONS &&
		    l->region[0].start == 0 &&
		    l->region[l->nregions - 1].end == top;

	for (size_t i = 0; good && i < l->nregions; i++) {
		const struct pgw_region *r = &l->region[i];
		if (i + 1 < l->nregions && r->end != l->region[i + 1].start)
			good = false;
		if (r->end != 0 && r->end <= r->start)
			good = false;
		if (pgw_layout_find(l, r->start) != i ||
		    pgw_layout_find(l, r->end - 1) != i)
			good = false;
	}
	return ok(good, "%s: %zu regions tile [0, top) and find() agrees",
		  what, l->nregions);
}

static bool has(const struct pgw_layout *l, const char *key)
{
	for (size_t i = 0; i < l->nregions; i++)
		if (strcmp(l->region[i].key, key) == 0)
			return true;
	return false;
}

static void i386_vals(struct layout_vals *v)
{
	static const struct { enum lvar var; uint64_t val; } set[] = {
		{ LV_PAGE_OFFSET, 0xc0000000 }, { LV_HIGH_MEMORY, 0xc5fe0000 },
		{ LV_VMALLOC, 0xc67e0000 }, { LV_VMALLOC_END, 0xfebfe000 },
		{ LV_PKMAP, 0xfec00000 }, { LV_LDT, 0xff000000 },
		{ LV_CPU_ENTRY, 0xff400000 }, { LV_PMD_SIZE, 0x400000 },
	};
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		v->v[set[i].var] = set[i].val;
		v->known[set[i].var] = true;
	}
}

/* arm64-4k-a's bounds (6.1, 48-bit VA), and 6.9's upper end. */
static void arm64_vals(const struct layout_era *e, struct layout_vals *v)
{
	static const struct { enum lvar var; uint64_t val; } set[] = {
		{ LV_USER_END, UINT64_C(0x0001000000000000) },
		{ LV_PAGE_OFFSET, UINT64_C(0xffff000000000000) },
		{ LV_LINEAR_END, UINT64_C(0xffff800000000000) },
		{ LV_MODULES, UINT64_C(0xffff800000000000) },
		{ LV_MODULES_END, UINT64_C(0xffff800008000000) },
		{ LV_VMALLOC, UINT64_C(0xffff800008000000) },
		{ LV_KIMAGE, UINT64_C(0xffffd62fd9a00000) },
		{ LV_KIMAGE_END, UINT64_C(0xffffd62fdba10000) },
		{ LV_VMALLOC_END, UINT64_C(0xfffffbfff0000000) },
		{ LV_FIXMAP, UINT64_C(0xfffffbfff0000000) },
		{ LV_FIXMAP_END, UINT64_C(0xfffffbfffe000000) },
		{ LV_PCI_IO, UINT64_C(0xfffffbfffe800000) },
		{ LV_VMEMMAP, UINT64_C(0xfffffc0000000000) },
		{ LV_VMEMMAP_END, UINT64_C(0xfffffe0000000000) },
	};
	for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		v->v[set[i].var] = set[i].val;
		v->known[set[i].var] = true;
	}
	if (e == &pgw_era_arm64_69) {
		v->v[LV_VMEMMAP_END] = UINT64_C(0xffffffffc0000000);
		v->v[LV_VMEMMAP] = UINT64_C(0xffffffbfc0000000);
		v->v[LV_PCI_IO] = UINT64_C(0xffffffffc0800000);
		v->v[LV_FIXMAP] = UINT64_C(0xffffffffc1800000);
		v->v[LV_FIXMAP_END] = UINT64_C(0xffffffffff800000);
	}
}

int main(void)
{
	static struct pgw_layout l;
	const char *const *names = pgw_layout_names();
	size_t n = 0;

	for (size_t i = 0; i < sizeof(eras) / sizeof(eras[0]); i++) {
		const struct layout_era *e = eras[i];
		bool is32 = e->modes[0]->va_bits == 32;
		uint64_t top = is32 ? UINT64_C(1) << 32 : 0;
		struct layout_vals v;

		memset(&v, 0, sizeof(v));
		layout_defaults(e, &v);
		if (is32)
			i386_vals(&v);
		if (e->elf_machine)
			arm64_vals(e, &v);
		memset(&l, 0, sizeof(l));
		layout_build(e, &v, top, &l);
		tiles(&l, top, e->name);
		if (e->elf_machine) {
			size_t k = pgw_layout_find(&l, v.v[LV_KIMAGE_END]);
			ok(has(&l, "fixmap") && has(&l, "pci_io") &&
			   has(&l, "vmemmap") &&
			   pgw_layout_find(&l, v.v[LV_KIMAGE]) + 1 == k &&
			   strcmp(l.region[k].key, "vmalloc") == 0,
			   "%s: fixmap, PCI I/O, vmemmap; the kernel image "
			   "inside vmalloc", e->name);
		}
		if (is32) {
			ok(has(&l, "pkmap") && has(&l, "ldt_remap"),
			   "%s: pkmap and LDT remap present", e->name);
			continue;
		}
		ok(has(&l, "direct_map") && has(&l, "vmalloc") &&
		   has(&l, "kernel_text") && has(&l, "modules"),
		   "%s: direct map, vmalloc, kernel text, modules", e->name);
		if (!e->kaslr_since)
			continue;
		/* KASLR: bases moved up by odd GiB amounts, in order. */
		v.v[LV_PAGE_OFFSET] = e->direct_default + 3 * (UINT64_C(1) << 40);
		v.v[LV_VMALLOC] = v.v[LV_PAGE_OFFSET] + 70 * (UINT64_C(1) << 40);
		v.v[LV_VMEMMAP] = v.v[LV_VMALLOC] + e->vmalloc_size +
				  (UINT64_C(5) << 30);
		v.v[LV_MODULES] = UINT64_C(0xffffffffc0000000);
		v.randomized = true;
		memset(&l, 0, sizeof(l));
		layout_build(e, &v, top, &l);
		char what[64];
		snprintf(what, sizeof(what), "%s randomized", e->name);
		tiles(&l, top, what);
		ok(!has(&l, "kasan"), "%s: no KASAN shadow (KASAN disables "
		   "KASLR)", what);
		size_t k = pgw_layout_find(&l, v.v[LV_VMEMMAP]);
		ok(strcmp(l.region[k].key, "vmemmap") == 0 &&
		   l.region[k].start == v.v[LV_VMEMMAP],
		   "%s: vmemmap starts at its moved base", what);
	}

	struct layout_vals v;
	memset(&v, 0, sizeof(v));
	layout_defaults(&pgw_era_x86_64_2627, &v);
	v.version = KV(4, 14, 0);
	memset(&l, 0, sizeof(l));
	layout_build(&pgw_era_x86_64_2627, &v, 0, &l);
	ok(!has(&l, "cpu_entry_area") && has(&l, "espfix"),
	   "4.14: no cpu_entry_area yet, espfix present");
	v.version = KV(4, 15, 0);
	memset(&l, 0, sizeof(l));
	layout_build(&pgw_era_x86_64_2627, &v, 0, &l);
	ok(has(&l, "cpu_entry_area") && has(&l, "ldt_remap"),
	   "4.15: cpu_entry_area and LDT remap");

	while (names[n])
		n++;
	is_u64(n, sizeof(eras) / sizeof(eras[0]), "every era has a name");
	ok(pgw_layout_describe("x86-64-4.20") != NULL &&
	   pgw_layout_describe("nonsense") == NULL, "describe() by name");
	return tap_done();
}
