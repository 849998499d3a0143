/*
 * kallsyms found in the kernel image when VMCOREINFO does not list the
 * tables (every kernel before 6.0).  scripts/kallsyms.c writes them, in
 * 4.6 to 6.3, in this order, each aligned to the pointer size (6.4 and
 * later: num_syms, names, markers, token table, token index, offsets,
 * relative base, seqs_of_names):
 *
 *   kallsyms_offsets       u32 per symbol
 *   kallsyms_relative_base a pointer
 *   kallsyms_num_syms      u32
 *   kallsyms_names         per symbol: a length (one byte; 6.1+ two when
 *                          the first has bit 7), that many token indices
 *   kallsyms_markers       the names' offset of every 256th symbol (u32,
 *                          or a pointer-sized long)
 *   kallsyms_seqs_of_names 3 bytes per symbol (6.2+)
 *   kallsyms_token_table   256 NUL-terminated tokens
 *   kallsyms_token_index   256 u16: each token's offset in the table
 *
 * Before 4.6 (and up to 6.3 with KALLSYMS_BASE_RELATIVE off) the first
 * two are one table, kallsyms_addresses (a pointer per symbol, absolute),
 * and num_syms and the markers are pointer-sized (until "kallsyms: reduce
 * size a little on 64-bit"); 6.4+ kernels without BASE_RELATIVE (until
 * the option went) put kallsyms_addresses after the token index, where
 * the offsets go.
 *
 * The search runs down from the end of the window (the tables lie in
 * read-only data, nearer its end than the text's start): a token_index is
 * 256 increasing u16 from 0, which the NULs of a token table right before
 * it must agree with; before that, the markers and the names they index
 * back to a num_syms whose names walk exactly to them, preceded by a
 * relative base and the offsets (6.4+: the u32 markers right before the
 * token table bound the count, whose names walk to them from num_syms,
 * the offsets and relative base after the token index).  Absolute
 * addresses are recognised by being sorted and ending in a kernel
 * address.  What is found is decoded (pgw_kallsyms_read) and accepted
 * only when _stext decodes to VMCOREINFO's.
 */
#include "../lib/err.h"
#include "kallsyms_decode.h"
#include "linux.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOKENS 256
#define MAX_TOKEN 64                 /* bytes of one token, NUL included */
#define NAMES_MAX (UINT64_C(32) << 20)
#define WINDOW_MAX (UINT64_C(256) << 20)

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static uint64_t align_up(uint64_t v, unsigned a)
{
	return (v + a - 1) & ~(uint64_t)(a - 1);
}

/* 256 u16 from 0, each 2..MAX_TOKEN more than the one before. */
static bool token_index_at(const uint8_t *p, uint16_t idx[TOKENS])
{
	idx[0] = (uint16_t)le(p, 2);
	if (idx[0] != 0)
		return false;
	for (unsigned i = 1; i < TOKENS; i++) {
		idx[i] = (uint16_t)le(p + 2 * i, 2);
		if (idx[i] < idx[i - 1] + 2 || idx[i] > idx[i - 1] + MAX_TOKEN)
			return false;
	}
	return true;
}

/* The token table ending (but for padding) at buf[end]: its start, or
 * -1.  Every token non-empty, NUL-terminated where the index says. */
static int64_t token_table_before(const uint8_t *buf, size_t end,
				  const uint16_t idx[TOKENS])
{
	for (size_t pad = 0; pad < 8 && pad < end; pad++) {
		if (pad && buf[end - pad] != 0)
			break;
		size_t e = end - pad;         /* one past the last NUL */
		if (buf[e - 1] != 0)
			continue;
		for (size_t last = 2; last <= MAX_TOKEN; last++) {
			if (e < idx[TOKENS - 1] + last)
				break;
			size_t s = e - last - idx[TOKENS - 1];
			bool ok = true;
			for (unsigned i = 0; ok && i < TOKENS; i++) {
				size_t at = s + idx[i];
				size_t len = (i + 1 < TOKENS ? idx[i + 1] :
					      e - s) - idx[i];
				ok = buf[at] != 0 && buf[at + len - 1] == 0 &&
				     memchr(buf + at, 0, len) ==
					     buf + at + len - 1;
			}
			if (ok)
				return (int64_t)s;
		}
	}
	return -1;
}

/* Walk n names from buf[at]; their end, or 0 past lim.  offset_256
 * gets the names' offset of symbol 256 (0 with fewer). */
static size_t walk_names(const uint8_t *buf, size_t at, size_t lim,
			 uint32_t n, size_t *offset_256)
{
	size_t pos = at;

	*offset_256 = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i == 256)
			*offset_256 = pos - at;
		if (pos >= lim)
			return 0;
		size_t len = buf[pos++];
		if (len & 0x80) {
			if (pos >= lim)
				return 0;
			len = (len & 0x7f) | (size_t)buf[pos++] << 7;
		}
		if (len == 0 || len > lim - pos)
			return 0;
		pos += len;
	}
	return pos;
}

/* The window, read from its end down as the search needs it (the tables
 * lie nearer the end): [filled, len) is read. */
struct window {
	const struct pgw_space *k;
	uint64_t lo;
	uint8_t *buf;
	size_t len, filled;
};

#define FILL_CHUNK (UINT64_C(1) << 20)

/* Read down to from (pages that cannot be read stay zeros, in which
 * nothing matches). */
static void fill(struct window *w, size_t from)
{
	if (from >= w->filled)
		return;
	from = from > FILL_CHUNK ? (from - FILL_CHUNK) & ~(size_t)4095 : 0;
	for (size_t at = from; at < w->filled; at += PGW_PAGE_SIZE) {
		struct pgw_err e;
		size_t n = w->filled - at < PGW_PAGE_SIZE ? w->filled - at :
							    PGW_PAGE_SIZE;
		(void)pgw_read_virt(w->k, w->lo + at, w->buf + at, n, NULL,
				    &e);
	}
	w->filled = from;
}

/* A layout the tables may have: the bytes cannot always tell absolute
 * addresses from offsets and a relative base (on 32-bit, increasing
 * offsets followed by a base above them read as sorted addresses too),
 * so both are decoded, and _stext decides. */
struct found {
	size_t offsets, relative_base, addresses, num_syms, names;
	uint32_t n;
	bool absolute;
};
#define LAYOUTS 2

/* n kallsyms_addresses at buf[at]: in address order (scripts/kallsyms.c
 * takes nm -n's list, or sorts it), the last a kernel address (those
 * before may be absolute per-cpu offsets, small). */
static bool addresses_at(struct window *w, size_t at, uint32_t n,
			 unsigned ptr, uint64_t kernel_start)
{
	uint64_t prev = 0;

	if (at > w->len || (uint64_t)n * ptr > w->len - at || at % ptr)
		return false;
	fill(w, at);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = le(w->buf + at + (size_t)i * ptr, ptr);
		if (v < prev)
			return false;
		prev = v;
	}
	return prev >= kernel_start;
}

/* 6.4+: the u32 markers end (but for padding) right at the token table:
 * where they begin and how many, or 0. */
static size_t markers_before(const uint8_t *buf, size_t tt, unsigned ptr,
			     size_t *start)
{
	for (size_t pad = 0; pad < ptr && pad + 4 <= tt; pad += 4) {
		size_t i = tt - pad - 4, m = 1;
		uint32_t prev = (uint32_t)le(buf + i, 4);
		while (prev != 0 && i >= 4 &&
		       m <= PGW_KALLSYMS_MAX_SYMS / 256) {
			uint32_t v = (uint32_t)le(buf + i - 4, 4);
			if (v >= prev)
				break;
			prev = v;
			i -= 4;
			m++;
		}
		if (prev == 0 && i % ptr == 0) {
			*start = i;
			return m;
		}
	}
	return 0;
}

/* 6.4+'s order: num_syms, names, markers, token table, token index,
 * offsets, relative base, seqs_of_names. */
static unsigned tables_around(struct window *w, size_t tt, size_t ti,
			      unsigned ptr, uint64_t kernel_start,
			      struct found f[LAYOUTS])
{
	const uint8_t *buf = w->buf;
	size_t ms, nm = markers_before(buf, tt, ptr, &ms);
	size_t floor = ms > NAMES_MAX ? ms - NAMES_MAX : 0;

	if (!nm)
		return 0;
	uint32_t lo_n = (uint32_t)(256 * (nm - 1) + 1),
		 hi_n = (uint32_t)(256 * nm);
	for (size_t q = (ms - 4) & ~(size_t)3; q >= floor + 4; q -= 4) {
		fill(w, q);
		uint32_t n = (uint32_t)le(buf + q, 4);
		if (n < lo_n || n > hi_n)
			continue;
		size_t names = align_up(q + 4, ptr), off256;
		size_t end = walk_names(buf, names, ms, n, &off256);
		if (!end || align_up(end, ptr) != ms ||
		    (n > 256 && le(buf + ms + 4, 4) != off256))
			continue;
		/* After the token index: the offsets and the relative
		 * base, or kallsyms_addresses (BASE_RELATIVE off). */
		size_t offsets = align_up(ti + 2 * TOKENS, ptr);
		size_t rb = align_up(offsets + 4 * (size_t)n, ptr);
		unsigned k = 0;
		if (addresses_at(w, offsets, n, ptr, kernel_start))
			f[k++] = (struct found){
				.addresses = offsets, .num_syms = q,
				.names = names, .n = n, .absolute = true,
			};
		if (rb + ptr <= w->len && le(buf + rb, ptr) >= kernel_start)
			f[k++] = (struct found){
				.offsets = offsets, .relative_base = rb,
				.num_syms = q, .names = names, .n = n,
			};
		if (k)
			return k;
	}
	return 0;
}

/* Before the token table at tt (buf offsets): num_syms, names, markers
 * (and 6.2+'s seqs_of_names), in the order above; before num_syms the
 * relative base and offsets, or kallsyms_addresses. */
static unsigned tables_before(struct window *w, size_t tt, unsigned ptr,
			      uint64_t kernel_start,
			      struct found f[LAYOUTS])
{
	size_t floor = tt > NAMES_MAX ? tt - NAMES_MAX : 0;
	const uint8_t *buf = w->buf;

	for (size_t q = (tt - 4) & ~(size_t)3; q >= floor + ptr + 4;
	     q -= 4) {
		fill(w, q - ptr);
		uint32_t n = (uint32_t)le(buf + q, 4);
		if (n < 2 || n > PGW_KALLSYMS_MAX_SYMS)
			continue;
		/* The word before num_syms: the relative base, or the
		 * last (highest) address. */
		size_t rb = q - ptr, names = align_up(q + 4, ptr);
		if (rb % ptr || le(buf + rb, ptr) < kernel_start ||
		    (uint64_t)n * 2 > tt - names || rb < 4 * (size_t)n)
			continue;
		size_t off256, end = walk_names(buf, names, tt, n, &off256);
		if (!end)
			continue;
		/* The markers: u32, or pointer-sized on older kernels. */
		size_t nm = (n + 255) / 256;
		bool marked = false;
		for (unsigned mw = 4; mw <= ptr && !marked; mw *= 2) {
			size_t m = align_up(end, ptr);
			if (m + nm * mw > tt || le(buf + m, mw) != 0 ||
			    (n > 256 && le(buf + m + mw, mw) != off256))
				continue;
			size_t rest = tt - (m + nm * mw);
			/* Padding (up to 6.1), or seqs_of_names (6.2+)
			 * padded before and after. */
			marked = rest < 2 * ptr ||
				 (rest >= 3 * (size_t)n &&
				  rest < 3 * (size_t)n + 2 * ptr);
		}
		if (!marked)
			continue;
		unsigned k = 0;
		size_t addrs = q - (size_t)n * ptr;
		if (q >= (size_t)n * ptr &&
		    addresses_at(w, addrs, n, ptr, kernel_start))
			f[k++] = (struct found){
				.addresses = addrs, .num_syms = q,
				.names = names, .n = n, .absolute = true,
			};
		f[k++] = (struct found){
			.offsets = (rb - 4 * (size_t)n) & ~(size_t)(ptr - 1),
			.relative_base = rb, .num_syms = q, .names = names,
			.n = n,
		};
		return k;
	}
	return 0;
}

/* Is kernel_start the lowest kernel VA? The kernel map on x86-64, the
 * direct map's PAGE_OFFSET on 32-bit: a relative base lies above. */
static uint64_t kernel_floor(const struct pgw_space *k)
{
	return k->mode->va_bits > 32 ? UINT64_C(0xffff800000000000) :
				       UINT64_C(0x40000000);
}

/* Decode the tables as f lays them out; PGW_OK when _stext decodes to
 * VMCOREINFO's (lo), else why not in last. */
static enum pgw_status try_layout(const struct pgw_space *kernel,
				  uint64_t lo, const struct found *f,
				  size_t tt, size_t ti,
				  struct pgw_kallsyms **ks_ret, char *last,
				  size_t last_size)
{
	struct pgw_kallsyms_tables t = {
		.names = lo + f->names, .num_syms = lo + f->num_syms,
		.token_table = lo + tt, .token_index = lo + ti,
		.offsets = f->absolute ? 0 : lo + f->offsets,
		.relative_base = f->absolute ? 0 : lo + f->relative_base,
		.addresses = f->absolute ? lo + f->addresses : 0,
	};
	const char *form = f->absolute ? "absolute addresses" :
					 "base-relative offsets";
	struct pgw_err e = { 0 };
	uint64_t stext;

	if (pgw_kallsyms_read(kernel, &t, ks_ret, &e) != PGW_OK) {
		snprintf(last, last_size, "tables at 0x%llx (%s): %.120s",
			 (unsigned long long)t.names, form, e.msg);
		return PGW_E_NOTFOUND;
	}
	if (pgw_kallsyms_lookup(*ks_ret, "_stext", &stext, NULL, &e) ==
		    PGW_OK && stext == lo)
		return PGW_OK;
	snprintf(last, last_size, "tables at 0x%llx decode (%s), but not "
		 "_stext to VMCOREINFO's 0x%llx", (unsigned long long)t.names,
		 form, (unsigned long long)lo);
	pgw_kallsyms_close(*ks_ret);
	*ks_ret = NULL;
	return PGW_E_NOTFOUND;
}

enum pgw_status pgw_kallsyms_scan(const struct pgw_space *kernel,
				  struct pgw_kallsyms **ks_ret,
				  struct pgw_err *err)
{
	unsigned ptr = kernel->mode->va_bits > 32 ? 8 : 4;
	uint64_t lo, hi = 0, v;
	const char *key;

	*ks_ret = NULL;
	if (!pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(_stext)", &lo))
		return pgw_err_set(err, PGW_E_NOTFOUND, "no kallsyms: "
				   "VMCOREINFO lists no tables and no _stext "
				   "to look for them from");
	if (pgw_vmcoreinfo_u64(kernel->img, "SYMBOL(init_uts_ns)", &v))
		hi = v;
	if (!hi && linux_kernel_root_symbol(kernel->img, &key, &v))
		hi = v;
	if (hi <= lo || hi - lo > WINDOW_MAX)
		return pgw_err_set(err, PGW_E_NOTFOUND, "no kallsyms: "
				   "VMCOREINFO lists no tables, and no "
				   "init_uts_ns or root symbol bounds the "
				   "kernel's read-only data after _stext");
	size_t len = (size_t)(hi - lo);
	uint8_t *buf = calloc(1, len);
	if (!buf)
		return pgw_err_set(err, PGW_E_NOMEM, "kallsyms scan");
	struct window w = { kernel, lo, buf, len, len };
	enum pgw_status st = PGW_E_NOTFOUND;
	char last[400] = "no token_index (256 increasing offsets from 0) "
			 "before init_uts_ns";
	uint16_t idx[TOKENS];
	/* A window shorter than a token_index holds none (and len - 2 *
	 * TOKENS would wrap). */
	for (size_t p = len > 2 * TOKENS ? (len - 2 * TOKENS) & ~(size_t)3 : 0;
	     p > 0 && st == PGW_E_NOTFOUND; p -= 4) {
		fill(&w, p > MAX_TOKEN * TOKENS ? p - MAX_TOKEN * TOKENS : 0);
		if (buf[p] || buf[p + 1] || !token_index_at(buf + p, idx))
			continue;
		int64_t tt = token_table_before(buf, p, idx);
		struct found f[LAYOUTS];
		unsigned nf = 0;
		if (tt >= 0 &&
		    !(nf = tables_before(&w, (size_t)tt, ptr,
					 kernel_floor(kernel), f)))
			nf = tables_around(&w, (size_t)tt, p, ptr,
					   kernel_floor(kernel), f);
		if (!nf) {
			snprintf(last, sizeof(last), "a token_index at 0x%llx "
				 "without the tables before it",
				 (unsigned long long)(lo + p));
			continue;
		}
		/* Every layout tried is said, not only the last. */
		for (unsigned i = 0; i < nf && st != PGW_OK; i++) {
			size_t used = i ? strlen(last) : 0;
			if (i && used + 2 < sizeof(last))
				used += (size_t)snprintf(last + used,
							 sizeof(last) - used,
							 "; ");
			st = try_layout(kernel, lo, &f[i], (size_t)tt, p,
					ks_ret, last + used,
					sizeof(last) - used);
		}
	}
	free(buf);
	if (st != PGW_OK)
		return pgw_err_set(err, PGW_E_NOTFOUND, "no kallsyms: "
				   "VMCOREINFO lists no tables, and the scan "
				   "of 0x%llx-0x%llx found none: %s",
				   (unsigned long long)lo,
				   (unsigned long long)hi, last);
	return PGW_OK;
}
