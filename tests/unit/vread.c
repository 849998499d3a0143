/*
 * pgw_read_virt on hand-built page tables: copies across 4 KiB, 2 MiB,
 * 1 GiB (x86-64) and 4 MiB (i386) pages equal the physical bytes the
 * tables name; a read stops at the first byte it cannot read, says how
 * far it got, and why: not present (with the level and entry), page
 * table not in the image, non-canonical, the top of the address space
 * (UNMAPPED); a data page the image lacks (NODATA with the absence set,
 * never zeros).
 */
#include "../tools/imgwrite.h"
#include "imgtest.h"

#define MIB (UINT64_C(1) << 20)

/* Memory of `size` bytes, each byte a function of its address. */
static void fill(struct iw_mem *m, uint64_t size)
{
	iw_frame(m, size / IW_PAGE - 1);
	for (uint64_t pa = 0; pa < size; pa++)
		m->b.p[pa] = (uint8_t)(pa * 7 + (pa >> 12) * 13);
}

/* Does [va, va + len) read as physical [pa, pa + len)? */
static bool reads_as(const struct pgw_space *sp, const struct iw_mem *m,
		     uint64_t va, uint64_t pa, size_t len)
{
	uint8_t *buf = malloc(len);
	size_t done = 0;
	struct pgw_err err = { 0 };
	bool good = pgw_read_virt(sp, va, buf, len, &done, &err) == PGW_OK &&
		    done == len && memcmp(buf, m->b.p + pa, len) == 0;

	if (!good)
		printf("# va 0x%llx: done %zu of %zu: %s\n",
		       (unsigned long long)va, done, len, err.msg);
	free(buf);
	return good;
}

/* The read must stop after `want_done` bytes with status st and a
 * message containing want. */
static void stops(const struct pgw_space *sp, uint64_t va, size_t len,
		  size_t want_done, enum pgw_status st, const char *want,
		  const char *what)
{
	uint8_t *buf = malloc(len);
	size_t done = 12345;
	struct pgw_err err = { 0 };
	enum pgw_status got = pgw_read_virt(sp, va, buf, len, &done, &err);

	ok(got == st && done == want_done && strstr(err.msg, want),
	   "%s: %zu bytes, then %s: %s", what, done, pgw_status_name(got),
	   err.msg);
	free(buf);
}

static void test_x86_64(void)
{
	struct iw_mem m = { 0 };
	const unsigned E = 8;

	fill(&m, 8 * MIB);
	for (uint64_t f = 1; f <= 6; f++)
		memset(iw_frame(&m, f), 0, IW_PAGE);
	/* 0x0: PT of 4 KiB pages, frames out of order, a hole at 3. */
	iw_entry(&m, 1, 0, E, 0x2000 | IW_TBL);
	iw_entry(&m, 2, 0, E, 0x3000 | IW_TBL);
	iw_entry(&m, 3, 0, E, 0x4000 | IW_TBL);
	iw_entry(&m, 4, 0, E, 0x7000 | IW_P | IW_RW);
	iw_entry(&m, 4, 1, E, 0x9000 | IW_P | IW_RW);
	iw_entry(&m, 4, 2, E, 0x8000 | IW_P | IW_RW);
	iw_entry(&m, 4, 4, E, UINT64_C(0x900000) | IW_P);  /* past memory */
	/* 0x200000: a 2 MiB page at 4 MiB, then 0x400000: PD entry pointing
	 * at a table past the end of the image. */
	iw_entry(&m, 3, 1, E, UINT64_C(0x400000) | IW_P | IW_PS);
	iw_entry(&m, 3, 2, E, UINT64_C(0x40000000) | IW_TBL);
	/* 0x40000000: a 1 GiB page at physical 0 (8 MiB of it in the
	 * image). */
	iw_entry(&m, 2, 1, E, IW_P | IW_PS);
	/* The last page of the address space, and reserved bits. */
	iw_entry(&m, 1, 511, E, 0x5000 | IW_TBL);
	iw_entry(&m, 5, 511, E, 0x6000 | IW_TBL);
	iw_entry(&m, 6, 511, E, IW_P | IW_PS | UINT64_C(0x1000));
	iw_entry(&m, 6, 510, E, IW_P | IW_PS | UINT64_C(0x200000) |
				 UINT64_C(0x2000));  /* bit 13: reserved */
	struct pgw_image *img = open_raw_bytes(m.b.p, m.b.len);
	struct pgw_space sp = { img, pgw_mode_by_name("x86-64"), 0x1000 };
	const uint64_t top = UINT64_C(0xffffffffffe00000);

	ok(reads_as(&sp, &m, 0x0, 0x7000, 4096), "one 4 KiB page");
	ok(reads_as(&sp, &m, 0x123, 0x7123, 10), "a piece of one");
	uint8_t three[3 * 4096];
	size_t done;
	struct pgw_err err;
	ok(pgw_read_virt(&sp, 0x800, three, 0x1800, &done, &err) == PGW_OK &&
	   done == 0x1800 && !memcmp(three, m.b.p + 0x7800, 0x800) &&
	   !memcmp(three + 0x800, m.b.p + 0x9000, 0x1000),
	   "across 4 KiB pages mapped out of order");
	ok(reads_as(&sp, &m, 0x200000, 0x400000, 2 * MIB), "a whole 2 MiB page");
	ok(reads_as(&sp, &m, 0x3ff000, 0x5ff000, 0x1000), "the end of it");
	ok(reads_as(&sp, &m, 0x40000000 + 0x1234, 0x1234, 6 * MIB),
	   "6 MiB of a 1 GiB page");
	ok(reads_as(&sp, &m, top + 0x1000, 0x1000, 0x1ff000),
	   "up to the top of the address space");
	ok(pgw_read_virt(&sp, 0x0, three, 0, NULL, &err) == PGW_OK,
	   "nothing, without done_ret");

	stops(&sp, 0x3000, 0x1000, 0, PGW_E_UNMAPPED,
	      "virtual address 0x3000: not present (pte entry 0x0 at physical "
	      "0x4018)", "a 4 KiB page not present");
	stops(&sp, 0x1800, 0x2000, 0x1800, PGW_E_UNMAPPED,
	      "virtual address 0x3000: not present", "running into a hole");
	stops(&sp, 0x3ff800, 0x1000, 0x800, PGW_E_UNMAPPED,
	      "virtual address 0x400000: page table beyond the end of physical "
	      "memory (the pte table at 0x40000000", "from a 2 MiB page into "
	      "a table outside the image");
	stops(&sp, 0x40000000 + 8 * MIB - 0x10, 0x20, 0x10, PGW_E_NODATA,
	      "virtual address 0x40800000 (physical 0x800000)",
	      "1 GiB page beyond the image's memory");
	stops(&sp, 0x4000, 0x10, 0, PGW_E_NODATA, "(physical 0x900000)",
	      "4 KiB page of a frame the image lacks");
	struct pgw_err e2 = { 0 };
	pgw_read_virt(&sp, 0x4000, three, 0x10, NULL, &e2);
	ok(e2.absence == PGW_ABSENT_OUTSIDE, "... absence %s",
	   pgw_absence_key(e2.absence));
	stops(&sp, UINT64_C(0x0000800000000000), 8, 0, PGW_E_UNMAPPED,
	      "virtual address 0x800000000000: non-canonical address in "
	      "x86-64 paging", "non-canonical");
	stops(&sp, UINT64_C(0x00007ffffffff000), 0x2000, 0, PGW_E_UNMAPPED,
	      "not present (pgd entry", "top of the user half");
	stops(&sp, UINT64_C(0xffffffffffc00000), 8, 0, PGW_E_UNMAPPED,
	      "reserved bits set (pmd entry", "reserved bits");
	stops(&sp, UINT64_C(0xfffffffffffff000), 0x2000, 0x1000,
	      PGW_E_UNMAPPED, "runs past the top of the virtual address "
	      "space", "wrapping past 2^64");
	pgw_image_close(img);
	iw_free(&m.b);
}

static void test_i386(void)
{
	struct iw_mem m = { 0 };

	fill(&m, 16 * MIB);
	memset(iw_frame(&m, 1), 0, IW_PAGE);
	memset(iw_frame(&m, 2), 0, IW_PAGE);
	/* 0xc0000000: 4 MiB page at 8 MiB, then 4 KiB pages at 0xc0400000. */
	iw_entry(&m, 1, 768, 4, UINT64_C(0x800000) | IW_P | IW_PS);
	iw_entry(&m, 1, 769, 4, 0x2000 | IW_TBL);
	iw_entry(&m, 2, 0, 4, 0x3000 | IW_P);
	struct pgw_image *img = open_raw_bytes(m.b.p, m.b.len);
	struct pgw_space sp = { img, pgw_mode_by_name("i386"), 0x1000 };
	uint8_t buf[0x2000];
	size_t done;
	struct pgw_err err;

	ok(reads_as(&sp, &m, 0xc0000000, 0x800000, 4 * MIB),
	   "i386: a whole 4 MiB page");
	ok(pgw_read_virt(&sp, 0xc03ff000, buf, 0x2000, &done, &err) ==
	   PGW_OK && !memcmp(buf, m.b.p + 0xbff000, 0x1000) &&
	   !memcmp(buf + 0x1000, m.b.p + 0x3000, 0x1000),
	   "i386: from a 4 MiB page into a 4 KiB one");
	stops(&sp, 0xc0400800, 0x1000, 0x800, PGW_E_UNMAPPED,
	      "virtual address 0xc0401000: not present (pte entry 0x0",
	      "i386: then a hole");
	stops(&sp, UINT64_C(0x100000000), 4, 0, PGW_E_UNMAPPED,
	      "beyond the address space in i386 paging", "i386: above 4 GiB");
	pgw_image_close(img);
	iw_free(&m.b);
}

int main(void)
{
	test_x86_64();
	test_i386();
	return tap_done();
}
