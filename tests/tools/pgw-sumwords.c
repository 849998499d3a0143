/*
 * pgw-sumwords FILE: map FILE and add up every 8-byte word of it, the
 * floor `make bench` puts beside `pgwalk dump` (bench/dump.sh): reading
 * the page tables' bytes once, through the same kind of mapping, with no
 * decoding or output.  Prints the sum and the word count, so the reads
 * cannot be optimised away.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	uint64_t sum = 0;

	if (argc != 2) {
		fputs("usage: pgw-sumwords FILE\n", stderr);
		return 64;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 66;
	}
	size_t n = (size_t)st.st_size / 8;
	const uint8_t *p = n ? mmap(NULL, n * 8, PROT_READ, MAP_PRIVATE, fd, 0)
			     : NULL;
	if (n && p == MAP_FAILED) {
		perror(argv[1]);
		return 66;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t w;
		memcpy(&w, p + i * 8, 8);
		sum += w;
	}
	printf("words=%zu sum=0x%" PRIx64 "\n", n, sum);
	return 0;
}
