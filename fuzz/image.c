/*
 * One harness for every image format: compiled once per format name with
 * -DFUZZ_FORMAT='"elf"' (or "probe" to let the library pick).  The input
 * is the image file.  Adding a format to fuzz is adding its name to
 * FUZZ_FORMATS in mk/fuzz.mk.
 */
#include <string.h>
#include <unistd.h>

#include "exercise.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT='\"NAME\"'"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pgw_image_open_opts opts = { 0 };
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	char path[64];
	int fd = fz_memfile(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (strcmp(FUZZ_FORMAT, "probe") != 0)
		opts.format = FUZZ_FORMAT;
	if (pgw_image_open(&img, path, &opts, &err) == PGW_OK) {
		fz_exercise_image(img);
		pgw_image_close(img);
	} else if (!err.msg[0] || !strstr(err.msg, path)) {
		fz_fail("open error does not name the file", err.status, 0);
	}
	close(fd);
	return 0;
}
