/*
 * Linux on arm64: the kernel's own top table is swapper_pg_dir in the
 * kernel image, whose physical address is the symbol minus
 * kimage_voffset (__pa_symbol); TTBR1 holds it.  The mode is the granule
 * (PAGESIZE) and the VA size the kernel runs with: TCR_EL1_T1SZ says it
 * (5.12+); VA_BITS is the size it was built for, wider on a 52-bit
 * kernel that found no LPA2 (arm64-16k-a: VA_BITS=52, T1SZ=17).  Every
 * candidate is checked by walking.
 */
#include "arm64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool linux_arm64_number(const struct pgw_vmci_source *s, const char *key,
			uint64_t *v)
{
	char buf[72], *end;
	bool sym = strncmp(key, "SYMBOL(", 7) == 0 ||
		   strcmp(key, "KERNELOFFSET") == 0;

	if (!s->get(s->src, key, buf, sizeof(buf)) || !buf[0] ||
	    buf[0] == '-')
		return false;
	*v = strtoull(buf, &end, sym ? 16 : 0);
	return *end == '\0';
}

bool linux_arm64_facts(const struct pgw_vmci_source *s)
{
	uint64_t v;

	return linux_arm64_number(s, "NUMBER(kimage_voffset)", &v);
}

bool linux_arm64_swapper(const struct pgw_vmci_source *s, uint64_t *table_ret,
			 char *why, size_t n)
{
	uint64_t kvoff, swapper;

	if (!linux_arm64_number(s, "NUMBER(kimage_voffset)", &kvoff) ||
	    !linux_arm64_number(s, "SYMBOL(swapper_pg_dir)", &swapper))
		return false;
	*table_ret = swapper - kvoff;
	snprintf(why, n, "VMCOREINFO SYMBOL(swapper_pg_dir)=%llx - "
		 "NUMBER(kimage_voffset)=0x%llx", (unsigned long long)swapper,
		 (unsigned long long)kvoff);
	return true;
}

/* Does `table` (TTBR1's) translate va to pa in mode? */
static bool maps(struct pgw_image *img, const struct pgw_mode *mode,
		 uint64_t table, uint64_t va, uint64_t pa)
{
	struct pgw_space sp = { .img = img, .mode = mode, .root_upper = table };
	struct pgw_xlat x;

	return pgw_translate(&sp, NULL, va, &x) == PGW_STOP_OK && x.pa == pa;
}

/* The mode of this granule and VA size, NULL when there is none. */
static const struct pgw_mode *mode_of(uint64_t granule, uint64_t va_bits)
{
	for (const struct pgw_mode *const *m = pgw_modes(); *m; m++)
		if ((*m)->hints.granule == granule &&
		    (*m)->va_bits == va_bits)
			return *m;
	return NULL;
}

bool linux_arm64_kernel(struct pgw_image *img,
			const struct pgw_vmci_source *s,
			const struct pgw_mode **mode_ret, uint64_t *table_ret,
			char *why, size_t n)
{
	uint64_t kvoff, swapper, stext = 0, granule, t1sz, va_bits;
	bool have_stext = linux_arm64_number(s, "SYMBOL(_stext)", &stext);

	if (!linux_arm64_number(s, "NUMBER(kimage_voffset)", &kvoff) ||
	    !linux_arm64_number(s, "SYMBOL(swapper_pg_dir)", &swapper) ||
	    !linux_arm64_number(s, "PAGESIZE", &granule)) {
		snprintf(why, n, "arm64 VMCOREINFO without kimage_voffset, "
			 "swapper_pg_dir or PAGESIZE");
		return false;
	}
	uint64_t table = swapper - kvoff;
	/* Candidates, best first; 0: none. */
	uint64_t cand[2 + 8] = { 0 };
	const char *from[2 + 8] = { "TCR_EL1_T1SZ", "VA_BITS" };
	if (linux_arm64_number(s, "NUMBER(TCR_EL1_T1SZ)", &t1sz) && t1sz < 64)
		cand[0] = 64 - t1sz;
	if (linux_arm64_number(s, "NUMBER(VA_BITS)", &va_bits))
		cand[1] = va_bits;
	size_t nc = 2;
	for (const struct pgw_mode *const *m = pgw_modes(); *m && nc < 10;
	     m++)
		if ((*m)->hints.granule == granule) {
			from[nc] = "a walk";
			cand[nc++] = (*m)->va_bits;
		}
	for (size_t i = 0; i < nc; i++) {
		const struct pgw_mode *mode = cand[i] ?
			mode_of(granule, cand[i]) : NULL;
		if (!mode || !maps(img, mode, table, swapper, table) ||
		    (have_stext && !maps(img, mode, table, stext,
					 stext - kvoff)))
			continue;
		*mode_ret = mode;
		*table_ret = table;
		snprintf(why, n, "arm64 VMCOREINFO: PAGESIZE=%llu, %llu-bit "
			 "VA from %s; swapper_pg_dir=%llx - kimage_voffset "
			 "-> 0x%llx maps itself%s under %s",
			 (unsigned long long)granule,
			 (unsigned long long)cand[i], from[i],
			 (unsigned long long)swapper,
			 (unsigned long long)table,
			 have_stext ? " and _stext" : "", mode->name);
		return true;
	}
	snprintf(why, n, "arm64 VMCOREINFO: swapper_pg_dir=%llx - "
		 "kimage_voffset -> 0x%llx maps itself under no %llu-byte "
		 "granule mode", (unsigned long long)swapper,
		 (unsigned long long)table, (unsigned long long)granule);
	return false;
}
