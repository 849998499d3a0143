/*
 * kallsyms from the image alone: VMCOREINFO names the tables
 * (SYMBOL(kallsyms_names) and friends); they are read through the kernel's
 * page tables in a few large reads, decoded once (kallsyms_decode.c) and
 * then looked up by name.
 */
#include "../lib/err.h"
#include "kallsyms_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on what is read: far above any real kernel's tables (x86-64
 * 6.1: names 1.1 MiB, token table under 1 KiB). */
#define NAMES_MAX_BYTES (UINT64_C(64) << 20)
#define NAMES_GUESS_PER_SYM 64
#define TOKEN_TABLE_MAX_BYTES (UINT64_C(64) << 10)

struct table_key {
	const char *key;
	size_t at;
};

static const struct table_key table_keys[] = {
	{ "SYMBOL(kallsyms_names)",
	  offsetof(struct pgw_kallsyms_tables, names) },
	{ "SYMBOL(kallsyms_num_syms)",
	  offsetof(struct pgw_kallsyms_tables, num_syms) },
	{ "SYMBOL(kallsyms_token_table)",
	  offsetof(struct pgw_kallsyms_tables, token_table) },
	{ "SYMBOL(kallsyms_token_index)",
	  offsetof(struct pgw_kallsyms_tables, token_index) },
};

/* How the addresses are stored: base-relative offsets, or absolute
 * (CONFIG_KALLSYMS_BASE_RELATIVE off: vmcore_info.c names
 * kallsyms_addresses instead). */
static const struct table_key relative_keys[] = {
	{ "SYMBOL(kallsyms_offsets)",
	  offsetof(struct pgw_kallsyms_tables, offsets) },
	{ "SYMBOL(kallsyms_relative_base)",
	  offsetof(struct pgw_kallsyms_tables, relative_base) },
}, absolute_keys[] = {
	{ "SYMBOL(kallsyms_addresses)",
	  offsetof(struct pgw_kallsyms_tables, addresses) },
};

/* The variant this reader does not decode, told apart by VMCOREINFO. */
static enum pgw_status unsupported(struct pgw_image *img, struct pgw_err *err)
{
	uint64_t v;

	if (pgw_vmcoreinfo_u64(img, "SYMBOL(kallsyms_offsets)", &v) &&
	    !pgw_vmcoreinfo_u64(img, "SYMBOL(kallsyms_relative_base)", &v))
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "kallsyms: kallsyms_offsets without "
				   "kallsyms_relative_base (offsets relative to "
				   "their own place, newer kernels) are not "
				   "supported, only base-relative offsets");
	return PGW_OK;
}

static enum pgw_status find_keys(struct pgw_image *img,
				 const struct table_key *keys, size_t n,
				 struct pgw_kallsyms_tables *tables,
				 struct pgw_err *err)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t *field = (uint64_t *)((char *)tables + keys[i].at);
		if (!pgw_vmcoreinfo_u64(img, keys[i].key, field))
			return pgw_err_set(
				err, PGW_E_NOTFOUND,
				"no kallsyms: VMCOREINFO has no %s (it lists "
				"the kallsyms tables since Linux 6.0)",
				keys[i].key);
	}
	return PGW_OK;
}

enum pgw_status pgw_kallsyms_tables_vmcoreinfo(
	struct pgw_image *img, struct pgw_kallsyms_tables *tables_ret,
	struct pgw_err *err)
{
	enum pgw_status st;

	memset(tables_ret, 0, sizeof(*tables_ret));
	if (pgw_vmcoreinfo_count(img) == 0)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "no kallsyms: the image has no VMCOREINFO");
	if ((st = unsupported(img, err)) != PGW_OK)
		return st;
	uint64_t v;
	bool absolute = pgw_vmcoreinfo_u64(img, "SYMBOL(kallsyms_addresses)",
					   &v);
	if ((st = find_keys(img, table_keys, sizeof(table_keys) /
				sizeof(table_keys[0]), tables_ret, err)) !=
	    PGW_OK)
		return st;
	if (absolute)
		return find_keys(img, absolute_keys, 1, tables_ret, err);
	return find_keys(img, relative_keys, sizeof(relative_keys) /
			 sizeof(relative_keys[0]), tables_ret, err);
}

static enum pgw_status read_exact(const struct pgw_space *kernel,
				  const char *what, uint64_t va, void *buf,
				  size_t len, struct pgw_err *err)
{
	if (pgw_read_virt(kernel, va, buf, len, NULL, err) != PGW_OK)
		return pgw_err_prefix(err, "kallsyms: %s (%zu bytes at 0x%llx)",
				      what, len, (unsigned long long)va);
	return PGW_OK;
}

/* A table whose end is not recorded: up to `want` bytes, as many as
 * can be read (at least one). */
struct partial {
	uint8_t *buf;
	size_t len;
	bool short_read;
	struct pgw_err why;   /* what stopped a short read */
};

static enum pgw_status read_partial(const struct pgw_space *kernel,
				    const char *what, uint64_t va,
				    uint64_t want, struct partial *p,
				    struct pgw_err *err)
{
	memset(p, 0, sizeof(*p));
	p->buf = malloc((size_t)want);
	if (!p->buf)
		return pgw_err_set(err, PGW_E_NOMEM, "kallsyms: %s", what);
	p->short_read = pgw_read_virt(kernel, va, p->buf, (size_t)want,
				      &p->len, &p->why) != PGW_OK;
	if (p->len == 0) {
		*err = p->why;
		return pgw_err_prefix(err, "kallsyms: %s at 0x%llx", what,
				      (unsigned long long)va);
	}
	return PGW_OK;
}

/* Tables are laid out in order (names, markers, token table, token
 * index): the distance to the next bounds the read when it is sane. */
static uint64_t span_to(uint64_t from, uint64_t next, uint64_t max,
			uint64_t fallback)
{
	return next > from && next - from <= max ? next - from : fallback;
}

static uint64_t le_n(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* Decode; a failure after a short read also says what stopped it. */
static enum pgw_status decode(const struct pgw_kallsyms_raw *raw,
			      const struct partial *names,
			      const struct partial *tokens,
			      struct pgw_kallsyms **ks_ret,
			      struct pgw_err *err)
{
	enum pgw_status st = pgw_kallsyms_decode(raw, ks_ret, err);
	const struct partial *p = names->short_read ? names :
				  tokens->short_read ? tokens : NULL;

	if (st == PGW_OK || !p)
		return st;
	size_t n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n,
		 " (the %s read stopped after 0x%zx bytes: %s)",
		 p == names ? "names" : "token table", p->len, p->why.msg);
	return st;
}

enum pgw_status pgw_kallsyms_read(const struct pgw_space *kernel,
				  const struct pgw_kallsyms_tables *t,
				  struct pgw_kallsyms **ks_ret,
				  struct pgw_err *err)
{
	struct pgw_kallsyms_raw raw = {
		.ptr_size = kernel->mode->va_bits > 32 ? 8 : 4,
	};
	uint8_t word[8], index[512];
	struct partial names = { 0 }, tokens = { 0 };
	uint8_t *offsets = NULL;
	enum pgw_status st;

	*ks_ret = NULL;
	if ((st = read_exact(kernel, "kallsyms_num_syms", t->num_syms, word,
			     4, err)) != PGW_OK)
		return st;
	raw.num_syms = (uint32_t)le_n(word, 4);
	/* The decoder refuses such a count, with its message, before
	 * anything else is read. */
	if (raw.num_syms == 0 || raw.num_syms > PGW_KALLSYMS_MAX_SYMS)
		return pgw_kallsyms_decode(&raw, ks_ret, err);
	raw.absolute = t->addresses != 0;
	if (!raw.absolute &&
	    (st = read_exact(kernel, "kallsyms_relative_base",
			     t->relative_base, word, raw.ptr_size, err)) !=
		    PGW_OK)
		return st;
	raw.relative_base = raw.absolute ? 0 : le_n(word, raw.ptr_size);
	if ((st = read_exact(kernel, "kallsyms_token_index", t->token_index,
			     index, sizeof(index), err)) != PGW_OK)
		return st;
	raw.token_index = index;
	size_t entry = raw.absolute ? raw.ptr_size : 4;
	offsets = malloc(entry * raw.num_syms);
	if (!offsets)
		return pgw_err_set(err, PGW_E_NOMEM, "kallsyms: offsets");
	raw.offsets = offsets;
	uint64_t guess = (uint64_t)raw.num_syms * NAMES_GUESS_PER_SYM;
	if ((st = read_exact(kernel, raw.absolute ? "kallsyms_addresses" :
				     "kallsyms_offsets",
			     raw.absolute ? t->addresses : t->offsets,
			     offsets, entry * raw.num_syms, err)) != PGW_OK ||
	    (st = read_partial(kernel, "kallsyms_token_table", t->token_table,
			       span_to(t->token_table, t->token_index,
				       TOKEN_TABLE_MAX_BYTES,
				       TOKEN_TABLE_MAX_BYTES),
			       &tokens, err)) != PGW_OK ||
	    (st = read_partial(kernel, "kallsyms_names", t->names,
			       span_to(t->names, t->token_table,
				       NAMES_MAX_BYTES,
				       guess < NAMES_MAX_BYTES ?
					       guess : NAMES_MAX_BYTES),
			       &names, err)) != PGW_OK)
		goto out;
	raw.token_table = tokens.buf;
	raw.token_table_len = tokens.len;
	raw.names = raw.names_buf = names.buf;
	raw.names_len = names.len;
	raw.offsets_buf = offsets;
	names.buf = offsets = NULL;  /* the decoder keeps them */
	st = decode(&raw, &names, &tokens, ks_ret, err);
	if (st == PGW_OK)
		(*ks_ret)->tables = *t;
out:
	free(offsets);
	free(tokens.buf);
	free(names.buf);
	return st;
}

/*
 * VMCOREINFO symbols kallsyms has too: equal addresses confirm the
 * tables were decoded right (the absolute-percpu rule included).
 */
static enum pgw_status cross_check(struct pgw_image *img,
				   const struct pgw_kallsyms *ks,
				   struct pgw_err *err)
{
	static const char *const names[] = {
		"_stext", "init_uts_ns", "init_top_pgt", "swapper_pg_dir",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char key[64];
		uint64_t want, got;
		struct pgw_err ignored;

		snprintf(key, sizeof(key), "SYMBOL(%s)", names[i]);
		if (!pgw_vmcoreinfo_u64(img, key, &want) ||
		    pgw_kallsyms_lookup(ks, names[i], &got, NULL, &ignored) !=
			    PGW_OK)
			continue;
		if (got != want)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "kallsyms: %s decodes to 0x%llx but "
					   "VMCOREINFO says 0x%llx", names[i],
					   (unsigned long long)got,
					   (unsigned long long)want);
	}
	return PGW_OK;
}

enum pgw_status pgw_kallsyms_open(const struct pgw_space *kernel,
				  struct pgw_kallsyms **ks_ret,
				  struct pgw_err *err)
{
	struct pgw_kallsyms_tables t;
	enum pgw_status st;

	*ks_ret = NULL;
	st = pgw_kallsyms_tables_vmcoreinfo(kernel->img, &t, err);
	/* Before 6.0 VMCOREINFO lists no tables: look for them. */
	if (st == PGW_E_NOTFOUND && pgw_vmcoreinfo_count(kernel->img)) {
		struct pgw_err listed = *err;
		if ((st = pgw_kallsyms_scan(kernel, ks_ret, err)) == PGW_OK) {
			(*ks_ret)->scanned = true;
			return PGW_OK;
		}
		if (st == PGW_E_NOTFOUND) {
			size_t n = strlen(listed.msg);
			snprintf(listed.msg + n, sizeof(listed.msg) - n,
				 "; %.400s", err->msg);
			*err = listed;
		}
		return st;
	}
	if (st != PGW_OK ||
	    (st = pgw_kallsyms_read(kernel, &t, ks_ret, err)) != PGW_OK)
		return st;
	if ((st = cross_check(kernel->img, *ks_ret, err)) != PGW_OK) {
		pgw_kallsyms_close(*ks_ret);
		*ks_ret = NULL;
	}
	return st;
}

void pgw_kallsyms_close(struct pgw_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->names);
	free(ks->tokens);
	free(ks->offsets);
	free(ks->name_off);
	free(ks->hash);
	free(ks->by_addr);
	free(ks);
}

enum pgw_status pgw_kallsyms_lookup(const struct pgw_kallsyms *ks,
				    const char *name, uint64_t *addr_ret,
				    char *type_ret, struct pgw_err *err)
{
	size_t len = strlen(name);
	uint32_t h = pgw_kallsyms_hash(name, len);
	char buf[PGW_KSYM_NAME_MAX];

	/* In table order: the first symbol of that name, as the kernel's
	 * own lookup finds. */
	for (uint32_t idx = 0; idx < ks->num; idx++) {
		if (ks->hash[idx] != h)
			continue;
		size_t n = pgw_kallsyms_expand(ks, idx, buf);
		if (n == len + 1 && memcmp(buf + 1, name, len) == 0) {
			*addr_ret = pgw_kallsyms_address(ks, idx);
			if (type_ret)
				*type_ret = buf[0];
			return PGW_OK;
		}
	}
	return pgw_err_set(err, PGW_E_NOTFOUND, "kallsyms has no symbol %s",
			   name);
}

size_t pgw_kallsyms_count(const struct pgw_kallsyms *ks)
{
	return ks->num;
}

void pgw_kallsyms_get(const struct pgw_kallsyms *ks, size_t idx,
		      struct pgw_ksym *sym_ret)
{
	char buf[PGW_KSYM_NAME_MAX];
	size_t n = idx < ks->num ? pgw_kallsyms_expand(ks, (uint32_t)idx, buf)
				 : 0;

	sym_ret->type = n ? buf[0] : '\0';
	sym_ret->addr = idx < ks->num ?
		pgw_kallsyms_address(ks, (uint32_t)idx) : 0;
	memcpy(sym_ret->name, n ? buf + 1 : "", n ? n : 1);
}

void pgw_kallsyms_info(const struct pgw_kallsyms *ks,
		       struct pgw_kallsyms_info *info_ret)
{
	info_ret->symbols = ks->num;
	info_ret->data_symbols = ks->data_symbols;
	info_ret->absolute = ks->absolute;
	info_ret->absolute_percpu = ks->absolute_percpu;
	info_ret->big_lengths = ks->big_lengths;
	info_ret->names_bytes = ks->names_len;
	info_ret->tables = ks->tables;
	info_ret->scanned = ks->scanned;
}
