/*
 * What every root's check compares with, gathered once through the
 * kernel root: the kernel half, the kernel text and read-only data
 * (where kallsyms has them), the end of RAM, and the places the kernel's
 * own rules treat apart.
 */
#include "../lib/err.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOUR_GIB (UINT64_C(1) << 32)
/* arch/x86/include/asm/pgtable_64_types.h: the LDT remap's top-level
 * slot, counted from the end of the table (LDT_PGD_ENTRY_L4/_L5). */
#define LDT_SLOTS_FROM_END_L4 240
#define LDT_SLOTS_FROM_END_L5 112
/* The guard hole: the first 16 top-level slots of the kernel half
 * (GUARD_HOLE_SIZE), which ptdump's W+X walk skips. */
#define GUARD_HOLE_SLOTS 16
/* BIOS_BEGIN, BIOS_END: the PCI BIOS area note_wx exempts on i386. */
#define BIOS_BEGIN UINT64_C(0xa0000)
#define BIOS_END UINT64_C(0x100000)

/* One kernel range from kallsyms: its VA bounds and the frames they map
 * (the kernel image is loaded physically contiguous). */
static bool text_range(struct pgw_check *ck, const struct pgw_kallsyms *ks,
		       const char *start, const char *end,
		       struct check_text *t, struct pgw_err *err)
{
	uint64_t va, va_end;
	struct pgw_xlat a, b;

	if (pgw_kallsyms_lookup(ks, start, &va, NULL, err) ||
	    pgw_kallsyms_lookup(ks, end, &va_end, NULL, err))
		return false;
	if (va_end <= va) {
		pgw_err_set(err, PGW_E_FORMAT, "%s 0x%llx is not above %s",
			    end, (unsigned long long)va_end, start);
		return false;
	}
	pgw_translate(&ck->kernel, NULL, va, &a);
	pgw_translate(&ck->kernel, NULL, va_end - 1, &b);
	if (a.stop != PGW_STOP_OK || b.stop != PGW_STOP_OK ||
	    b.pa - a.pa != va_end - 1 - va) {
		pgw_err_set(err, PGW_E_FORMAT, "%s-%s (0x%llx-0x%llx) does "
			    "not map to contiguous frames", start, end,
			    (unsigned long long)va,
			    (unsigned long long)va_end);
		return false;
	}
	t->va = va;
	t->pa = a.pa;
	t->len = va_end - va;
	return true;
}

static void text_bounds(struct pgw_check *ck)
{
	static const struct {
		const char *name, *start, *end;
	} ranges[CHECK_NTEXT] = {
		{ "text", "_stext", "_etext" },
		{ "read-only data", "__start_rodata", "__end_rodata" },
	};
	struct pgw_kallsyms *ks = NULL;
	struct pgw_err err = { 0 };

	if (pgw_kallsyms_open(&ck->kernel, &ks, &err) != PGW_OK) {
		snprintf(ck->text_why, sizeof(ck->text_why), "kernel text "
			 "unknown: %.200s", err.msg);
		return;
	}
	for (unsigned i = 0; i < CHECK_NTEXT; i++) {
		ck->text[i].name = ranges[i].name;
		if (!text_range(ck, ks, ranges[i].start, ranges[i].end,
				&ck->text[i], &err)) {
			ck->text[i].len = 0;
			snprintf(ck->text_why, sizeof(ck->text_why), "kernel "
				 "%s unknown: %.200s", ranges[i].name, err.msg);
		}
	}
	uint64_t va;
	struct pgw_xlat x;
	if (ck->kernel.mode->va_bits > 32 &&
	    pgw_kallsyms_lookup(ks, "__vsyscall_page", &va, NULL, &err) ==
	    PGW_OK &&
	    pgw_translate(&ck->kernel, NULL, va, &x) == PGW_STOP_OK) {
		ck->vsyscall_pa = x.pa;
		ck->vsyscall_known = true;
	}
	pgw_kallsyms_close(ks);
}

/* AArch64's linear map, from the layout (the direct_map region). */
static void linear_map(struct pgw_check *ck)
{
	struct pgw_layout *lay = malloc(sizeof(*lay));
	struct pgw_layout_request req = { 0 };
	struct pgw_err ignored;

	if (!lay)
		return;
	if (pgw_layout_resolve(&ck->kernel, &req, lay, &ignored) == PGW_OK)
		for (size_t i = 0; i < lay->nregions; i++)
			if (strcmp(lay->region[i].key, "direct_map") == 0) {
				ck->linear[0] = lay->region[i].start;
				ck->linear[1] = lay->region[i].end;
			}
	free(lay);
}

static uint64_t ram_limit(struct pgw_image *img)
{
	const struct pgw_phys_range *r;
	size_t n = pgw_image_ranges(img, &r);
	uint64_t limit = FOUR_GIB;

	for (size_t i = 0; i < n; i++)
		if (r[i].start + r[i].size > limit)
			limit = r[i].start + r[i].size;
	return limit;
}

enum pgw_status pgw_check_open(const struct pgw_space *kernel,
			       struct pgw_check **ck_ret,
			       struct pgw_err *err)
{
	const struct pgw_mode *mode = kernel->mode;
	struct pgw_check *ck = calloc(1, sizeof(*ck));
	enum pgw_status st;

	if (!ck)
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	ck->kernel = *kernel;
	ck->ldt_index = -1;
	if (mode->root_select_bit) {
		/* Two roots (AArch64): the kernel half is the upper root's
		 * whole, shared by no process table (nothing to compare);
		 * PXN and UXN are its execute-never bits; devices sit
		 * anywhere in its physical map, so there is no RAM limit to
		 * hold frames to, but the linear map maps RAM alone. */
		ck->kernel_start = 0 - (UINT64_C(1) << mode->va_bits);
		ck->nx = true;
		ck->ram_limit = UINT64_MAX;
		linear_map(ck);
		text_bounds(ck);
		*ck_ret = ck;
		return PGW_OK;
	}
	if ((st = pgw_khalf_init(&ck->kh, kernel->img, mode, &kernel->enc,
				 kernel->root, err))) {
		free(ck);
		return st;
	}
	ck->kernel_start = ck->kh.kernel_start;
	ck->nx = mode->quirks & PGW_Q_NX;
	ck->ram_limit = ram_limit(kernel->img);
	if (mode->va_bits > 32) {
		unsigned top = mode->level[PGW_PGD].shift;
		ck->guard[0] = ck->kernel_start;
		ck->guard[1] = ck->kernel_start +
			       ((uint64_t)GUARD_HOLE_SLOTS << top);
		ck->ldt_index = (long)ck->kh.nent -
				(mode->va_bits > 48 ? LDT_SLOTS_FROM_END_L5 :
						      LDT_SLOTS_FROM_END_L4);
	} else {
		ck->pcibios[0] = ck->kernel_start + BIOS_BEGIN;
		ck->pcibios[1] = ck->kernel_start + BIOS_END;
	}
	text_bounds(ck);
	*ck_ret = ck;
	return PGW_OK;
}

void pgw_check_close(struct pgw_check *ck)
{
	if (!ck)
		return;
	free(ck->ktables);
	free(ck);
}

const char *pgw_check_text_why(const struct pgw_check *ck)
{
	return ck->text_why[0] ? ck->text_why : NULL;
}
