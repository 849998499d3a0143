/*
 * Which paging mode an image uses, decided by the strongest evidence it
 * has: CPU registers, then VMCOREINFO, then the ELF machine, then a
 * validation walk that keeps the mode under which the kernel's direct map
 * is a consistent linear mapping.  Also the PTI user-root test.
 */
#include "../arch/x86.h"
#include "../walk/step.h"

#include <stdio.h>
#include <string.h>

static const char *mode_name_for_cpu(const struct pgw_cpu *c, bool long_mode)
{
	if (long_mode)
		return (c->cr4 & X86_CR4_LA57) ? "la57" : "x86-64";
	return (c->cr4 & X86_CR4_PAE) ? "pae" : "i386";
}

static bool from_cpus(struct pgw_image *img, struct pgw_mode_choice *ch)
{
	const struct pgw_cpu *cpus;
	size_t n = pgw_image_cpus(img, &cpus);

	for (size_t i = 0; i < n; i++) {
		const struct pgw_cpu *c = &cpus[i];
		if (!c->has_cr || !(c->cr0 & X86_CR0_PG))
			continue;
		/* QEMU's note has no EFER; a 64-bit code segment on any CPU,
		 * or the ELF machine QEMU picks from LMA, says long mode. */
		bool lm, any_l = false;
		const char *how;
		for (size_t k = 0; k < n; k++)
			any_l |= cpus[k].has_cs && (cpus[k].cs_flags & X86_DESC_L);
		if (c->has_efer) {
			lm = c->efer & X86_EFER_LMA;
			how = lm ? "long mode (EFER.LMA=1)" :
				   "not long mode (EFER.LMA=0)";
		} else if (any_l) {
			lm = true;
			how = "long mode (a 64-bit code segment, CS.L=1)";
		} else {
			lm = pgw_image_machine(img) == EM_X86_64_ID;
			how = lm ? "long mode (ELF machine x86-64)" :
				   "not long mode (no 64-bit code segment, "
				   "ELF machine not x86-64)";
		}
		ch->mode = pgw_mode_by_name(mode_name_for_cpu(c, lm));
		snprintf(ch->why, sizeof(ch->why),
			 "CPU %zu registers: CR0.PG=1 CR4.PAE=%d CR4.PSE=%d "
			 "CR4.LA57=%d, %s", i,
			 !!(c->cr4 & X86_CR4_PAE), !!(c->cr4 & X86_CR4_PSE),
			 !!(c->cr4 & X86_CR4_LA57), how);
		return true;
	}
	return false;
}

static bool from_vmcoreinfo(struct pgw_image *img, struct pgw_mode_choice *ch)
{
	uint64_t v, sym;
	const char *pae = pgw_vmcoreinfo_get(img, "CONFIG_X86_PAE");

	if (pgw_vmcoreinfo_u64(img, "NUMBER(pgtable_l5_enabled)", &v)) {
		ch->mode = pgw_mode_by_name(v ? "la57" : "x86-64");
		snprintf(ch->why, sizeof(ch->why),
			 "VMCOREINFO NUMBER(pgtable_l5_enabled)=%llu",
			 (unsigned long long)v);
		return true;
	}
	if (pae && strcmp(pae, "y") == 0) {
		ch->mode = pgw_mode_by_name("pae");
		snprintf(ch->why, sizeof(ch->why),
			 "VMCOREINFO CONFIG_X86_PAE=y");
		return true;
	}
	if (pgw_vmcoreinfo_u64(img, "SYMBOL(init_top_pgt)", &sym) ||
	    pgw_vmcoreinfo_u64(img, "SYMBOL(init_level4_pgt)", &sym) ||
	    pgw_vmcoreinfo_u64(img, "SYMBOL(swapper_pg_dir)", &sym)) {
		bool k64 = sym >= X86_64_START_KERNEL_MAP;
		ch->mode = pgw_mode_by_name(k64 ? "x86-64" : "i386");
		snprintf(ch->why, sizeof(ch->why),
			 "VMCOREINFO kernel symbols are %s-bit%s",
			 k64 ? "64" : "32",
			 k64 ? " (no pgtable_l5_enabled: 4-level)" :
			       " and CONFIG_X86_PAE is absent");
		return true;
	}
	return false;
}

/*
 * Entries the direct-map search may examine in 64-bit modes.  On real
 * kernels the direct map is the first thing mapped in the upper half (294
 * entries in on the 4-level test dumps, 559 on 5-level; a PTI LDT remap
 * just before it adds a few tables): 2^14 is thirty times that, and a
 * hostile root that maps everything but physical 0 costs well under a
 * millisecond per candidate mode.
 */
#define DIRECT_MAP_BUDGET (1u << 14)

struct dm_find {
	uint64_t base;
	bool found;
};

static int dm_leaf(void *arg, const struct pgw_leaf *leaf)
{
	struct dm_find *f = arg;

	if (leaf->pa == 0 && (leaf->va & ((UINT64_C(1) << 21) - 1)) == 0) {
		f->base = leaf->va;
		f->found = true;
		return 1;
	}
	return 0;
}

bool pgw_find_direct_map(const struct pgw_space *space, uint64_t *base_ret,
			 unsigned *matches_ret)
{
	static const uint64_t samples[] = {
		0x1000, 0x100000, 0x3ff000, 0x1000000 + 0x5000, 0x2000000,
	};
	const struct pgw_mode *mode = space->mode;
	struct dm_find f = { 0 };
	struct pgw_walk_ops ops = { .leaf = dm_leaf };
	struct pgw_walk_opts opts = {
		.start = ~((UINT64_C(1) << (mode->va_bits - 1)) - 1),
		.end = 0,
		.max_entries = DIRECT_MAP_BUDGET,
	};
	struct pgw_err err;
	const struct pgw_phys_range *ranges;
	size_t nr = pgw_image_ranges(space->img, &ranges);
	uint64_t top = nr ? ranges[nr - 1].start + ranges[nr - 1].size : 0;
	unsigned matches = 0;

	*matches_ret = 0;
	if (mode->quirks & PGW_Q_CANONICAL) {
		(void)pgw_walk_range(space, &opts, &ops, &f, NULL, NULL, &err);
	} else {
		/* 32-bit kernels map physical 0 at one of a few fixed
		 * PAGE_OFFSETs: look there rather than walk the user half
		 * that lies before it (or miss a 1G/3G split). */
		for (size_t i = 0; i < X86_NPAGE_OFFSETS_32 && !f.found; i++) {
			struct pgw_xlat x;
			uint64_t po = pgw_x86_page_offsets_32[i];
			if (pgw_translate(space, po, &x) == PGW_STOP_OK &&
			    x.pa == 0) {
				f.base = po;
				f.found = true;
			}
		}
	}
	if (!f.found)
		return false;
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		struct pgw_xlat x;
		if (samples[i] >= top)
			continue;
		if (pgw_translate(space, f.base + samples[i], &x) == PGW_STOP_OK &&
		    x.pa == samples[i])
			matches++;
	}
	*base_ret = f.base;
	*matches_ret = matches;
	return matches >= 3;
}

static bool from_validation(struct pgw_image *img, uint64_t root,
			    const char *const *names,
			    struct pgw_mode_choice *ch)
{
	unsigned best = 0;

	for (size_t i = 0; names[i]; i++) {
		const struct pgw_mode *m = pgw_mode_by_name(names[i]);
		struct pgw_space sp = { img, m, pgw_cr3_table(m, root) };
		uint64_t base;
		unsigned matches;
		if (pgw_find_direct_map(&sp, &base, &matches) &&
		    matches > best) {
			best = matches;
			ch->mode = m;
			snprintf(ch->why, sizeof(ch->why),
				 "validation walk: %s maps a linear "
				 "direct map (0x%llx -> physical 0, %u/5 "
				 "samples)", m->name, (unsigned long long)base,
				 matches);
		}
	}
	return best > 0;
}

enum pgw_status pgw_detect_mode(struct pgw_image *img, uint64_t root_hint,
				bool have_root_hint,
				struct pgw_mode_choice *ch,
				struct pgw_err *err)
{
	/*
	 * Shallowest first, and a later mode must match strictly more: a
	 * deeper mode reading a shallower mode's tables sees every leaf one
	 * level up, as a bigger page that still looks linear at the small
	 * sample offsets (la57 reading a 2 MiB x86-64 direct map, x86-64
	 * reading a PAE one), so ties must go to the shallower mode.
	 */
	static const char *const all[] = { "i386", "pae", "x86-64", "la57",
					   NULL };
	static const char *const m32[] = { "i386", "pae", NULL };
	unsigned machine = pgw_image_machine(img);

	memset(ch, 0, sizeof(*ch));
	if (from_cpus(img, ch) || from_vmcoreinfo(img, ch))
		return PGW_OK;
	if (machine == EM_X86_64_ID) {
		ch->mode = pgw_mode_by_name("x86-64");
		snprintf(ch->why, sizeof(ch->why),
			 "ELF machine x86-64 (4-level assumed: no CPU state "
			 "or VMCOREINFO says LA57)");
		return PGW_OK;
	}
	if (have_root_hint &&
	    from_validation(img, root_hint, machine == EM_386_ID ? m32 : all,
			    ch))
		return PGW_OK;
	if (machine == EM_386_ID) {
		ch->mode = pgw_mode_by_name("i386");
		snprintf(ch->why, sizeof(ch->why),
			 "ELF machine i386 (2-level assumed: no CPU state, "
			 "VMCOREINFO or root to validate PAE)");
		return PGW_OK;
	}
	return pgw_err_set(err, PGW_E_NOTFOUND,
			   "cannot tell the paging mode: the image has no CPU "
			   "state, VMCOREINFO or ELF machine%s; give --mode",
			   have_root_hint ? ", and no mode maps a consistent "
					    "direct map from that root" :
					    " (with --cr3 a validation walk "
					    "can decide)");
}

/* Entry i of the level-lvl table at `table`, through the walk's own
 * step; false when the table is not in the image. */
static bool probe_entry(struct pgw_image *img, const struct pgw_mode *mode,
			enum pgw_level lvl, uint64_t table, unsigned i,
			struct pgw_entry *e)
{
	struct pgw_space sp = { .img = img, .mode = mode, .root = table };
	struct pgw_step s;
	struct pgw_err err;

	(void)pgw_step(&sp, lvl, table, i, &s, &err);
	*e = s.entry;
	return s.read_ok;
}

/*
 * How much of the kernel half a top table maps, counted at the first level
 * wide enough to tell a full kernel mapping from PTI's sparse user copy:
 * the top level itself, or for PAE's 4-entry PDPT the page directories
 * below its kernel entries.
 */
static unsigned kernel_population(struct pgw_image *img,
				  const struct pgw_mode *mode, uint64_t table)
{
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	enum pgw_level next = pgw_next_level(mode, top + 1);
	unsigned n = 1u << mode->level[top].bits;
	unsigned count = 0;

	for (unsigned i = n / 2; i < n; i++) {
		struct pgw_entry e, c;
		if (!probe_entry(img, mode, top, table, i, &e) ||
		    e.kind == PGW_ENT_NOT_PRESENT)
			continue;
		if (n >= 512 || e.kind != PGW_ENT_TABLE) {
			count++;
			continue;
		}
		for (unsigned k = 0; next < PGW_NLEVELS &&
				     k < (1u << mode->level[next].bits) &&
				     probe_entry(img, mode, next, e.addr, k, &c);
		     k++)
			count += c.kind != PGW_ENT_NOT_PRESENT;
	}
	return count;
}

void pgw_pti_check(struct pgw_image *img, const struct pgw_mode *mode,
		   uint64_t table, struct pgw_pti *pti)
{
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	unsigned n = 1u << mode->level[top].bits;
	uint64_t kt;
	uint64_t nx = UINT64_C(1) << 63;
	bool same = true, any_user = false;

	memset(pti, 0, sizeof(*pti));
	/* Read as the CPU reads a root: from the table's own alignment. */
	table = pgw_root_table(mode, table);
	kt = table & ~X86_PTI_USER_BIT;
	/* The user copy is the odd page of an 8 KiB-aligned pair (x86-64,
	 * i386 and PAE alike: PTI allocates the top table as two pages). */
	if (!(table & X86_PTI_USER_BIT))
		return;
	for (unsigned i = 0; i < n / 2; i++) {
		struct pgw_entry ue, ke;
		if (!probe_entry(img, mode, top, table, i, &ue) ||
		    !probe_entry(img, mode, top, kt, i, &ke))
			return;
		uint64_t u = ue.raw, k = ke.raw;
		/* PTI sets NX on the kernel copy's user entries. */
		same &= (u & ~nx) == (k & ~nx);
		any_user |= u != 0;
	}
	pti->user_kernel_half = kernel_population(img, mode, table);
	pti->kernel_kernel_half = kernel_population(img, mode, kt);
	pti->is_user_root = same && any_user &&
			    pti->user_kernel_half < pti->kernel_kernel_half;
	pti->kernel_table = kt;
}
