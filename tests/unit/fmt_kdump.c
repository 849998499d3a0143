/*
 * kdump compressed images written from synthetic memory with every codec,
 * both header layouts, filtering, holes, shared zero pages, split files and
 * flattened wrapping: every page must read back byte-identical, and every
 * page the dump left out must be PGW_E_NODATA saying why.
 */
#include "imgtest.h"

#define NPAGES 5000   /* two rank blocks, the last one partial */

struct tally {
	uint64_t same, wrong, nodata, hole_ok, excl_ok, split_ok, has_wrong;
	uint64_t again_differs;
};

/* pfn asked again (the image keeps what it found absent): the same
 * verdict, word for word, and the same bytes. */
static bool same_again(struct pgw_image *img, uint64_t pfn,
		       enum pgw_status st, const uint8_t *p,
		       const struct pgw_err *err)
{
	const uint8_t *q;
	struct pgw_err again = { 0 };
	enum pgw_status st2 = pgw_image_page(img, pfn, &q, &again);

	if (st2 != st)
		return false;
	if (st == PGW_OK)
		return memcmp(p, q, DW_PAGE) == 0;
	return again.absence == err->absence &&
	       strcmp(again.msg, err->msg) == 0;
}

static void check_pages(struct pgw_image *img, const struct dw_mem *m,
			const struct dw_kdump_opts *o, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (uint64_t pfn = 0; pfn < m->npages + 8; pfn++) {
		const uint8_t *p;
		struct pgw_err err = { 0 };
		enum pgw_status st = pgw_image_page(img, pfn, &p, &err);
		bool want = pfn < m->npages && dw_kdump_dumped(m, o, pfn);

		t->has_wrong += !state_agrees(img, pfn, st, &err);
		if (st == PGW_OK || st == PGW_E_NODATA)
			t->again_differs += !same_again(img, pfn, st, p, &err);
		if (want) {
			if (st == PGW_OK &&
			    memcmp(p, m->data + pfn * DW_PAGE, DW_PAGE) == 0)
				t->same++;
			else
				t->wrong++;
			continue;
		}
		if (st != PGW_E_NODATA) {
			t->wrong++;
			continue;
		}
		t->nodata++;
		if (pfn >= m->npages || m->kind[pfn] == DW_HOLE)
			t->hole_ok += msg_has(&err, "not in the image") &&
				      err.absence == PGW_ABSENT_OUTSIDE;
		else if (o->split && (pfn < o->split_start ||
				      pfn >= o->split_end))
			t->split_ok += msg_has(&err, "another file") &&
				       err.absence == PGW_ABSENT_OTHER_FILE;
		else
			t->excl_ok += msg_has(&err, "excluded from the dump") &&
				      err.absence == PGW_ABSENT_EXCLUDED;
	}
}

static uint64_t expected_nodata(const struct dw_mem *m,
				const struct dw_kdump_opts *o)
{
	uint64_t n = 8;
	for (uint64_t pfn = 0; pfn < m->npages; pfn++)
		n += !dw_kdump_dumped(m, o, pfn);
	return n;
}

static void run(const char *name, const struct dw_mem *m,
		const struct dw_kdump_opts *o, const struct dw_flat_opts *fo)
{
	struct dw_buf b, f;
	struct pgw_image *img;
	struct pgw_err err;
	struct tally t;

	if (!dw_codecs[o->codec].built) {
		printf("ok %d - # skip %s: no %s in this build\n", ++tap_n,
		       name, dw_codecs[o->codec].name);
		return;
	}
	dw_write_kdump(&b, m, o, NULL);
	if (fo) {
		dw_flatten(&f, &b, fo);
		dw_free(&b);
		b = f;
	}
	if (!ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "%s: opens", name)) {
		printf("#   %s\n", err.msg);
		dw_free(&b);
		return;
	}
	ok(strcmp(pgw_image_format(img), "kdump") == 0, "%s: probed as kdump",
	   name);
	check_pages(img, m, o, &t);
	ok(t.wrong == 0 && t.same > 0, "%s: %llu pages identical, %llu wrong",
	   name, (unsigned long long)t.same, (unsigned long long)t.wrong);
	is_u64(t.nodata, expected_nodata(m, o), "%s: left-out pages are NODATA",
	       name);
	is_u64(t.hole_ok + t.excl_ok + t.split_ok, t.nodata,
	       "%s: each NODATA says why (hole %llu, excluded %llu, split "
	       "%llu)", name, (unsigned long long)t.hole_ok,
	       (unsigned long long)t.excl_ok, (unsigned long long)t.split_ok);
	is_u64(t.has_wrong, 0, "%s: page_state agrees with page", name);
	is_u64(t.again_differs, 0, "%s: every page asked again says the same",
	       name);
	const char *want = o->layout == 32 ? "32-bit layout" : "64-bit layout";
	ok(strstr(fact(img, "kdump_header"), want), "%s: %s detected (%s)",
	   name, want, fact(img, "kdump_header"));
	ok(strcmp(fact(img, "compression"), dw_codecs[o->codec].name) == 0,
	   "%s: compression fact '%s'", name, fact(img, "compression"));
	if (fo)
		ok(*fact(img, "flattened_records"), "%s: flattened records %s",
		   name, fact(img, "flattened_records"));
	pgw_image_close(img);
	dw_free(&b);
}

/* An ELF note: name, type, descriptor, 4-byte aligned. */
static void note(struct dw_buf *b, const char *name, uint32_t type,
		 const void *desc, uint32_t len)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;
	size_t h = b->len;
	dw_le(b, h, namesz, 4);
	dw_le(b, h + 4, len, 4);
	dw_le(b, h + 8, type, 4);
	dw_put(b, h + 12, name, namesz);
	size_t d = h + 12 + ((namesz + 3) & ~3u);
	dw_put(b, d, desc, len);
	dw_grow(b, d + ((len + 3) & ~3u));
}

static void notes_test(const struct dw_mem *m)
{
	struct dw_buf notes = { 0 }, b;
	uint8_t qemu[440] = { 0 };
	const char *vmci = "OSRELEASE=synthetic\nNUMBER(phys_base)=16777216\n";
	struct pgw_image *img;
	struct pgw_err err;
	const struct pgw_cpu *cpus;

	/* QEMU's x86 CPU note: version 1, size, ..., cr0..cr4 at 392. */
	qemu[0] = 1;
	qemu[4] = sizeof(qemu) & 0xff;
	qemu[5] = sizeof(qemu) >> 8;
	uint64_t cr3 = 0x1000;
	memcpy(qemu + 392 + 24, &cr3, 8);
	note(&notes, "CORE", 1, qemu, 336);   /* an NT_PRSTATUS stand-in */
	note(&notes, "QEMU", 0, qemu, sizeof(qemu));
	note(&notes, "VMCOREINFO", 0, vmci, (uint32_t)strlen(vmci));
	struct dw_kdump_opts o = { .codec = DW_ZLIB, .layout = 32,
				   .notes = notes.p, .notes_len = notes.len,
				   .machine = "i686" };
	dw_write_kdump(&b, m, &o, NULL);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "notes: opens")) {
		ok(pgw_image_cpus(img, &cpus) == 1 && cpus[0].cr3 == 0x1000,
		   "notes: QEMU CPU note gives CR3 for --cpu");
		is_u64(pgw_image_prstatus_count(img), 1,
		       "notes: NT_PRSTATUS counted");
		ok(pgw_vmcoreinfo_get(img, "OSRELEASE") &&
		   strcmp(pgw_vmcoreinfo_get(img, "OSRELEASE"),
			  "synthetic") == 0, "notes: VMCOREINFO from the notes");
		is_u64(pgw_image_machine(img), 3, "notes: i686 is EM_386");
		pgw_image_close(img);
	} else {
		printf("#   %s\n", err.msg);
	}
	dw_free(&b);

	/* VMCOREINFO only through offset_vmcoreinfo. */
	struct dw_kdump_opts o2 = { .codec = DW_ZLIB,
				    .vmcoreinfo = "OSRELEASE=vmci-only\n" };
	dw_write_kdump(&b, m, &o2, NULL);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "vmcoreinfo: opens")) {
		const char *v = pgw_vmcoreinfo_get(img, "OSRELEASE");
		ok(v && strcmp(v, "vmci-only") == 0,
		   "vmcoreinfo: read from offset_vmcoreinfo");
		pgw_image_close(img);
	}
	dw_free(&b);
	dw_free(&notes);
}

/* Older headers: version 5 (32-bit max_mapnr only), and DISKDUMP. */
static void old_headers(const struct dw_mem *m)
{
	struct dw_kdump_opts o = { .codec = DW_ZLIB, .header_version = 5 };
	struct dw_kdump_info in;
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;
	struct tally t;

	dw_write_kdump(&b, m, &o, &in);
	dw_le(&b, in.max_mapnr64_off, 0, 8);   /* not there before v6 */
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "v5: opens")) {
		check_pages(img, m, &o, &t);
		ok(t.wrong == 0 && t.same, "v5: pages identical");
		pgw_image_close(img);
	} else {
		printf("#   %s\n", err.msg);
	}
	dw_put(&b, 0, "DISKDUMP", 8);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "DISKDUMP: opens")) {
		check_pages(img, m, &o, &t);
		ok(t.wrong == 0 && t.same, "DISKDUMP: pages identical");
		pgw_image_close(img);
	} else {
		printf("#   %s\n", err.msg);
	}
	dw_free(&b);
}

/*
 * Pages served straight from the map (stored uncompressed) must not push
 * decoded pages out of the image's cache: a walk over such tables would
 * otherwise decompress the same pages again and again.
 */
static void cache_test(const struct dw_mem *m)
{
	struct dw_kdump_opts o = { .codec = DW_ZLIB };
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;
	const uint8_t *p1, *p2, *q;
	unsigned served = 0;

	dw_write_kdump(&b, m, &o, NULL);
	if (!ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "cache: opens"))
		return;
	/* pfn 66 is a compressible pattern; pfn % 4 == 1 pages are random
	 * bytes, stored whole. */
	ok(pgw_image_page(img, 66, &p1, &err) == PGW_OK, "cache: decode one");
	for (uint64_t pfn = 65; pfn < m->npages && served < 2000; pfn += 4)
		served += pgw_image_page(img, pfn, &q, &err) == PGW_OK;
	ok(pgw_image_page(img, 66, &p2, &err) == PGW_OK && p1 == p2 &&
	   memcmp(p2, m->data + 66 * DW_PAGE, DW_PAGE) == 0,
	   "cache: still cached after %u pages read in place", served);
	pgw_image_close(img);
	dw_free(&b);
}

/* Dumped pages of m from pfn on, one after another, up to n. */
static unsigned dumped_from(const struct dw_mem *m,
			    const struct dw_kdump_opts *o, uint64_t pfn,
			    unsigned n)
{
	unsigned k = 0;

	while (k < n && pfn + k < m->npages && dw_kdump_dumped(m, o, pfn + k))
		k++;
	return k;
}

/*
 * Runs of 4 pages (a 16 KiB table) from every third frame, so that each
 * overlaps the last and its pages were decoded apart before: each comes
 * back whole, laid out in one piece, as far as the dump holds its pages
 * (0 when it lacks the first, which says why), byte for byte.
 */
static void run_test(const char *name, const struct dw_mem *m,
		     bool filtered)
{
	struct dw_kdump_opts o = { .codec = DW_ZLIB,
				   .dump_level = filtered ? 31 : 0,
				   .exclude_zero = filtered };
	struct dw_buf b;
	struct pgw_image *img;
	struct pgw_err err;
	uint64_t runs = 0, wrong_len = 0, wrong_bytes = 0, cut = 0;

	dw_write_kdump(&b, m, &o, NULL);
	if (!ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "%s runs: opens",
		name))
		return;
	for (uint64_t pfn = 0; pfn + 4 <= m->npages; pfn += 3) {
		const uint8_t *q = NULL, *single;
		unsigned want = dumped_from(m, &o, pfn, 4);
		unsigned got = pgw_image_page_run(img, pfn, 4, &q, &err);

		runs++;
		cut += want < 4;
		if (got != want || (!got && err.absence == PGW_ABSENT_NONE)) {
			wrong_len++;
			continue;
		}
		for (unsigned i = 0; i < got; i++)
			wrong_bytes += memcmp(q + (size_t)i * DW_PAGE,
					      m->data + (pfn + i) * DW_PAGE,
					      DW_PAGE) != 0;
		/* A page of the run read next is a different one, from the
		 * map or from another slot: the next run finds its pages
		 * apart. */
		if (got)
			(void)pgw_image_page(img, pfn + got + 7, &single, &err);
	}
	is_u64(wrong_len, 0, "%s runs: %llu runs of 4 pages, each as long as "
	       "the dump holds (%llu cut short)", name,
	       (unsigned long long)runs, (unsigned long long)cut);
	is_u64(wrong_bytes, 0, "%s runs: every page of a run byte for byte",
	       name);
	/* The last frame there is, asked twice: kept absent like any. */
	const uint8_t *q;
	struct pgw_err e1 = { 0 }, e2 = { 0 };
	ok(pgw_image_page(img, UINT64_MAX, &q, &e1) == PGW_E_NODATA &&
	   pgw_image_page(img, UINT64_MAX, &q, &e2) == PGW_E_NODATA &&
	   e1.msg[0] && strcmp(e1.msg, e2.msg) == 0,
	   "%s: frame 2^64-1 not in the image, twice alike (%s)", name,
	   e2.msg);
	pgw_image_close(img);
	dw_free(&b);
}

int main(void)
{
	struct dw_mem plain, filtered;
	struct dw_synth s;
	char name[128];

	dw_synth_mem(&plain, NPAGES, 7, &s);
	dw_synth_mem(&filtered, NPAGES, 7, &s);
	dw_synth_filter(&filtered, &s, true);

	for (int c = DW_NONE; c <= DW_ZSTD; c++) {
		for (int layout = 64; layout >= 32; layout -= 32) {
			struct dw_kdump_opts o = { .codec = (enum dw_codec)c,
						   .layout = layout };
			snprintf(name, sizeof(name), "%s/%d",
				 dw_codecs[c].name, layout);
			run(name, &plain, &o, NULL);
			o.dump_level = 31;
			o.exclude_zero = true;
			snprintf(name, sizeof(name), "%s/%d filtered",
				 dw_codecs[c].name, layout);
			run(name, &filtered, &o, NULL);
			o.exclude_zero = false;
			o.share_zero = true;
			snprintf(name, sizeof(name), "%s/%d shared zero",
				 dw_codecs[c].name, layout);
			run(name, &filtered, &o, NULL);
		}
	}

	struct dw_kdump_opts o = { .codec = DW_LZO, .layout = 32,
				   .dump_level = 31, .exclude_zero = true };
	struct dw_flat_opts fo = { .rec_size = 10000, .reverse = true,
				   .skip_gap = true };
	run("lzo/32 filtered, flattened backwards", &filtered, &o, &fo);
	o.codec = DW_ZLIB;
	o.layout = 64;
	fo.rec_size = 65536;
	fo.reverse = false;
	fo.overlap = true;
	run("zlib/64 filtered, flattened with overwrites", &filtered, &o, &fo);
	/* Records of 100 bytes split both bitmaps: their bits are read
	 * through the records, not in place. */
	struct dw_flat_opts small = { .rec_size = 100 };
	run("zlib/64 filtered, flattened in 100-byte records", &filtered, &o,
	    &small);

	struct dw_kdump_opts so = { .codec = DW_ZSTD, .split = true,
				    .split_start = 1000, .split_end = 5000 };
	run("zstd split file", &plain, &so, NULL);

	notes_test(&plain);
	old_headers(&plain);
	cache_test(&plain);
	run_test("whole", &plain, false);
	run_test("filtered", &filtered, true);
	free(plain.data);
	free(plain.kind);
	free(filtered.data);
	free(filtered.kind);
	return tap_done();
}
