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

#endif
