/*
 * The walker on arbitrary physical memory.  Input layout (little-endian):
 *
 *   0      mode index (modulo the number of modes); the quotient,
 *          modulo 4, the swap layout the decoder is given: none, or
 *          Linux arm64's of 5.14, 5.19 or 6.10
 *   1      flags: bit 0 root used as given (not masked like a CR3),
 *          bit 1 walk [start, end) instead of everything,
 *          bit 2 also infer the memory-map layout and walk runs,
 *          bit 3 entries carry encryption bits: the C-bit at 47 and
 *          TDX's shared bit at 51,
 *          bits 4..7 physical base of the memory in pages
 *   2      stop the walk after this many callbacks (0: never)
 *   3..10  root (a CR3 value, or a table address with flag bit 0)
 *   11..18 start, 19..26 end, 27..34 one more address to translate
 *   35..   physical memory, from the base up
 *
 * tests/tools/mkseeds.c writes seeds in this layout.
 */
#include <string.h>
#include <unistd.h>

#include "exercise.h"
#include "../src/lib/bytes.h"
#include "../src/arch/arm64.h"
#include "../src/linux/layout.h"
#include "../src/linux/swap_layout.h"

#define HDR 35

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pgw_mode *const *modes = pgw_modes();
	size_t nmodes = 0;
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	char path[64];

	if (size <= HDR)
		return 0;
	while (modes[nmodes])
		nmodes++;
	const struct pgw_mode *mode = modes[data[0] % nmodes];
	unsigned flags = data[1];
	uint64_t root = pgw_le64(data + 3);
	uint64_t start = 0, end = 0;
	if (flags & 2) {
		start = pgw_le64(data + 11);
		end = pgw_le64(data + 19);
	}
	uint64_t vas[] = { pgw_le64(data + 27), start, end - 1, root,
			   UINT64_C(0xffff888000000000), 0xc0000000 };
	struct pgw_image_open_opts opts = {
		.format = "raw",
		.raw_base = (uint64_t)(flags >> 4) << PGW_PAGE_SHIFT,
	};
	int fd = fz_memfile(data + HDR, size - HDR, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (pgw_image_open(&img, path, &opts, &err) != PGW_OK) {
		/* Memory that begins like a makedumpfile flattened file is
		 * read as one (raw content can be flattened too): a broken
		 * stream of records is then rightly an error. */
		if (size - HDR >= 12 &&
		    memcmp(data + HDR, "makedumpfile", 12) == 0) {
			close(fd);
			return 0;
		}
		fz_fail("raw open failed", err.status, size);
	}
	static const uint32_t eras[] = {
		0, KV(5, 14, 0), KV(5, 19, 0), KV(6, 10, 0),
	};
	struct pgw_enc_bits enc = {
		.swap = linux_swap_layout_for(
			EM_AARCH64_ID, eras[data[0] / nmodes % 4]),
	};
	struct pgw_enc_choice inferred = { 0 };
	if (flags & 8) {
		enc.enc = UINT64_C(1) << 47;
		enc.shared = UINT64_C(1) << 51;
	}
	/* Inference reads whatever the root points at: bounded, no crash. */
	(void)pgw_enc_infer(img, mode, root, &inferred);
	struct pgw_space sp = {
		img, mode, (flags & 1) ? root : pgw_cr3_table(mode, root, &enc),
		enc,
	};
	/* A mode with two roots (AArch64) gets the same table above, so
	 * both halves are walked. */
	if (mode->root_select_bit)
		sp.root_upper = sp.root;
	fz_exercise_space(&sp, start, end, vas, sizeof(vas) / sizeof(vas[0]),
			  data[2]);
	if (flags & 4)
		fz_exercise_runs(&sp, start, end);
	fz_exercise_linux(img, &sp);
	pgw_image_close(img);
	close(fd);
	return 0;
}
