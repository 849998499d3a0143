/*
 * The kernel's direct map: the linear mapping of physical memory from
 * physical 0 upward, at PAGE_OFFSET (i386) or page_offset_base (x86-64,
 * which KASLR moves).  Finding it validates a guessed mode and places the
 * layouts' direct-map region.
 */
#include "linux.h"
#include "../lib/names.h"

/* i386 PAGE_OFFSET choices (VMSPLIT_3G is the default, then 2G, 1G). */
const uint64_t linux_page_offsets_32[LINUX_NPAGE_OFFSETS_32] = {
	UINT64_C(0xc0000000), UINT64_C(0x80000000), UINT64_C(0x40000000),
};

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

/* Where physical 0 is mapped: 64-bit kernels' first leaf of the upper
 * half mapping it; 32-bit kernels' one fixed PAGE_OFFSET that does. */
static bool find_base(const struct pgw_space *space, struct dm_find *f)
{
	const struct pgw_mode *mode = space->mode;
	struct pgw_walk_ops ops = { .leaf = dm_leaf };
	struct pgw_walk_opts opts = {
		.start = ~((UINT64_C(1) << (mode->va_bits - 1)) - 1),
		.end = 0,
		.max_entries = DIRECT_MAP_BUDGET,
	};
	struct pgw_err err;

	if (mode->quirks & PGW_Q_CANONICAL) {
		(void)pgw_walk_range(space, &opts, &ops, f, NULL, NULL, &err);
		return f->found;
	}
	/* Look at the PAGE_OFFSETs rather than walk the user half that lies
	 * before them (or miss a 1G/3G split). */
	for (size_t i = 0; i < LINUX_NPAGE_OFFSETS_32; i++) {
		struct pgw_xlat x;
		uint64_t po = linux_page_offsets_32[i];
		if (pgw_translate(space, NULL, po, &x) == PGW_STOP_OK &&
		    x.pa == 0) {
			f->base = po;
			f->found = true;
			return true;
		}
	}
	return false;
}

/*
 * Physical addresses the direct map must map linearly: five in low
 * memory, always counted, and on machines with more memory some far
 * apart, counted where the image's ranges hold them, since a kernel
 * maps RAM, not the firmware's holes (which may take out a low sample:
 * the SME 4.12 tables of tests/specs/sme-4.12.spec map neither 4 MiB nor
 * 16 MiB).
 */
#define LOW_SAMPLES 5
static const uint64_t samples[] = {
	0x1000, 0x100000, 0x3ff000, 0x1000000 + 0x5000, 0x2000000,
	UINT64_C(1) << 30, UINT64_C(1) << 32, UINT64_C(1) << 34,
	UINT64_C(1) << 36, UINT64_C(1) << 38, UINT64_C(1) << 40,
};

/* Sample i is checked: the low ones below the image's memory's end, the
 * far ones inside one of its ranges (a ROM range at 4 GiB does not make a
 * 128 MiB guest's 1 GiB sample RAM). */
static bool sampled(struct pgw_image *img, size_t i)
{
	const struct pgw_phys_range *r;
	size_t nr = pgw_image_ranges(img, &r);

	if (i < LOW_SAMPLES)
		return nr && samples[i] < r[nr - 1].start + r[nr - 1].size;
	for (size_t k = 0; k < nr; k++)
		if (samples[i] >= r[k].start &&
		    samples[i] - r[k].start < r[k].size)
			return true;
	return false;
}

unsigned pgw_direct_map_samples(struct pgw_image *img)
{
	unsigned n = LOW_SAMPLES;

	for (size_t i = LOW_SAMPLES; i < PGW_NELEMS(samples); i++)
		n += sampled(img, i);
	return n;
}

bool pgw_find_direct_map(const struct pgw_space *space, uint64_t *base_ret,
			 unsigned *matches_ret)
{
	struct dm_find f = { 0 };
	unsigned matches = 0;

	*matches_ret = 0;
	if (!find_base(space, &f))
		return false;
	for (size_t i = 0; i < PGW_NELEMS(samples); i++) {
		struct pgw_xlat x;
		if (sampled(space->img, i) &&
		    pgw_translate(space, NULL, f.base + samples[i], &x) ==
			    PGW_STOP_OK &&
		    x.pa == samples[i])
			matches++;
	}
	*base_ret = f.base;
	*matches_ret = matches;
	return matches >= 3;
}
