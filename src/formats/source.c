#include "../lib/err.h"
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* like's map, when st is like's file at like's size; else NULL. */
static const uint8_t *borrowable(const struct pgw_source *like,
				 const struct stat *st, uint64_t size)
{
	struct stat l;

	if (!like || !like->map || fstat(like->fd, &l) != 0 ||
	    l.st_dev != st->st_dev || l.st_ino != st->st_ino ||
	    like->file_size != size)
		return NULL;
	return like->map;
}

enum pgw_status pgw_source_open(struct pgw_source *src, const char *path,
				const struct pgw_source *like,
				struct pgw_err *err)
{
	struct stat st;

	memset(src, 0, sizeof(*src));
	src->fd = -1;
	/* O_RDONLY and PROT_READ: pgwalk never writes to an image. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err->errnum = errno;
		return pgw_err_set(err, PGW_E_IO, "cannot open: %s",
				   strerror(errno));
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		err->errnum = e;
		return pgw_err_set(err, PGW_E_IO, "cannot stat: %s",
				   strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		err->errnum = EISDIR;
		return pgw_err_set(err, PGW_E_IO, "is a directory");
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		close(fd);
		return pgw_err_set(err, PGW_E_IO,
				   "not a regular file (pipes and sockets "
				   "cannot be mapped; save the dump to a file)");
	}
	uint64_t size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode)) {
		off_t end = lseek(fd, 0, SEEK_END);
		size = end > 0 ? (uint64_t)end : 0;
	}
	if (size == 0) {
		close(fd);
		return pgw_err_set(err, PGW_E_FORMAT, "empty file");
	}
	if (size > SIZE_MAX) {
		close(fd);
		return pgw_err_set(err, PGW_E_UNSUPPORTED,
				   "file too large to map");
	}
	const uint8_t *shared = borrowable(like, &st, size);
	void *map = shared ? (void *)shared :
		mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		int e = errno;
		close(fd);
		err->errnum = e;
		return pgw_err_set(err, PGW_E_IO, "cannot map: %s",
				   strerror(e));
	}
	/* Page tables are read sparsely; do not let the kernel read ahead. */
	if (!shared)
		(void)madvise(map, (size_t)size, MADV_RANDOM);
	src->fd = fd;
	src->map = map;
	src->map_borrowed = shared != NULL;
	src->file_size = size;
	src->size = size;
	/* st_blocks counts 512-byte units on every Linux file system; 0 is
	 * what some report for files they do not account (then trust the
	 * size).  A block device has no blocks of its own. */
	uint64_t alloc = (uint64_t)st.st_blocks * 512;
	src->alloc_size = S_ISREG(st.st_mode) && alloc && alloc < size ? alloc
								       : size;
	src->sparse = S_ISREG(st.st_mode) && alloc < size;
	return PGW_OK;
}

uint64_t pgw_source_hole_bytes(struct pgw_source *src, uint64_t off)
{
	if (!src->sparse || off >= src->file_size)
		return 0;
	if (off >= src->hole_lo && off < src->hole_hi)
		return src->hole_hi - off;
	if (off >= src->data_lo && off < src->data_hi)
		return 0;
	off_t data = lseek(src->fd, (off_t)off, SEEK_DATA);
	if (data < 0 && errno == ENXIO)
		data = (off_t)src->file_size;     /* a hole to the end */
	if (data < 0) {
		/* No hole information: every byte is data. */
		src->data_lo = 0;
		src->data_hi = src->file_size;
		return 0;
	}
	if ((uint64_t)data > off) {
		src->hole_lo = off;
		src->hole_hi = (uint64_t)data;
		return src->hole_hi - off;
	}
	off_t hole = lseek(src->fd, (off_t)off, SEEK_HOLE);
	src->data_lo = off;
	src->data_hi = hole > (off_t)off ? (uint64_t)hole : src->file_size;
	return 0;
}

bool pgw_source_in_hole(struct pgw_source *src, uint64_t off)
{
	return pgw_source_hole_bytes(src, off) != 0;
}

void pgw_source_release(const struct pgw_source *src, const uint8_t *lo,
			const uint8_t *hi)
{
	long host_page = sysconf(_SC_PAGESIZE);

	if (!src->map || lo >= hi || lo < src->map ||
	    hi > src->map + src->file_size)
		return;
	uintptr_t mask = (uintptr_t)(host_page > 0 ? host_page : 4096) - 1;
	uintptr_t start = (uintptr_t)lo & ~mask;
	/* Whole host pages: the map starts on one, and the last may stick
	 * out past the file's end within its page, which is mapped too. */
	uintptr_t end = ((uintptr_t)hi + mask) & ~mask;
	/* The mapping is a file's, read-only and never written: its pages
	 * read the same when touched again (from the page cache), so this
	 * only drops their page-table entries. */
	(void)madvise((void *)start, end - start, MADV_DONTNEED);
}

void pgw_source_close(struct pgw_source *src)
{
	if (src->map && !src->map_borrowed)
		munmap((void *)src->map, (size_t)src->file_size);
	if (src->fd >= 0)
		close(src->fd);
	free(src->recs);
	free(src->recent);
	memset(src, 0, sizeof(*src));
	src->fd = -1;
}

static bool rec_holds(const struct pgw_source *src, size_t i, uint64_t off)
{
	return i < src->nrecs && off >= src->recs[i].offset &&
	       off - src->recs[i].offset < src->recs[i].size;
}

/* Index of the record holding logical offset off, or nrecs. */
static size_t flat_find(const struct pgw_source *src, uint64_t off)
{
	size_t lo = 0, hi = src->nrecs;
	size_t *recent = src->recent;

	for (size_t k = 0; recent && k < PGW_FLAT_RECENT; k++)
		if (rec_holds(src, recent[k], off))
			return recent[k];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pgw_flat_rec *r = &src->recs[mid];
		if (off < r->offset)
			hi = mid;
		else if (off - r->offset >= r->size)
			lo = mid + 1;
		else {
			if (recent) {
				size_t *hand = &recent[PGW_FLAT_RECENT];
				recent[*hand] = mid;
				*hand = (*hand + 1) % PGW_FLAT_RECENT;
			}
			return mid;
		}
	}
	return src->nrecs;
}

enum pgw_status pgw_source_get(const struct pgw_source *src, uint64_t off,
			       size_t len, void *buf, const uint8_t **ptr_ret,
			       struct pgw_err *err)
{
	if (off > src->size || len > src->size - off)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "read of %zu bytes at offset 0x%llx is past "
				   "the end (0x%llx)", len,
				   (unsigned long long)off,
				   (unsigned long long)src->size);
	if (!src->flattened) {
		*ptr_ret = src->map + off;
		return PGW_OK;
	}
	size_t i = flat_find(src, off);
	if (i == src->nrecs)
		return pgw_err_set(err, PGW_E_FORMAT,
				   "flattened stream has no data at offset "
				   "0x%llx", (unsigned long long)off);
	const struct pgw_flat_rec *r = &src->recs[i];
	if (len <= r->size - (off - r->offset)) {
		*ptr_ret = src->map + r->file + (off - r->offset);
		return PGW_OK;
	}
	if (!buf)
		return pgw_err_set(err, PGW_E_ARG,
				   "read at 0x%llx spans flattened records",
				   (unsigned long long)off);
	uint8_t *out = buf;
	size_t done = 0;
	while (done < len) {
		if (i == src->nrecs || src->recs[i].offset > off + done)
			return pgw_err_set(err, PGW_E_FORMAT,
					   "flattened stream has no data at "
					   "offset 0x%llx",
					   (unsigned long long)(off + done));
		r = &src->recs[i];
		uint64_t in = off + done - r->offset;
		uint64_t n = r->size - in;
		if (n > len - done)
			n = len - done;
		memcpy(out + done, src->map + r->file + in, (size_t)n);
		done += (size_t)n;
		i++;
	}
	*ptr_ret = out;
	return PGW_OK;
}

enum pgw_status pgw_source_read(const struct pgw_source *src, uint64_t off,
				void *buf, size_t len, struct pgw_err *err)
{
	const uint8_t *p;
	enum pgw_status st = pgw_source_get(src, off, len, buf, &p, err);

	if (st == PGW_OK && p != buf)
		memcpy(buf, p, len);
	return st;
}

size_t pgw_source_avail(const struct pgw_source *src, uint64_t off,
			size_t max)
{
	uint64_t n = 0;

	if (off >= src->size)
		return 0;
	if (!src->flattened) {
		n = src->size - off;
		return n < max ? (size_t)n : max;
	}
	for (size_t i = flat_find(src, off); i < src->nrecs && n < max; i++) {
		const struct pgw_flat_rec *r = &src->recs[i];
		if (r->offset > off + n)
			break;
		n = r->offset + r->size - off;
	}
	return n < max ? (size_t)n : max;
}

enum pgw_absence pgw_source_absence(const struct pgw_source *src,
				    uint64_t off, uint64_t len)
{
	if (off <= src->size && len <= src->size - off) {
		if (!src->flattened)
			return PGW_ABSENT_NONE;
		/* Most asks lie inside one record. */
		size_t i = flat_find(src, off);
		if (i < src->nrecs &&
		    len <= src->recs[i].size - (off - src->recs[i].offset))
			return PGW_ABSENT_NONE;
		/* pgw_source_avail counts in size_t; page-sized asks only. */
		uint64_t n = 0;
		while (n < len) {
			size_t step = len - n > (UINT64_C(1) << 30) ?
					      (size_t)1 << 30 :
					      (size_t)(len - n);
			size_t got = pgw_source_avail(src, off + n, step);
			n += got;
			if (got < step)
				break;
		}
		if (n >= len)
			return PGW_ABSENT_NONE;
	}
	if (!src->flattened || src->flat_cut)
		return PGW_ABSENT_TRUNCATED;
	return PGW_ABSENT_MISSING;
}
