/*
 * The kallsyms decoder on tables written by tests/tools/ksymwriter.h:
 * one- and two-byte name lengths, multi-letter tokens, base-relative
 * offsets with and without absolute percpu, 4- and 8-byte kernels, the
 * first of equal names; and hostile tables (names running past what was
 * read, token offsets past the token table, a token without its NUL, a
 * length of 0, names too long, symbol counts of 0 and 2^32 - 1, random
 * bytes): each an error with a message, never a read out of bounds.
 * By address: the symbol holding an address and the offset into it, the
 * first of aliases, nothing below _text, past the last symbol or past a
 * section's end, in a table in the kernel's order and in one that is
 * not.
 */
#include <stdlib.h>
#include <time.h>

#include "../tools/ksymwriter.h"
#include "linux/kallsyms_decode.h"
#include "tap.h"

static char long_name[301], too_long[601];

static const struct kw_sym syms64[] = {
	{ 'T', "_stext", UINT64_C(0xffffffff81000000) },
	{ 'T', "start_kernel", UINT64_C(0xffffffff81000440) },
	{ 'D', "init_task", UINT64_C(0xffffffff82a1aa40) },
	{ 'R', "__start_BTF", UINT64_C(0xffffffff82638070) },
	{ 'R', "__stop_BTF", UINT64_C(0xffffffff82a25f07) },
	{ 'A', "fixed_percpu_data", UINT64_C(0) },
	{ 'A', "cpu_number", UINT64_C(0x1f02c) },
	{ 't', "dup", UINT64_C(0xffffffff81000100) },
	{ 'd', "dup", UINT64_C(0xffffffff82000200) },
	{ 'b', "swapper_pg_dir_copy", UINT64_C(0xffffffff83000000) },
	{ 'T', long_name, UINT64_C(0xffffffff81000800) },
};
#define NSYMS64 (sizeof(syms64) / sizeof(syms64[0]))

static const struct kw_sym syms32[] = {
	{ 'T', "_text", UINT64_C(0xc4000000) },
	{ 'T', "_stext", UINT64_C(0xc4000000) },
	{ 't', "do_one_initcall", UINT64_C(0xc4001230) },
	{ 'T', "_etext", UINT64_C(0xc49256c0) },
};

static struct pgw_kallsyms_raw raw_of(const struct kw_tables *t,
				      unsigned ptr_size)
{
	return (struct pgw_kallsyms_raw){
		.names = t->names.p, .names_len = t->names.len,
		.token_table = t->token_table.p,
		.token_table_len = t->token_table.len,
		.token_index = t->token_index.p, .offsets = t->offsets.p,
		.num_syms = t->num, .relative_base = t->relative_base,
		.ptr_size = ptr_size,
	};
}

/* Every symbol found by name at its address (the first of equal names)
 * and listed in order with its type. */
static void check_all(const struct pgw_kallsyms *ks, const struct kw_sym *s,
		      size_t n, const char *what)
{
	struct pgw_err err;
	unsigned bad_lookup = 0, bad_get = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t addr;
		char type;
		size_t first = i;
		for (size_t j = 0; j < i; j++)
			if (strcmp(s[j].name, s[i].name) == 0) {
				first = j;
				break;
			}
		if (pgw_kallsyms_lookup(ks, s[i].name, &addr, &type, &err) !=
			    PGW_OK ||
		    addr != s[first].addr || type != s[first].type)
			bad_lookup++;
		struct pgw_ksym k;
		pgw_kallsyms_get(ks, i, &k);
		if (strcmp(k.name, s[i].name) != 0 || k.addr != s[i].addr ||
		    k.type != s[i].type)
			bad_get++;
	}
	ok(bad_lookup == 0, "%s: %zu lookups give the (first) symbol's address "
	   "and type (%u wrong)", what, n, bad_lookup);
	ok(bad_get == 0, "%s: symbols listed in order with name, type, address "
	   "(%u wrong)", what, bad_get);
}

static void test_good(void)
{
	struct kw_tables t;
	struct pgw_kallsyms *ks;
	struct pgw_kallsyms_info info;
	struct pgw_err err = { 0 };
	uint64_t addr;

	kw_build(syms64, NSYMS64, true, &t);
	struct pgw_kallsyms_raw raw = raw_of(&t, 8);
	enum pgw_status st = pgw_kallsyms_decode(&raw, &ks, &err);
	ok(st == PGW_OK, "x86-64, absolute percpu: decodes (%s)", err.msg);
	check_all(ks, syms64, NSYMS64, "x86-64");
	pgw_kallsyms_info(ks, &info);
	ok(info.absolute_percpu && info.big_lengths && info.symbols == NSYMS64
	   && info.data_symbols == 5 && info.names_bytes == t.names.len,
	   "x86-64: absolute percpu, a two-byte length, %u symbols, %u data, "
	   "%zu name bytes", info.symbols, info.data_symbols,
	   info.names_bytes);
	ok(pgw_kallsyms_count(ks) == NSYMS64, "count");
	ok(pgw_kallsyms_lookup(ks, "no_such_symbol", &addr, NULL, &err) ==
	   PGW_E_NOTFOUND && strstr(err.msg, "no symbol no_such_symbol"),
	   "a missing symbol: %s", err.msg);
	ok(pgw_kallsyms_lookup(ks, "dup_", &addr, NULL, &err) ==
	   PGW_E_NOTFOUND && pgw_kallsyms_lookup(ks, "du", &addr, NULL,
						 &err) == PGW_E_NOTFOUND,
	   "no prefix or extension matches");
	pgw_kallsyms_close(ks);
	kw_free(&t);

	/* The same symbols without absolute percpu: all base-relative. */
	kw_build(syms64 + 7, NSYMS64 - 7, false, &t);
	raw = raw_of(&t, 8);
	st = pgw_kallsyms_decode(&raw, &ks, &err);
	ok(st == PGW_OK, "x86-64, base-relative: decodes (%s)", err.msg);
	check_all(ks, syms64 + 7, NSYMS64 - 7, "x86-64 base-relative");
	pgw_kallsyms_info(ks, &info);
	ok(!info.absolute_percpu, "no negative offset: not absolute percpu");
	pgw_kallsyms_close(ks);
	kw_free(&t);

	kw_build(syms32, 4, false, &t);
	raw = raw_of(&t, 4);
	err.msg[0] = '\0';
	st = pgw_kallsyms_decode(&raw, &ks, &err);
	ok(st == PGW_OK, "i386: decodes (%s)", err.msg);
	check_all(ks, syms32, 4, "i386");
	pgw_kallsyms_info(ks, &info);
	ok(!info.absolute_percpu && !info.big_lengths &&
	   info.data_symbols == 0, "i386: text symbols only");
	pgw_kallsyms_close(ks);
	kw_free(&t);

	/* Absolute kallsyms_addresses (before 4.6), 8 and 4 bytes each. */
	for (unsigned ptr = 8; ptr >= 4; ptr /= 2) {
		const struct kw_sym *s = ptr == 8 ? syms64 : syms32;
		size_t n = ptr == 8 ? NSYMS64 : 4;
		kw_build(s, n, false, &t);
		kw_absolute(s, n, ptr, &t);
		raw = raw_of(&t, ptr);
		raw.absolute = true;
		err.msg[0] = '\0';
		st = pgw_kallsyms_decode(&raw, &ks, &err);
		ok(st == PGW_OK, "absolute %u-byte addresses: decode (%s)",
		   ptr, err.msg);
		check_all(ks, s, n, ptr == 8 ? "x86-64 absolute" :
					       "i386 absolute");
		pgw_kallsyms_info(ks, &info);
		ok(info.absolute && !info.absolute_percpu,
		   "absolute %u-byte: info says absolute", ptr);
		pgw_kallsyms_close(ks);
		kw_free(&t);
	}
}

/* addr named by ks: "NAME+0xOFF", or "-" for none. */
static const char *name_of(const struct pgw_kallsyms *ks, uint64_t addr)
{
	static char buf[PGW_KSYM_NAME_MAX + 32];
	struct pgw_ksym k;
	uint64_t off;

	if (pgw_kallsyms_symbol(ks, addr, &k, &off) != PGW_OK)
		return "-";
	snprintf(buf, sizeof(buf), "%s+0x%llx", k.name,
		 (unsigned long long)off);
	return buf;
}

struct named_query {
	uint64_t addr;
	const char *want;
};

/* The tables of syms built and decoded, then each query's address named
 * as it wants. */
static void names_agree(const struct kw_sym *syms, size_t nsyms,
			unsigned ptr_size, bool percpu,
			const struct named_query *q, size_t nq,
			const char *what)
{
	struct kw_tables t;
	struct pgw_kallsyms *ks;
	struct pgw_err err = { 0 };
	unsigned bad = 0;

	kw_build(syms, nsyms, percpu, &t);
	struct pgw_kallsyms_raw raw = raw_of(&t, ptr_size);
	if (ok(pgw_kallsyms_decode(&raw, &ks, &err) == PGW_OK,
	       "%s: the tables decode (%s)", what, err.msg)) {
		for (size_t i = 0; i < nq; i++) {
			if (strcmp(name_of(ks, q[i].addr), q[i].want) == 0)
				continue;
			printf("# 0x%llx: %s, want %s\n",
			       (unsigned long long)q[i].addr,
			       name_of(ks, q[i].addr), q[i].want);
			bad++;
		}
		ok(bad == 0, "%s: %zu addresses named or not as the kernel's "
		   "image says", what, nq);
		pgw_kallsyms_close(ks);
	}
	kw_free(&t);
}

static void test_by_address(void)
{
	static const struct named_query q64[] = {
		{ UINT64_C(0xffffffff81000000), "_stext+0x0" },
		{ UINT64_C(0xffffffff81000104), "dup+0x4" },
		{ UINT64_C(0xffffffff81000450), "start_kernel+0x10" },
		{ UINT64_C(0xffffffff82a1aa48), "init_task+0x8" },
		{ UINT64_C(0xffffffff82a25f07), "__stop_BTF+0x0" },
		{ UINT64_C(0xffffffff82a25f0f), "-" },  /* past a section */
		{ UINT64_C(0xffffffff83000000), "swapper_pg_dir_copy+0x0" },
		{ UINT64_C(0xffffffff83000001), "-" },  /* past the last */
		{ UINT64_C(0x1f02c), "-" },    /* a percpu offset: below */
		{ UINT64_C(0xffffffff80ffffff), "-" },
	}, q32[] = {
		{ UINT64_C(0xc4000000), "_text+0x0" },  /* the first alias */
		{ UINT64_C(0xc4001234), "do_one_initcall+0x4" },
		{ UINT64_C(0xc49256bf), "do_one_initcall+0x92448f" },
		{ UINT64_C(0xc49256c0), "_etext+0x0" },
		{ UINT64_C(0xc49256c1), "-" },
		{ UINT64_C(0xc3ffffff), "-" },
	};

	/* syms64 is not in address order: an index is sorted. */
	names_agree(syms64, NSYMS64, 8, true, q64,
		    sizeof(q64) / sizeof(q64[0]), "x86-64, out of order");
	names_agree(syms32, 4, 4, false, q32, sizeof(q32) / sizeof(q32[0]),
		    "i386, the kernel's order");
}

/* Decode must fail with a message containing want. */
static void refuse(struct pgw_kallsyms_raw *raw, const char *want,
		   const char *what)
{
	struct pgw_kallsyms *ks = (void *)1;
	struct pgw_err err = { 0 };
	enum pgw_status st = pgw_kallsyms_decode(raw, &ks, &err);

	ok(st == PGW_E_FORMAT && !ks && strstr(err.msg, want),
	   "%s: %s", what, err.msg);
}

static void test_hostile(void)
{
	struct kw_tables t;
	struct pgw_kallsyms_raw raw;
	uint8_t *p;

	kw_build(syms64, NSYMS64, true, &t);

	raw = raw_of(&t, 8);
	raw.names_len = t.names.len / 2;
	refuse(&raw, "past the end of the names read", "names cut in half");
	raw.names_len = t.names.len - 1;
	refuse(&raw, "run past the end of the names read",
	       "last name one byte short");

	raw = raw_of(&t, 8);
	p = malloc(512);
	memcpy(p, t.token_index.p, 512);
	p[2 * 0x41] = 0xff;
	p[2 * 0x41 + 1] = 0xff;
	raw.token_index = p;
	refuse(&raw, "kallsyms_token_index[65] = 0xffff", "token offset far "
	       "past the token table");
	free(p);

	raw = raw_of(&t, 8);
	raw.token_table_len = t.token_table.len - 1;
	refuse(&raw, "kallsyms_token_index[255]", "last token without its NUL");

	raw = raw_of(&t, 8);
	raw.num_syms = UINT32_MAX;
	refuse(&raw, "kallsyms_num_syms is 4294967295: not between 1 and",
	       "2^32 - 1 symbols, refused before reading any");
	raw.num_syms = 0;
	refuse(&raw, "kallsyms_num_syms is 0", "no symbols");
	raw.num_syms = PGW_KALLSYMS_MAX_SYMS + 1;
	refuse(&raw, "not between 1 and 2097152", "one over the bound");

	raw = raw_of(&t, 8);
	p = malloc(t.names.len);
	memcpy(p, t.names.p, t.names.len);
	p[0] = 0;
	raw.names = p;
	refuse(&raw, "kallsyms symbol 0 at byte 0x0: length 0", "length 0");
	p[0] = 0x80;
	raw.names_len = 1;
	refuse(&raw, "two-byte length runs past", "two-byte length cut");
	free(p);
	kw_free(&t);

	/* A name of 600 letters: refused, not truncated. */
	struct kw_sym big[] = { { 'T', too_long, UINT64_C(0xc0000000) } };
	kw_build(big, 1, false, &t);
	raw = raw_of(&t, 4);
	refuse(&raw, "name longer than 511 bytes", "a 600-letter name");
	kw_free(&t);
}

/*
 * Random tables: every outcome is a decoded table that finds its own
 * symbols, or an error with a message; under SAN=1 ASan watches every
 * read.  Half the rounds start from well-formed tables (the writer's
 * tokens, names of random tokens) with a few bytes flipped.
 */
static void test_random(void)
{
	struct kw_tables w;
	uint8_t names[4096], table[2048], index[512], offsets[4 * 64];
	unsigned seed = 12345, good = 0, bad = 0, silent = 0;
	clock_t t0 = clock();

	kw_build(syms32, 1, false, &w);
	for (int round = 0; round < 4000; round++) {
		bool formed = round % 2 == 0;
		uint32_t num = (uint32_t)(1 + rand_r(&seed) % 64);
		size_t names_len = 0;
		for (size_t i = 0; i < sizeof(offsets); i++)
			offsets[i] = (uint8_t)rand_r(&seed);
		if (formed) {
			memcpy(table, w.token_table.p, w.token_table.len);
			memcpy(index, w.token_index.p, 512);
			for (uint32_t k = 0; k < num; k++) {
				unsigned len = 1 + (unsigned)rand_r(&seed) % 20;
				names[names_len++] = (uint8_t)len;
				for (unsigned j = 0; j < len; j++)
					names[names_len++] =
						(uint8_t)rand_r(&seed);
			}
			for (int f = rand_r(&seed) % 4; f > 0; f--)
				names[(size_t)rand_r(&seed) % names_len] ^=
					(uint8_t)(1u << rand_r(&seed) % 8);
		} else {
			for (size_t i = 0; i < sizeof(names); i++)
				names[i] = (uint8_t)rand_r(&seed);
			for (size_t i = 0; i < sizeof(table); i++)
				table[i] = (uint8_t)(rand_r(&seed) % 7 ?
						     rand_r(&seed) : 0);
			for (size_t i = 0; i < sizeof(index); i++)
				index[i] = (uint8_t)(i % 2 ? rand_r(&seed) & 7 :
						     rand_r(&seed));
			names_len = (size_t)rand_r(&seed) % sizeof(names);
		}
		struct pgw_kallsyms_raw raw = {
			.names = names, .names_len = names_len,
			.token_table = table,
			.token_table_len = formed ? w.token_table.len :
				(size_t)rand_r(&seed) % sizeof(table),
			.token_index = index, .offsets = offsets,
			.num_syms = num, .ptr_size = round % 3 ? 8 : 4,
		};
		struct pgw_kallsyms *ks;
		struct pgw_err err = { 0 };
		if (pgw_kallsyms_decode(&raw, &ks, &err) == PGW_OK) {
			good++;
			for (uint32_t i = 0; i < num; i++) {
				struct pgw_ksym k;
				uint64_t a;
				pgw_kallsyms_get(ks, i, &k);
				if (pgw_kallsyms_lookup(ks, k.name, &a, NULL,
							&err) != PGW_OK)
					bad++;
			}
			pgw_kallsyms_close(ks);
		} else if (!err.msg[0]) {
			silent++;
		}
	}
	kw_free(&w);
	double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ok(good > 1000 && silent == 0 && bad == 0,
	   "4000 random tables: %u decoded (each finds all its symbols by "
	   "name), the rest refused with a message, in %.2f s", good, s);
}

int main(void)
{
	memset(long_name, 'x', sizeof(long_name) - 1);
	memcpy(long_name, "rust_", 5);
	memset(too_long, 'y', sizeof(too_long) - 1);
	test_good();
	test_by_address();
	test_hostile();
	test_random();
	return tap_done();
}
