/*
 * A read-only byte stream: the image file, mapped PROT_READ, seen either as
 * it is or, for makedumpfile's flattened format, through an index of its
 * (offset, size) records.  Formats read their headers and pages through
 * this and never care which.
 */
#ifndef PGW_SOURCE_H
#define PGW_SOURCE_H

#include "pgwalk.h"

/* One flattened record: `size` logical bytes at `offset` come from `file`. */
#define PGW_FLAT_RECENT 4

struct pgw_flat_rec {
	uint64_t offset;   /* logical offset */
	uint64_t size;
	uint64_t file;     /* where the bytes are in the mapped file */
};

struct pgw_source {
	int fd;
	const uint8_t *map;       /* whole file, PROT_READ, MAP_PRIVATE */
	bool map_borrowed;        /* another source's map (see
				     pgw_source_open): not unmapped here */
	uint64_t file_size;
	uint64_t size;            /* logical size */
	/* Bytes the file really holds: its size, or less when it is sparse
	 * (st_blocks); what budgets are measured against. */
	uint64_t alloc_size;
	/* Flattened view; NULL when the stream is the file itself. */
	struct pgw_flat_rec *recs;   /* sorted by offset, non-overlapping */
	size_t nrecs;
	/* Records found last, tried before searching (a page lookup reads
	 * a bitmap, a descriptor and data: a few places, again and again);
	 * PGW_FLAT_RECENT of them and a hand.  Separate storage, so lookups
	 * through a const source can update it. */
	size_t *recent;
	bool flattened;
	bool flat_cut;            /* flattened file without its end record, or
				     with its last record cut short */
	/* Fewer blocks than bytes (st_blocks, 0 included): holes to look
	 * for; the last data and hole extents lseek found
	 * (pgw_source_in_hole). */
	bool sparse;
	uint64_t data_lo, data_hi, hole_lo, hole_hi;
};

/*
 * Open and map path read-only.  Refuses directories, FIFOs, empty files.
 * like: NULL, or an open source whose map is borrowed when path is the
 * same file (device, inode) of the same size, which like outlives: the
 * threads of one scan then fault each page of the file into one map,
 * once, and the process unmaps it once (a map of its own per thread
 * faulted and unmapped every page again for each thread that met it).
 */
enum pgw_status pgw_source_open(struct pgw_source *src, const char *path,
				const struct pgw_source *like,
				struct pgw_err *err);
void pgw_source_close(struct pgw_source *src);
/*
 * The map's pages in [lo, hi) are not needed for now: drop their page-table
 * entries (their bytes stay readable, from the page cache).  A scan of a
 * large image does so chunk by chunk, on the thread that read them:
 * otherwise one munmap at close undoes every mapped page, on the calling
 * thread (2 GiB: 40 ms; page tables of 4 MiB).  Pointers outside the map
 * are ignored.
 */
void pgw_source_release(const struct pgw_source *src, const uint8_t *lo,
			const uint8_t *hi);

/*
 * Bytes [off, off+len) of the logical stream.  Points *ptr_ret into the map
 * when they are contiguous there; otherwise copies into buf (which must hold
 * len bytes; NULL buf then fails).  Reading past the end is PGW_E_FORMAT.
 */
enum pgw_status pgw_source_get(const struct pgw_source *src, uint64_t off,
			       size_t len, void *buf, const uint8_t **ptr_ret,
			       struct pgw_err *err);
/*
 * Does file offset off lie in a hole of a sparse file (bytes the file
 * system holds no blocks for, which read as zeros)?  One lseek per data or
 * hole extent, remembered; false at once for a file that is not sparse.
 */
bool pgw_source_in_hole(struct pgw_source *src, uint64_t off);
/* The bytes of that hole from off to its end; 0 when off is data (or
 * the file is not sparse). */
uint64_t pgw_source_hole_bytes(struct pgw_source *src, uint64_t off);
/* Copy bytes [off, off+len) into buf. */
enum pgw_status pgw_source_read(const struct pgw_source *src, uint64_t off,
				void *buf, size_t len, struct pgw_err *err);
/*
 * How many bytes from off can be read without meeting a gap, at most max.
 * A flattened stream may leave gaps (makedumpfile writes a 464-byte header
 * into a 4 KiB block), so probes and headers read only what is there.
 */
size_t pgw_source_avail(const struct pgw_source *src, uint64_t off,
			size_t max);

/*
 * Are bytes [off, off+len) of the logical stream there?  PGW_ABSENT_NONE
 * when they are; PGW_ABSENT_TRUNCATED when they lie past the end of the
 * file, or in a gap of a flattened file that was cut short (its records go
 * backwards, so the gap may be what the cut left unwritten);
 * PGW_ABSENT_MISSING in a gap of a complete flattened file (the writer
 * never wrote them).  Cheap: one comparison, or a binary search of the
 * flattened records.
 */
enum pgw_absence pgw_source_absence(const struct pgw_source *src,
				    uint64_t off, uint64_t len);

/* What indexing a flattened file found (for `info`). */
struct pgw_flat_info {
	size_t records;         /* data records indexed */
	size_t superseded;      /* records (partly) overwritten by later ones */
	bool no_end_marker;     /* the file stops before the end record */
	bool truncated;         /* the last record's data is cut short */
};

/*
 * makedumpfile's flattened format (makedumpfile -F, QEMU's
 * dump-guest-memory -z): a 4 KiB header "makedumpfile", then big-endian
 * (offset, size) records, each followed by its data, until (-1, -1).  If
 * src is one, index the records once and switch src to the logical view
 * (src->flattened); otherwise leave it alone.  Records that overlap follow
 * makedumpfile -R: the later record's bytes win.  Never writes anything.
 */
enum pgw_status pgw_source_flatten(struct pgw_source *src,
				   struct pgw_flat_info *info,
				   struct pgw_err *err);

#endif /* PGW_SOURCE_H */
