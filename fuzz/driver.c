/*
 * main() for fuzz targets without libFuzzer: replays files given as
 * arguments (directories: every file in them), or runs AFL++.
 *
 *   replay:  build/tools/fuzz-replay-walker fuzz/corpus/walker
 *   AFL++:   make fuzz-afl CC=afl-clang-fast   (persistent mode, see
 *            fuzz/README.md); stdin is the test case when no file is given.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			uint8_t *p = realloc(buf, cap);
			if (!p) {
				fclose(f);
				free(buf);
				return 1;
			}
			buf = p;
		}
		size_t n = fread(buf + len, 1, cap - len, f);
		if (n == 0)
			break;
		len += n;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int run_path(const char *path, unsigned *count)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	DIR *d = opendir(path);
	struct dirent *de;
	int rc = 0;

	if (!d) {
		perror(path);
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		char sub[4096];
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		rc |= run_path(sub, count);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int rc = 0;

#ifdef __AFL_FUZZ_TESTCASE_LEN
	if (argc < 2) {
		__AFL_INIT();
		const uint8_t *buf = __AFL_FUZZ_TESTCASE_BUF;
		while (__AFL_LOOP(10000))
			LLVMFuzzerTestOneInput(buf, __AFL_FUZZ_TESTCASE_LEN);
		return 0;
	}
#endif
	if (argc < 2) {
		/* One test case on stdin (plain AFL, or by hand). */
		static uint8_t buf[1 << 20];
		size_t len = fread(buf, 1, sizeof(buf), stdin);
		LLVMFuzzerTestOneInput(buf, len);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		rc |= run_path(argv[i], &count);
	fprintf(stderr, "%s: %u inputs replayed\n", argv[0], count);
	return rc;
}
