/*
 * makedumpfile's flattened format, as a view of the file.
 *
 * makedumpfile -F (and QEMU 7.2's dump-guest-memory -z) write to a pipe, so
 * instead of seeking they emit records: a 4 KiB header with the signature
 * "makedumpfile", type 1 and version, then for every write a big-endian
 * (offset, size) pair and `size` bytes that belong at logical `offset`, and
 * finally the pair (-1, -1).  `makedumpfile -R` replays the records with
 * seek+write, so a later record overwrites an earlier one and never-written
 * stretches are holes.  Records go backwards all the time (page descriptors
 * and page data are flushed from two caches), so order alone is not an
 * error.
 *
 * We index the records once, sorted by logical offset, with overlaps
 * resolved as the replay would resolve them, and leave the bytes where they
 * are: pgw_source_get() reads through the index.
 */
#include "../lib/err.h"
#include "source.h"
#include "../lib/bytes.h"

#include <stdlib.h>
#include <string.h>

#define FLAT_HEADER_SIZE 4096
#define FLAT_SIG "makedumpfile"
#define FLAT_SIG_LEN 16         /* "makedumpfile", NUL-padded to 8 bytes */
#define FLAT_TYPE 1
#define FLAT_REC_HEADER 16

struct rec {
	uint64_t offset, size, file;
	size_t seq;               /* position in the file: later wins */
};

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int u64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Append r to out[*n], merging with the previous piece when contiguous. */
static void emit(struct pgw_flat_rec *out, size_t *n, uint64_t offset,
		 uint64_t size, uint64_t file)
{
	if (*n) {
		struct pgw_flat_rec *last = &out[*n - 1];
		if (last->offset + last->size == offset &&
		    last->file + last->size == file) {
			last->size += size;
			return;
		}
	}
	out[*n].offset = offset;
	out[*n].size = size;
	out[*n].file = file;
	(*n)++;
}

/* Max-heap of indices into recs, by seq. */
struct heap {
	size_t *v;
	size_t n;
	const struct rec *recs;
};

static bool heap_less(const struct heap *h, size_t a, size_t b)
{
	return h->recs[h->v[a]].seq < h->recs[h->v[b]].seq;
}

static void heap_swap(struct heap *h, size_t a, size_t b)
{
	size_t t = h->v[a];

	h->v[a] = h->v[b];
	h->v[b] = t;
}

static void heap_push(struct heap *h, size_t idx)
{
	size_t i = h->n++;

	h->v[i] = idx;
	while (i && heap_less(h, (i - 1) / 2, i)) {
		heap_swap(h, (i - 1) / 2, i);
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct heap *h)
{
	size_t i = 0;

	h->v[0] = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && heap_less(h, m, l))
			m = l;
		if (r < h->n && heap_less(h, m, r))
			m = r;
		if (m == i)
			break;
		heap_swap(h, i, m);
		i = m;
	}
}

/*
 * Overlapping records: sweep the distinct boundaries; between two of them
 * the bytes come from the latest record covering that stretch.  O(n log n)
 * whatever the input, and at most 2n pieces come out.
 */
static enum pgw_status resolve_overlaps(const struct rec *recs, size_t n,
					struct pgw_flat_rec *out,
					size_t *nout_ret, size_t *superseded,
					struct pgw_err *err)
{
	uint64_t *pts = malloc(2 * n * sizeof(*pts));
	uint64_t *used = calloc(n, sizeof(*used));
	struct heap h = { malloc(n * sizeof(size_t)), 0, recs };
	size_t npts = 0, nout = 0, j = 0;

	if (!pts || !used || !h.v) {
		free(pts);
		free(used);
		free(h.v);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		pts[npts++] = recs[i].offset;
		pts[npts++] = recs[i].offset + recs[i].size;
	}
	qsort(pts, npts, sizeof(*pts), u64_cmp);
	for (size_t k = 0; k + 1 < npts; k++) {
		uint64_t p = pts[k], q = pts[k + 1];
		if (p == q)
			continue;
		while (j < n && recs[j].offset <= p)
			heap_push(&h, j++);
		while (h.n && recs[h.v[0]].offset + recs[h.v[0]].size <= p)
			heap_pop(&h);
		if (!h.n)
			continue;
		const struct rec *t = &recs[h.v[0]];
		emit(out, &nout, p, q - p, t->file + (p - t->offset));
		used[h.v[0]] += q - p;
	}
	*superseded = 0;
	for (size_t i = 0; i < n; i++)
		*superseded += used[i] < recs[i].size;
	*nout_ret = nout;
	free(pts);
	free(used);
	free(h.v);
	return PGW_OK;
}

/* Read the record headers; recs_ret is malloc'd, in file order. */
static enum pgw_status read_records(const struct pgw_source *src,
				    struct rec **recs_ret, size_t *n_ret,
				    struct pgw_flat_info *info,
				    struct pgw_err *err)
{
	uint64_t pos = FLAT_HEADER_SIZE;
	struct rec *recs = NULL;
	size_t n = 0, cap = 0;

	for (;;) {
		if (src->file_size - pos < FLAT_REC_HEADER) {
			info->no_end_marker = true;
			break;
		}
		const uint8_t *h = src->map + pos;
		int64_t off = (int64_t)pgw_be64(h);
		int64_t size = (int64_t)pgw_be64(h + 8);
		if (off == -1 && size == -1)
			break;
		if (off < 0 || size <= 0) {
			free(recs);
			return pgw_err_set(err, PGW_E_FORMAT,
					   "record %zu at file offset "
					   "0x%llx has offset %lld and size "
					   "%lld: neither data nor the end "
					   "marker", n,
					   (unsigned long long)pos,
					   (long long)off, (long long)size);
		}
		if ((uint64_t)size > INT64_MAX - (uint64_t)off) {
			free(recs);
			return pgw_err_set(err, PGW_E_FORMAT,
					   "record %zu at file offset "
					   "0x%llx: offset 0x%llx + size 0x%llx "
					   "overflows", n,
					   (unsigned long long)pos,
					   (unsigned long long)off,
					   (unsigned long long)size);
		}
		pos += FLAT_REC_HEADER;
		uint64_t have = src->file_size - pos;
		if ((uint64_t)size > have) {
			info->truncated = true;
			size = (int64_t)have;
		}
		if (size == 0)
			break;
		if (n == cap) {
			/* Records are at least 17 bytes of file each, so this
			 * stays proportional to the file. */
			size_t ncap = cap ? cap * 2 : 256;
			void *p = realloc(recs, ncap * sizeof(*recs));
			if (!p) {
				free(recs);
				return pgw_err_set(err, PGW_E_NOMEM,
						   "out of memory");
			}
			recs = p;
			cap = ncap;
		}
		recs[n] = (struct rec){ (uint64_t)off, (uint64_t)size, pos, n };
		n++;
		pos += (uint64_t)size;
		if (info->truncated)
			break;
	}
	*recs_ret = recs;
	*n_ret = n;
	return PGW_OK;
}

enum pgw_status pgw_source_flatten(struct pgw_source *src,
				   struct pgw_flat_info *info,
				   struct pgw_err *err)
{
	struct rec *recs = NULL;
	size_t n = 0, nout = 0;
	enum pgw_status st;

	memset(info, 0, sizeof(*info));
	if (src->flattened || src->file_size < FLAT_SIG_LEN ||
	    memcmp(src->map, FLAT_SIG, sizeof(FLAT_SIG)) != 0)
		return PGW_OK;
	if (src->file_size < FLAT_HEADER_SIZE)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "flattened header truncated (%llu of %d "
				   "bytes)", (unsigned long long)src->file_size,
				   FLAT_HEADER_SIZE);
	uint64_t type = pgw_be64(src->map + FLAT_SIG_LEN);
	if (type != FLAT_TYPE)
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "flattened header type %llu (know %d)",
				   (unsigned long long)type, FLAT_TYPE);
	st = read_records(src, &recs, &n, info, err);
	if (st != PGW_OK)
		return pgw_err_prefix(err, "flattened");
	if (n == 0) {
		free(recs);
		return pgw_err_set(err, PGW_E_FORMAT,
				   "flattened file holds no data records%s",
				   info->no_end_marker ? " (truncated?)" : "");
	}
	qsort(recs, n, sizeof(*recs), rec_cmp);
	bool overlap = false;
	for (size_t i = 1; i < n && !overlap; i++)
		overlap = recs[i - 1].offset + recs[i - 1].size >
			  recs[i].offset;
	struct pgw_flat_rec *out = malloc(2 * n * sizeof(*out));
	if (!out) {
		free(recs);
		return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
	}
	if (overlap) {
		st = resolve_overlaps(recs, n, out, &nout, &info->superseded,
				      err);
		if (st != PGW_OK) {
			free(recs);
			free(out);
			return st;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			emit(out, &nout, recs[i].offset, recs[i].size,
			     recs[i].file);
	}
	free(recs);
	info->records = n;
	/* Sorted and disjoint: the last piece ends the logical stream. */
	src->size = out[nout - 1].offset + out[nout - 1].size;
	/* Shrink to what the merge left; failure to shrink is harmless. */
	void *p = realloc(out, nout * sizeof(*out));
	src->recs = p ? p : out;
	src->nrecs = nout;
	/* Lookups work without it (NULL), only slower. */
	src->recent = calloc(PGW_FLAT_RECENT + 1, sizeof(*src->recent));
	src->flattened = true;
	src->flat_cut = info->truncated || info->no_end_marker;
	return PGW_OK;
}
