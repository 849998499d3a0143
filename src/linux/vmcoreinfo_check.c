/*
 * Is this VMCOREINFO?  Text found in memory (or a note that may be
 * damaged) is checked the way the kernel writes it (kernel/crash_core.c:
 * vmcoreinfo_append_str formats each "KEY=value\n" line into an 80-byte
 * buffer), then by what it claims: PAGESIZE=4096 and a kernel page-table
 * symbol whose table, walked, maps itself and the kernel text.
 */
#include "../lib/err.h"
#include "vmcoreinfo.h"
#include "../arch/x86.h"
#include "arm64.h"
#include "linux.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vmcoreinfo_append_str's buffer: a line is at most 79 bytes and '\n'. */
#define VMCI_LINE_MAX 80
#define VMCI_VALUE_MAX 64

static bool fail(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return false;
}

static bool key_char(int c)
{
	return isalnum(c) || c == '_' || c == '(' || c == ')' || c == '.' ||
	       c == '-';
}

/* Strict numbers: all digits, no sign or prefix where the kernel writes
 * none, and within 64 bits. */
static bool parse_hex(const char *s, size_t len, uint64_t *v)
{
	if (len == 0 || len > 16)
		return false;
	*v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		*v = *v << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ?
					  s[i] - '0' :
					  tolower((unsigned char)s[i]) - 'a' + 10);
	}
	return true;
}

/* NUMBER() and the other decimal keys: "%ld" as most are written, or
 * "0x%lx" as some are (6.12's NUMBER(VMALLOC_START), arm64's
 * NUMBER(PHYS_OFFSET)): a kernel long either way. */
static bool parse_dec(const char *s, size_t len, int64_t *v)
{
	bool neg = len && s[0] == '-';
	uint64_t u = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!parse_hex(s + 2, len - 2, &u))
			return false;
		*v = (int64_t)u;
		return true;
	}
	if (neg) {
		s++;
		len--;
	}
	if (len == 0 || len > 19)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		u = u * 10 + (uint64_t)(s[i] - '0');
	}
	if (u > (uint64_t)INT64_MAX)
		return false;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return true;
}

/* How the value of a key must read, by the key's prefix. */
enum value_form { V_TEXT, V_HEX, V_DEC };

static const struct {
	const char *prefix;
	enum value_form form;
} value_forms[] = {
	{ "SYMBOL(", V_HEX }, { "KERNELOFFSET", V_HEX },
	{ "NUMBER(", V_DEC }, { "OFFSET(", V_DEC }, { "SIZE(", V_DEC },
	{ "LENGTH(", V_DEC }, { "PAGESIZE", V_DEC },
};

static enum value_form form_of(const char *key, size_t klen)
{
	for (size_t i = 0; i < sizeof(value_forms) / sizeof(value_forms[0]);
	     i++) {
		size_t n = strlen(value_forms[i].prefix);
		if (klen >= n && memcmp(key, value_forms[i].prefix, n) == 0)
			return value_forms[i].form;
	}
	return V_TEXT;
}

static bool check_line(const char *p, size_t len, unsigned lineno, char *why,
		       size_t n)
{
	const char *eq = memchr(p, '=', len);

	if (!eq || eq == p)
		return fail(why, n, "line %u is not KEY=value", lineno);
	for (const char *k = p; k < eq; k++)
		if (!key_char((unsigned char)*k))
			return fail(why, n, "line %u: key holds byte 0x%02x",
				    lineno, (unsigned char)*k);
	const char *v = eq + 1;
	size_t vlen = len - (size_t)(v - p);
	for (size_t i = 0; i < vlen; i++)
		if (v[i] < 0x20 || v[i] > 0x7e)
			return fail(why, n, "line %u (%.*s): value holds byte "
				    "0x%02x", lineno, (int)(eq - p), p,
				    (unsigned char)v[i]);
	uint64_t h;
	int64_t d;
	switch (form_of(p, (size_t)(eq - p))) {
	case V_HEX:
		if (!parse_hex(v, vlen, &h))
			return fail(why, n, "%.*s=%.*s is not a 64-bit hex "
				    "number", (int)(eq - p), p,
				    (int)(vlen > VMCI_VALUE_MAX ?
					  VMCI_VALUE_MAX : vlen), v);
		break;
	case V_DEC:
		if (!parse_dec(v, vlen, &d))
			return fail(why, n, "%.*s=%.*s is not a 64-bit "
				    "number (decimal, or hex after 0x)",
				    (int)(eq - p), p,
				    (int)(vlen > VMCI_VALUE_MAX ?
					  VMCI_VALUE_MAX : vlen), v);
		break;
	case V_TEXT:
		break;
	}
	return true;
}

bool pgw_vmci_check_lines(const char *text, size_t len, unsigned *lines_ret,
			  char *why, size_t n)
{
	static const char first[] = "OSRELEASE=";
	const char *p = text, *end = text + len;
	unsigned lines = 0;

	*lines_ret = 0;
	if (len < sizeof(first) - 1 || memcmp(text, first, sizeof(first) - 1))
		return fail(why, n, "does not begin with %s", first);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		/* The kernel stops appending at VMCOREINFO_BYTES, so only a
		 * full buffer may end in the middle of a line. */
		if (!nl && len < PGW_VMCI_TEXT_MAX)
			return fail(why, n, "line %u has no end", lines + 1);
		size_t l = (size_t)((nl ? nl : end) - p);
		if (l + 1 > VMCI_LINE_MAX)
			return fail(why, n, "line %u is %zu bytes, longer than "
				    "the kernel writes (%d)", lines + 1, l + 1,
				    VMCI_LINE_MAX);
		if (!check_line(p, l, lines + 1, why, n))
			return false;
		lines++;
		p += l + 1;
	}
	*lines_ret = lines;
	return true;
}

/* ---- facts: a key's value from the text or from the image ---- */

bool pgw_vmci_text_get(const void *src, const char *key, char *val,
		       size_t valsz)
{
	const struct pgw_vmci_text *t = src;
	size_t klen = strlen(key);
	const char *p = t->text, *end = t->text + t->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if ((size_t)(le - p) > klen && memcmp(p, key, klen) == 0 &&
		    p[klen] == '=') {
			size_t vlen = (size_t)(le - p) - klen - 1;
			if (vlen >= valsz)
				return false;
			memcpy(val, p + klen + 1, vlen);
			val[vlen] = '\0';
			return true;
		}
		p = le + 1;
	}
	return false;
}

static bool image_get(const void *src, const char *key, char *val,
		      size_t valsz)
{
	const char *v = pgw_vmcoreinfo_get(src, key);

	if (!v || strlen(v) >= valsz)
		return false;
	strcpy(val, v);
	return true;
}

static bool get_hex(const struct pgw_vmci_source *s, const char *key,
		    uint64_t *v)
{
	char buf[VMCI_VALUE_MAX + 1];

	return s->get(s->src, key, buf, sizeof(buf)) &&
	       parse_hex(buf, strlen(buf), v);
}

static bool get_dec(const struct pgw_vmci_source *s, const char *key,
		    int64_t *v)
{
	char buf[VMCI_VALUE_MAX + 1];

	return s->get(s->src, key, buf, sizeof(buf)) &&
	       parse_dec(buf, strlen(buf), v);
}

/* ---- what the facts claim, checked by walking ---- */

static const char *const root_symbols[] = {
	"SYMBOL(init_top_pgt)", "SYMBOL(init_level4_pgt)",
	"SYMBOL(swapper_pg_dir)",
};

/* The mode the facts name, as pgw_detect_mode reads a note. */
static const struct pgw_mode *mode_of(const struct pgw_vmci_source *s,
				      uint64_t root_va, char *how, size_t n)
{
	static const struct {
		const char *key, *value, *mode;
	} rules[] = {
		{ "NUMBER(pgtable_l5_enabled)", "1", "la57" },
		{ "NUMBER(pgtable_l5_enabled)", "0", "x86-64" },
		{ "CONFIG_X86_PAE", "y", "pae" },
	};
	char buf[VMCI_VALUE_MAX + 1];

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (s->get(s->src, rules[i].key, buf, sizeof(buf)) &&
		    strcmp(buf, rules[i].value) == 0) {
			snprintf(how, n, "%.30s=%.20s", rules[i].key, buf);
			return pgw_mode_by_name(rules[i].mode);
		}
	bool k64 = root_va >= LINUX_START_KERNEL_MAP;
	snprintf(how, n, "%s-bit symbols", k64 ? "64" : "32");
	return pgw_mode_by_name(k64 ? "x86-64" : "i386");
}

/* The text's own NUMBER(sme_mask), when it is a mask Linux could have:
 * an SME kernel's tables only walk without the C-bit. */
static struct pgw_enc_bits enc_of(const struct pgw_vmci_source *s)
{
	struct pgw_enc_bits enc = { 0 };
	int64_t v;

	if (get_dec(s, "NUMBER(sme_mask)", &v) &&
	    linux_enc_bit_ok((uint64_t)v))
		enc.enc = (uint64_t)v;
	return enc;
}

/* A walk that stopped at a table the image lacks proves nothing: such
 * a stop is kept in check->unverified. */
static bool maps_to(struct pgw_image *img, const struct pgw_mode *mode,
		    struct pgw_enc_bits enc, uint64_t table, uint64_t va,
		    uint64_t pa, const char **how, struct pgw_vmci_check *check)
{
	struct pgw_space sp = { img, mode, table, enc };
	struct pgw_xlat x;
	enum pgw_stop st = pgw_translate(&sp, NULL, va, &x);

	*how = st == PGW_STOP_OK ? "maps it elsewhere" :
				pgw_stop_text(st);
	if (st == PGW_STOP_TABLE_NOT_IN_IMAGE && !check->unverified)
		check->unverified = x.table_absence ? x.table_absence :
						   PGW_ABSENT_OUTSIDE;
	return st == PGW_STOP_OK && x.pa == pa;
}

/* arm64: swapper_pg_dir's table, in the mode it maps itself under. */
static bool check_arm64(struct pgw_image *img, const struct pgw_vmci_source *s,
			struct pgw_vmci_check *check, char *why, size_t n)
{
	const struct pgw_mode *mode;
	uint64_t table;

	if (!linux_arm64_kernel(img, s, &mode, &table, why, n))
		return false;
	check->mode = mode;
	check->kernel_root = table;
	check->unverified = PGW_ABSENT_NONE;
	snprintf(check->why, sizeof(check->why), "%s", why);
	return true;
}

struct pgw_vmci_source pgw_vmci_image(const struct pgw_image *img)
{
	return (struct pgw_vmci_source){ image_get, img };
}

bool pgw_vmci_check_facts(struct pgw_image *img,
			  const struct pgw_vmci_source *s,
			  struct pgw_vmci_check *check, char *why, size_t n)
{
	int64_t pagesize, phys_base = 0;
	uint64_t va = 0, stext = 0;
	const char *sym = NULL, *how;
	char mode_how[64];

	if (!get_dec(s, "PAGESIZE", &pagesize))
		return fail(why, n, "no PAGESIZE");
	if (linux_arm64_facts(s))
		return check_arm64(img, s, check, why, n);
	if (pagesize != 4096)
		return fail(why, n, "PAGESIZE=%lld, not 4096",
			    (long long)pagesize);
	for (size_t i = 0; !sym && i < sizeof(root_symbols) /
					       sizeof(root_symbols[0]); i++)
		if (get_hex(s, root_symbols[i], &va))
			sym = root_symbols[i];
	if (!sym)
		return fail(why, n, "no kernel page-table symbol "
			    "(init_top_pgt, init_level4_pgt, swapper_pg_dir)");
	const struct pgw_mode *mode = mode_of(s, va, mode_how,
					      sizeof(mode_how));
	struct pgw_enc_bits enc = enc_of(s);
	bool have_stext = get_hex(s, "SYMBOL(_stext)", &stext);
	uint64_t table = 0, offset = 0;

	if (mode->va_bits > 32) {
		if (va < LINUX_START_KERNEL_MAP)
			return fail(why, n, "%s=%llx lies below the kernel "
				    "text mapping", sym,
				    (unsigned long long)va);
		char pb[VMCI_VALUE_MAX + 1];
		/* Absent on kernels without a relocatable phys_base: 0. */
		if (s->get(s->src, "NUMBER(phys_base)", pb, sizeof(pb)) &&
		    !parse_dec(pb, strlen(pb), &phys_base))
			return fail(why, n, "NUMBER(phys_base)=%s is not a "
				    "number", pb);
		offset = LINUX_START_KERNEL_MAP - (uint64_t)phys_base;
		table = (va - offset) & mode->root_mask;
		if (!maps_to(img, mode, enc, table, va, table, &how, check))
			return fail(why, n, "%s=%llx: its table 0x%llx (%s) "
				    "does not map itself: %s", sym,
				    (unsigned long long)va,
				    (unsigned long long)table, mode->name,
				    how);
	} else {
		size_t i;
		for (i = 0; i < LINUX_NPAGE_OFFSETS_32; i++) {
			offset = linux_page_offsets_32[i];
			table = (va - offset) & mode->root_mask;
			if (va >= offset &&
			    maps_to(img, mode, enc, table, va, table, &how,
				    check))
				break;
		}
		if (i == LINUX_NPAGE_OFFSETS_32)
			return fail(why, n, "%s=%llx: no PAGE_OFFSET under "
				    "which its table maps itself (%s)", sym,
				    (unsigned long long)va, mode->name);
	}
	if (have_stext && stext >= offset &&
	    !maps_to(img, mode, enc, table, stext, stext - offset, &how,
		     check))
		return fail(why, n, "%s's table 0x%llx does not map "
			    "_stext=%llx to 0x%llx: %s", sym,
			    (unsigned long long)table,
			    (unsigned long long)stext,
			    (unsigned long long)(stext - offset), how);
	check->mode = mode;
	check->kernel_root = table;
	check->unverified = PGW_ABSENT_NONE;
	snprintf(check->why, sizeof(check->why),
		 "PAGESIZE=4096; %s (%s): %s=%llx -> 0x%llx maps itself%s",
		 mode->name, mode_how, sym, (unsigned long long)va,
		 (unsigned long long)table,
		 have_stext ? " and _stext" : "");
	return true;
}

enum pgw_status pgw_vmcoreinfo_validate(struct pgw_image *img,
					struct pgw_vmci_check *check,
					struct pgw_err *err)
{
	struct pgw_vmci_source s = { image_get, img };
	char why[200];

	memset(check, 0, sizeof(*check));
	check->lines = (unsigned)pgw_vmcoreinfo_count(img);
	if (!check->lines)
		return pgw_err_set(err, PGW_E_NOTFOUND,
				   "the image has no VMCOREINFO");
	if (!pgw_vmci_check_facts(img, &s, check, why, sizeof(why))) {
		if (check->unverified)
			return pgw_err_nodata(err, check->unverified,
					      "VMCOREINFO: %s (not in the "
					      "image: %s)", why,
					      pgw_absence_key(
						      check->unverified));
		return pgw_err_set(err, PGW_E_FORMAT, "VMCOREINFO: %s", why);
	}
	return PGW_OK;
}
