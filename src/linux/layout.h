/*
 * Memory-map layouts as data: each kernel era is a table of rows, some of
 * whose bounds are variables (bases KASLR moves, sizes the configuration
 * sets).  The era files fill in the variables; layout.c turns rows and
 * values into regions that tile the address space.
 */
#ifndef PGW_LAYOUT_H
#define PGW_LAYOUT_H

#include "pgwalk.h"
#include "../arch/x86.h"

/* Kernel version as one comparable number. */
#define KV(a, b, c) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8) | (c))

/* Variables a row can take a bound from. */
enum lvar {
	LV_NONE = 0,
	LV_PAGE_OFFSET,    /* direct map (x86-64 page_offset_base, i386
			      PAGE_OFFSET) */
	LV_VMALLOC,        /* vmalloc_base / VMALLOC_START */
	LV_VMALLOC_END,    /* i386 VMALLOC_END */
	LV_VMEMMAP,        /* vmemmap_base */
	LV_MODULES,        /* x86-64 MODULES_VADDR (end of the image area) */
	LV_HIGH_MEMORY,    /* i386 end of lowmem */
	LV_PKMAP,          /* i386 PKMAP_BASE */
	LV_LDT,            /* i386 LDT_BASE_ADDR */
	LV_CPU_ENTRY,      /* i386 CPU_ENTRY_AREA_BASE */
	LV_PMD_SIZE,       /* i386: 4 MiB, PAE: 2 MiB */
	LV_USER_END,       /* arm64: 2^VA bits, the top of TTBR0's half */
	LV_LINEAR_END,     /* arm64 PAGE_END: the linear map's end */
	LV_MODULES_END,    /* arm64 MODULES_END */
	LV_KIMAGE,         /* arm64 _text: the kernel image, in vmalloc */
	LV_KIMAGE_END,     /* ... and its end */
	LV_VMEMMAP_END,    /* arm64 VMEMMAP_END */
	LV_FIXMAP,         /* arm64 fixmap: start ... */
	LV_FIXMAP_END,     /* ... and FIXADDR_TOP */
	LV_PCI_IO,         /* arm64 PCI_IO_START */
	LV_COUNT
};

struct layout_row {
	const char *key;
	const char *name;
	uint64_t start;        /* fixed start, or the default of start_var */
	uint8_t start_var;
	uint8_t end_var;       /* end from a variable ... */
	uint8_t size_var;      /* ... or start + a variable ... */
	uint64_t size;         /* ... or start + size; all 0: next row */
	uint32_t since;        /* KV(): exists from this kernel on; 0: whole era */
	bool unrandomized;     /* only when the memory bases are at their
				  defaults (KASAN shadow: KASAN disables KASLR) */
};

struct layout_vals {
	uint64_t v[LV_COUNT];
	bool known[LV_COUNT];  /* a row whose start_var is unknown is left out */
	uint32_t version;      /* KV() from OSRELEASE, 0 if unknown */
	bool randomized;       /* memory bases moved by KASLR */
};

struct layout_era {
	const char *name;
	const char *desc;
	const struct pgw_mode *modes[2];  /* the modes its kernels run in
					     (i386's: i386 and pae) */
	unsigned elf_machine;  /* non-zero: every mode of this machine too
				  (arm64's ten; modes[0] names them) */
	uint32_t from, until;  /* kernel versions [from, until); until 0: open */
	const struct layout_row *rows;
	size_t nrows;
	/* Fill vals and the layout's bases for this image. */
	void (*resolve)(const struct layout_era *era,
			const struct pgw_space *space,
			const struct pgw_layout_request *req,
			struct layout_vals *vals, struct pgw_layout *out);
	/* x86-64 KASLR: the randomization window and region sizes. */
	uint32_t kaslr_since;  /* 0: this era never randomizes */
	uint64_t kaslr_end;
	uint64_t vmalloc_size;
	uint64_t direct_default, vmalloc_default, vmemmap_default;
};

extern const struct layout_era pgw_era_x86_64_2611, pgw_era_x86_64_2627,
	pgw_era_x86_64_420, pgw_era_la57_414, pgw_era_la57_420, pgw_era_i386,
	pgw_era_arm64_48, pgw_era_arm64_69;

/* Whether era's kernels run in mode. */
/* "6.1.0-57-cloud-amd64" -> KV(6, 1, 0); 0 when unreadable. */
uint32_t layout_release_version(const char *release);

bool layout_era_fits(const struct layout_era *era,
		     const struct pgw_mode *mode);

/* Rows into regions: substitute, sort, clip, fill gaps with "unused". */
void layout_build(const struct layout_era *era, const struct layout_vals *vals,
		  uint64_t top, struct pgw_layout *out);

/* Add a base to out; printf-style why. */
void layout_base(struct pgw_layout *out, const char *name, uint64_t value,
		 enum pgw_base_source src, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The first leaf at or above start, below end (0 = top).  Bounded walk. */
bool layout_first_leaf(const struct pgw_space *space, uint64_t start,
		       uint64_t end, struct pgw_leaf *leaf_ret);

/* Row defaults into vals (every start_var row's start). */
void layout_defaults(const struct layout_era *era, struct layout_vals *vals);

#endif
