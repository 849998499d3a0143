#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"
#include "../lib/err.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "4d 5a ?? 00" or "4d5a??00": pairs of hex digits or ??, spaces
 * between pairs allowed. */
static bool compile_hex(struct pattern *p, const char *s, struct pgw_err *err)
{
	while (*s) {
		if (*s == ' ') {
			s++;
			continue;
		}
		if (p->len == PATTERN_MAX) {
			pgw_err_set(err, PGW_E_ARG,
				    "is longer than 4096 bytes");
			return false;
		}
		if (s[0] == '?' && s[1] == '?') {
			p->fixed[p->len++] = 0;
			s += 2;
			continue;
		}
		int hi = hexval(s[0]), lo = hi < 0 ? -1 : hexval(s[1]);
		if (lo < 0) {
			pgw_err_set(err, PGW_E_ARG, "is not pairs of hex "
				    "digits or ?? (e.g. 4d5a??00)");
			return false;
		}
		p->bytes[p->len] = (uint8_t)(hi << 4 | lo);
		p->fixed[p->len++] = 1;
		s += 2;
	}
	return true;
}

static bool compile_text(struct pattern *p, const char *s, bool wide,
			 struct pgw_err *err)
{
	size_t n = strlen(s), step = wide ? 2 : 1;

	if (n * step > PATTERN_MAX) {
		pgw_err_set(err, PGW_E_ARG, "is longer than 4096 bytes");
		return false;
	}
	/* UTF-16LE of the bytes given: each byte, then 0 (ASCII as
	 * Windows and Java keep it). */
	for (size_t i = 0; i < n; i++) {
		p->bytes[i * step] = (uint8_t)s[i];
		if (wide)
			p->bytes[i * step + 1] = 0;
	}
	p->len = n * step;
	memset(p->fixed, 1, p->len);
	return true;
}

/* The longest run of fixed bytes: what memmem looks for. */
static void find_anchor(struct pattern *p)
{
	size_t best = 0, best_len = 0;

	for (size_t i = 0; i < p->len;) {
		if (!p->fixed[i]) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < p->len && p->fixed[j])
			j++;
		if (j - i > best_len) {
			best = i;
			best_len = j - i;
		}
		i = j;
	}
	p->anchor = best;
	p->anchor_len = best_len;
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t pattern_c_locale(void)
{
	pthread_once(&c_locale_once, make_c_locale);
	return c_locale;
}

/* An ERE as regcomp takes it; back-references (a GNU extension, not
 * ERE) are refused: they alone make matching exponential. */
static bool compile_regex(struct pattern *p, const char *s,
			  struct pgw_err *err)
{
	for (const char *c = s; *c; c++)
		if (c[0] == '\\' && c[1] >= '1' && c[1] <= '9') {
			pgw_err_set(err, PGW_E_ARG, "has a back-reference "
				    "(\\1 ... \\9): not an extended regular "
				    "expression");
			return false;
		} else if (c[0] == '\\' && c[1]) {
			c++;
		}
	locale_t c = pattern_c_locale();
	if (!c) {
		pgw_err_set(err, PGW_E_NOMEM, "out of memory (the C locale)");
		return false;
	}
	locale_t was = uselocale(c);
	int rc = regcomp(&p->re, s, REG_EXTENDED);
	uselocale(was);
	if (rc != 0) {
		char why[200];
		regerror(rc, &p->re, why, sizeof(why));
		pgw_err_set(err, PGW_E_ARG, "is not an extended regular "
			    "expression: %s", why);
		return false;
	}
	p->len = REGEX_WINDOW;
	return true;
}

void pattern_free(struct pattern *p)
{
	if (p->kind == PGW_PATTERN_REGEX && p->len)
		regfree(&p->re);
	p->len = 0;
}

bool pattern_compile(struct pattern *p, enum pgw_pattern_kind kind,
		     const char *text, struct pgw_err *err)
{
	bool ok;

	p->kind = kind;
	p->text = text;
	p->len = 0;
	if (kind == PGW_PATTERN_REGEX)
		return compile_regex(p, text, err);
	if (kind == PGW_PATTERN_YARA) {
		/* The rules are compiled by libyara (yara_rules.c). */
		p->len = REGEX_WINDOW;
		return true;
	}
	ok = kind == PGW_PATTERN_HEX ?
		     compile_hex(p, text, err) :
		     compile_text(p, text, kind == PGW_PATTERN_WIDE, err);
	if (ok && p->len == 0) {
		pgw_err_set(err, PGW_E_ARG, "is empty");
		ok = false;
	}
	if (ok)
		find_anchor(p);
	return ok;
}

/* The bytes around the anchor, where ?? may stand. */
bool pattern_at(const struct pattern *p, const uint8_t *at)
{
	for (size_t i = 0; i < p->len; i++)
		if (p->fixed[i] && at[i] != p->bytes[i])
			return false;
	return true;
}

size_t pattern_find(const struct pattern *p, const uint8_t *buf, size_t n,
		    size_t from)
{
	if (n < p->len || from > n - p->len)
		return n;
	if (p->anchor_len == 0)
		return from;   /* all ??: every offset */
	/* Anchors start in [from + anchor, last + anchor]. */
	size_t last = n - p->len;
	const uint8_t *lo = buf + from + p->anchor;
	const uint8_t *hi = buf + last + p->anchor + p->anchor_len;
	bool whole = p->anchor_len == p->len;

	while (lo + p->anchor_len <= hi) {
		const uint8_t *a = memmem(lo, (size_t)(hi - lo),
					  p->bytes + p->anchor, p->anchor_len);
		if (!a)
			return n;
		const uint8_t *start = a - p->anchor;
		if (whole || pattern_at(p, start))
			return (size_t)(start - buf);
		lo = a + 1;
	}
	return n;
}
