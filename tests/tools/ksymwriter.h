/*
 * Writing kallsyms tables as scripts/kallsyms.c lays them out, for tests
 * and fuzz seeds; written from the format's description (see
 * src/linux/kallsyms_decode.h), not from the reader, so the reader is not
 * trusted to check itself.
 *
 * Tokens: printable ASCII stands for itself; bytes 0x80.. are the
 * multi-letter tokens of kw_tokens (tried longest first); the other bytes
 * are two-letter tokens nothing uses.  Names are the type letter then the
 * name, greedily tokenised; a name of more than 127 tokens gets the
 * two-byte length (6.1+).
 */
#ifndef PGW_KSYMWRITER_H
#define PGW_KSYMWRITER_H

#include "imgwrite.h"

struct kw_sym {
	char type;
	const char *name;
	uint64_t addr;
};

struct kw_tables {
	struct iw_buf names, token_table, token_index, offsets;
	uint32_t num;
	uint64_t relative_base;
};

static const char *const kw_tokens[] = {
	"init_", "task", "_BTF", "start", "stop", "swapper", "pg_dir", "__",
	"text", "kallsyms_", "sym", "tab", "ne", "er", "ck", "_t",
};
#define KW_NTOKENS (sizeof(kw_tokens) / sizeof(kw_tokens[0]))

/* The token string of byte b. */
static inline void kw_token(unsigned b, char out[16])
{
	if (b >= 0x20 && b < 0x7f) {
		out[0] = (char)b;
		out[1] = '\0';
	} else if (b >= 0x80 && b - 0x80 < KW_NTOKENS) {
		snprintf(out, 16, "%s", kw_tokens[b - 0x80]);
	} else {
		out[0] = 'Q';
		out[1] = (char)('a' + b % 26);
		out[2] = '\0';
	}
}

/* Tokenise s greedily into out; returns the number of tokens. */
static inline size_t kw_tokenise(const char *s, uint8_t *out)
{
	size_t n = 0;

	while (*s) {
		size_t best = 0, best_len = 1;
		for (size_t t = 0; t < KW_NTOKENS; t++) {
			size_t l = strlen(kw_tokens[t]);
			if (l > best_len && strncmp(s, kw_tokens[t], l) == 0) {
				best = 0x80 + t;
				best_len = l;
			}
		}
		out[n++] = best ? (uint8_t)best : (uint8_t)*s;
		s += best_len;
	}
	return n;
}

/*
 * Encode syms.  abs_percpu: addresses below 2^31 are stored as themselves
 * and the others as negative offsets from relative_base - 1 (x86-64 SMP),
 * else every address as an unsigned offset from relative_base.
 * relative_base is the lowest address (of those not stored absolute).
 */
static inline void kw_build(const struct kw_sym *syms, size_t n,
			    bool abs_percpu, struct kw_tables *t)
{
	uint64_t base = UINT64_MAX;

	memset(t, 0, sizeof(*t));
	t->num = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		if (!(abs_percpu && syms[i].addr < (UINT64_C(1) << 31)) &&
		    syms[i].addr < base)
			base = syms[i].addr;
	t->relative_base = base == UINT64_MAX ? 0 : base;
	for (unsigned b = 0; b < 256; b++) {
		char tok[16];
		kw_token(b, tok);
		iw_put_le(&t->token_index, t->token_table.len, 2);
		iw_put(&t->token_table, tok, strlen(tok) + 1);
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(syms[i].name) + 2;
		char *s = malloc(len);
		uint8_t *tok = malloc(len);
		snprintf(s, len, "%c%s", syms[i].type, syms[i].name);
		size_t ntok = kw_tokenise(s, tok);
		if (ntok > 0x7f) {
			iw_put_le(&t->names, (ntok & 0x7f) | 0x80, 1);
			iw_put_le(&t->names, ntok >> 7, 1);
		} else {
			iw_put_le(&t->names, ntok, 1);
		}
		iw_put(&t->names, tok, ntok);
		free(s);
		free(tok);
		uint64_t a = syms[i].addr;
		int64_t off;
		if (abs_percpu)
			off = a < (UINT64_C(1) << 31) ?
				      (int64_t)a :
				      (int64_t)(t->relative_base - 1 - a);
		else
			off = (int64_t)(a - t->relative_base);
		iw_put_le(&t->offsets, (uint64_t)off, 4);
	}
}

/* Replace the offsets by absolute kallsyms_addresses (before 4.6, or
 * KALLSYMS_BASE_RELATIVE off): an unsigned long of ptr bytes a symbol. */
static inline void kw_absolute(const struct kw_sym *syms, size_t n,
			       unsigned ptr, struct kw_tables *t)
{
	iw_free(&t->offsets);
	t->relative_base = 0;
	for (size_t i = 0; i < n; i++)
		iw_put_le(&t->offsets, syms[i].addr, ptr);
}

static inline void kw_free(struct kw_tables *t)
{
	iw_free(&t->names);
	iw_free(&t->token_table);
	iw_free(&t->token_index);
	iw_free(&t->offsets);
}

#endif
