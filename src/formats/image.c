/*
 * The image: one physical address space behind whichever format the file
 * is in.  Owns the mapped source, the segment table, the metadata formats
 * fill in at open, and the page cache.
 */
#include "format.h"
#include "image_page.h"
#include "../lib/grow.h"
#include "page_cache.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cache slots: enough for a walk's working set on big dumps; small files
 * get fewer (never below what pgw_image_page promises), since a cache
 * larger than the data it can hold is memory for nothing. */
#define CACHE_SLOTS 512
#define CACHE_SLOTS_MIN (4 * PGW_IMAGE_PAGE_SLOTS)

static unsigned cache_slots(const struct pgw_source *src)
{
	uint64_t pages = src->size / PGW_PAGE_SIZE * 2;

	if (pages < CACHE_SLOTS_MIN)
		return CACHE_SLOTS_MIN;
	return pages < CACHE_SLOTS ? (unsigned)pages : CACHE_SLOTS;
}

static const struct pgw_format *format_by_name(const char *name)
{
	for (size_t i = 0; pgw_formats[i]; i++)
		if (strcmp(pgw_formats[i]->name, name) == 0)
			return pgw_formats[i];
	return NULL;
}

static const struct pgw_format *probe(const struct pgw_source *src)
{
	uint8_t head[4096];
	size_t n = pgw_source_avail(src, 0, sizeof(head));
	struct pgw_err ignored;

	if (pgw_source_read(src, 0, head, n, &ignored) != PGW_OK)
		return NULL;
	for (size_t i = 0; pgw_formats[i]; i++)
		if (pgw_formats[i]->probe && pgw_formats[i]->probe(head, n))
			return pgw_formats[i];
	return NULL;
}

static void add_flat_facts(struct pgw_image *img,
			   const struct pgw_flat_info *f)
{
	pgw_image_add_fact(img, "flattened_records", "%zu", f->records);
	if (f->superseded)
		pgw_image_add_fact(img, "flattened_overwritten",
				   "%zu records partly or wholly replaced by "
				   "later ones (later wins, as makedumpfile -R)",
				   f->superseded);
	if (f->truncated || f->no_end_marker)
		pgw_image_add_fact(img, "flattened_incomplete",
				   "%s", f->truncated ?
				   "the last record is cut short" :
				   "no end record: the file stops early");
}

enum pgw_status pgw_image_open(struct pgw_image **img_ret, const char *path,
			       const struct pgw_image_open_opts *opts,
			       struct pgw_err *err)
{
	struct pgw_image *img;
	enum pgw_status st;

	*img_ret = NULL;
	img = calloc(1, sizeof(*img));
	if (!img)
		return pgw_err_set(err, PGW_E_NOMEM, "%s: out of memory", path);
	if (opts)
		img->opts = *opts;
	img->path = strdup(path);
	if (!img->path) {
		free(img);
		return pgw_err_set(err, PGW_E_NOMEM, "%s: out of memory", path);
	}
	st = pgw_source_open(&img->src, path, err);
	if (st != PGW_OK)
		goto fail;
	/* Flattening is a view of the bytes, below every format, raw too
	 * (a file that begins like makedumpfile's flattened format and is not
	 * a valid one is an error, whatever format was asked for). */
	struct pgw_flat_info flat = { 0 };
	st = pgw_source_flatten(&img->src, &flat, err);
	if (st != PGW_OK)
		goto fail;
	if (img->opts.format) {
		img->format = format_by_name(img->opts.format);
		if (!img->format) {
			st = pgw_err_set(err, PGW_E_ARG,
					 "unknown image format '%s'",
					 img->opts.format);
			goto fail;
		}
	} else {
		img->format = probe(&img->src);
		/* No magic: a file of whole pages is taken as a raw physical
		 * image (pmemsave, /dev/mem copies); anything else is not a
		 * memory image.  Nothing writes raw images flattened, so a
		 * flattened file without a known image inside is an error. */
		if (!img->format && !img->src.flattened &&
		    img->src.size % PGW_PAGE_SIZE == 0) {
			img->format = format_by_name("raw");
			img->raw_by_size = true;
		}
		if (!img->format) {
			st = pgw_err_set(err, PGW_E_FORMAT,
					 img->src.flattened ?
					 "makedumpfile flattened file, but "
					 "what it holds is no known image "
					 "(is it cut short?)" :
					 "not a recognised memory image (no "
					 "known magic, and not a whole number "
					 "of pages for a raw image)");
			goto fail;
		}
	}
	if (img->src.flattened)
		add_flat_facts(img, &flat);
	st = img->format->open(img, err);
	if (st != PGW_OK) {
		pgw_err_prefix(err, "%s%s", img->format->name,
			       img->src.flattened ? " (flattened)" : "");
		goto fail;
	}
	if (!img->zero_copy) {
		img->cache = pgw_page_cache_new(cache_slots(&img->src));
		if (!img->cache) {
			st = pgw_err_set(err, PGW_E_NOMEM, "out of memory");
			goto fail;
		}
	}
	*img_ret = img;
	return PGW_OK;
fail:
	pgw_err_prefix(err, "%s", path);
	pgw_image_close(img);
	return st;
}

void pgw_image_close(struct pgw_image *img)
{
	if (!img)
		return;
	if (img->format && img->format->close && img->priv)
		img->format->close(img);
	pgw_page_cache_free(img->cache);
	pgw_source_close(&img->src);
	for (size_t i = 0; i < img->nvmcoreinfo; i++) {
		free(img->vmcoreinfo[i].key);
		free(img->vmcoreinfo[i].value);
	}
	for (size_t i = 0; i < img->nfacts; i++)
		free(img->fact_store[i]);
	free(img->vmcoreinfo);
	free(img->segs);
	free(img->ranges);
	free(img->cpus);
	free(img->path);
	free(img);
}

enum pgw_status pgw_image_page(struct pgw_image *img, uint64_t pfn,
			       const uint8_t **page_ret, struct pgw_err *err)
{
	enum pgw_status st;

	if (img->zero_copy)
		return img->format->page(img, pfn, NULL, page_ret, err);
	const uint8_t *hit = pgw_page_cache_get(img->cache, pfn);
	if (hit) {
		*page_ret = hit;
		return PGW_OK;
	}
	uint8_t *slot = pgw_page_cache_slot(img->cache, pfn);
	st = img->format->page(img, pfn, slot, page_ret, err);
	if (st == PGW_OK && *page_ret == slot)
		pgw_page_cache_commit(img->cache, pfn);
	else
		pgw_page_cache_unslot(img->cache);
	return st;
}

bool pgw_image_has_page(struct pgw_image *img, uint64_t pfn)
{
	return img->format->has_page(img, pfn);
}

enum pgw_status pgw_image_read(struct pgw_image *img, uint64_t pa, void *buf,
			       size_t len, struct pgw_err *err)
{
	uint8_t *out = buf;

	/* A read running past 2^64 would wrap to physical 0: not data. */
	if (len && pa + (len - 1) < pa)
		return pgw_err_set(err, PGW_E_NODATA,
				   "read of %zu bytes at physical 0x%llx runs "
				   "past the top of the address space", len,
				   (unsigned long long)pa);
	while (len) {
		const uint8_t *page;
		uint64_t in = pa & (PGW_PAGE_SIZE - 1);
		size_t n = (size_t)(PGW_PAGE_SIZE - in);
		enum pgw_status st;

		if (n > len)
			n = len;
		st = pgw_image_page(img, pa >> PGW_PAGE_SHIFT, &page, err);
		if (st != PGW_OK)
			return st;
		memcpy(out, page + in, n);
		out += n;
		pa += n;
		len -= n;
	}
	return PGW_OK;
}

enum pgw_status pgw_image_read_page(struct pgw_image *img, uint64_t pfn,
				    void *buf, struct pgw_err *err)
{
	if (pfn > UINT64_MAX >> PGW_PAGE_SHIFT)
		return pgw_err_set(err, PGW_E_NODATA,
				   "frame 0x%llx lies past the top of the "
				   "physical address space",
				   (unsigned long long)pfn);
	return pgw_image_read(img, pfn << PGW_PAGE_SHIFT, buf, PGW_PAGE_SIZE,
			      err);
}

/* ---- accessors ---- */

const char *pgw_image_path(const struct pgw_image *img)
{
	return img->path;
}

const char *pgw_image_format(const struct pgw_image *img)
{
	return img->format->name;
}

unsigned pgw_image_machine(const struct pgw_image *img)
{
	return img->machine;
}

unsigned pgw_image_class(const struct pgw_image *img)
{
	return img->elf_class;
}

size_t pgw_image_ranges(const struct pgw_image *img,
			const struct pgw_phys_range **ranges_ret)
{
	*ranges_ret = img->ranges;
	return img->nranges;
}

size_t pgw_image_cpus(const struct pgw_image *img,
		      const struct pgw_cpu **cpus_ret)
{
	*cpus_ret = img->cpus;
	return img->ncpus;
}

size_t pgw_image_prstatus_count(const struct pgw_image *img)
{
	return img->nprstatus;
}

size_t pgw_image_facts(const struct pgw_image *img,
		       const char *const **keys_ret,
		       const char *const **values_ret)
{
	*keys_ret = img->fact_keys;
	*values_ret = img->fact_values;
	return img->nfacts;
}

void pgw_image_add_fact(struct pgw_image *img, const char *key,
			const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (img->nfacts == PGW_MAX_FACTS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char *v = strdup(buf);
	if (!v)
		return;
	img->fact_keys[img->nfacts] = key;
	img->fact_values[img->nfacts] = v;
	img->fact_store[img->nfacts] = v;
	img->nfacts++;
}

/* ---- physical ranges and segments ---- */

enum pgw_status pgw_image_add_range(struct pgw_image *img, uint64_t start,
				    uint64_t size, struct pgw_err *err)
{
	if (size == 0)
		return PGW_OK;
	if (img->nranges) {
		struct pgw_phys_range *last = &img->ranges[img->nranges - 1];
		if (last->start + last->size == start) {
			last->size += size;
			return PGW_OK;
		}
	}
	enum pgw_status st = pgw_grow(&img->ranges, img->nranges,
				      sizeof(*img->ranges), err);
	if (st != PGW_OK)
		return st;
	img->ranges[img->nranges].start = start;
	img->ranges[img->nranges].size = size;
	img->nranges++;
	return PGW_OK;
}

static const uint8_t zero_page[PGW_PAGE_SIZE];

static enum pgw_status push_segment(struct pgw_image *img, uint64_t pa,
				    uint64_t size, uint64_t offset, bool zero,
				    struct pgw_err *err)
{
	enum pgw_status st = pgw_grow(&img->segs, img->nsegs,
				      sizeof(*img->segs), err);
	if (st != PGW_OK)
		return st;
	img->segs[img->nsegs].pa = pa;
	img->segs[img->nsegs].size = size;
	img->segs[img->nsegs].offset = offset;
	img->segs[img->nsegs].zero = zero;
	img->nsegs++;
	return PGW_OK;
}

enum pgw_status pgw_image_add_zero_segment(struct pgw_image *img, uint64_t pa,
					   uint64_t size, struct pgw_err *err)
{
	if (size == 0)
		return PGW_OK;
	if (pa + size < pa)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "segment at 0x%llx wraps the address space",
				   (unsigned long long)pa);
	return push_segment(img, pa, size, 0, true, err);
}

enum pgw_status pgw_image_add_segment(struct pgw_image *img, uint64_t pa,
				      uint64_t size, uint64_t offset,
				      struct pgw_err *err)
{
	if (size == 0)
		return PGW_OK;
	if (pa + size < pa)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "segment at 0x%llx wraps the address space",
				   (unsigned long long)pa);
	if (offset > img->src.size || size > img->src.size - offset)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "segment at physical 0x%llx (0x%llx bytes "
				   "at offset 0x%llx) runs past the end of the "
				   "file (0x%llx): truncated?",
				   (unsigned long long)pa,
				   (unsigned long long)size,
				   (unsigned long long)offset,
				   (unsigned long long)img->src.size);
	return push_segment(img, pa, size, offset, false, err);
}

/* By start; for equal starts the larger first, so a container precedes
 * what it contains. */
static int seg_cmp(const void *a, const void *b)
{
	const struct pgw_segment *x = a, *y = b;

	if (x->pa != y->pa)
		return x->pa < y->pa ? -1 : 1;
	return x->size > y->size ? -1 : x->size < y->size;
}

enum pgw_status pgw_image_seal_segments(struct pgw_image *img,
					struct pgw_err *err)
{
	enum pgw_status st;
	size_t kept = 0, dropped = 0;

	if (img->nsegs == 0)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "no physical memory in the image");
	qsort(img->segs, img->nsegs, sizeof(*img->segs), seg_cmp);
	/*
	 * The kernel's /proc/vmcore describes the kernel text twice: once in
	 * its own PT_LOAD and once inside the RAM range that holds it.  A
	 * segment wholly inside another is that duplicate and is dropped; a
	 * partial overlap has no such reading and is an error.
	 */
	for (size_t i = 0; i < img->nsegs; i++) {
		const struct pgw_segment *s = &img->segs[i];
		if (kept) {
			const struct pgw_segment *p = &img->segs[kept - 1];
			uint64_t pend = p->pa + p->size;
			if (s->pa < pend && s->pa + s->size <= pend) {
				dropped++;
				continue;
			}
			if (s->pa < pend)
				return pgw_err_set(err, PGW_E_FORMAT,
						   "segments overlap at physical "
						   "0x%llx",
						   (unsigned long long)s->pa);
		}
		img->segs[kept++] = *s;
	}
	img->nsegs = kept;
	if (dropped)
		pgw_image_add_fact(img, "duplicate_segments",
				   "%zu (contained in another; ignored)",
				   dropped);
	for (size_t i = 0; i < img->nsegs; i++) {
		st = pgw_image_add_range(img, img->segs[i].pa,
					 img->segs[i].size, err);
		if (st != PGW_OK)
			return st;
	}
	return PGW_OK;
}

/* Segment holding physical address pa, or NULL. */
static const struct pgw_segment *find_segment(struct pgw_image *img,
					      uint64_t pa)
{
	const struct pgw_segment *s = &img->segs[img->last_seg];
	size_t lo = 0, hi = img->nsegs;

	if (img->nsegs && pa >= s->pa && pa - s->pa < s->size)
		return s;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		s = &img->segs[mid];
		if (pa < s->pa)
			hi = mid;
		else if (pa - s->pa >= s->size)
			lo = mid + 1;
		else {
			img->last_seg = mid;
			return s;
		}
	}
	return NULL;
}

bool pgw_segments_has_page(struct pgw_image *img, uint64_t pfn)
{
	uint64_t pa = pfn << PGW_PAGE_SHIFT;
	uint64_t done = 0;

	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return false;
	while (done < PGW_PAGE_SIZE) {
		const struct pgw_segment *s = find_segment(img, pa + done);
		if (!s)
			return false;
		uint64_t n = s->size - (pa + done - s->pa);
		done += n;
	}
	return true;
}

/*
 * Segments may start or end inside a page (odd ELF layouts): then the page
 * is assembled into buf from the pieces, and any byte no segment covers
 * makes the whole page absent.
 */
static enum pgw_status assemble_page(struct pgw_image *img, uint64_t pa,
				     uint8_t *buf, struct pgw_err *err)
{
	uint64_t done = 0;

	while (done < PGW_PAGE_SIZE) {
		const struct pgw_segment *s = find_segment(img, pa + done);
		if (!s)
			return pgw_err_set(err, PGW_E_NODATA,
					   "physical 0x%llx is not in the "
					   "image",
					   (unsigned long long)(pa + done));
		uint64_t in = pa + done - s->pa;
		uint64_t n = s->size - in;
		if (n > PGW_PAGE_SIZE - done)
			n = PGW_PAGE_SIZE - done;
		if (s->zero) {
			memset(buf + done, 0, (size_t)n);
			done += n;
			continue;
		}
		enum pgw_status st = pgw_source_read(&img->src, s->offset + in,
						     buf + done, (size_t)n,
						     err);
		if (st != PGW_OK)
			return st;
		done += n;
	}
	return PGW_OK;
}

enum pgw_status pgw_segments_page(struct pgw_image *img, uint64_t pfn,
				  uint8_t *buf, const uint8_t **page_ret,
				  struct pgw_err *err)
{
	uint64_t pa = pfn << PGW_PAGE_SHIFT;
	const struct pgw_segment *s;

	if (pfn > (UINT64_MAX >> PGW_PAGE_SHIFT))
		return pgw_err_set(err, PGW_E_NODATA,
				   "pfn 0x%llx is not in the image",
				   (unsigned long long)pfn);
	s = find_segment(img, pa);
	if (s && s->size - (pa - s->pa) >= PGW_PAGE_SIZE && s->zero) {
		*page_ret = zero_page;
		return PGW_OK;
	}
	if (s && s->size - (pa - s->pa) >= PGW_PAGE_SIZE) {
		/* The hot path of every walk: a plain file's bytes are in
		 * the map, and add_segment checked they are in the file. */
		if (!img->src.flattened) {
			*page_ret = img->src.map + s->offset + (pa - s->pa);
			return PGW_OK;
		}
		return pgw_source_get(&img->src, s->offset + (pa - s->pa),
				      PGW_PAGE_SIZE, buf, page_ret, err);
	}
	if (!buf)
		return pgw_err_set(err, PGW_E_NODATA,
				   "physical 0x%llx is not in the image",
				   (unsigned long long)pa);
	enum pgw_status st = assemble_page(img, pa, buf, err);
	if (st == PGW_OK)
		*page_ret = buf;
	return st;
}

/* Zero copy is possible when every segment covers whole pages. */
bool pgw_segments_page_aligned(const struct pgw_image *img)
{
	for (size_t i = 0; i < img->nsegs; i++)
		if ((img->segs[i].pa | img->segs[i].size) &
		    (PGW_PAGE_SIZE - 1))
			return false;
	return true;
}
