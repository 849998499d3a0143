/*
 * pgw-kdump-pages FILE: the page frames a kdump-compressed file holds, read
 * from its 2nd bitmap with nothing of the library, as an oracle for what
 * pgwalk says is not in the image (tests/cli/real-absent.t).  Prints one
 * line a run of dumped frames, "FIRST_PFN COUNT" in decimal, then
 * "# block_size=N max_mapnr=N dumped=N".
 *
 * The layout is makedumpfile's (diskdump_mod.h): the disk_dump_header in
 * block 0, sub_hdr_size blocks of kdump_sub_header, then bitmap_blocks
 * blocks holding the 1st bitmap (RAM) and the 2nd (dumped), half each, bit
 * n of byte n / 8 (LSB first) for frame n.  The 64-bit max_mapnr of a
 * version 6 header or later replaces the 32-bit one.  Only the 64-bit
 * header layout (x86-64 hosts) is read.  Exit 1 on anything else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Offsets in the 64-bit disk_dump_header: utsname (6 x 65 bytes) after
 * the signature and header_version, then a struct timeval aligned to 8. */
#define HDR_VERSION   8
#define HDR_BLOCKSIZE 428
#define HDR_SUBHDR    432
#define HDR_BITMAP    436
#define HDR_MAXMAPNR  440
/* In kdump_sub_header: phys_base, dump_level, split, start/end pfn, four
 * offset/size pairs (vmcoreinfo, note, eraseinfo: three), then the 64-bit
 * start_pfn, end_pfn and max_mapnr. */
#define SUB_MAXMAPNR64 (8 + 4 + 4 + 8 + 8 + 6 * 8 + 8 + 8)

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int fail(const char *what)
{
	fprintf(stderr, "pgw-kdump-pages: %s\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned char hdr[512], sub[SUB_MAXMAPNR64 + 8];
	FILE *f;

	if (argc != 2)
		return fail("usage: pgw-kdump-pages FILE");
	f = fopen(argv[1], "rb");
	if (!f)
		return fail("cannot open the file");
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr) ||
	    memcmp(hdr, "KDUMP   ", 8) != 0)
		return fail("not a kdump-compressed file");
	uint64_t bs = le(hdr + HDR_BLOCKSIZE, 4);
	uint64_t sub_blocks = le(hdr + HDR_SUBHDR, 4);
	uint64_t bitmap_blocks = le(hdr + HDR_BITMAP, 4);
	uint64_t max_mapnr = le(hdr + HDR_MAXMAPNR, 4);

	if (bs < 512 || bs > 65536 || (bs & (bs - 1)))
		return fail("bad block size");
	if (le(hdr + HDR_VERSION, 4) >= 6) {
		if (fseek(f, (long)bs, SEEK_SET) != 0 ||
		    fread(sub, 1, sizeof(sub), f) != sizeof(sub))
			return fail("cannot read the sub-header");
		max_mapnr = le(sub + SUB_MAXMAPNR64, 8);
	}
	uint64_t half = bitmap_blocks * bs / 2;
	unsigned char *bm = malloc(half ? half : 1);

	if (!bm || half * 8 < max_mapnr)
		return fail("bitmaps smaller than max_mapnr");
	if (fseek(f, (long)((1 + sub_blocks) * bs + half), SEEK_SET) != 0 ||
	    fread(bm, 1, half, f) != half)
		return fail("cannot read the 2nd bitmap");
	uint64_t dumped = 0, run_start = 0, run_len = 0;

	for (uint64_t pfn = 0; pfn < max_mapnr; pfn++) {
		if (!(bm[pfn / 8] >> (pfn % 8) & 1))
			continue;
		dumped++;
		if (run_len && run_start + run_len == pfn) {
			run_len++;
			continue;
		}
		if (run_len)
			printf("%llu %llu\n", (unsigned long long)run_start,
			       (unsigned long long)run_len);
		run_start = pfn;
		run_len = 1;
	}
	if (run_len)
		printf("%llu %llu\n", (unsigned long long)run_start,
		       (unsigned long long)run_len);
	printf("# block_size=%llu max_mapnr=%llu dumped=%llu\n",
	       (unsigned long long)bs, (unsigned long long)max_mapnr,
	       (unsigned long long)dumped);
	free(bm);
	fclose(f);
	return 0;
}
