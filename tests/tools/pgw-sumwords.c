/*
 * pgw-sumwords FILE: map FILE and add up every 8-byte word of it, the
 * floor `make bench` puts beside `pgwalk dump` (bench/dump.sh): reading
 * the page tables' bytes once, through the same kind of mapping, with no
 * decoding or output; of a sparse file, its data extents only (SEEK_DATA),
 * the floor bench/bigimage.sh puts beside every command on a server-sized
 * image.  Prints the sum and the count of words read, so the reads cannot
 * be optimised away.
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
	size_t n = (size_t)st.st_size / 8, words = 0;
	const uint8_t *p = n ? mmap(NULL, n * 8, PROT_READ, MAP_PRIVATE, fd, 0)
			     : NULL;
	if (n && p == MAP_FAILED) {
		perror(argv[1]);
		return 66;
	}
	/* The data extents only: a sparse file's holes are zeros, which add
	 * nothing, and reading them is not the floor of anything. */
	for (off_t at = 0; at < (off_t)(n * 8);) {
		off_t data = lseek(fd, at, SEEK_DATA);
		if (data < 0)
			break;
		off_t hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0 || hole > (off_t)(n * 8))
			hole = (off_t)(n * 8);
		for (size_t i = (size_t)data / 8; i < (size_t)hole / 8; i++) {
			uint64_t w;
			memcpy(&w, p + i * 8, 8);
			sum += w;
		}
		words += (size_t)(hole - data) / 8;
		at = hole;
	}
	printf("words=%zu sum=0x%" PRIx64 "\n", words, sum);
	return 0;
}
