/* Helpers for image-format unit tests: save a built image, open it. */
#ifndef PGW_IMGTEST_H
#define PGW_IMGTEST_H

#include <stdlib.h>
#include <unistd.h>

#include "../tools/dumpwriter.h"
#include "formats/image_page.h"
#include "pgwalk.h"
#include "tap.h"

/* Write b to a fresh temporary file; the caller unlinks and frees. */
static __attribute__((unused)) char *tmp_save(const struct dw_buf *b)
{
	const char *dir = getenv("TMPDIR");
	char *path = malloc(4096);
	snprintf(path, 4096, "%s/pgw-test-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, b->p, b->len) != (ssize_t)b->len) {
		perror(path);
		exit(99);
	}
	close(fd);
	return path;
}

/* Open b as an image (format NULL: probe). */
static __attribute__((unused)) enum pgw_status
open_buf(const struct dw_buf *b, const char *format, struct pgw_image **img,
	 struct pgw_err *err)
{
	struct pgw_image_open_opts o = { .format = format };
	char *path = tmp_save(b);
	enum pgw_status st;

	memset(err, 0, sizeof(*err));
	st = pgw_image_open(img, path, &o, err);
	/* The image keeps its own mapping; the name can go now. */
	unlink(path);
	free(path);
	return st;
}

/* len bytes of physical memory from 0 opened as a raw image; a test that
 * cannot open it bails out. */
static __attribute__((unused)) struct pgw_image *
open_raw_bytes(uint8_t *p, size_t len)
{
	struct dw_buf b = { .p = p, .len = len };
	struct pgw_image *img;
	struct pgw_err err;

	if (open_buf(&b, "raw", &img, &err) != PGW_OK) {
		printf("Bail out! %s\n", err.msg);
		exit(1);
	}
	return img;
}

/* The value of fact key, or "". */
static __attribute__((unused)) const char *fact(struct pgw_image *img,
						const char *key)
{
	const char *const *k, *const *v;
	size_t n = pgw_image_facts(img, &k, &v);
	for (size_t i = 0; i < n; i++)
		if (strcmp(k[i], key) == 0)
			return v[i];
	return "";
}

/* One-line message containing want. */
static __attribute__((unused)) bool msg_has(const struct pgw_err *err,
					    const char *want)
{
	return strstr(err->msg, want) && !strchr(err->msg, '\n');
}

/*
 * Does the cheap page state agree with what reading the page gave (st,
 * err)?  Read: NONE.  Absent: the same reason (damage only decoding finds
 * excepted: NONE there, corrupt when read).  absent_bytes of the page
 * must say the state too.
 */
static __attribute__((unused)) bool state_agrees(struct pgw_image *img,
						 uint64_t pfn,
						 enum pgw_status st,
						 const struct pgw_err *err)
{
	enum pgw_absence state = pgw_image_page_state(img, pfn);
	uint64_t counts[PGW_NABSENCES];

	(void)pgw_image_absent_bytes(img, pfn * DW_PAGE, DW_PAGE, counts);
	if (counts[state] != DW_PAGE)
		return false;
	if (st == PGW_OK)
		return state == PGW_ABSENT_NONE;
	if (st != PGW_E_NODATA)
		return true;
	return err->absence != PGW_ABSENT_NONE &&
	       (state == err->absence ||
		(state == PGW_ABSENT_NONE &&
		 err->absence == PGW_ABSENT_CORRUPT));
}

#endif
