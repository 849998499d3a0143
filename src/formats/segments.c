/*
 * Segments of the stream as physical memory (segments.h has the rules).
 *
 * Formats add segments in any order; sealing sweeps their boundaries once
 * and cuts physical memory into disjoint pieces, each with one verdict:
 * data (one stretch of the stream, plus up to PGW_SEG_MAX_ALT other
 * stretches that claim the same memory and are compared when read) or
 * absent with a reason.  Stretches no segment covers are outside the
 * image.  O(n log n) in the segments, whatever they claim.
 */
#include "../lib/err.h"
#include "format.h"
#include "../lib/grow.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ALT 3

enum seg_kind { SEG_DATA, SEG_ABSENT };

struct seg {
	uint64_t pa, size, offset;
	uint8_t kind;               /* enum seg_kind */
	uint8_t why;                /* SEG_ABSENT: enum pgw_absence */
	unsigned id;
};

struct piece {
	uint64_t pa, size;
	uint64_t offset;            /* data: stream offset of pa */
	uint64_t alt[MAX_ALT];      /* data: other segments' offsets of pa */
	unsigned id, alt_id[MAX_ALT];
	uint8_t kind, why, nalt;
	bool ambiguous;             /* more data segments than MAX_ALT + 1 */
	bool plain;                 /* data served from the map as it is: one
				       segment, an unflattened file */
};

struct pgw_segments {
	struct seg *in;             /* as added; freed at seal */
	size_t nin, added;
	const char *noun;
	struct piece *p;
	size_t n;
	size_t hint;
	uint64_t expect_end;        /* where the stream should end, at least */
	uint64_t data_bytes;        /* physical bytes backed by stream bytes */
	uint64_t excluded_over_data;/* excluded-tail bytes real bytes cover */
	size_t same_bytes;          /* segments merged: same bytes, same pa */
	size_t overlaps;            /* pieces compared when read */
	uint8_t scratch[2][PGW_PAGE_SIZE];
};

/* ---- adding ---- */

static enum pgw_status push(struct pgw_image *img, const struct seg *s,
			    struct pgw_err *err)
{
	if (!img->segs) {
		img->segs = calloc(1, sizeof(*img->segs));
		if (!img->segs)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	struct pgw_segments *g = img->segs;
	enum pgw_status st = pgw_grow(&g->in, g->nin, sizeof(*g->in), err);
	if (st != PGW_OK)
		return st;
	g->in[g->nin++] = *s;
	return PGW_OK;
}

static enum pgw_status check_wrap(uint64_t pa, uint64_t size,
				  struct pgw_err *err)
{
	if (pa + size < pa)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "segment at 0x%llx wraps the address space",
				   (unsigned long long)pa);
	return PGW_OK;
}

enum pgw_status pgw_image_add_segment(struct pgw_image *img, uint64_t pa,
				      uint64_t size, uint64_t offset,
				      unsigned id, struct pgw_err *err)
{
	uint64_t have = 0;
	enum pgw_status st;

	if (size == 0)
		return PGW_OK;
	st = check_wrap(pa, size, err);
	if (st != PGW_OK)
		return st;
	if (offset + size < offset)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "segment at physical 0x%llx: offset 0x%llx "
				   "+ size 0x%llx overflows",
				   (unsigned long long)pa,
				   (unsigned long long)offset,
				   (unsigned long long)size);
	if (offset < img->src.size)
		have = img->src.size - offset < size ? img->src.size - offset
						     : size;
	struct seg s = { pa, have, offset, SEG_DATA, PGW_ABSENT_NONE, id };
	if (have) {
		st = push(img, &s, err);
		if (st != PGW_OK)
			return st;
	}
	if (have < size) {
		/* The file ends before the segment does: what is there is
		 * readable, the rest is not in the image. */
		s = (struct seg){ pa + have, size - have, 0, SEG_ABSENT,
				  PGW_ABSENT_TRUNCATED, id };
		st = push(img, &s, err);
		if (st != PGW_OK)
			return st;
	}
	img->segs->added++;
	if (offset + size > img->segs->expect_end)
		img->segs->expect_end = offset + size;
	return PGW_OK;
}

enum pgw_status pgw_image_add_absent_segment(struct pgw_image *img,
					     uint64_t pa, uint64_t size,
					     enum pgw_absence why, unsigned id,
					     struct pgw_err *err)
{
	if (size == 0)
		return PGW_OK;
	enum pgw_status st = check_wrap(pa, size, err);
	struct seg s = { pa, size, 0, SEG_ABSENT, (uint8_t)why, id };
	return st != PGW_OK ? st : push(img, &s, err);
}

size_t pgw_segments_count(const struct pgw_image *img)
{
	return img->segs ? img->segs->added : 0;
}

void pgw_segments_free(struct pgw_image *img)
{
	if (!img->segs)
		return;
	free(img->segs->in);
	free(img->segs->p);
	free(img->segs);
	img->segs = NULL;
}

/* ---- sealing ---- */

static uint64_t seg_end(const struct seg *s)
{
	return s->pa + s->size;     /* add_* refused wrapping */
}

/* Data segments by where their bytes sit relative to pa, then by pa: two
 * with the same delta give the same bytes wherever both cover memory. */
static int delta_cmp(const void *a, const void *b)
{
	const struct seg *x = a, *y = b;
	uint64_t dx = x->offset - x->pa, dy = y->offset - y->pa;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == SEG_DATA && dx != dy)
		return dx < dy ? -1 : 1;
	if (x->pa != y->pa)
		return x->pa < y->pa ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Merge data segments that are one stretch of the file (same delta,
 * overlapping or adjacent): nothing to compare there. */
static void merge_same_bytes(struct pgw_segments *g)
{
	size_t kept = 0;

	qsort(g->in, g->nin, sizeof(*g->in), delta_cmp);
	for (size_t i = 0; i < g->nin; i++) {
		struct seg *s = &g->in[i];
		if (kept && s->kind == SEG_DATA) {
			struct seg *p = &g->in[kept - 1];
			if (p->kind == SEG_DATA &&
			    p->offset - p->pa == s->offset - s->pa &&
			    s->pa <= seg_end(p)) {
				if (s->pa < seg_end(p))
					g->same_bytes++;
				if (seg_end(s) > seg_end(p))
					p->size = seg_end(s) - p->pa;
				continue;
			}
		}
		g->in[kept++] = *s;
	}
	g->nin = kept;
}

struct sweep {
	const struct seg *in;
	size_t *prev, *next;        /* active data segments, in start order */
	size_t head, tail, ndata;
	size_t nabsent[PGW_NABSENCES];
};

#define NONE SIZE_MAX

static void activate(struct sweep *w, size_t i)
{
	const struct seg *s = &w->in[i];

	if (s->kind == SEG_ABSENT) {
		w->nabsent[s->why]++;
	} else {
		w->prev[i] = w->tail;
		w->next[i] = NONE;
		if (w->tail != NONE)
			w->next[w->tail] = i;
		else
			w->head = i;
		w->tail = i;
		w->ndata++;
	}
}

static void deactivate(struct sweep *w, size_t i)
{
	const struct seg *s = &w->in[i];

	if (s->kind == SEG_ABSENT) {
		w->nabsent[s->why]--;
	} else {
		if (w->prev[i] != NONE)
			w->next[w->prev[i]] = w->next[i];
		else
			w->head = w->next[i];
		if (w->next[i] != NONE)
			w->prev[w->next[i]] = w->prev[i];
		else
			w->tail = w->prev[i];
		w->ndata--;
	}
}

/* When a stretch is absent for several reasons, the most telling one. */
static const uint8_t absence_rank[] = {
	PGW_ABSENT_TRUNCATED, PGW_ABSENT_MISSING, PGW_ABSENT_CORRUPT,
	PGW_ABSENT_OTHER_FILE, PGW_ABSENT_EXCLUDED, PGW_ABSENT_OUTSIDE,
};

static bool same_verdict(const struct piece *a, const struct piece *b)
{
	uint64_t step = a->size;

	if (a->pa + a->size != b->pa || a->kind != b->kind)
		return false;
	if (a->kind == SEG_ABSENT)
		return a->why == b->why;
	if (a->offset + step != b->offset || a->nalt != b->nalt ||
	    a->ambiguous != b->ambiguous)
		return false;
	for (unsigned k = 0; k < a->nalt; k++)
		if (a->alt[k] + step != b->alt[k])
			return false;
	return true;
}

/* The verdict for [p, q) from the active set. */
static enum pgw_status emit(struct pgw_segments *g, const struct sweep *w,
			    uint64_t p, uint64_t q, struct pgw_err *err)
{
	struct piece c = { .pa = p, .size = q - p };

	if (w->ndata) {
		const struct seg *s = &w->in[w->head];
		c.kind = SEG_DATA;
		c.offset = s->offset + (p - s->pa);
		c.id = s->id;
		size_t i = w->next[w->head];
		for (; i != NONE && c.nalt < MAX_ALT; i = w->next[i]) {
			c.alt[c.nalt] = w->in[i].offset + (p - w->in[i].pa);
			c.alt_id[c.nalt++] = w->in[i].id;
		}
		c.ambiguous = i != NONE;
		if (w->nabsent[PGW_ABSENT_EXCLUDED])
			g->excluded_over_data += q - p;
		g->data_bytes += q - p;
	} else {
		c.kind = SEG_ABSENT;
		for (size_t k = 0; k < sizeof(absence_rank); k++)
			if (w->nabsent[absence_rank[k]]) {
				c.why = absence_rank[k];
				break;
			}
	}
	if (g->n && same_verdict(&g->p[g->n - 1], &c)) {
		g->p[g->n - 1].size += c.size;
		return PGW_OK;
	}
	enum pgw_status st = pgw_grow(&g->p, g->n, sizeof(*g->p), err);
	if (st != PGW_OK)
		return st;
	g->p[g->n++] = c;
	return PGW_OK;
}

/* A segment's start or end, for the sweep. */
struct bound {
	uint64_t at;
	size_t seg;
};

static int bound_cmp(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	/* Ties keep the delta order of in[]: the primary is deterministic. */
	return x->seg < y->seg ? -1 : x->seg > y->seg;
}

static enum pgw_status sweep(struct pgw_segments *g, struct pgw_err *err)
{
	size_t n = g->nin;
	struct bound *starts = malloc(n * sizeof(*starts));
	struct bound *ends = malloc(n * sizeof(*ends));
	struct sweep w = { .in = g->in, .head = NONE, .tail = NONE };
	enum pgw_status st = PGW_OK;

	w.prev = malloc(n * sizeof(size_t));
	w.next = malloc(n * sizeof(size_t));
	if (!starts || !ends || !w.prev || !w.next) {
		st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		starts[i] = (struct bound){ g->in[i].pa, i };
		ends[i] = (struct bound){ seg_end(&g->in[i]), i };
	}
	qsort(starts, n, sizeof(*starts), bound_cmp);
	qsort(ends, n, sizeof(*ends), bound_cmp);
	size_t is = 0, ie = 0;
	/* Every segment is at least a byte: it starts before it ends, so
	 * is - ie segments are active between two boundaries. */
	while (ie < n) {
		uint64_t p = ends[ie].at;
		if (is < n && starts[is].at < p)
			p = starts[is].at;
		while (ie < n && ends[ie].at == p)
			deactivate(&w, ends[ie++].seg);
		while (is < n && starts[is].at == p)
			activate(&w, starts[is++].seg);
		if (ie == n)
			break;
		uint64_t q = ends[ie].at;
		if (is < n && starts[is].at < q)
			q = starts[is].at;
		if (is > ie) {
			st = emit(g, &w, p, q, err);
			if (st != PGW_OK)
				goto out;
		}
	}
out:
	free(starts);
	free(ends);
	free(w.prev);
	free(w.next);
	return st;
}

/* Facts for `info`: what the overlap rules did. */
static void overlap_facts(struct pgw_image *img, const struct pgw_segments *g)
{
	size_t compared = 0, ambiguous = 0;
	uint64_t first = 0;

	for (size_t i = 0; i < g->n; i++) {
		const struct piece *c = &g->p[i];
		if (c->kind != SEG_DATA || (!c->nalt && !c->ambiguous))
			continue;
		if (!compared && !ambiguous)
			first = c->pa;
		compared += c->nalt && !c->ambiguous;
		ambiguous += c->ambiguous;
	}
	if (g->same_bytes)
		pgw_image_add_fact(img, "duplicate_segments",
				   "%zu %ss repeat another's bytes for the same "
				   "memory (merged)", g->same_bytes, g->noun);
	if (compared || ambiguous)
		pgw_image_add_fact(img, "overlapping_segments",
				   "%zu stretch%s from 0x%llx described by "
				   "several %ss with their own bytes: compared "
				   "when read, pages where they differ are "
				   "corrupt%s", compared + ambiguous,
				   compared + ambiguous == 1 ? "" : "es",
				   (unsigned long long)first, g->noun,
				   ambiguous ? "; stretches with more than 4 "
					       "are corrupt" : "");
	if (g->excluded_over_data)
		pgw_image_add_fact(img, "excluded_overlaps",
				   "0x%llx bytes of an excluded tail "
				   "(p_memsz > p_filesz) also lie in another "
				   "%s: its bytes in the file are used",
				   (unsigned long long)g->excluded_over_data,
				   g->noun);
}

enum pgw_status pgw_image_seal_segments(struct pgw_image *img,
					const char *noun, struct pgw_err *err)
{
	struct pgw_segments *g = img->segs;
	enum pgw_status st;

	if (!g || g->nin == 0)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "no physical memory in the image");
	g->noun = noun;
	merge_same_bytes(g);
	st = sweep(g, err);
	if (st != PGW_OK)
		return st;
	free(g->in);
	g->in = NULL;
	g->nin = 0;
	/*
	 * Overlapping bytes are compared when read.  A real dump repeats a
	 * little (kernel text in /proc/vmcore); more overlap than the file
	 * has bytes is a file built to make comparing cost without end.
	 */
	uint64_t cost = 0, cap = 2 * img->src.size + (UINT64_C(64) << 20);
	for (size_t i = 0; i < g->n && cost <= cap; i++)
		if (g->p[i].kind == SEG_DATA && !g->p[i].ambiguous)
			cost += g->p[i].size * g->p[i].nalt;
	if (cost > cap)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "%ss overlap over more bytes than the file "
				   "holds", noun);
	for (size_t i = 0; i < g->n; i++) {
		st = pgw_image_add_range(img, g->p[i].pa, g->p[i].size, err);
		if (st != PGW_OK)
			return st;
	}
	for (size_t i = 0; i < g->n; i++)
		g->p[i].plain = g->p[i].kind == SEG_DATA && !g->p[i].nalt &&
				!g->p[i].ambiguous && !img->src.flattened;
	/* Zero copy when no page is put together from two pieces. */
	img->zero_copy = !img->src.flattened;
	for (size_t i = 0; i + 1 < g->n && img->zero_copy; i++) {
		const struct piece *a = &g->p[i], *b = &g->p[i + 1];
		if (a->pa + a->size == b->pa && a->kind != SEG_ABSENT &&
		    b->kind != SEG_ABSENT && (b->pa & (PGW_PAGE_SIZE - 1)))
			img->zero_copy = false;
	}
	overlap_facts(img, g);
	return PGW_OK;
}

/* ---- lookup ---- */

/* First piece that ends after pa (it holds pa, or lies above it), or n. */
static size_t find_from(struct pgw_segments *g, uint64_t pa)
{
	const struct piece *h = &g->p[g->hint];
	size_t lo = 0, hi = g->n;

	if (g->n && pa >= h->pa && pa - h->pa < h->size)
		return g->hint;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct piece *c = &g->p[mid];
		if (pa - c->pa < c->size && pa >= c->pa)
			lo = hi = mid;
		else if (pa < c->pa)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < g->n && pa >= g->p[lo].pa)
		g->hint = lo;
	return lo;
}

static bool holds(const struct piece *c, uint64_t pa)
{
	return pa >= c->pa && pa - c->pa < c->size;
}

/* The piece holding frame pfn's first byte, or NULL; *next_ret (may be
 * NULL) the index of the first piece that ends after it (n: none). */
static const struct piece *piece_at(struct pgw_segments *g, uint64_t pfn,
				    size_t *next_ret)
{
	uint64_t pa = pfn << PGW_PAGE_SHIFT;
	size_t i = g ? g->n : 0;

	if (g && g->n && pfn <= (UINT64_MAX >> PGW_PAGE_SHIFT))
		i = find_from(g, pa);
	if (next_ret)
		*next_ret = i;
	return g && i < g->n && holds(&g->p[i], pa) ? &g->p[i] : NULL;
}

/* ---- reading ---- */

/*
 * Bytes [in, in+n) of data piece c, as a pointer (into the map, or into
 * dst when the stream must copy), after checking that every segment that
 * claims them is in the file and agrees.  NODATA with the reason if not.
 */
static enum pgw_status piece_bytes(struct pgw_image *img,
				   const struct piece *c, uint64_t in,
				   size_t n, uint8_t *dst,
				   const uint8_t **ptr_ret, struct pgw_err *err)
{
	struct pgw_segments *g = img->segs;
	const struct pgw_source *src = &img->src;
	uint64_t pa = c->pa + in;
	enum pgw_absence why;
	enum pgw_status st;

	if (c->ambiguous)
		return pgw_err_nodata(err, PGW_ABSENT_CORRUPT,
				      "physical 0x%llx: more than %d %ss give "
				      "its bytes", (unsigned long long)pa,
				      MAX_ALT + 1, g->noun);
	why = pgw_source_absence(src, c->offset + in, n);
	if (why != PGW_ABSENT_NONE)
		return pgw_err_nodata(err, why,
				      "physical 0x%llx: %s %u: its bytes are "
				      "not in the file (%s)",
				      (unsigned long long)pa, g->noun, c->id,
				      pgw_absence_key(why));
	st = pgw_source_get(src, c->offset + in, n, dst, ptr_ret, err);
	if (st != PGW_OK)
		return st;
	for (unsigned k = 0; k < c->nalt; k++) {
		const uint8_t *q;
		why = pgw_source_absence(src, c->alt[k] + in, n);
		if (why != PGW_ABSENT_NONE)
			return pgw_err_nodata(err, why,
					      "physical 0x%llx: %s %u: its "
					      "bytes are not in the file (%s)",
					      (unsigned long long)pa, g->noun,
					      c->alt_id[k],
					      pgw_absence_key(why));
		/* dst holds the first copy when the stream copies. */
		uint8_t *other = *ptr_ret == g->scratch[0] ? g->scratch[1]
							   : g->scratch[0];
		st = pgw_source_get(src, c->alt[k] + in, n, other, &q, err);
		if (st != PGW_OK)
			return st;
		if (memcmp(*ptr_ret, q, n) != 0)
			return pgw_err_nodata(err, PGW_ABSENT_CORRUPT,
					      "physical 0x%llx: %s %u and %s "
					      "%u give different bytes",
					      (unsigned long long)pa, g->noun,
					      c->id, g->noun, c->alt_id[k]);
	}
	return PGW_OK;
}

static enum pgw_status absent_err(const struct pgw_segments *g,
				  const struct piece *c, uint64_t pa,
				  struct pgw_err *err)
{
	if (!c)
		return pgw_err_nodata(err, PGW_ABSENT_OUTSIDE,
				      "physical 0x%llx is not in the image",
				      (unsigned long long)pa);
	if (c->why == PGW_ABSENT_TRUNCATED)
		return pgw_err_nodata(err, PGW_ABSENT_TRUNCATED,
				      "physical 0x%llx: %s %u is cut short: "
				      "the file ends before its data "
				      "(truncated)", (unsigned long long)pa,
				      g->noun, c->id);
	return pgw_err_nodata(err, (enum pgw_absence)c->why,
			      "physical 0x%llx is not in the image (%s)",
			      (unsigned long long)pa,
			      pgw_absence_key((enum pgw_absence)c->why));
}

/*
 * A page that is not one piece: put together in buf (NULL: only check),
 * every byte from a piece that has it.  The first byte that is not in the
 * image makes the page absent, for the most telling reason found.
 */
static enum pgw_status assemble(struct pgw_image *img, uint64_t pa,
				uint8_t *buf, struct pgw_err *err)
{
	struct pgw_segments *g = img->segs;
	uint64_t done = 0;
	struct pgw_err first = { 0 };

	while (done < PGW_PAGE_SIZE) {
		size_t i = find_from(g, pa + done);
		const struct piece *c = i < g->n ? &g->p[i] : NULL;
		uint64_t n;
		if (!c || !holds(c, pa + done)) {
			if (first.status == PGW_OK)
				absent_err(g, NULL, pa + done, &first);
			if (!c || c->pa - pa >= PGW_PAGE_SIZE)
				break;
			done = c->pa - pa;
			continue;
		}
		uint64_t in = pa + done - c->pa;
		n = c->size - in;
		if (n > PGW_PAGE_SIZE - done)
			n = PGW_PAGE_SIZE - done;
		if (c->kind == SEG_ABSENT) {
			if (first.status == PGW_OK ||
			    first.absence == PGW_ABSENT_OUTSIDE)
				absent_err(g, c, pa + done, &first);
		} else if (first.status == PGW_OK) {
			const uint8_t *p;
			uint8_t *dst = buf ? buf + done : g->scratch[0];
			enum pgw_status st = piece_bytes(img, c, in, (size_t)n,
							 dst, &p, &first);
			if (st != PGW_OK && st != PGW_E_NODATA) {
				*err = first;
				return st;
			}
			if (st == PGW_OK && buf && p != dst)
				memcpy(dst, p, (size_t)n);
		}
		done += n;
	}
	if (first.status != PGW_OK) {
		*err = first;
		return first.status;
	}
	return PGW_OK;
}

enum pgw_status pgw_segments_page(struct pgw_image *img, uint64_t pfn,
				  uint8_t *buf, const uint8_t **page_ret,
				  struct pgw_err *err)
{
	struct pgw_segments *g = img->segs;
	uint64_t pa = pfn << PGW_PAGE_SHIFT;
	const struct piece *h = &g->p[g->hint];

	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return absent_err(g, NULL, pa, err);
	/* The hot path of every walk: a page of the piece found last, in
	 * the map as it is (sealing checked its bytes are in the file). */
	if (h->plain && pa - h->pa < h->size &&
	    h->size - (pa - h->pa) >= PGW_PAGE_SIZE) {
		*page_ret = img->src.map + h->offset + (pa - h->pa);
		return PGW_OK;
	}
	size_t i = find_from(g, pa);
	const struct piece *c = i < g->n && holds(&g->p[i], pa) ? &g->p[i]
							       : NULL;
	if (c && c->size - (pa - c->pa) >= PGW_PAGE_SIZE) {
		if (c->kind == SEG_ABSENT)
			return absent_err(g, c, pa, err);
		if (c->plain) {
			*page_ret = img->src.map + c->offset + (pa - c->pa);
			return PGW_OK;
		}
		return piece_bytes(img, c, pa - c->pa, PGW_PAGE_SIZE,
				   buf ? buf : g->scratch[0], page_ret, err);
	}
	if (!buf) {
		/* Zero copy: a page that needs assembling has a gap. */
		enum pgw_status st = assemble(img, pa, NULL, err);
		return st == PGW_OK ? absent_err(g, NULL, pa, err) : st;
	}
	enum pgw_status st = assemble(img, pa, buf, err);
	if (st == PGW_OK)
		*page_ret = buf;
	return st;
}

uint64_t pgw_segments_unheld_run(struct pgw_image *img, uint64_t pfn,
				 bool *zero_ret)
{
	struct pgw_segments *g = img->segs;
	size_t i;
	const struct piece *c = piece_at(g, pfn, &i);

	*zero_ret = false;
	if (c) {
		if (c->kind != SEG_ABSENT)
			return 0;
		return (c->size - ((pfn << PGW_PAGE_SHIFT) - c->pa)) >>
		       PGW_PAGE_SHIFT;
	}
	/* Between pieces (or past the last): outside the image up to the
	 * next piece's first whole page. */
	if (i < (g ? g->n : 0))
		return (g->p[i].pa >> PGW_PAGE_SHIFT) - pfn;
	return 0;
}

enum pgw_absence pgw_segments_page_state(struct pgw_image *img, uint64_t pfn)
{
	struct pgw_err err;
	const uint8_t *p;
	uint64_t pa = pfn << PGW_PAGE_SHIFT;

	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return PGW_ABSENT_OUTSIDE;
	const struct piece *c = piece_at(img->segs, pfn, NULL);
	enum pgw_status st;
	if (c && c->size - (pa - c->pa) >= PGW_PAGE_SIZE) {
		if (c->kind == SEG_ABSENT)
			return (enum pgw_absence)c->why;
		if (!c->nalt && !c->ambiguous)
			return pgw_source_absence(&img->src,
						  c->offset + (pa - c->pa),
						  PGW_PAGE_SIZE);
		st = piece_bytes(img, c, pa - c->pa, PGW_PAGE_SIZE,
				 img->segs->scratch[0], &p, &err);
	} else {
		st = assemble(img, pa, NULL, &err);
		if (st == PGW_OK && img->zero_copy)
			return PGW_ABSENT_OUTSIDE;  /* as page() says */
	}
	if (st == PGW_OK)
		return PGW_ABSENT_NONE;
	return st == PGW_E_NODATA ? err.absence : PGW_ABSENT_CORRUPT;
}

/* ---- counting ---- */

static void add(uint64_t counts[PGW_NABSENCES], enum pgw_absence why,
		uint64_t first, uint64_t last)
{
	counts[why] += last - first + 1;
}

/*
 * Bytes of [pa, last] per reason, a page at a time where a page is not
 * wholly one piece or must be compared, in bulk over the inside of a
 * piece and over gaps.
 */
void pgw_segments_absent_bytes(struct pgw_image *img, uint64_t pa,
			       uint64_t last, uint64_t counts[PGW_NABSENCES])
{
	struct pgw_segments *g = img->segs;
	uint64_t x = pa;

	for (;;) {
		uint64_t pg = x & ~(PGW_PAGE_SIZE - 1);
		size_t i = find_from(g, pg);
		const struct piece *c = i < g->n ? &g->p[i] : NULL;
		uint64_t stop;       /* last byte of this step */
		uint64_t whole = 0;  /* bytes of whole pages of c from pg */
		if (c && holds(c, pg))
			whole = (c->pa + (c->size - 1) - pg + 1) &
				~(PGW_PAGE_SIZE - 1);
		if (whole && (c->kind != SEG_DATA ||
			      (!c->nalt && !c->ambiguous &&
			       pgw_source_absence(&img->src,
						  c->offset + (pg - c->pa),
						  whole) == PGW_ABSENT_NONE))) {
			/* Whole pages inside one piece that needs no
			 * comparing, its bytes all there: one verdict. */
			stop = pg + (whole - 1);
			add(counts, c->kind == SEG_ABSENT ?
				     (enum pgw_absence)c->why : PGW_ABSENT_NONE,
			    x, stop < last ? stop : last);
		} else if ((!c || c->pa - pg >= PGW_PAGE_SIZE) &&
			   !(c && holds(c, pg))) {
			/* Whole pages of a gap. */
			uint64_t gend = c ? (c->pa & ~(PGW_PAGE_SIZE - 1)) - 1
					  : UINT64_MAX;
			stop = gend;
			add(counts, PGW_ABSENT_OUTSIDE, x,
			    stop < last ? stop : last);
		} else {
			stop = pg + (PGW_PAGE_SIZE - 1);
			add(counts,
			    pgw_segments_page_state(img, pg >> PGW_PAGE_SHIFT),
			    x, stop < last ? stop : last);
		}
		if (stop >= last)
			return;
		x = stop + 1;
	}
}

uint64_t pgw_segments_held_span(struct pgw_image *img, uint64_t pfn,
				uint64_t *first_ret)
{
	const struct piece *c = piece_at(img->segs, pfn, NULL);

	if (!c)
		return 0;
	/* Whole pages of one piece that page_state answers NONE without
	 * reading: data of one segment in a file as it is
	 * (pgw_image_add_segment ended a data piece where the file
	 * ends; what is missing is an absent piece of its own).  A piece
	 * ending at 2^64 ends its last page too. */
	uint64_t top = c->pa + c->size;
	uint64_t first = (c->pa >> PGW_PAGE_SHIFT) +
			 ((c->pa & (PGW_PAGE_SIZE - 1)) != 0);
	uint64_t end = top ? top >> PGW_PAGE_SHIFT
			   : UINT64_C(1) << (64 - PGW_PAGE_SHIFT);
	if (pfn < first || pfn >= end)
		return 0;
	if (c->kind == SEG_ABSENT || c->nalt || c->ambiguous ||
	    img->src.flattened)
		return 0;
	*first_ret = first;
	return end - first;
}

uint64_t pgw_segments_held_pages(const struct pgw_image *img)
{
	return img->segs ? (img->segs->data_bytes + PGW_PAGE_SIZE - 1) >>
				   PGW_PAGE_SHIFT : 0;
}

void pgw_segments_evidence(struct pgw_image *img, struct pgw_evidence *ev)
{
	struct pgw_segments *g = img->segs;
	uint64_t counts[PGW_NABSENCES] = { 0 };
	uint64_t next = 0;            /* first page not yet counted */
	bool any = false;

	/* Page by page over what the pieces describe, each page once. */
	for (size_t i = 0; i < g->n; i++) {
		const struct piece *c = &g->p[i];
		uint64_t first = c->pa >> PGW_PAGE_SHIFT;
		uint64_t lastp = (c->pa + (c->size - 1)) >> PGW_PAGE_SHIFT;
		if (any && first < next)
			first = next;
		if (any && first > lastp)
			continue;
		pgw_segments_absent_bytes(img, first << PGW_PAGE_SHIFT,
					  (lastp << PGW_PAGE_SHIFT) +
						  (PGW_PAGE_SIZE - 1),
					  counts);
		any = true;
		next = lastp + 1;
		if (next == 0)
			break;      /* the top page of the address space */
	}
	for (size_t k = 0; k < PGW_NABSENCES; k++) {
		uint64_t pages = counts[k] >> PGW_PAGE_SHIFT;
		ev->pages_ram += pages;
		if (k == PGW_ABSENT_NONE)
			ev->pages_dumped += pages;
		else
			ev->pages_absent[k] += pages;
	}
	if (g->expect_end > img->src.size)
		ev->file_bytes_missing = g->expect_end - img->src.size;
}
