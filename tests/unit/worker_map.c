/*
 * A scan's worker images (pgw_image_workers) read the file through the
 * map of the image they serve: the file is mapped once however many
 * threads run, so each page is faulted in once and unmapped once.  And
 * a file that changed size since the image was opened gives no workers
 * (they would read another image): the scan then runs on one thread.
 * And a search of physical memory on 1, 2 and 4 threads through them
 * finds each marker written, where it was written (across a page's end
 * and a piece's too); the map is gone after close (on threads, its
 * pages are given up on them first).
 * Counted from the outside, in /proc/self/maps.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "tap.h"
#include "pgwalk.h"
#include "formats/image_page.h"

#define PAGES 64
/* The search's image: three pieces of 4096 frames and a bit
 * (search_chunks.c), every byte data ('A'), a marker at each of
 * marks, one across a page's end and one across a piece's. */
#define BIG_PAGES 12400
static const uint64_t marks[] = {
	100 * 4096 + 10, 4095 * 4096 + 4090, 5000 * 4096 + 4093,
	12399 * 4096 + 100,
};
#define NMARKS (sizeof(marks) / sizeof(marks[0]))
static const char marker[] = "PGW-WORKER-MARK";

/* Mappings of path in /proc/self/maps. */
static int mappings(const char *path)
{
	char line[PATH_MAX + 256];
	FILE *f = fopen("/proc/self/maps", "r");
	size_t pl = strlen(path);
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		size_t ll = strlen(line);
		n += ll >= pl && strcmp(line + ll - pl, path) == 0;
	}
	fclose(f);
	return n;
}

/* PAGES pages, page i filled with byte i + 1. */
static int write_image(const char *path)
{
	static uint8_t page[PGW_PAGE_SIZE];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -1;
	for (int i = 0; i < PAGES; i++) {
		memset(page, i + 1, sizeof(page));
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page)) {
			close(fd);
			return -1;
		}
	}
	return close(fd);
}

static int write_big(const char *path)
{
	static uint8_t page[PGW_PAGE_SIZE];
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	memset(page, 'A', sizeof(page));
	for (int i = 0; i < BIG_PAGES; i++)
		if (fwrite(page, sizeof(page), 1, f) != 1) {
			fclose(f);
			return -1;
		}
	for (size_t i = 0; i < NMARKS; i++)
		if (fseek(f, (long)marks[i], SEEK_SET) != 0 ||
		    fwrite(marker, strlen(marker), 1, f) != 1) {
			fclose(f);
			return -1;
		}
	return fclose(f);
}

struct found {
	uint64_t at[NMARKS + 1];
	size_t n;
};

static int on_hit(void *arg, const struct pgw_search_hit *h)
{
	struct found *f = arg;

	if (f->n < NMARKS + 1)
		f->at[f->n] = h->addr;
	f->n++;
	return 0;
}

static void search(const char *path, unsigned threads)
{
	struct pgw_image_open_opts o = { .format = "raw", .threads = threads };
	struct pgw_search_opts so = { .context = 16 };
	struct pgw_patterns *pat = NULL;
	struct pgw_image *img = NULL;
	struct pgw_err err = { 0 };
	struct found f = { 0 };

	if (!ok(pgw_patterns_new(&pat, &err) == PGW_OK &&
		pgw_patterns_add(pat, PGW_PATTERN_STRING, marker, &err) ==
		PGW_OK && pgw_image_open(&img, path, &o, &err) == PGW_OK,
		"%u thread(s): the big image opens", threads)) {
		printf("#   %s\n", err.msg);
		pgw_patterns_free(pat);
		return;
	}
	ok(pgw_search(pat, img, NULL, &so, on_hit, &f, NULL, &err) == PGW_OK,
	   "%u thread(s): searched", threads);
	is_u64(f.n, NMARKS, "%u thread(s): a hit per marker written",
	       threads);
	for (size_t i = 0; i < NMARKS && i < f.n; i++)
		is_u64(f.at[i], marks[i], "%u thread(s): hit %zu where its "
		       "marker was written", threads, i);
	is_u64(mappings(path), 1, "%u thread(s): the file mapped once",
	       threads);
	pgw_image_close(img);
	is_u64(mappings(path), 0, "%u thread(s): unmapped after close",
	       threads);
	pgw_patterns_free(pat);
}

static void shared(const char *path)
{
	struct pgw_image_open_opts o = { .format = "raw", .threads = 3 };
	struct pgw_image *img;
	struct pgw_image *const *w;
	struct pgw_err err = { 0 };
	const uint8_t *mine, *theirs;

	if (!ok(pgw_image_open(&img, path, &o, &err) == PGW_OK, "opens")) {
		printf("#   %s\n", err.msg);
		return;
	}
	is_u64(mappings(path), 1, "the image maps the file once");
	if (!ok(pgw_image_workers(img, 3, &w, &err) == PGW_OK,
		"three workers open")) {
		printf("#   %s\n", err.msg);
		pgw_image_close(img);
		return;
	}
	is_u64(mappings(path), 1, "with three workers, still one mapping");
	ok(pgw_image_page(img, 37, &mine, &err) == PGW_OK, "page 37 reads");
	for (int i = 0; i < 3; i++) {
		ok(pgw_image_page(w[i], 37, &theirs, &err) == PGW_OK &&
		   theirs == mine, "worker %d reads page 37 where the image "
		   "does", i);
		is_u64(theirs[0], 38, "worker %d: its bytes are page 37's", i);
	}
	pgw_image_close(img);
	is_u64(mappings(path), 0, "unmapped after close");
}

static void resized(const char *path)
{
	struct pgw_image_open_opts o = { .format = "raw", .threads = 2 };
	struct pgw_image *img;
	struct pgw_image *const *w;
	struct pgw_err err = { 0 };
	static const uint8_t more[PGW_PAGE_SIZE];

	if (!ok(pgw_image_open(&img, path, &o, &err) == PGW_OK,
		"opens again")) {
		printf("#   %s\n", err.msg);
		return;
	}
	int fd = open(path, O_WRONLY | O_APPEND);
	ok(fd >= 0 && write(fd, more, sizeof(more)) == (ssize_t)sizeof(more),
	   "the file grows by a page while open");
	if (fd >= 0)
		close(fd);
	ok(pgw_image_workers(img, 2, &w, &err) == PGW_E_IO &&
	   strstr(err.msg, "resized while open"),
	   "no workers for the grown file: %s", err.msg);
	is_u64(mappings(path), 1, "the refused workers left no mapping");
	pgw_image_close(img);
	is_u64(mappings(path), 0, "unmapped after close");
}

int main(void)
{
	char dir[] = "/tmp/pgw-wmap-XXXXXX", path[PATH_MAX], real[PATH_MAX];
	char big[PATH_MAX], bigreal[PATH_MAX];

	if (!mkdtemp(dir))
		return 2;
	snprintf(path, sizeof(path), "%s/mem.raw", dir);
	snprintf(big, sizeof(big), "%s/big.raw", dir);
	if (write_image(path) != 0 || !realpath(path, real) ||
	    write_big(big) != 0 || !realpath(big, bigreal))
		return 2;
	shared(real);
	resized(real);
	search(bigreal, 1);
	search(bigreal, 2);
	search(bigreal, 4);
	unlink(real);
	unlink(bigreal);
	rmdir(dir);
	return tap_done();
}
