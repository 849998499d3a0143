/*
 * The kernel's compressed symbol table, decoded from bytes already read
 * (kallsyms.c reads them through the page tables; the fuzz target and the
 * unit tests hand them over directly).
 *
 * The tables, as scripts/kallsyms.c writes them and kernel/kallsyms.c
 * reads them:
 *   kallsyms_num_syms       u32: the number of symbols
 *   kallsyms_names          per symbol: its length in bytes (one byte, or
 *                           two when bit 7 of the first is set: ULEB128,
 *                           6.1+ "big" symbols), then that many token
 *                           numbers; the tokens spell the type letter and
 *                           then the name
 *   kallsyms_token_table    256 NUL-terminated strings
 *   kallsyms_token_index    256 u16: where each string starts
 *   kallsyms_offsets        per symbol an s32 (CONFIG_KALLSYMS_BASE_RELATIVE,
 *                           4.6+): kallsyms_relative_base + (u32)offset;
 *                           with CONFIG_KALLSYMS_ABSOLUTE_PERCPU (x86-64
 *                           SMP; later kernels dropped it) an absolute
 *                           value when >= 0 and kallsyms_relative_base -
 *                           1 - offset when < 0
 *   kallsyms_relative_base  unsigned long
 *   kallsyms_addresses      instead of both (before 4.6, or built without
 *                           KALLSYMS_BASE_RELATIVE): per symbol its
 *                           address, an unsigned long
 */
#ifndef PGW_KALLSYMS_DECODE_H
#define PGW_KALLSYMS_DECODE_H

#include "pgwalk.h"

/*
 * The tables' bytes, little-endian, as read from the kernel.  names and
 * offsets are copied, unless they are handed over in names_buf and
 * offsets_buf (malloc'd, the same pointers): the decoder then keeps them,
 * success or not (kallsyms.c saves a copy of ~1.5 MiB that way).
 */
struct pgw_kallsyms_raw {
	const uint8_t *names;
	size_t names_len;           /* bytes available (may exceed the use) */
	const uint8_t *token_table;
	size_t token_table_len;
	const uint8_t *token_index; /* 256 u16 */
	const uint8_t *offsets;     /* num_syms s32, or with absolute
				       num_syms unsigned longs */
	bool absolute;              /* offsets holds kallsyms_addresses */
	uint32_t num_syms;
	uint64_t relative_base;
	unsigned ptr_size;          /* 4 or 8: the kernel's unsigned long */
	uint8_t *names_buf, *offsets_buf;  /* handed over, or NULL */
};

struct pgw_kallsyms {
	uint32_t num;
	unsigned ptr_size;
	bool absolute;              /* kallsyms_addresses, not offsets */
	bool absolute_percpu;       /* some offset was negative */
	bool big_lengths;           /* some length took two bytes */
	uint32_t data_symbols;      /* types d D b B r R */
	uint8_t *names;             /* the compressed names */
	size_t names_len;           /* bytes of them the symbols use */
	uint8_t *offsets;           /* kallsyms_offsets: num s32; with
				       absolute kallsyms_addresses: num
				       unsigned longs */
	uint64_t relative_base;
	uint8_t *tokens;            /* the token table, validated */
	uint16_t tok_off[256];
	uint16_t tok_len[256];
	/* Each token's share of a name's hash, whole and without its first
	 * letter (the type), so names are hashed a token at a time. */
	uint32_t tok_hash[256], tok_mul[256];
	uint32_t tail_hash[256], tail_mul[256];
	uint32_t *name_off;         /* per symbol: its length byte in names */
	uint32_t *hash;             /* per symbol: hash of the decoded name;
				       a lookup scans these (~30 us for
				       90 000 symbols), then decodes the
				       few that match: no table, so it
				       needs no pgw_table */
	struct pgw_kallsyms_tables tables;  /* where they were read from */
	bool scanned;               /* found by pgw_kallsyms_scan, not
				       listed by VMCOREINFO */
	/* By address (kallsyms_addr.c): NULL when the table is sorted, as
	 * the kernel writes it; else symbol indexes in address order. */
	uint32_t *by_addr;
	uint64_t image_start;       /* _text: no symbol names below */
};

/* At most this many symbols (a distribution kernel has ~90 000). */
#define PGW_KALLSYMS_MAX_SYMS (UINT32_C(1) << 21)

/*
 * Decode every symbol once, check it, and keep each name's hash.  The
 * result owns copies of what it keeps; raw can go afterwards.
 */
enum pgw_status pgw_kallsyms_decode(const struct pgw_kallsyms_raw *raw,
				    struct pgw_kallsyms **ks_ret,
				    struct pgw_err *err);

/* Symbol idx's address. */
uint64_t pgw_kallsyms_address(const struct pgw_kallsyms *ks, uint32_t idx);

/* Expand symbol idx into out (NUL-terminated, PGW_KSYM_NAME_MAX bytes):
 * the type letter, then the name. */
size_t pgw_kallsyms_expand(const struct pgw_kallsyms *ks, uint32_t idx,
			   char *out);

/*
 * The name index's hash: the polynomial h = h * M + c over the name's
 * bytes (mod 2^32), which composes token by token:
 * hash(AB) = hash(A) * M^len(B) + hash(B).
 */
uint32_t pgw_kallsyms_hash(const char *name, size_t len);

/* Ready the table for lookups by address (after decoding). */
enum pgw_status pgw_kallsyms_index(struct pgw_kallsyms *ks,
				   struct pgw_err *err);

/*
 * The tables found in the kernel's read-only data (kallsyms_scan.c), for
 * kernels whose VMCOREINFO does not list them, decoded and checked
 * against VMCOREINFO's _stext.  PGW_E_NOTFOUND with why when none is.
 */
enum pgw_status pgw_kallsyms_scan(const struct pgw_space *kernel,
				  struct pgw_kallsyms **ks_ret,
				  struct pgw_err *err);


#endif
