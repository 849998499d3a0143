/* VMCOREINFO read the way Linux means it. */
#include "linux.h"
#include "../lib/names.h"

bool linux_kernel_root_symbol(const struct pgw_image *img,
			      const char **key_ret, uint64_t *va_ret)
{
	static const char *const syms[] = {
		"SYMBOL(init_top_pgt)", "SYMBOL(init_level4_pgt)",
		"SYMBOL(swapper_pg_dir)",
	};

	for (size_t i = 0; i < PGW_NELEMS(syms); i++) {
		if (pgw_vmcoreinfo_u64(img, syms[i], va_ret)) {
			*key_ret = syms[i];
			return true;
		}
	}
	return false;
}
