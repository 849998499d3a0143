/*
 * The image: one physical address space behind whichever format the file
 * is in.  Owns the mapped source, the segment table, the metadata formats
 * fill in at open, and the page cache.
 */
#include "../lib/err.h"
#include "format.h"
#include "image_page.h"
#include "segments.h"
#include "../lib/grow.h"
#include "../lib/chunks.h"
#include "page_cache.h"
#include "absent_memo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/*
 * Compressed files: a dump is often kept compressed (vmcore.elf.xz), and a
 * compressed file whose size happens to be a whole number of pages would
 * otherwise be read as raw memory.  Magic bytes from each format's
 * specification; bzip2's "BZh" is followed by the block size digit.
 */
static const struct {
	const char *name;
	const char *tool;       /* how to decompress it */
	uint8_t len;
	uint8_t magic[6];
} compressed[] = {
	{ "xz", "xz -d", 6, { 0xfd, '7', 'z', 'X', 'Z', 0x00 } },
	{ "gzip", "gunzip", 2, { 0x1f, 0x8b } },
	{ "zstd", "zstd -d", 4, { 0x28, 0xb5, 0x2f, 0xfd } },
	{ "bzip2", "bunzip2", 3, { 'B', 'Z', 'h' } },
	{ "lz4", "lz4 -d", 4, { 0x04, 0x22, 0x4d, 0x18 } },
	{ "lz4 (legacy)", "lz4 -d", 4, { 0x02, 0x21, 0x4c, 0x18 } },
};

/* The compression format the file's first bytes name, or -1. */
static int compressed_format(const struct pgw_source *src)
{
	uint8_t head[8];
	size_t n = pgw_source_avail(src, 0, sizeof(head));
	struct pgw_err ignored;

	if (pgw_source_read(src, 0, head, n, &ignored) != PGW_OK)
		return -1;
	for (size_t i = 0; i < sizeof(compressed) / sizeof(compressed[0]);
	     i++) {
		const uint8_t len = compressed[i].len;
		if (n >= len && memcmp(head, compressed[i].magic, len) == 0 &&
		    (compressed[i].magic[0] != 'B' ||
		     (n > 3 && head[3] >= '1' && head[3] <= '9')))
			return (int)i;
	}
	return -1;
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

/* pgw_image_open, the file's map borrowed from like when it is the same
 * file (pgw_source_open). */
static enum pgw_status image_open(struct pgw_image **img_ret, const char *path,
				  const struct pgw_image_open_opts *opts,
				  const struct pgw_source *like,
				  struct pgw_err *err)
{
	struct pgw_image *img;
	enum pgw_status st;

	*img_ret = NULL;
	img = calloc(1, sizeof(*img));
	if (!img)
		return pgw_err_set(err, PGW_E_NOMEM, "%s: out of memory", path);
	static uint64_t opened;
	img->serial = __atomic_add_fetch(&opened, 1, __ATOMIC_RELAXED);
	if (opts)
		img->opts = *opts;
	img->path = strdup(path);
	if (!img->path) {
		free(img);
		return pgw_err_set(err, PGW_E_NOMEM, "%s: out of memory", path);
	}
	st = pgw_source_open(&img->src, path, like, err);
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
		int z = img->format ? -1 : compressed_format(&img->src);
		if (z >= 0) {
			st = pgw_err_set(err, PGW_E_FORMAT,
					 "%s-compressed file, not a memory "
					 "image: decompress it first (%s)",
					 compressed[z].name,
					 compressed[z].tool);
			goto fail;
		}
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
	/* The caller's words, valid for the open only (the fact is made):
	 * worker images opened later from img->opts must not read them. */
	img->opts.raw_base_why = NULL;
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

enum pgw_status pgw_image_open(struct pgw_image **img_ret, const char *path,
			       const struct pgw_image_open_opts *opts,
			       struct pgw_err *err)
{
	return image_open(img_ret, path, opts, NULL, err);
}

/* The pieces the map is given up in at close: as a scan's (4096 pages). */
#define RELEASE_PIECE (UINT64_C(16) << 20)

static void release_piece(void *arg, unsigned w, size_t i)
{
	const struct pgw_source *src = arg;
	uint64_t off = (uint64_t)i * RELEASE_PIECE;
	uint64_t end = src->file_size - off > RELEASE_PIECE ?
		off + RELEASE_PIECE : src->file_size;

	(void)w;
	pgw_source_release(src, src->map + off, src->map + end);
}

static int release_merged(void *arg, size_t i)
{
	(void)arg;
	(void)i;
	return 0;
}

/*
 * What the scans' threads faulted into the map, given up on as many
 * threads before the one munmap: else the calling thread alone undoes
 * every page (2 GiB read: ~20 ms, the most of a threaded search's
 * serial share).  At close, so no later scan has to fault them again.
 */
static void release_on_threads(struct pgw_image *img)
{
	size_t n = (size_t)((img->src.file_size + RELEASE_PIECE - 1) /
			    RELEASE_PIECE);
	struct pgw_chunks c = {
		.n = n, .workers = img->nworkers < n ? img->nworkers :
						       (unsigned)n,
		.run = release_piece, .merge = release_merged,
		.arg = &img->src,
	};
	struct pgw_err ignored;

	if (img->nworkers && n > 1 && img->src.map && !img->src.map_borrowed)
		(void)pgw_chunks_run(&c, &ignored);
}

void pgw_image_close(struct pgw_image *img)
{
	if (!img)
		return;
	release_on_threads(img);
	for (unsigned i = 0; i < img->nworkers; i++)
		pgw_image_close(img->workers[i]);
	free(img->workers);
	if (img->format && img->format->close && img->priv)
		img->format->close(img);
	pgw_page_cache_free(img->cache);
	pgw_absent_memo_free(img->absent);
	pgw_source_close(&img->src);
	for (size_t i = 0; i < img->nvmcoreinfo; i++) {
		free(img->vmcoreinfo[i].key);
		free(img->vmcoreinfo[i].value);
	}
	for (size_t i = 0; i < img->nfacts; i++) {
		if (img->facts[i].shown != img->facts[i].first)
			free(img->facts[i].shown);
		free(img->facts[i].first);
	}
	free(img->facts);
	free(img->fact_keys);
	free(img->fact_values);
	free(img->vmcoreinfo);
	pgw_segments_free(img);
	free(img->ranges);
	free(img->cpus);
	free(img->prstatus);
	free(img->arm64_regs);
	free(img->path);
	free(img);
}

/*
 * --zero-excluded: an excluded page reads as zeros.  Decided here, above
 * every format, so that kdump's filtered pages and an ELF core's tails
 * past p_filesz are alike; only the evidence still counts them.
 */
static const uint8_t zero_page[PGW_PAGE_SIZE];

static enum pgw_status zero_if_excluded(const struct pgw_image *img,
					enum pgw_status st,
					const uint8_t **page_ret,
					struct pgw_err *err)
{
	if (st != PGW_E_NODATA || !img->opts.zero_excluded ||
	    err->absence != PGW_ABSENT_EXCLUDED)
		return st;
	*err = (struct pgw_err){ 0 };
	*page_ret = zero_page;
	return PGW_OK;
}

/* The format's verdict on a page it lacks, kept (the first time one is,
 * the memo is made: images without absent pages never have one). */
static void keep_absent(struct pgw_image *img, uint64_t pfn,
			enum pgw_status st, const struct pgw_err *err)
{
	if (st != PGW_E_NODATA)
		return;
	if (!img->absent && !(img->absent = pgw_absent_memo_new()))
		return;
	pgw_absent_memo_keep(img->absent, pfn, err);
}

enum pgw_status pgw_image_page(struct pgw_image *img, uint64_t pfn,
			       const uint8_t **page_ret, struct pgw_err *err)
{
	enum pgw_status st;

	if (img->zero_copy) {
		if (img->absent &&
		    (st = pgw_absent_memo_get(img->absent, pfn, err)) != PGW_OK)
			return zero_if_excluded(img, st, page_ret, err);
		st = img->format->page(img, pfn, NULL, page_ret, err);
		keep_absent(img, pfn, st, err);
		return zero_if_excluded(img, st, page_ret, err);
	}
	const uint8_t *hit = pgw_page_cache_get(img->cache, pfn);
	if (hit) {
		*page_ret = hit;
		return PGW_OK;
	}
	if (img->absent &&
	    (st = pgw_absent_memo_get(img->absent, pfn, err)) != PGW_OK)
		return zero_if_excluded(img, st, page_ret, err);
	uint8_t *slot = pgw_page_cache_slot(img->cache, pfn);
	st = img->format->page(img, pfn, slot, page_ret, err);
	if (st == PGW_OK && *page_ret == slot) {
		pgw_page_cache_commit(img->cache, pfn);
		img->pages_filled++;
	}
	else
		pgw_page_cache_unslot(img->cache);
	keep_absent(img, pfn, st, err);
	return zero_if_excluded(img, st, page_ret, err);
}

enum pgw_absence pgw_image_page_absent(const struct pgw_image *img,
				       uint64_t pfn)
{
	enum pgw_absence why = img->absent ?
		pgw_absent_memo_why(img->absent, pfn) : PGW_ABSENT_NONE;

	/* --zero-excluded: pgw_image_page serves zeros for it. */
	return why == PGW_ABSENT_EXCLUDED && img->opts.zero_excluded ?
		       PGW_ABSENT_NONE : why;
}

/* The pages after first that lie after it in memory, from pfn + 1 on,
 * up to n in all; *cut_ret: the run ends at a page not in the image (a
 * run laid out again would end there too). */
static unsigned run_in_place(struct pgw_image *img, uint64_t pfn, unsigned n,
			     const uint8_t *first, bool *cut_ret)
{
	struct pgw_err ignored;
	const uint8_t *next;
	unsigned got = 1;

	*cut_ret = false;
	for (; got < n; got++) {
		if (pgw_image_page(img, pfn + got, &next, &ignored) !=
		    PGW_OK) {
			*cut_ret = true;
			break;
		}
		if (next != first + ((size_t)got << PGW_PAGE_SHIFT))
			break;
	}
	return got;
}

/* pfn's page into the cache's next slot, from where the cache holds it
 * now (given up there) or from the format.  The slot's data, or NULL
 * when the page is not in the image. */
static const uint8_t *refill(struct pgw_image *img, uint64_t pfn)
{
	const uint8_t *held = pgw_page_cache_get(img->cache, pfn);
	uint8_t *slot = pgw_page_cache_slot(img->cache, pfn);
	const uint8_t *page;
	struct pgw_err err;

	/* slot() gave up what the slot held: pfn's own page, if it was
	 * there, and its bytes are still in place. */
	if (held && held != slot)
		memcpy(slot, held, PGW_PAGE_SIZE);
	pgw_page_cache_drop(img->cache, pfn);
	if (!held) {
		enum pgw_status st = img->format->page(img, pfn, slot, &page,
						       &err);
		if (st != PGW_OK) {
			pgw_page_cache_unslot(img->cache);
			keep_absent(img, pfn, st, &err);
			return NULL;
		}
		if (page != slot)
			memcpy(slot, page, PGW_PAGE_SIZE);
		img->pages_filled++;
	}
	pgw_page_cache_commit(img->cache, pfn);
	return slot;
}

unsigned pgw_image_page_run(struct pgw_image *img, uint64_t pfn, unsigned n,
			    const uint8_t **page_ret, struct pgw_err *err)
{
	const uint8_t *first;
	unsigned got;
	bool cut;

	if (pgw_image_page(img, pfn, &first, err) != PGW_OK)
		return 0;
	got = run_in_place(img, pfn, n, first, &cut);
	*page_ret = first;
	if (got == n || cut || img->zero_copy || !img->cache)
		return got;
	pgw_page_cache_align(img->cache, n);
	const uint8_t *start = refill(img, pfn);
	if (!start)
		return got;
	unsigned laid = 1;
	while (laid < n && refill(img, pfn + laid))
		laid++;
	*page_ret = start;
	return laid;
}

/* The very file, at the size it had when img was opened: a worker that
 * saw another size would read another image. */
static bool same_file(const struct pgw_image *w, const struct pgw_image *img)
{
	struct stat x, y;

	return fstat(w->src.fd, &x) == 0 && fstat(img->src.fd, &y) == 0 &&
	       x.st_dev == y.st_dev && x.st_ino == y.st_ino &&
	       w->src.file_size == img->src.file_size;
}

enum pgw_status pgw_image_workers(struct pgw_image *img, unsigned n,
				  struct pgw_image *const **workers_ret,
				  struct pgw_err *err)
{
	if (n > img->nworkers) {
		struct pgw_image **w = realloc(img->workers,
					       n * sizeof(*w));
		if (!w)
			return pgw_err_set(err, PGW_E_NOMEM, "out of memory");
		img->workers = w;
	}
	struct pgw_image_open_opts o = img->opts;
	char proc[64];
	o.format = img->format->name;
	o.threads = 1;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", img->src.fd);
	while (img->nworkers < n) {
		struct pgw_image *w;
		/* Without /proc, by its name: then only if that is still
		 * the very file. */
		/* The workers are closed before img: they borrow its map. */
		if (image_open(&w, proc, &o, &img->src, err) != PGW_OK &&
		    image_open(&w, img->path, &o, &img->src, err) != PGW_OK)
			return pgw_err_prefix(err, "opening the image again "
					      "for a scan's thread");
		if (!same_file(w, img)) {
			pgw_image_close(w);
			return pgw_err_set(err, PGW_E_IO, "%s: the file was "
					   "replaced or resized while open",
					   img->path);
		}
		/* What img decoded, the worker need not decode again (on
		 * a zlib kdump of 64 KiB blocks, a block inflated per
		 * page-table page it finds there).  img is not read on
		 * another thread while its workers open. */
		if (w->cache && img->cache)
			pgw_page_cache_seed(w->cache, img->cache);
		img->workers[img->nworkers++] = w;
	}
	*workers_ret = img->workers;
	return PGW_OK;
}

void pgw_image_keep_scan_hint(struct pgw_image *img,
			      const struct pgw_facts_hint *h)
{
	img->scan_hint = *h;
}

const struct pgw_facts_hint *pgw_image_scan_hint(const struct pgw_image *img)
{
	return img->scan_hint.nvmci ? &img->scan_hint : NULL;
}

uint64_t pgw_image_pages_filled(const struct pgw_image *img)
{
	uint64_t n = img->pages_filled;

	for (unsigned w = 0; w < img->nworkers; w++)
		n += img->workers[w]->pages_filled;
	return n;
}

unsigned pgw_image_threads(const struct pgw_image *img)
{
	return img->opts.threads ? img->opts.threads : 1;
}

void pgw_image_forget_pages(struct pgw_image *img)
{
	if (img->cache)
		pgw_page_cache_reset(img->cache);
}

const uint64_t *pgw_image_page_epoch(const struct pgw_image *img)
{
	static const uint64_t never;

	return img->cache ? pgw_page_cache_epoch(img->cache) : &never;
}

uint64_t pgw_image_unheld_run(struct pgw_image *img, uint64_t pfn,
			      bool *zero_ret)
{
	*zero_ret = false;
	uint64_t run = img->format->unheld_run ?
			       img->format->unheld_run(img, pfn, zero_ret) : 0;
	/* A run is one verdict: its first page says what all of it is. */
	if (run && img->opts.zero_excluded &&
	    img->format->page_state(img, pfn) == PGW_ABSENT_EXCLUDED)
		*zero_ret = true;
	return run;
}

bool pgw_image_page_in_hole(struct pgw_image *img, const uint8_t *page)
{
	const uint8_t *map = img->src.map;

	if (!img->zero_copy || page < map ||
	    page + PGW_PAGE_SIZE > map + img->src.file_size)
		return false;
	uint64_t off = (uint64_t)(page - map);
	/* A page need not start on a file-system block (an ELF segment's
	 * p_offset): both of its ends must be in holes. */
	return pgw_source_in_hole(&img->src, off) &&
	       pgw_source_in_hole(&img->src, off + PGW_PAGE_SIZE - 1);
}

uint64_t pgw_image_hole_run(struct pgw_image *img, uint64_t pfn)
{
	const uint8_t *page;
	struct pgw_err ignored;
	uint64_t first, span;

	if (!img->zero_copy || !img->src.sparse || !img->format->held_span)
		return 0;
	span = img->format->held_span(img, pfn, &first);
	if (!span || pgw_image_page(img, pfn, &page, &ignored) != PGW_OK ||
	    page < img->src.map ||
	    page + PGW_PAGE_SIZE > img->src.map + img->src.file_size)
		return 0;
	/* held_span's frames are one stretch of the file, page after page,
	 * so the hole's whole pages from here are frames from pfn on. */
	uint64_t run = pgw_source_hole_bytes(&img->src,
					     (uint64_t)(page - img->src.map)) >>
		       PGW_PAGE_SHIFT;
	uint64_t left = first + span - pfn;
	return run < left ? run : left;
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

size_t pgw_image_arm64_regs(const struct pgw_image *img,
			    const struct pgw_arm64_regs **regs_ret)
{
	*regs_ret = img->arm64_regs;
	return img->narm64_regs;
}

size_t pgw_image_facts(const struct pgw_image *img,
		       const char *const **keys_ret,
		       const char *const **values_ret)
{
	*keys_ret = (const char *const *)img->fact_keys;
	*values_ret = (const char *const *)img->fact_values;
	return img->nfacts;
}

/* The value `info` shows: the first one, and how often it happened. */
static void fact_show(struct pgw_fact *f)
{
	if (f->count < 2)
		return;
	size_t n = strlen(f->first) + 32;
	char *v = malloc(n);
	if (!v)
		return;     /* keep the previous text */
	snprintf(v, n, "%s (%zu times)", f->first, f->count);
	if (f->shown != f->first)
		free(f->shown);
	f->shown = v;
}

void pgw_image_add_fact(struct pgw_image *img, const char *key,
			const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	for (size_t i = 0; i < img->nfacts; i++) {
		struct pgw_fact *f = &img->facts[i];
		if (strcmp(f->key, key) != 0)
			continue;
		f->count++;
		fact_show(f);
		img->fact_values[i] = f->shown;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Keys are the formats' literals, so the list is as short as the
	 * code makes it, whatever the file repeats. */
	size_t n = img->nfacts;
	struct pgw_fact *facts = realloc(img->facts, (n + 1) * sizeof(*facts));
	if (facts)
		img->facts = facts;
	const char **keys = realloc(img->fact_keys, (n + 1) * sizeof(*keys));
	if (keys)
		img->fact_keys = keys;
	const char **vals = realloc(img->fact_values, (n + 1) * sizeof(*vals));
	if (vals)
		img->fact_values = vals;
	char *v = strdup(buf);
	if (!facts || !keys || !vals || !v) {
		free(v);
		return;     /* out of memory: a fact is not worth failing */
	}
	img->facts[n] = (struct pgw_fact){ key, v, v, 1 };
	img->fact_keys[n] = key;
	img->fact_values[n] = v;
	img->nfacts = n + 1;
}

/* ---- what the image holds ---- */

/* Every translation asks this of its frame, and a batch's frames sit in
 * a few runs: a frame of the run found last answers at once. */
enum pgw_absence pgw_image_page_state(struct pgw_image *img, uint64_t pfn)
{
	if (pgw_image_held_last(img, pfn))
		return PGW_ABSENT_NONE;
	if (img->format->held_span) {
		uint64_t first, n = img->format->held_span(img, pfn, &first);
		if (n) {
			img->held_first = first;
			img->held_count = n;
			return PGW_ABSENT_NONE;
		}
	}
	enum pgw_absence why = img->format->page_state(img, pfn);
	return why == PGW_ABSENT_EXCLUDED && img->opts.zero_excluded ?
		       PGW_ABSENT_NONE : why;
}

uint64_t pgw_image_absent_bytes(struct pgw_image *img, uint64_t pa,
				uint64_t len, uint64_t counts[PGW_NABSENCES])
{
	uint64_t local[PGW_NABSENCES] = { 0 };
	uint64_t *c = counts ? counts : local;
	uint64_t absent = 0;

	for (size_t k = 0; k < PGW_NABSENCES; k++)
		c[k] = 0;
	if (len == 0)
		return 0;
	uint64_t last = len - 1 > UINT64_MAX - pa ? UINT64_MAX : pa + (len - 1);
	img->format->absent_bytes(img, pa, last, c);
	if (img->opts.zero_excluded) {
		c[PGW_ABSENT_NONE] += c[PGW_ABSENT_EXCLUDED];
		c[PGW_ABSENT_EXCLUDED] = 0;
	}
	for (size_t k = 1; k < PGW_NABSENCES; k++)
		absent += c[k];
	return absent;
}

void pgw_image_evidence(struct pgw_image *img, struct pgw_evidence *ev_ret)
{
	struct pgw_evidence *ev = &img->evidence;

	if (!img->have_evidence) {
		memset(ev, 0, sizeof(*ev));
		img->format->evidence(img, ev);
		ev->marked_incomplete = img->marked_incomplete;
		ev->zero_excluded = img->opts.zero_excluded;
		ev->pages_absent[PGW_ABSENT_NONE] = 0;
		ev->complete = ev->pages_dumped == ev->pages_ram &&
			       !ev->file_bytes_missing &&
			       !ev->marked_incomplete;
		ev->intact = !ev->pages_absent[PGW_ABSENT_TRUNCATED] &&
			     !ev->pages_absent[PGW_ABSENT_MISSING] &&
			     !ev->pages_absent[PGW_ABSENT_CORRUPT] &&
			     !ev->file_bytes_missing &&
			     !ev->marked_incomplete;
		img->have_evidence = true;
	}
	*ev_ret = *ev;
}

uint64_t pgw_image_held_pages(const struct pgw_image *img)
{
	uint64_t held = img->format->held_pages(img);
	uint64_t file = (img->src.alloc_size + PGW_PAGE_SIZE - 1) >>
			PGW_PAGE_SHIFT;

	return held < file ? held : file;
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
