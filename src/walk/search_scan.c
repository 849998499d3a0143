#include <stdlib.h>
#include <string.h>

#include "pgwalk.h"
#include "search_scan.h"
#include "yara_rules.h"

/* How seldom a byte is in memory, roughly: zeros and 0xff fill it,
 * then text; other bytes (punctuation, control, high) are rarer. */
static unsigned rarity(uint8_t b)
{
	if (b == 0 || b == 0xff)
		return 0;
	if ((b >= 'a' && b <= 'z') || b == ' ')
		return 1;
	if ((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9'))
		return 2;
	return 3;
}

static size_t rarest(const uint8_t *key, size_t n)
{
	size_t r = 0;

	for (size_t i = 1; i < n; i++)
		if (rarity(key[i]) > rarity(key[r]))
			r = i;
	return r;
}

/* Patterns whose anchors begin alike are looked for together: one pass
 * over the buffer per group, each pattern of it checked where the key
 * lies (a search for many markers that start "PGWALK-" reads memory
 * once). */
static bool group(struct scanner *s)
{
	s->group = calloc(s->npat ? s->npat : 1, sizeof(*s->group));
	if (!s->group)
		return false;
	for (size_t i = 0; i < s->npat; i++) {
		const struct pattern *p = s->pat[i];
		if (p->kind == PGW_PATTERN_REGEX || p->kind == PGW_PATTERN_YARA)
			continue;
		size_t klen = p->anchor_len < SCAN_KEY ? p->anchor_len : SCAN_KEY;
		const uint8_t *key = p->bytes + p->anchor;
		struct scan_group *g = NULL;
		for (size_t j = 0; j < s->ngroups && !g; j++)
			if (s->group[j].key_len == klen &&
			    memcmp(s->group[j].key, key, klen) == 0)
				g = &s->group[j];
		if (!g) {
			g = &s->group[s->ngroups++];
			memcpy(g->key, key, klen);
			g->key_len = klen;
			g->rare = rarest(key, klen);
			g->member = calloc(s->npat, sizeof(*g->member));
			if (!g->member)
				return false;
		}
		g->member[g->n++] = i;
	}
	return true;
}

bool scan_init(struct scanner *s, struct pattern *const *pat, size_t npat,
	       void (*hit)(void *, const struct scan_hit *), void *arg)
{
	size_t longest = 1;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < npat; i++)
		if (pat[i]->len > longest)
			longest = pat[i]->len;
	s->pat = pat;
	s->npat = npat;
	s->keep = longest - 1;
	s->hit = hit;
	s->arg = arg;
	/* One byte more: a NUL after the chunk, for regexec's callers
	 * that read up to one (REG_STARTEND needs none; ASan's interceptor
	 * does). */
	s->buf = malloc(s->keep + SCAN_PAGES * PGW_PAGE_SIZE + 1);
	s->resume = calloc(npat ? npat : 1, sizeof(*s->resume));
	return s->buf && s->resume && group(s);
}

void scan_free(struct scanner *s)
{
	for (size_t g = 0; s->group && g < s->ngroups; g++)
		free(s->group[g].member);
	free(s->group);
	free(s->found);
	free(s->resume);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

static void report(struct scanner *s, const struct scan_found *f)
{
	size_t off = f->off;
	struct scan_hit h = { .pattern = f->pattern, .len = f->len,
			      .rule = f->rule, .string = f->string };

	if (off < s->carry) {
		h.addr = s->carry_addr + off;
		h.pa = s->carry_pa + off;
	} else {
		size_t rel = off - s->carry;
		h.addr = s->start + rel;
		h.pa = s->pa[rel / PGW_PAGE_SIZE] + rel % PGW_PAGE_SIZE;
	}
	s->hit(s->arg, &h);
}

/* A match at off, unless it starts at or above the limit: the next
 * chunk's, where that lies in what this one carries over. */
static bool add_named(struct scanner *s, size_t off, size_t pattern,
		      size_t len, const char *rule, const char *string)
{
	if (off >= s->limit)
		return true;
	if (s->nfound == s->capfound) {
		size_t cap = s->capfound ? 2 * s->capfound : 256;
		struct scan_found *f = realloc(s->found, cap * sizeof(*f));
		if (!f)
			return false;
		s->found = f;
		s->capfound = cap;
	}
	s->found[s->nfound++] = (struct scan_found){ off, pattern, len, rule,
						     string };
	return true;
}

static bool add(struct scanner *s, size_t off, size_t pattern, size_t len)
{
	return add_named(s, off, pattern, len, NULL, NULL);
}

/* The key's first place in p[0, n): memchr for its rarest byte (its
 * scan runs at memory speed, memmem's pair hashing at a third of it),
 * then the key whole around it. */
static const uint8_t *find_key(const uint8_t *p, size_t n,
			       const struct scan_group *g)
{
	size_t r = g->rare, len = g->key_len;

	for (size_t at = r; at + (len - r) <= n;) {
		const uint8_t *q = memchr(p + at, g->key[r], n - (len - r) - at + 1);
		if (!q)
			return NULL;
		size_t start = (size_t)(q - p) - r;
		if (memcmp(p + start, g->key, len) == 0)
			return p + start;
		at = (size_t)(q - p) + 1;
	}
	return NULL;
}

/* Every match of a group's patterns in buf[0, total): each place its
 * key lies, each pattern checked whole there. */
static bool search_group(struct scanner *s, const struct scan_group *g,
			 size_t total)
{
	const uint8_t *buf = s->buf;

	if (g->key_len == 0) {
		/* All ??: every offset. */
		for (size_t i = 0; i < g->n; i++) {
			size_t len = s->pat[g->member[i]]->len;
			for (size_t off = 0; off + len <= total; off++)
				if (!add(s, off, g->member[i], len))
					return false;
		}
		return true;
	}
	for (size_t pos = 0; pos + g->key_len <= total;) {
		const uint8_t *q = find_key(buf + pos, total - pos, g);
		if (!q)
			break;
		size_t at = (size_t)(q - buf);
		for (size_t i = 0; i < g->n; i++) {
			const struct pattern *p = s->pat[g->member[i]];
			if (at < p->anchor || at - p->anchor + p->len > total)
				continue;
			size_t off = at - p->anchor;
			if (pattern_at(p, buf + off) &&
			    !add(s, off, g->member[i], p->len))
				return false;
		}
		pos = at + 1;
	}
	return true;
}

static int cmp_found(const void *a, const void *b)
{
	const struct scan_found *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->pattern < y->pattern ? -1 : x->pattern > y->pattern;
}

/*
 * A regular expression's matches that start in [resume, limit): each
 * start is this chunk's to report below limit, the next chunk's (where
 * it lies in the carry) at or above it.  Each try looks at one window
 * and takes a match only if it starts in the window's first half, so a
 * match is never cut short and no expression costs more than a window's
 * work a byte (and one a match).  A try that takes nothing moves on to
 * the next multiple of REGEX_MAX in the address space, so where the
 * tries lie after it depends on the addresses alone, not on the matches
 * before: the threads' pieces (search_stream.c) know where the search
 * goes on at their start.  Empty matches are no hits.
 */
static bool search_regex(struct scanner *s, size_t i, size_t total,
			 size_t limit)
{
	const struct pattern *p = s->pat[i];
	size_t pos = s->resume[i];
	/* Compiled in the C locale (pattern.c): matched in it too. */
	locale_t was = uselocale(pattern_c_locale());

	while (pos < limit) {
		size_t end = pos + REGEX_WINDOW < total ? pos + REGEX_WINDOW :
							   total;
		regmatch_t m = { .rm_so = (regoff_t)pos, .rm_eo = (regoff_t)end };
		if (regexec(&p->re, (const char *)s->buf, 1, &m,
			    REG_STARTEND) != 0 ||
		    (size_t)m.rm_so >= pos + REGEX_MAX) {
			pos += REGEX_MAX - (s->start - s->carry + pos) % REGEX_MAX;
			continue;
		}
		size_t so = (size_t)m.rm_so, eo = (size_t)m.rm_eo;
		if (so >= limit)
			break;
		if (eo == so) {
			pos = so + 1;
			continue;
		}
		if (!add(s, so, i, eo - so)) {
			uselocale(was);
			return false;
		}
		pos = eo;
	}
	uselocale(was);
	/* Where the next chunk goes on: past this chunk's last match. */
	s->resume[i] = pos > limit ? pos - limit : 0;
	return true;
}

/* A YARA string match. */
struct yara_chunk {
	struct scanner *s;
	size_t pattern;
};

static bool on_yara(void *arg, size_t off, size_t len, const char *rule,
		    const char *string)
{
	struct yara_chunk *y = arg;

	return add_named(y->s, off, y->pattern, len, rule, string);
}

/*
 * Every match in the buffer that starts below the limit, by offset: the
 * whole buffer at the end of the stream, else all but the bytes carried
 * into the next chunk (as long as the longest pattern, less one), so
 * each match is found by the chunk it starts in, whole, once, and the
 * hits come in address order.  Rules' conditions hold or fail over the
 * chunk: 256 KiB of memory whose pages follow one another (and what the
 * chunk before carried over).
 */
static void search(struct scanner *s, bool go_on)
{
	size_t total = s->carry + s->npages * PGW_PAGE_SIZE;
	size_t limit = go_on ? total - s->keep : total;

	s->limit = limit;
	s->buf[total] = 0;
	s->nfound = 0;
	for (size_t g = 0; g < s->ngroups; g++)
		if (!search_group(s, &s->group[g], total))
			s->oom = true;
	for (size_t i = 0; i < s->npat; i++) {
		if (s->pat[i]->kind == PGW_PATTERN_REGEX &&
		    !search_regex(s, i, total, limit))
			s->oom = true;
		struct yara_chunk y = { s, i };
		if (s->pat[i]->kind == PGW_PATTERN_YARA &&
		    !yara_rules_scan(s->pat[i]->yara, s->buf, total, on_yara,
				     &y, &s->failed))
			s->oom = true;
	}
	if (s->nfound)
		qsort(s->found, s->nfound, sizeof(*s->found), cmp_found);
	for (size_t i = 0; i < s->nfound; i++)
		report(s, &s->found[i]);
}

/* Search what is held; keep its last bytes when the stream goes on. */
static void flush(struct scanner *s, bool go_on)
{
	if (s->npages == 0) {
		if (!go_on)
			s->carry = 0;
		if (!go_on)
			memset(s->resume, 0, s->npat * sizeof(*s->resume));
		return;
	}
	search(s, go_on);
	if (!go_on)
		memset(s->resume, 0, s->npat * sizeof(*s->resume));
	size_t total = s->carry + s->npages * PGW_PAGE_SIZE;
	size_t keep = go_on ? s->keep : 0;
	uint64_t end = s->start + s->npages * PGW_PAGE_SIZE;

	memmove(s->buf, s->buf + total - keep, keep);
	s->carry = keep;
	s->carry_addr = end - keep;
	s->carry_pa = s->pa[s->npages - 1] + PGW_PAGE_SIZE - keep;
	s->npages = 0;
}

uint8_t *scan_slot(struct scanner *s, uint64_t addr, uint64_t pa)
{
	uint64_t next = s->npages ? s->start + s->npages * PGW_PAGE_SIZE :
				    s->carry_addr + s->carry;

	if ((s->npages || s->carry) && addr != next)
		flush(s, false);
	else if (s->npages == SCAN_PAGES)
		flush(s, true);
	s->slot_addr = addr;
	s->slot_pa = pa;
	return s->buf + s->carry + s->npages * PGW_PAGE_SIZE;
}

void scan_commit(struct scanner *s)
{
	if (s->npages == 0)
		s->start = s->slot_addr;
	s->pa[s->npages++] = s->slot_pa;
	s->bytes += PGW_PAGE_SIZE;
}

void scan_break(struct scanner *s)
{
	flush(s, false);
}

bool scan_hits_push(struct scan_hit **v, size_t *n, size_t *cap,
		    const struct scan_hit *h)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct scan_hit *g = realloc(*v, c * sizeof(*g));
		if (!g)
			return false;
		*v = g;
		*cap = c;
	}
	(*v)[(*n)++] = *h;
	return true;
}
