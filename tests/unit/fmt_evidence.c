/*
 * What an image says it holds: pgw_image_page_state, pgw_image_absent_bytes
 * and pgw_image_evidence against reading every page (and against what the
 * writer built), for every format, whole, filtered and cut short; the
 * default budget against a sparse file; facts that repeat; VMCOREINFO
 * numbers; a CPU whose note could not be read.
 */
#include "imgtest.h"
#include "../tools/imgwrite.h"

#include <fcntl.h>

/* Reading every page of [0, npages + 8), by reason. */
static void tally_reads(struct pgw_image *img, uint64_t npages,
			uint64_t counts[PGW_NABSENCES])
{
	memset(counts, 0, PGW_NABSENCES * sizeof(*counts));
	for (uint64_t pfn = 0; pfn < npages + 8; pfn++) {
		const uint8_t *p;
		struct pgw_err err = { 0 };
		enum pgw_status st = pgw_image_page(img, pfn, &p, &err);
		counts[st == PGW_OK ? PGW_ABSENT_NONE : err.absence]++;
	}
}

/* pgw_image_page_state agrees with reading each page of [0, npages + 8)
 * asked upwards, downwards and in strides of 7 (it remembers the last
 * run of held frames a format named: none may reach a page not held);
 * the pages that disagree. */
static uint64_t states_any_order(struct pgw_image *img, uint64_t npages)
{
	uint64_t n = npages + 8, wrong = 0;

	for (int order = 0; order < 3; order++)
		for (uint64_t i = 0; i < n; i++) {
			uint64_t pfn = order == 0 ? i : order == 1 ? n - 1 - i
						       : i * 7 % n;
			const uint8_t *p;
			struct pgw_err err = { 0 };
			enum pgw_status st = pgw_image_page(img, pfn, &p, &err);
			wrong += !state_agrees(img, pfn, st, &err);
		}
	return wrong;
}

/* pgw_image_unheld_run against reading: every page of a run the scans
 * step over fails to read for the reason its first page fails (what a
 * format says it lacks is lacked, one verdict a run); the pages that do
 * not, and in *runs how many runs there were. */
static uint64_t runs_unread(struct pgw_image *img, uint64_t npages,
			    uint64_t *runs)
{
	uint64_t wrong = 0;

	*runs = 0;
	for (uint64_t pfn = 0; pfn < npages + 8; pfn++) {
		bool zero;
		uint64_t n = pgw_image_unheld_run(img, pfn, &zero);
		enum pgw_absence first = PGW_ABSENT_NONE;
		if (!n)
			continue;
		++*runs;
		for (uint64_t i = 0; i < n && pfn + i < npages + 8; i++) {
			const uint8_t *p;
			struct pgw_err err = { 0 };
			enum pgw_status st = pgw_image_page(img, pfn + i, &p,
							    &err);
			if (i == 0)
				first = st == PGW_OK ? PGW_ABSENT_NONE
						     : err.absence;
			wrong += st == PGW_OK || err.absence != first;
		}
	}
	return wrong;
}

/*
 * The evidence, absent_bytes over everything and the page reads agree:
 * the same pages in the same reasons (outside aside, which the evidence
 * does not count), and the sums add up.
 */
static void agree(const char *name, struct pgw_image *img, uint64_t npages,
		  struct pgw_evidence *ev)
{
	uint64_t reads[PGW_NABSENCES], bytes[PGW_NABSENCES];
	bool same = true;

	tally_reads(img, npages, reads);
	uint64_t absent = pgw_image_absent_bytes(img, 0, (npages + 8) * 4096,
						 bytes);
	for (size_t k = 0; k < PGW_NABSENCES; k++)
		if (bytes[k] != reads[k] * 4096) {
			same = false;
			printf("#   %s: %llu pages read, %llu bytes counted\n",
			       pgw_absence_key((enum pgw_absence)k),
			       (unsigned long long)reads[k],
			       (unsigned long long)bytes[k]);
		}
	ok(same && absent == (npages + 8 - reads[0]) * 4096,
	   "%s: absent_bytes over the image agrees with reading every page",
	   name);
	uint64_t wrong = states_any_order(img, npages);
	ok(wrong == 0, "%s: page_state agrees with reading each page, in "
	   "three orders (%llu do not)", name, (unsigned long long)wrong);
	uint64_t runs;
	wrong = runs_unread(img, npages, &runs);
	ok(wrong == 0, "%s: the %llu runs scans step over are not read, "
	   "each for one reason (%llu pages are)", name,
	   (unsigned long long)runs, (unsigned long long)wrong);
	pgw_image_evidence(img, ev);
	same = ev->pages_dumped == reads[PGW_ABSENT_NONE];
	for (size_t k = 1; k < PGW_NABSENCES; k++)
		if (k != PGW_ABSENT_OUTSIDE)
			same &= ev->pages_absent[k] == reads[k];
	uint64_t sum = ev->pages_dumped;
	for (size_t k = 0; k < PGW_NABSENCES; k++)
		sum += ev->pages_absent[k];
	ok(same && sum == ev->pages_ram,
	   "%s: evidence agrees (ram %llu, dumped %llu, excluded %llu, "
	   "truncated %llu)", name, (unsigned long long)ev->pages_ram,
	   (unsigned long long)ev->pages_dumped,
	   (unsigned long long)ev->pages_absent[PGW_ABSENT_EXCLUDED],
	   (unsigned long long)ev->pages_absent[PGW_ABSENT_TRUNCATED]);
}

static void kdumps(void)
{
	struct dw_mem m;
	struct dw_synth s;
	struct dw_kdump_opts o = { .codec = DW_ZLIB, .layout = 64,
				   .machine = "x86_64", .dump_level = 24 };
	struct dw_kdump_info in;
	struct dw_buf b, c;
	struct pgw_image *img;
	struct pgw_err err;
	struct pgw_evidence ev;
	uint64_t ram = 0, filtered = 0;

	dw_synth_mem(&m, 5000, 3, &s);
	dw_synth_filter(&m, &s, true);
	for (uint64_t p = 0; p < m.npages; p++) {
		ram += m.kind[p] != DW_HOLE;
		filtered += m.kind[p] == DW_FILTERED;
	}
	dw_write_kdump(&b, &m, &o, &in);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "kdump: opens")) {
		agree("kdump filtered", img, m.npages, &ev);
		ok(ev.pages_ram == ram && ev.pages_dumped == ram - filtered &&
		   ev.pages_absent[PGW_ABSENT_EXCLUDED] == filtered,
		   "kdump filtered: ram %llu and excluded %llu as written",
		   (unsigned long long)ram, (unsigned long long)filtered);
		ok(!ev.complete && ev.intact && !ev.file_bytes_missing,
		   "kdump filtered: not complete, intact, nothing missing");
		/* A 1 GiB page over the dump: the bitmaps answer, fast. */
		uint64_t counts[PGW_NABSENCES];
		uint64_t absent = pgw_image_absent_bytes(img, 0, 1u << 30,
							 counts);
		ok(counts[PGW_ABSENT_EXCLUDED] == filtered * 4096 &&
		   counts[PGW_ABSENT_NONE] == (ram - filtered) * 4096 &&
		   absent == (1u << 30) - counts[PGW_ABSENT_NONE],
		   "kdump: absent_bytes of a 1 GiB page by reason");
		/* Unaligned: the first and last pages count in part. */
		uint64_t pa = 300 * 4096 + 123, len = 7 * 4096 + 1000;
		(void)pgw_image_absent_bytes(img, pa, len, counts);
		uint64_t want[PGW_NABSENCES] = { 0 };
		for (uint64_t x = pa; x < pa + len; x++)
			want[pgw_image_page_state(img, x >> 12)]++;
		ok(!memcmp(counts, want, sizeof(want)),
		   "kdump: absent_bytes of an unaligned range, byte by byte");
		pgw_image_close(img);
	}
	/* Cut in the page data: truncated pages, and bytes missing. */
	c = (struct dw_buf){ 0 };
	dw_put(&c, 0, b.p, b.len * 3 / 5);
	if (ok(open_buf(&c, NULL, &img, &err) == PGW_OK, "kdump cut: opens")) {
		agree("kdump cut", img, m.npages, &ev);
		ok(!ev.complete && !ev.intact &&
		   ev.pages_absent[PGW_ABSENT_TRUNCATED] > 0 &&
		   ev.pages_absent[PGW_ABSENT_EXCLUDED] == filtered &&
		   ev.file_bytes_missing > 0 &&
		   ev.file_bytes_missing <= b.len - c.len,
		   "kdump cut: truncated pages, at most the %zu bytes cut "
		   "missing (%llu)", b.len - c.len,
		   (unsigned long long)ev.file_bytes_missing);
		pgw_image_close(img);
	}
	dw_free(&c);
	/* Marked incomplete, descriptors never written (zeros): missing. */
	c = (struct dw_buf){ 0 };
	dw_put(&c, 0, b.p, b.len);
	c.p[in.status_off] |= 0x8;
	uint64_t kept = in.ndumped * 3 / 4;
	memset(c.p + in.desc_off + kept * 24, 0, (in.ndumped - kept) * 24);
	if (ok(open_buf(&c, NULL, &img, &err) == PGW_OK,
	       "kdump incomplete: opens")) {
		agree("kdump incomplete", img, m.npages, &ev);
		ok(ev.marked_incomplete && !ev.intact &&
		   ev.pages_absent[PGW_ABSENT_MISSING] == in.ndumped - kept,
		   "kdump incomplete: %llu pages never written",
		   (unsigned long long)(in.ndumped - kept));
		pgw_image_close(img);
	}
	dw_free(&c);
	dw_free(&b);
	free(m.data);
	free(m.kind);
}

static void segment_formats(void)
{
	struct dw_mem m;
	struct dw_synth s;
	struct dw_buf b, c;
	struct pgw_image *img;
	struct pgw_err err;
	struct pgw_evidence ev;

	dw_synth_mem(&m, 2048, 5, &s);
	dw_synth_filter(&m, &s, true);
	for (uint64_t p = 0; p < m.npages; p++)
		if (m.kind[p] == DW_FILTERED)
			m.kind[p] = DW_RAM;
	dw_write_lime(&b, &m);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "lime: opens")) {
		agree("lime", img, m.npages, &ev);
		ok(ev.complete && ev.intact && ev.pages_ram == m.npages - 16,
		   "lime whole: complete, %llu pages",
		   (unsigned long long)ev.pages_ram);
		pgw_image_close(img);
	}
	/* Cut 100 bytes into a page of the second range. */
	c = (struct dw_buf){ 0 };
	size_t second = 32 + (m.npages - 48) * 4096 + 32;
	dw_put(&c, 0, b.p, second + 5 * 4096 + 100);
	if (ok(open_buf(&c, NULL, &img, &err) == PGW_OK, "lime cut: opens")) {
		agree("lime cut", img, m.npages, &ev);
		ok(ev.pages_absent[PGW_ABSENT_TRUNCATED] == 32 - 5 &&
		   ev.file_bytes_missing == 32 * 4096 - 5 * 4096 - 100,
		   "lime cut: 27 pages truncated, 0x%llx bytes missing",
		   (unsigned long long)ev.file_bytes_missing);
		pgw_image_close(img);
	}
	dw_free(&c);
	dw_free(&b);
#ifdef PGW_HAVE_SNAPPY
	dw_write_avml(&b, &m, 1 << 20, 16384);
	c = (struct dw_buf){ 0 };
	dw_put(&c, 0, b.p, b.len / 2);
	if (ok(open_buf(&c, NULL, &img, &err) == PGW_OK, "avml cut: opens")) {
		agree("avml cut", img, m.npages, &ev);
		ok(!ev.complete && ev.pages_absent[PGW_ABSENT_TRUNCATED] &&
		   ev.file_bytes_missing >= 8, "avml cut: truncated");
		pgw_image_close(img);
	}
	dw_free(&c);
	dw_free(&b);
#endif
	free(m.data);
	free(m.kind);

	/* ELF: the tail past p_filesz is excluded (makedumpfile -E writes
	 * its filtered pages so); a cut PT_LOAD. */
	struct iw_mem im = { 0 };
	struct iw_buf elf = { 0 };
	struct iw_layout lay;
	iw_tables_x86_64(&im, false);
	struct iw_load loads[] = {
		{ 0, 0, 0x4000, 0x4000 + 0x10000 },
		{ 0x100000, 0x4000, 0x4000, 0x4000 },
	};
	struct iw_elf e = { .is64 = true, .machine = 62, .loads = loads,
			    .nloads = 2, .page_align_data = true };
	iw_elf_build(&e, &im, &elf, &lay);
	b = (struct dw_buf){ 0 };
	dw_put(&b, 0, elf.p, elf.len - 0x1800);
	if (ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "elf cut: opens")) {
		agree("elf cut", img, 0x104, &ev);
		ok(ev.pages_ram == 4 + 16 + 4 && ev.pages_dumped == 4 + 2 &&
		   ev.pages_absent[PGW_ABSENT_EXCLUDED] == 16 &&
		   ev.pages_absent[PGW_ABSENT_TRUNCATED] == 2 &&
		   ev.file_bytes_missing == 0x1800 && ev.intact == false,
		   "elf cut: 16 pages past p_filesz excluded, the 2 cut "
		   "truncated, 0x1800 bytes missing");
		ok(pgw_image_held_pages(img) == 7,
		   "elf cut: held pages count the bytes in the file only");
		pgw_image_close(img);
	}
	dw_free(&b);
	iw_free(&elf);
	iw_free(&im.b);
}

/* A sparse raw file: its size is not what it holds. */
static void sparse_budget(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	struct pgw_image *img;
	struct pgw_err err = { 0 };
	uint8_t page[4096] = { 1 };

	snprintf(path, sizeof(path), "%s/pgw-sparse-XXXXXX",
		 dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, page, sizeof(page)) != sizeof(page) ||
	    ftruncate(fd, (off_t)1 << 34) != 0) {
		printf("ok %d # skip no sparse file: %s\n", ++tap_n, path);
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return;
	}
	close(fd);
	struct pgw_image_open_opts o = { .format = "raw" };
	if (ok(pgw_image_open(&img, path, &o, &err) == PGW_OK,
	       "sparse raw 16 GiB: opens")) {
		ok(pgw_image_held_pages(img) < 64,
		   "sparse raw: holds %llu pages, not 4 Mi",
		   (unsigned long long)pgw_image_held_pages(img));
		is_u64(pgw_default_budget(img), PGW_DEFAULT_MAX_ENTRIES,
		       "sparse raw: the default budget is the floor");
		struct pgw_evidence ev;
		pgw_image_evidence(img, &ev);
		ok(ev.complete && ev.pages_dumped == UINT64_C(1) << 22,
		   "sparse raw: every page is there (holes read as zeros)");
		pgw_image_close(img);
	}
	unlink(path);
}

static void facts_and_notes(void)
{
	struct iw_mem im = { 0 };
	struct iw_buf elf = { 0 };
	struct dw_buf b = { 0 };
	struct pgw_image *img;
	struct pgw_err err;
	uint64_t root = iw_tables_x86_64(&im, false);
	struct iw_cpu cpus[3] = {
		{ 0x80050033, root, 0x3506f0, 0, 0x10, 1u << 21 },
		{ 0x80050033, root, 0x3506f0, 0, 0x10, 1u << 21 },
		{ 0x80050033, root, 0x3506f0, 0, 0x10, 1u << 21 },
	};
	struct iw_elf e = { .is64 = true, .machine = 62, .cpus = cpus,
			    .ncpus = 3, .vmcoreinfo =
			    "A=1\nNUMBER(a)=-547352576junk\n"
			    "NUMBER(b)=-9223372036854775808\n"
			    "NUMBER(c)=-9223372036854775809\n"
			    "NUMBER(d)=0x10\nNUMBER(e)=\nNUMBER(f)= 5\n"
			    "NUMBER(g)=+5\nSYMBOL(h)=-1\n"
			    "SYMBOL(i)=fFfFfFfFfFfFfFfF\n"
			    "SYMBOL(j)=10000000000000000\n",
			    .page_align_data = true };
	struct iw_layout lay;

	iw_elf_build(&e, &im, &elf, &lay);
	dw_put(&b, 0, elf.p, elf.len);
	/* CPUs 0 and 2: unreadable notes (version 7). */
	dw_le(&b, lay.note_off[0] + 20, 7, 4);
	dw_le(&b, lay.note_off[2] + 20, 7, 4);
	if (!ok(open_buf(&b, NULL, &img, &err) == PGW_OK, "notes: opens"))
		return;
	const struct pgw_cpu *c;
	size_t n = pgw_image_cpus(img, &c);
	ok(n == 3 && !c[0].has_cr && !c[0].has_rip && !c[0].has_cs &&
	   !c[0].has_idt && !c[0].has_efer && c[1].has_cr &&
	   c[1].cr3 == root && !c[2].has_cr,
	   "a CPU whose note is unreadable keeps its place, without "
	   "registers");
	const char *v = fact(img, "cpu_note_skipped");
	ok(strstr(v, "CPU 0:") && strstr(v, "(2 times)"),
	   "the skipped note is one fact, counted: %s", v);
	const char *const *k, *const *vals;
	size_t nf = pgw_image_facts(img, &k, &vals);
	bool unique = true;
	for (size_t i = 0; i < nf; i++)
		for (size_t j = 0; j < i; j++)
			unique &= strcmp(k[i], k[j]) != 0;
	ok(unique, "fact keys are unique (%zu facts)", nf);
	v = fact(img, "vmcoreinfo_malformed");
	ok(strstr(v, "NUMBER(a)=-547352576junk is not a decimal number") &&
	   strstr(v, "(7 times)"),
	   "malformed numbers are said, counted: %s", v);

	static const struct {
		const char *key;
		enum pgw_status st;
		uint64_t val;
	} nums[] = {
		{ "NUMBER(a)", PGW_E_FORMAT, 0 },
		{ "NUMBER(b)", PGW_OK, UINT64_C(1) << 63 },
		{ "NUMBER(c)", PGW_E_FORMAT, 0 },
		{ "NUMBER(d)", PGW_OK, 16 },
		{ "NUMBER(e)", PGW_E_FORMAT, 0 },
		{ "NUMBER(f)", PGW_E_FORMAT, 0 },
		{ "NUMBER(g)", PGW_E_FORMAT, 0 },
		{ "SYMBOL(h)", PGW_E_FORMAT, 0 },
		{ "SYMBOL(i)", PGW_OK, UINT64_MAX },
		{ "SYMBOL(j)", PGW_E_FORMAT, 0 },
		{ "NUMBER(z)", PGW_E_NOTFOUND, 0 },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		uint64_t val = 0x5a5a;
		struct pgw_err e2 = { 0 };
		enum pgw_status st = pgw_vmcoreinfo_number(img, nums[i].key,
							   &val, &e2);
		ok(st == nums[i].st &&
		   val == (st == PGW_OK ? nums[i].val : 0x5a5a) &&
		   (st == PGW_OK || e2.msg[0]),
		   "VMCOREINFO %s: %s%s%s", nums[i].key, pgw_status_name(st),
		   st == PGW_OK ? "" : ", untouched: ", e2.msg);
	}
	pgw_image_close(img);
	dw_free(&b);
	iw_free(&elf);
	iw_free(&im.b);
}

int main(void)
{
	kdumps();
	segment_formats();
	sparse_budget();
	facts_and_notes();
	return tap_done();
}
