/*
 * PTI (page-table isolation, 4.15+): a CPU in user mode runs on the user
 * copy of the top table, which maps little of the kernel; its kernel copy
 * is the 4 KiB page below.  Telling the two apart takes reading a few
 * entries of each through the walk's own step.
 */
#include "linux.h"
#include "../walk/step.h"

#include <string.h>

/* Entry i of the level-lvl table at `table`, through the walk's own
 * step; false when the table is not in the image. */
static bool probe_entry(struct pgw_image *img, const struct pgw_mode *mode,
			const struct pgw_enc_bits *enc, enum pgw_level lvl,
			uint64_t table, unsigned i, struct pgw_entry *e)
{
	struct pgw_step s;
	struct pgw_err err;

	(void)pgw_step(img, mode, enc, lvl, table, i, &s, &err);
	if (s.read_ok)
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
				  const struct pgw_mode *mode,
				  const struct pgw_enc_bits *enc,
				  uint64_t table)
{
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	enum pgw_level next = pgw_next_level(mode, top + 1);
	unsigned n = 1u << mode->level[top].bits;
	unsigned count = 0;

	for (unsigned i = n / 2; i < n; i++) {
		struct pgw_entry e, c;
		if (!probe_entry(img, mode, enc, top, table, i, &e) ||
		    e.kind == PGW_ENT_NOT_PRESENT)
			continue;
		if (n >= 512 || e.kind != PGW_ENT_TABLE) {
			count++;
			continue;
		}
		for (unsigned k = 0; next < PGW_NLEVELS &&
				     k < (1u << mode->level[next].bits) &&
				     probe_entry(img, mode, enc, next, e.addr,
						 k, &c);
		     k++)
			count += c.kind != PGW_ENT_NOT_PRESENT;
	}
	return count;
}

void pgw_pti_check(struct pgw_image *img, const struct pgw_mode *mode,
		   const struct pgw_enc_bits *enc, uint64_t table,
		   struct pgw_pti *pti)
{
	static const struct pgw_enc_bits none;
	enum pgw_level top = pgw_next_level(mode, PGW_PGD);
	unsigned n = 1u << mode->level[top].bits;
	uint64_t kt;
	uint64_t nx = UINT64_C(1) << 63;
	bool same = true, any_user = false;

	memset(pti, 0, sizeof(*pti));
	if (!enc)
		enc = &none;
	/* Read as the CPU reads a root: from the table's own alignment. */
	table = pgw_root_table(mode, table, enc);
	kt = table & ~LINUX_PTI_USER_BIT;
	/* The user copy is the odd page of an 8 KiB-aligned pair (x86-64,
	 * i386 and PAE alike: PTI allocates the top table as two pages). */
	if (!(table & LINUX_PTI_USER_BIT))
		return;
	for (unsigned i = 0; i < n / 2; i++) {
		struct pgw_entry ue, ke;
		if (!probe_entry(img, mode, enc, top, table, i, &ue) ||
		    !probe_entry(img, mode, enc, top, kt, i, &ke))
			return;
		uint64_t u = ue.raw, k = ke.raw;
		/* PTI sets NX on the kernel copy's user entries. */
		same &= (u & ~nx) == (k & ~nx);
		any_user |= u != 0;
	}
	pti->user_kernel_half = kernel_population(img, mode, enc, table);
	pti->kernel_kernel_half = kernel_population(img, mode, enc, kt);
	/* The kernel's own root (init_top_pgt, swapper_pg_dir) has an empty
	 * user half in both copies; its user copy still maps the entry text
	 * and the CPU entry area, so a sparse but present kernel half
	 * pairs it as well. */
	pti->is_user_root = same &&
			    (any_user || pti->user_kernel_half > 0) &&
			    pti->user_kernel_half < pti->kernel_kernel_half;
	pti->kernel_table = kt;
}
