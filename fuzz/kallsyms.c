/*
 * The kallsyms decoder on arbitrary tables.  Input layout (little-endian):
 *
 *   0        flags: bit 0 a 4-byte kernel (else 8); bit 1 absolute
 *            kallsyms_addresses (a pointer per symbol) for the offsets
 *   1..4     kallsyms_num_syms
 *   5..12    kallsyms_relative_base
 *   13..14   length T of the token table
 *   15..526  kallsyms_token_index (256 u16)
 *   527..    kallsyms_offsets (4 bytes per symbol, or the addresses),
 *            the token table (T
 *            bytes, or what is left), then kallsyms_names (the rest)
 *
 * A count of 0 or above the decoder's bound goes in as it is (nothing
 * may be read); any other count needs its offsets in the input.  Seeds:
 * windows of the real dumps' tables and written ones (tests/tools/
 * pgw-linux-seeds).  Invariants: every symbol listed is found by name,
 * at the address of the first symbol of that name.
 */
#include <string.h>

#include "exercise.h"
#include "linux/kallsyms_decode.h"

#define HDR 527
#define CHECKED 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void check(const struct pgw_kallsyms *ks, size_t names_len)
{
	static struct pgw_ksym sym[CHECKED];
	struct pgw_kallsyms_info info;
	struct pgw_err err;
	size_t n = pgw_kallsyms_count(ks);

	pgw_kallsyms_info(ks, &info);
	if (info.symbols != n || info.names_bytes > names_len ||
	    info.data_symbols > n)
		fz_fail("kallsyms info", info.symbols, info.names_bytes);
	for (size_t i = 0; i < n && i < CHECKED; i++) {
		uint64_t addr;
		char type;
		size_t first = i;

		pgw_kallsyms_get(ks, i, &sym[i]);
		if (strlen(sym[i].name) >= PGW_KSYM_NAME_MAX || !sym[i].type)
			fz_fail("kallsyms name length or type", i, 0);
		for (size_t j = 0; j < i; j++)
			if (strcmp(sym[j].name, sym[i].name) == 0) {
				first = j;
				break;
			}
		if (pgw_kallsyms_lookup(ks, sym[i].name, &addr, &type,
					&err) != PGW_OK)
			fz_fail("kallsyms: a listed symbol is not found", i, 0);
		if (addr != sym[first].addr || type != sym[first].type)
			fz_fail("kallsyms: lookup gives another symbol", addr,
				sym[first].addr);
	}
	uint64_t addr;
	for (const char *const *name = (const char *const[]){
		     "init_task", "", "__start_BTF", NULL };
	     *name; name++) {
		enum pgw_status st = pgw_kallsyms_lookup(ks, *name, &addr,
							 NULL, &err);
		if (st != PGW_OK && (st != PGW_E_NOTFOUND || !err.msg[0]))
			fz_fail("kallsyms lookup status", st, 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgw_kallsyms *ks;
	struct pgw_err err = { 0 };

	if (size < HDR)
		return 0;
	struct pgw_kallsyms_raw raw = {
		.ptr_size = data[0] & 1 ? 4 : 8,
		.num_syms = (uint32_t)le(data + 1, 4),
		.relative_base = le(data + 5, 8),
		.token_index = data + 15,
		.absolute = (data[0] & 2) != 0,
	};
	size_t entry = raw.absolute ? raw.ptr_size : 4;
	size_t at = HDR, tlen = (size_t)le(data + 13, 2);
	bool counted = raw.num_syms > 0 &&
		       raw.num_syms <= PGW_KALLSYMS_MAX_SYMS;
	if (counted) {
		if (size - at < entry * raw.num_syms)
			return 0;
		raw.offsets = data + at;
		at += entry * raw.num_syms;
	}
	if (tlen > size - at)
		tlen = size - at;
	raw.token_table = data + at;
	raw.token_table_len = tlen;
	raw.names = data + at + tlen;
	raw.names_len = size - at - tlen;
	if (pgw_kallsyms_decode(&raw, &ks, &err) != PGW_OK) {
		if (!err.msg[0] || ks)
			fz_fail("kallsyms error without message", err.status,
				0);
		if (!counted && err.status != PGW_E_FORMAT)
			fz_fail("kallsyms count not refused", raw.num_syms, 0);
		return 0;
	}
	if (!counted)
		fz_fail("kallsyms: a count out of bounds decoded",
			raw.num_syms, 0);
	check(ks, raw.names_len);
	pgw_kallsyms_close(ks);
	return 0;
}
