/*
 * Decoding kallsyms' compressed names once, into a compact index: the
 * compressed names themselves (decoded again on a hit), where each
 * symbol's name starts, a hash of each decoded name, and the offsets
 * table (addresses are computed when asked for).  Every byte is checked
 * against what was read, so tables pointing anywhere give an error, never
 * a read out of bounds.
 */
#include "../lib/err.h"
#include "kallsyms_decode.h"

#include <stdlib.h>
#include <string.h>

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

#define HASH_MUL 16777619u

uint32_t pgw_kallsyms_hash(const char *name, size_t len)
{
	uint32_t h = 0;

	for (size_t i = 0; i < len; i++)
		h = h * HASH_MUL + (uint8_t)name[i];
	return h;
}

/* A token's hash and multiplier (M^len). */
static void token_hash(const uint8_t *p, size_t len, uint32_t *hash,
		       uint32_t *mul)
{
	*hash = pgw_kallsyms_hash((const char *)p, len);
	*mul = 1;
	for (size_t i = 0; i < len; i++)
		*mul *= HASH_MUL;
}

/* Check the 256 tokens and keep a copy of the table. */
static enum pgw_status load_tokens(struct pgw_kallsyms *ks,
				   const struct pgw_kallsyms_raw *raw,
				   struct pgw_err *err)
{
	size_t len = raw->token_table_len;

	if (len > UINT16_MAX + 1u)
		len = UINT16_MAX + 1u;  /* u16 indexes reach no further */
	for (unsigned t = 0; t < 256; t++) {
		uint16_t off = (uint16_t)(raw->token_index[2 * t] |
					  raw->token_index[2 * t + 1] << 8);
		const uint8_t *nul = off < len ?
			memchr(raw->token_table + off, 0, len - off) : NULL;

		if (!nul)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "kallsyms_token_index[%u] = 0x%x: "
					   "no NUL-terminated token there (the "
					   "token table read is %zu bytes)", t,
					   off, len);
		ks->tok_off[t] = off;
		ks->tok_len[t] = (uint16_t)(nul - (raw->token_table + off));
		token_hash(raw->token_table + off, ks->tok_len[t],
			   &ks->tok_hash[t], &ks->tok_mul[t]);
		if (ks->tok_len[t])
			token_hash(raw->token_table + off + 1,
				   ks->tok_len[t] - 1u, &ks->tail_hash[t],
				   &ks->tail_mul[t]);
	}
	ks->tokens = malloc(len ? len : 1);
	if (!ks->tokens)
		return pgw_err_set(err, PGW_E_NOMEM, "kallsyms: token table");
	memcpy(ks->tokens, raw->token_table, len);
	return PGW_OK;
}

/*
 * Where symbol idx's tokens are: parse its length at *off (checked
 * against names_len) and advance *off past the symbol.
 */
static enum pgw_status symbol_span(const uint8_t *names, size_t names_len,
				   uint32_t idx, size_t *off,
				   size_t *tok_ret, size_t *ntok_ret,
				   bool *big_ret, struct pgw_err *err)
{
	size_t at = *off;
	size_t n;

	if (at >= names_len)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "kallsyms symbol %u: starts at byte 0x%zx, "
				   "past the end of the names read (0x%zx "
				   "bytes)", idx, at, names_len);
	n = names[at++];
	*big_ret = false;
	if (n & 0x80) {
		if (at >= names_len)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "kallsyms symbol %u: its two-byte "
					   "length runs past the names read",
					   idx);
		n = (n & 0x7f) | (size_t)names[at++] << 7;
		*big_ret = true;
	}
	if (n == 0)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "kallsyms symbol %u at byte 0x%zx: length 0 "
				   "(every symbol has at least its type)", idx,
				   *off);
	if (n > names_len - at)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "kallsyms symbol %u at byte 0x%zx: its %zu "
				   "bytes run past the end of the names read "
				   "(0x%zx bytes)", idx, *off, n, names_len);
	*tok_ret = at;
	*ntok_ret = n;
	*off = at + n;
	return PGW_OK;
}

/* Expand tokens into out; false when the name would not fit. */
static bool expand_tokens(const struct pgw_kallsyms *ks, const uint8_t *tok,
			  size_t ntok, char *out, size_t *len_ret)
{
	size_t len = 0;

	for (size_t i = 0; i < ntok; i++) {
		size_t tl = ks->tok_len[tok[i]];
		if (tl > PGW_KSYM_NAME_MAX - 1 - len)
			return false;
		memcpy(out + len, ks->tokens + ks->tok_off[tok[i]], tl);
		len += tl;
	}
	out[len] = '\0';
	*len_ret = len;
	return true;
}

size_t pgw_kallsyms_expand(const struct pgw_kallsyms *ks, uint32_t idx,
			   char *out)
{
	size_t off = ks->name_off[idx], tok, ntok, len = 0;
	bool big;
	struct pgw_err ignored;

	/* Checked when decoded: cannot fail now. */
	if (symbol_span(ks->names, ks->names_len, idx, &off, &tok, &ntok,
			&big, &ignored) != PGW_OK ||
	    !expand_tokens(ks, ks->names + tok, ntok, out, &len))
		out[0] = '\0';
	return len;
}

static uint64_t le_n(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

uint64_t pgw_kallsyms_address(const struct pgw_kallsyms *ks, uint32_t idx)
{
	if (ks->absolute)
		return le_n(ks->offsets + (size_t)ks->ptr_size * idx,
			    ks->ptr_size);
	int32_t off = (int32_t)le32(ks->offsets + 4 * (size_t)idx);
	uint64_t base = ks->relative_base, a;

	if (!ks->absolute_percpu)
		a = base + (uint32_t)off;
	else if (off >= 0)
		a = (uint64_t)off;
	else
		a = base - 1 - (uint64_t)(int64_t)off;
	return ks->ptr_size == 4 ? (uint32_t)a : a;
}

static bool is_data_type(char t)
{
	return t && strchr("dDbBrR", t);
}

static enum pgw_status alloc_arrays(struct pgw_kallsyms *ks,
				    struct pgw_err *err)
{
	ks->name_off = malloc(ks->num * sizeof(*ks->name_off));
	ks->hash = malloc(ks->num * sizeof(*ks->hash));
	if (!ks->name_off || !ks->hash)
		return pgw_err_set(err, PGW_E_NOMEM,
				   "kallsyms: index of %u symbols", ks->num);
	return PGW_OK;
}

/*
 * Hash one symbol's name a token at a time (the type letter, the first
 * byte of the first non-empty token, left out); its decoded length
 * (type included) in *len_ret.
 */
static uint32_t hash_tokens(const struct pgw_kallsyms *ks, const uint8_t *tok,
			    size_t ntok, char *type_ret, size_t *len_ret)
{
	uint32_t h = 0;
	size_t len = 0;
	char type = '\0';

	for (size_t i = 0; i < ntok; i++) {
		uint8_t t = tok[i];
		if (!ks->tok_len[t])
			continue;
		if (!type) {
			type = (char)ks->tokens[ks->tok_off[t]];
			h = h * ks->tail_mul[t] + ks->tail_hash[t];
		} else {
			h = h * ks->tok_mul[t] + ks->tok_hash[t];
		}
		len += ks->tok_len[t];
	}
	*type_ret = type;
	*len_ret = len;
	return h;
}

/* Decode every name: check it and hash it. */
static enum pgw_status decode_names(struct pgw_kallsyms *ks,
				    const struct pgw_kallsyms_raw *raw,
				    struct pgw_err *err)
{
	size_t off = 0;

	for (uint32_t i = 0; i < ks->num; i++) {
		size_t start = off, tok, ntok, len;
		bool big;
		char type;
		enum pgw_status st = symbol_span(raw->names, raw->names_len,
						 i, &off, &tok, &ntok, &big,
						 err);
		if (st != PGW_OK)
			return st;
		ks->hash[i] = hash_tokens(ks, raw->names + tok, ntok, &type,
					  &len);
		if (len > PGW_KSYM_NAME_MAX - 1)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "kallsyms symbol %u at byte 0x%zx: "
					   "name longer than %d bytes", i,
					   start, PGW_KSYM_NAME_MAX - 1);
		if (len == 0)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "kallsyms symbol %u at byte 0x%zx: "
					   "its tokens spell nothing, not even "
					   "a type", i, start);
		ks->big_lengths |= big;
		ks->data_symbols += is_data_type(type);
		ks->name_off[i] = (uint32_t)start;
	}
	ks->names_len = off;
	return PGW_OK;
}

/* Keep names and offsets: adopt the buffers handed over, else copy. */
static enum pgw_status keep_tables(struct pgw_kallsyms *ks,
				   const struct pgw_kallsyms_raw *raw,
				   struct pgw_err *err)
{
	size_t olen = (ks->absolute ? ks->ptr_size : 4) * (size_t)ks->num;

	ks->names = raw->names_buf;
	ks->offsets = raw->offsets_buf;
	if (!ks->names && (ks->names = malloc(ks->names_len ?
					      ks->names_len : 1)) != NULL)
		memcpy(ks->names, raw->names, ks->names_len);
	if (!ks->offsets && (ks->offsets = malloc(olen)) != NULL)
		memcpy(ks->offsets, raw->offsets, olen);
	if (!ks->names || !ks->offsets)
		return pgw_err_set(err, PGW_E_NOMEM, "kallsyms: %u symbols",
				   ks->num);
	return PGW_OK;
}

enum pgw_status pgw_kallsyms_decode(const struct pgw_kallsyms_raw *raw,
				    struct pgw_kallsyms **ks_ret,
				    struct pgw_err *err)
{
	struct pgw_kallsyms *ks = NULL;
	enum pgw_status st = PGW_OK;

	*ks_ret = NULL;
	if (raw->num_syms == 0 || raw->num_syms > PGW_KALLSYMS_MAX_SYMS)
		st = pgw_err_set(err, PGW_E_FORMAT,
				 "kallsyms_num_syms is %u: not between 1 and "
				 "%u (a distribution kernel has ~90000)",
				 raw->num_syms, PGW_KALLSYMS_MAX_SYMS);
	else if (raw->ptr_size != 4 && raw->ptr_size != 8)
		st = pgw_err_set(err, PGW_E_ARG, "kallsyms: pointer size %u",
				 raw->ptr_size);
	else if (!(ks = calloc(1, sizeof(*ks))))
		st = pgw_err_set(err, PGW_E_NOMEM, "kallsyms");
	if (!ks) {
		free(raw->names_buf);
		free(raw->offsets_buf);
		return st;
	}
	ks->num = raw->num_syms;
	ks->ptr_size = raw->ptr_size;
	ks->relative_base = raw->relative_base;
	ks->absolute = raw->absolute;
	/*
	 * With absolute percpu every symbol of the kernel image has a
	 * negative offset; without it no real kernel has one (that would
	 * put a symbol 2 GiB past the base, beyond any kernel image).
	 */
	for (uint32_t i = 0; i < ks->num && !ks->absolute &&
			     !ks->absolute_percpu; i++)
		ks->absolute_percpu = (int32_t)le32(raw->offsets +
						    4 * (size_t)i) < 0;
	st = load_tokens(ks, raw, err);
	if (st == PGW_OK)
		st = alloc_arrays(ks, err);
	if (st == PGW_OK)
		st = decode_names(ks, raw, err);
	/* After decoding, so a copy holds only the names used; the buffers
	 * handed over are kept (and so freed) whatever happened. */
	if (st == PGW_OK) {
		st = keep_tables(ks, raw, err);
		if (st == PGW_OK)
			st = pgw_kallsyms_index(ks, err);
	} else {
		ks->names = raw->names_buf;
		ks->offsets = raw->offsets_buf;
	}
	if (st != PGW_OK) {
		pgw_kallsyms_close(ks);
		return st;
	}
	*ks_ret = ks;
	return PGW_OK;
}
