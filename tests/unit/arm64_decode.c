/*
 * The AArch64 modes through the one walker: descriptors decoded one by
 * one (table, block, page, the reserved encodings, the 52-bit forms), and
 * small synthetic memories walked for what the real dumps lack: a 64 KiB
 * granule whose tables span sixteen of the image's pages, a 16 KiB LPA2
 * top table of 32 entries that is not page-aligned, 39-bit 3-level,
 * 5-level LPA2, two roots by VA bit 55, tagged addresses, table
 * attributes passed down, contiguous runs, hostile descriptors.
 */
#include "imgtest.h"
#include "arch/arm64.h"
#include "walk/xlat_parts.h"
#include "linux/layout.h"
#include "linux/swap_layout.h"

#define B(n) (UINT64_C(1) << (n))
#define P PGW_F_PRESENT
#define V 1                  /* valid */
#define T 3                  /* valid, table/page */
#define AF B(10)
#define AP_USER B(6)
#define AP_RO B(7)
#define DBM B(51)
#define CONT B(52)
#define PXN B(53)
#define UXN B(54)

static struct pgw_entry dec(const struct pgw_mode *m, enum pgw_level l,
			    uint64_t raw)
{
	struct pgw_entry e;

	m->decode(m, l, raw, NULL, &e);
	return e;
}

static void descriptors(void)
{
	const struct pgw_mode *m4 = &pgw_mode_arm64_4k_48;
	struct pgw_entry e;

	/* arm64-4k-a's kernel page at 0xffff00000b4458ec. */
	e = dec(m4, PGW_PTE, UINT64_C(0x00e800004b445707));
	ok(e.kind == PGW_ENT_LEAF && e.addr == 0x4b445000 && !e.reserved &&
	   e.flags == (P | PGW_F_RW | PGW_F_ACCESSED | PGW_F_DIRTY |
		       PGW_F_GLOBAL | PGW_F_PXN | PGW_F_UXN),
	   "4K page: frame, AF, DBM with AP[2] clear = writable and dirty, "
	   "not nG = global, PXN, UXN");
	e = dec(m4, PGW_PTE, 0x40000000 | T | AF | AP_RO | DBM | B(11));
	ok(e.flags == (P | PGW_F_RW | PGW_F_ACCESSED),
	   "DBM with AP[2] set: writable (hardware dirty state), clean; nG");
	e = dec(m4, PGW_PTE, 0x40000000 | T | AP_RO);
	ok(!(e.flags & PGW_F_RW) && !(e.perm & PGW_F_RW), "AP[2]: read-only");
	e = dec(m4, PGW_PTE, 0x40000000 | T | AP_USER);
	ok((e.flags & PGW_F_USER) && !(e.flags & PGW_F_PXN) &&
	   (e.perm & PGW_F_PXN),
	   "EL0-writable: PXN implied in its permissions, not its flags");
	e = dec(m4, PGW_PMD, 0x40345000 | V | AF);
	ok(e.kind == PGW_ENT_LEAF && (e.flags & PGW_F_PS) &&
	   e.addr == 0x40200000 && !e.reserved,
	   "4K L2 block: 2 MiB frame, low address bits dropped");
	e = dec(m4, PGW_PUD, 0x40000000 | V | AF | CONT);
	ok(e.kind == PGW_ENT_LEAF && (e.flags & (PGW_F_PS | PGW_F_CONT)) ==
	   (PGW_F_PS | PGW_F_CONT), "4K L1 block, contiguous hint");
	e = dec(m4, PGW_PGD, 0x40000000 | V);
	ok(e.reserved == B(1), "no block at L0 with 48-bit descriptors");
	e = dec(m4, PGW_PTE, 0x40000000 | V);
	ok(e.reserved == B(1), "bits 1..0 = 01 at L3: reserved");
	e = dec(m4, PGW_PTE, 0x40000000 | T | B(48));
	ok(e.reserved == B(48) && e.addr == 0x40000000,
	   "48-bit form: OA bit 48 is RES0");
	e = dec(m4, PGW_PGD, 0x41000000 | T | B(62) | B(61) | B(60) | B(59));
	ok(e.kind == PGW_ENT_TABLE && e.addr == 0x41000000 &&
	   e.perm == (PGW_F_UXN | PGW_F_PXN),
	   "table: APTable and XNTable restrict the levels below");
	e = dec(m4, PGW_PGD, 0x41000000 | T);
	ok(e.perm == (PGW_F_RW | PGW_F_USER), "table: no restriction");
	e = dec(m4, PGW_PGD, 0x1234 << 12);
	ok(e.kind == PGW_ENT_NOT_PRESENT && e.np_kind == PGW_NP_OTHER,
	   "invalid, non-zero, at L0: not present, not decoded further");
	e = dec(&pgw_mode_arm64_4k_52, PGW_PTE,
		UINT64_C(0x3ffff40000000) | T | B(9) | B(8));
	ok(e.addr == UINT64_C(0xfffff40000000) && !e.reserved,
	   "LPA2: OA[49:12] in place, OA[51:50] from bits 9..8");
	e = dec(&pgw_mode_arm64_4k_52, PGW_P4D, UINT64_C(0x8000000000) | V);
	ok(e.kind == PGW_ENT_LEAF && !e.reserved && e.addr == B(39),
	   "LPA2: a 512 GiB block at L0");
	e = dec(&pgw_mode_arm64_64k_52, PGW_PTE,
		UINT64_C(0x123450000) | T | 0xf000);
	ok(e.addr == (UINT64_C(0xf000123450000)),
	   "64K LPA: OA[51:48] from bits 15..12");
	is_u64(pgw_cr3_table(&pgw_mode_arm64_4k_52,
			     UINT64_C(0x01de000041858000) | 0x3c | 1, NULL),
	       UINT64_C(0xf000041858000),
	       "52-bit TTBR: BADDR[51:48] from bits 5..2, ASID and CnP off");
	is_u64(pgw_cr3_table(&pgw_mode_arm64_4k_48,
			     UINT64_C(0x01de000041858001), NULL),
	       0x41858000, "48-bit TTBR: ASID and CnP off");
	e = dec(&pgw_mode_arm64_16k_47, PGW_PGD, 0x40000000 | V);
	ok(e.reserved == B(1), "16K: no block at L1 without LPA2");
	e = dec(&pgw_mode_arm64_16k_47, PGW_PMD, 0x43ff0000 | V);
	ok(e.addr == 0x42000000 && !e.reserved, "16K L2 block: 32 MiB");
	e = dec(&pgw_mode_arm64_16k_47, PGW_PTE, 0x43ff3000 | T);
	ok(e.addr == 0x43ff0000, "16K page: OA[13:12] not address bits");
}

/* A memory of n bytes from physical 0 with 8-byte entries put in it. */
struct mem {
	uint8_t *p;
	size_t n;
};

static void put(struct mem *m, uint64_t pa, uint64_t v)
{
	memcpy(m->p + pa, &v, sizeof(v));
}

static uint64_t xlat(const struct pgw_space *sp, uint64_t va,
		     enum pgw_stop *stop)
{
	struct pgw_xlat x;

	*stop = pgw_translate(sp, NULL, va, &x);
	return *stop == PGW_STOP_OK ? x.pa : UINT64_MAX;
}

struct tally {
	uint64_t leaves, bytes, cont, first_va, eff_user_rw;
	uint64_t noncanonical;
};

static int count_leaf(void *arg, const struct pgw_leaf *l)
{
	struct tally *t = arg;

	if (!t->leaves++)
		t->first_va = l->va;
	t->bytes += l->size * l->count;
	t->cont += !!(l->entry.flags & PGW_F_CONT);
	t->eff_user_rw += (l->eff_flags & (PGW_F_USER | PGW_F_RW)) ==
			  (PGW_F_USER | PGW_F_RW);
	return 0;
}

static int count_hole(void *arg, const struct pgw_hole *h)
{
	struct tally *t = arg;

	t->noncanonical += h->stop == PGW_STOP_NONCANONICAL;
	return 0;
}

static void walk(const struct pgw_space *sp, struct tally *t)
{
	struct pgw_walk_ops ops = { .leaf = count_leaf, .hole = count_hole };
	struct pgw_walk_opts o = { 0 };
	struct pgw_err err;

	memset(t, 0, sizeof(*t));
	ok(pgw_walk_range(sp, &o, &ops, t, NULL, NULL, &err) == PGW_OK,
	   "%s: the range walk ends", sp->mode->name);
}

/* 64 KiB granule, 42-bit, 2 levels: a 64 KiB table of 8192 entries
 * spans 16 image pages; an entry in its last page must be read there. */
static void granule_64k(void)
{
	struct mem m = { calloc(1, 4 << 20), 4 << 20 };
	const uint64_t top = 0x100000, pt = 0x120000;
	enum pgw_stop st;

	put(&m, top + 8 * 8000, pt | T);          /* L2[8000]: a table */
	put(&m, top + 8 * 7000, 0x20000000 | V | AF);  /* 512 MiB block */
	put(&m, pt + 8 * 8191, 0x310000 | T | AF | AP_USER);
	for (unsigned i = 0; i < 16; i++)   /* a contiguous run */
		put(&m, pt + 8 * (16 + i),
		    (0x400000 + (uint64_t)i * 0x10000) | T | AF | CONT);
	struct pgw_image *img = open_raw_bytes(m.p, m.n);
	struct pgw_space sp = { .img = img, .mode = &pgw_mode_arm64_64k_42,
				.root_upper = top };
	uint64_t va = UINT64_C(0xfffffc0000000000) | (UINT64_C(8000) << 29) |
		      (UINT64_C(8191) << 16) | 0x1234;
	is_u64(xlat(&sp, va, &st), 0x311234,
	       "64K: entry 8191 of a 64 KiB table, in its 16th page");
	va = UINT64_C(0xfffffc0000000000) | (UINT64_C(7000) << 29) | 0xabcde;
	is_u64(xlat(&sp, va, &st), 0x200abcde, "64K: a 512 MiB block");
	struct pgw_xlat_cache *c = pgw_xlat_cache_new();
	struct pgw_xlat x;
	va = UINT64_C(0xfffffc0000000000) | (UINT64_C(8000) << 29);
	pgw_translate(&sp, c, va | (16 << 16), &x);
	pgw_translate(&sp, c, va | (UINT64_C(8191) << 16), &x);
	is_u64(x.pa, 0x310000, "64K through the cache: the entry past the "
	       "kept page is read from its own page");
	uint64_t vb[2] = { va | (17 << 16), va | (UINT64_C(8191) << 16) };
	struct pgw_answer b[2];
	size_t nb = pgw_translate_brief(&sp, c, vb, 2, b);
	ok(nb == 2 && b[0].pa == 0x410000 && b[1].pa == 0x310000,
	   "64K brief answers: the table kept whole, as the mapped image "
	   "holds its 16 pages in one piece: its last page's entry too "
	   "(%zu brief)", nb);
	pgw_xlat_cache_free(c);
	struct tally t;
	walk(&sp, &t);
	ok(t.leaves == 18 && t.cont == 16 && t.noncanonical == 1 &&
	   t.bytes == (UINT64_C(512) << 20) + 17 * 0x10000,
	   "64K range walk: 18 leaves (16 contiguous), one gap between the "
	   "halves (%llu leaves, %llu cont)", (unsigned long long)t.leaves,
	   (unsigned long long)t.cont);
	pgw_image_close(img);
	free(m.p);
}

/* 16 KiB LPA2, 52-bit, 4 levels: a 32-entry top table 256 bytes into a
 * page; 39-bit 4K 3 levels; 5-level LPA2. */
static void small_tops(void)
{
	struct mem m = { calloc(1, 4 << 20), 4 << 20 };
	enum pgw_stop st;

	/* 16k-52: L0 at 0x100100 (32 entries: bits 47..51). */
	put(&m, 0x100100 + 8 * 31, 0x104000 | T);
	put(&m, 0x104000 + 8 * 2047, 0x108000 | T);
	put(&m, 0x108000 + 8 * 5, 0x10c000 | T);
	put(&m, 0x10c000 + 8 * 7, 0x200000 | T | AF | B(8));   /* OA bit 50 */
	struct pgw_image *img = open_raw_bytes(m.p, m.n);
	struct pgw_space sp = { .img = img, .mode = &pgw_mode_arm64_16k_52,
				.root = 0x100100 };
	uint64_t va = (UINT64_C(31) << 47) | (UINT64_C(2047) << 36) |
		      (UINT64_C(5) << 25) | (UINT64_C(7) << 14) | 0x123;
	is_u64(xlat(&sp, va, &st), B(50) | 0x200123,
	       "16K LPA2: a top table of 32 entries at a 256-byte offset, "
	       "OA bit 50 from bit 8");
	is_u64(xlat(&sp, va | UINT64_C(0xab00000000000000), &st),
	       B(50) | 0x200123, "a tagged address translates as untagged");
	xlat(&sp, va | UINT64_C(0xfff0000000000000), &st);
	ok(st == PGW_STOP_NOT_PRESENT,
	   "bit 55 set: the upper root, which this space has none of");
	xlat(&sp, B(53), &st);
	ok(st == PGW_STOP_NONCANONICAL, "bit 53 alone: outside both halves");
	pgw_image_close(img);

	/* 4k-39 3 levels and 4k-52 5 levels over the same tables. */
	memset(m.p, 0, m.n);
	put(&m, 0x100000 + 8 * 3, 0x101000 | T);
	put(&m, 0x101000 + 8 * 4, 0x102000 | T);
	put(&m, 0x102000 + 8 * 5, 0x103000 | T);
	put(&m, 0x103000 + 8 * 6, 0x104000 | T);
	put(&m, 0x104000 + 8 * 7, 0x305000 | T | AF);
	img = open_raw_bytes(m.p, m.n);
	struct pgw_space s39 = { .img = img, .mode = &pgw_mode_arm64_4k_39,
				 .root_upper = 0x100000 };
	va = UINT64_C(0xffffff8000000000) | (UINT64_C(3) << 30) |
	     (UINT64_C(4) << 21) | (UINT64_C(5) << 12);
	is_u64(xlat(&s39, va, &st), 0x103000,
	       "4k-39: L1[3] -> L2[4] -> L3[5], its entry a page descriptor");
	struct pgw_space s52 = { .img = img, .mode = &pgw_mode_arm64_4k_52,
				 .root = 0x100000 };
	va = (UINT64_C(3) << 48) | (UINT64_C(4) << 39) | (UINT64_C(5) << 30) |
	     (UINT64_C(6) << 21) | (UINT64_C(7) << 12) | 0x42;
	is_u64(xlat(&s52, va, &st), 0x305042, "4k-52: five levels");
	pgw_image_close(img);
	free(m.p);
}

/* Two roots, and table attributes passed down: APTable[0] above a user
 * page takes EL0 access away; UXNTable makes it EL0-non-executable. */
static void two_roots(void)
{
	struct mem m = { calloc(1, 4 << 20), 4 << 20 };
	enum pgw_stop st;

	/* lower root 0x100000, upper root 0x200000: 4k-48 */
	put(&m, 0x100000, 0x101000 | T | B(61) | B(60));
	put(&m, 0x101000, 0x102000 | T);
	put(&m, 0x102000, 0x103000 | T);
	put(&m, 0x103000, 0x300000 | T | AF | AP_USER);
	put(&m, 0x103000 + 8, 0x301000 | T | AF | AP_USER);
	put(&m, 0x200000 + 8 * 511, 0x201000 | T);
	put(&m, 0x201000 + 8 * 511, 0x40000000 | V | AF);    /* 1 GiB */
	struct pgw_image *img = open_raw_bytes(m.p, m.n);
	struct pgw_space sp = { .img = img, .mode = &pgw_mode_arm64_4k_48,
				.root = 0x100000, .root_upper = 0x200000 };
	struct pgw_xlat x;
	pgw_translate(&sp, NULL, 0x1010, &x);
	ok(x.stop == PGW_STOP_OK && x.pa == 0x301010 &&
	   !(x.eff_flags & PGW_F_USER) && (x.eff_flags & PGW_F_UXN),
	   "lower root; APTable[0] and UXNTable above a user page: kernel "
	   "only, EL0 may not execute");
	is_u64(xlat(&sp, UINT64_C(0xffffffffc0012345), &st), 0x40012345,
	       "upper root: L0[511] -> L1[511], a 1 GiB block");
	struct tally t;
	walk(&sp, &t);
	ok(t.leaves == 3 && t.first_va == 0 && t.eff_user_rw == 0 &&
	   t.noncanonical == 1 &&
	   t.bytes == (UINT64_C(1) << 30) + 2 * 4096,
	   "range walk of both roots: 3 leaves, the gap once, no page "
	   "user-writable in effect");
	/* A half without a table: read says so (it once read the step
	 * before the first). */
	struct pgw_space lower_only = sp;
	struct pgw_err err = { 0 };
	uint8_t b[4];
	lower_only.root_upper = 0;
	ok(pgw_read_virt(&lower_only, UINT64_C(0xffffffffc0012345), b, 4, NULL,
			 &err) == PGW_E_UNMAPPED &&
	   strstr(err.msg, "no top table"),
	   "read in a half without a table: not mapped, said");
	pgw_image_close(img);
	free(m.p);
}

/* Hostile descriptors: a table that points at itself, one past memory,
 * a block where the granule has none, address bits a 48-bit form lacks.
 * Translate answers each as the CPU would fault or follow; the range
 * walk ends, reporting each once. */
struct stops {
	unsigned n[PGW_NSTOPS];
};

static int count_stop(void *arg, const struct pgw_hole *h)
{
	struct stops *s = arg;

	s->n[h->stop]++;
	return 0;
}

static void hostile(void)
{
	struct mem m = { calloc(1, 4 << 20), 4 << 20 };
	const uint64_t root = 0x100000;
	enum pgw_stop st;

	put(&m, root + 8 * 0, root | T);                  /* itself */
	put(&m, root + 8 * 1, UINT64_C(0xfff0000000) | T);  /* past memory */
	put(&m, root + 8 * 2, 0x40000000 | V | AF);       /* L0 block */
	put(&m, root + 8 * 3, 0x101000 | T | B(49));      /* OA bit 49 */
	struct pgw_image *img = open_raw_bytes(m.p, m.n);
	struct pgw_space sp = { .img = img, .mode = &pgw_mode_arm64_4k_48,
				.root_upper = root };
	uint64_t hi = UINT64_C(0xffff000000000000);
	xlat(&sp, hi | (UINT64_C(1) << 39), &st);
	ok(st == PGW_STOP_TABLE_BEYOND_MEMORY, "a table past memory");
	xlat(&sp, hi | (UINT64_C(2) << 39), &st);
	ok(st == PGW_STOP_RESERVED, "a block at L0 without LPA2: reserved");
	xlat(&sp, hi | (UINT64_C(3) << 39), &st);
	ok(st == PGW_STOP_RESERVED, "address bit 49 in a 48-bit form");
	struct pgw_xlat x;
	pgw_translate(&sp, NULL, hi, &x);
	ok(x.nsteps == 4 && x.step[3].table == root,
	   "a table that points at itself is followed, as the CPU does, "
	   "down to the last level");
	struct stops s = { 0 };
	struct pgw_walk_ops ops = { .hole = count_stop };
	struct pgw_walk_opts o = { .start = hi };
	struct pgw_err err;
	ok(pgw_walk_range(&sp, &o, &ops, &s, NULL, NULL, &err) == PGW_OK &&
	   s.n[PGW_STOP_CYCLE] == 1 &&
	   s.n[PGW_STOP_TABLE_BEYOND_MEMORY] == 1 &&
	   s.n[PGW_STOP_RESERVED] == 2,
	   "range walk: the cycle, the table past memory and the two "
	   "reserved entries once each");
	pgw_image_close(img);
	free(m.p);
}

/* A 64 KiB table half in the image: its entries there read, the rest a
 * table not in the image, in translate and the range walk alike. */
static void half_table(void)
{
	size_t len = 0x3f8000;
	struct mem m = { calloc(1, len), len };
	const uint64_t root = 0x3f0000;
	enum pgw_stop st;

	put(&m, root + 8 * 1, 0x20000000 | V | AF);    /* 512 MiB block */
	struct pgw_image *img = open_raw_bytes(m.p, m.n);
	struct pgw_space sp = { .img = img, .mode = &pgw_mode_arm64_64k_42,
				.root = root };
	is_u64(xlat(&sp, (UINT64_C(1) << 29) | 0x42, &st), 0x20000042,
	       "64K table half in the image: an entry in its first half");
	xlat(&sp, UINT64_C(8191) << 29, &st);
	ok(st == PGW_STOP_TABLE_NOT_IN_IMAGE,
	   "... one in its second half: table not in the image");
	struct stops s = { 0 };
	struct pgw_walk_ops ops = { .hole = count_stop };
	struct pgw_walk_opts o = { .end = UINT64_C(1) << 42 };
	struct pgw_err err;
	enum pgw_status ws = pgw_walk_range(&sp, &o, &ops, &s, NULL, NULL,
					    &err);
	ok(ws == PGW_OK && s.n[PGW_STOP_TABLE_NOT_IN_IMAGE] == 4096 &&
	   s.n[PGW_STOP_NOT_PRESENT] == 4095,
	   "range walk: the second half's 4096 entries not in the image, "
	   "the first half's empty ones not present (%u, %u)",
	   s.n[PGW_STOP_TABLE_NOT_IN_IMAGE], s.n[PGW_STOP_NOT_PRESENT]);
	pgw_image_close(img);
	free(m.p);
}

/* Linux's PROT_NONE descriptors as the guests wrote them (real-arm64
 * dumps' PTEs of a page made PROT_NONE), and entries that are not. */
static void invalid_entries(void)
{
	const struct pgw_mode *m4 = &pgw_mode_arm64_4k_48;
	const struct pgw_mode *m16 = &pgw_mode_arm64_16k_47;
	struct pgw_entry e;

	e = dec(m4, PGW_PTE, UINT64_C(0x04e00000423b0f82));
	ok(e.np_kind == PGW_NP_PROTNONE && e.np_pfn == 0x423b0,
	   "6.1 PAGE_NONE (PTE_PROT_NONE bit 58, nG, UXN): protnone, its frame");
	e = dec(m16, PGW_PTE, UINT64_C(0x00e0000047040f82));
	ok(e.kind == PGW_ENT_NOT_PRESENT && e.np_kind == PGW_NP_PROTNONE &&
	   e.np_pfn == 0x47040, "6.12 PAGE_NONE (PTE_PRESENT_INVALID = nG): "
	   "protnone, its 16K frame");
	e = dec(m4, PGW_PMD, UINT64_C(0x04e0000042200f80));
	ok(e.np_kind == PGW_NP_PROTNONE && e.np_pfn == 0x42200,
	   "a PROT_NONE 2 MiB block: its frame");
	e = dec(m4, PGW_PTE, UINT64_C(0x04e00000423b0fc2));
	ok(e.np_kind == PGW_NP_OTHER, "AP[1] set: no PROT_NONE encoding");
	e = dec(m4, PGW_PTE, UINT64_C(0x00a00000423b0f82));
	ok(e.np_kind == PGW_NP_OTHER, "UXN clear: no PROT_NONE encoding");
	e = dec(m4, PGW_PGD, UINT64_C(0x04e00000423b0f82));
	ok(e.np_kind == PGW_NP_OTHER, "at L0 (no block there): other");
	/* 6.1 swap type 1 offset 0x1234 (type bits 3..7, offset from 8),
	 * and 6.12's (type 6..10, offset from 12): without the era, said
	 * to be swap entries and no more. */
	e = dec(m4, PGW_PTE, (UINT64_C(0x1234) << 8) | (1 << 3));
	ok(e.np_kind == PGW_NP_SWAP_UNKNOWN && !e.swap_type &&
	   !e.swap_offset, "a 6.1 swap entry, era unknown: no type or offset");
	e = dec(m4, PGW_PTE, (UINT64_C(0x1234) << 12) | (1 << 6));
	ok(e.np_kind == PGW_NP_SWAP_UNKNOWN, "a 6.12 swap entry: the same");
	e = dec(m4, PGW_PTE, (UINT64_C(0x1234) << 12) | 2);
	ok(e.np_kind == PGW_NP_OTHER, "bit 1 set: no swap entry of any era");
}

static struct pgw_entry dec_in(const struct pgw_mode *m, enum pgw_level l,
			       uint64_t raw, uint32_t version)
{
	struct pgw_enc_bits enc = {
		.swap = linux_swap_layout_for(EM_AARCH64_ID, version),
	};
	struct pgw_entry e;

	m->decode(m, l, raw, &enc, &e);
	return e;
}

static bool is_swap(struct pgw_entry e, enum pgw_np_kind kind,
		    unsigned type, uint64_t offset)
{
	return e.kind == PGW_ENT_NOT_PRESENT && e.np_kind == kind &&
	       e.swap_type == type && e.swap_offset == offset;
}

/* Every type of an era (type field at bit shift, offset at 12 or 8)
 * named as that era's swap.h numbers them. */
static void numbering(const struct pgw_mode *m, uint32_t version,
		      unsigned shift, const char *desc)
{
	const struct pgw_swap_layout *l =
		linux_swap_layout_for(EM_AARCH64_ID, version);
	unsigned files = version < KV(5, 19, 0) ? 25 : 23,
		 migration = version < KV(5, 19, 0) ? 2 : 3;
	unsigned off_shift = shift == 6 ? 12 : 8, bad = 0;

	for (unsigned type = 0; type < 32; type++) {
		enum pgw_np_kind want =
			type < files ? PGW_NP_SWAP :
			type == files ? PGW_NP_HWPOISON :
			type <= files + migration ? PGW_NP_MIGRATION :
			type <= files + migration + 4 ? PGW_NP_DEVICE :
							 PGW_NP_OTHER;
		uint64_t raw = UINT64_C(0x42) << off_shift |
			       (uint64_t)type << shift;
		if (!is_swap(dec_in(m, PGW_PTE, raw, version), want, type,
			     0x42))
			bad++;
	}
	ok(l && bad == 0, "%s", desc);
}

/* Swap entries as each era's __swp_entry_to_pte writes them
 * (arch/arm64/include/asm/pgtable.h), read with the era's layout. */
static void swap_entries(void)
{
	const struct pgw_mode *m4 = &pgw_mode_arm64_4k_48;
	const struct pgw_mode *m16 = &pgw_mode_arm64_16k_47;
	const uint32_t v514 = KV(5, 15, 0), v61 = KV(6, 1, 0),
		       v612 = KV(6, 12, 0);
	const uint64_t off = 0x1234, big = (UINT64_C(1) << 50) - 1;

	ok(!linux_swap_layout_for(EM_AARCH64_ID, KV(5, 13, 0)) &&
	   !linux_swap_layout_for(EM_AARCH64_ID, 0) &&
	   !linux_swap_layout_for(62, v61),
	   "no layout before 5.14, without a version, or for x86-64");
	ok(linux_swap_layout_for(EM_AARCH64_ID, KV(6, 9, 12)) ==
		   linux_swap_layout_for(EM_AARCH64_ID, KV(5, 19, 0)) &&
	   linux_swap_layout_for(EM_AARCH64_ID, KV(6, 10, 0)) ==
		   linux_swap_layout_for(EM_AARCH64_ID, v612),
	   "eras: [5.19, 6.10) one layout, 6.10 on another");

	/* 5.14..5.18: type 2..7, offset from 8. */
	ok(is_swap(dec_in(m4, PGW_PTE, off << 8 | 3 << 2, v514), PGW_NP_SWAP,
		   3, off), "5.15: swap type 3 at bit 2, offset from bit 8");
	/* 5.19..6.9: exclusive bit 2, type 3..7, offset 8..57. */
	ok(is_swap(dec_in(m4, PGW_PTE, off << 8 | 1 << 3, v61), PGW_NP_SWAP,
		   1, off), "6.1: swap type 1 at bit 3, offset from bit 8");
	ok(is_swap(dec_in(m4, PGW_PTE, off << 8 | 1 << 3 | 1 << 2, v61),
		   PGW_NP_SWAP, 1, off),
	   "6.1: the PG_anon_exclusive bit is no type bit");
	ok(is_swap(dec_in(m4, PGW_PTE, big << 8 | 22 << 3, v61), PGW_NP_SWAP,
		   22, big), "6.1: the last swap file, a 50-bit offset");
	numbering(m4, v514, 2, "5.15: 25 swap files, then hwpoison, 2 "
		  "migration, 4 device types");
	numbering(m4, v61, 3, "6.1: 23 hwpoison, 24..26 migration, 27..30 "
		  "device, 31 marker");
	numbering(m16, v612, 6, "6.12: the same numbering as 6.1");
	ok(is_swap(dec_in(m4, PGW_PMD, off << 8 | 24 << 3, v61),
		   PGW_NP_MIGRATION, 24, off),
	   "6.1: a THP migration entry in a 2 MiB block's place");
	ok(dec_in(m4, PGW_PGD, off << 8 | 1 << 3, v61).np_kind ==
		   PGW_NP_OTHER, "at L0 (no block there): no swap entry");
	ok(dec_in(m4, PGW_PTE, off << 8 | 1 << 3 | UINT64_C(1) << 58,
		  v61).np_kind == PGW_NP_OTHER,
	   "6.1: PTE_PROT_NONE (bit 58) set without PAGE_NONE: other");

	/* 6.10 on: uffd-wp bit 3, type 6..10, bit 11 clear, offset 12..61. */
	ok(is_swap(dec_in(m16, PGW_PTE, off << 12 | 1 << 6 | 3 << 2, v612),
		   PGW_NP_SWAP, 1, off),
	   "6.12: type at bit 6, offset from 12; exclusive, uffd-wp apart");
	ok(is_swap(dec_in(m16, PGW_PTE, big << 12 | 24 << 6, v612),
		   PGW_NP_MIGRATION, 24, big), "6.12: migration, 50-bit offset");
	ok(is_swap(dec_in(m16, PGW_PMD, off << 12 | 25 << 6, v612),
		   PGW_NP_MIGRATION, 25, off),
	   "6.12: a migration entry in a 32 MiB block's place");
	ok(dec_in(m16, PGW_PTE, off << 12 | 1 << 6 | B(11), v612).np_kind ==
		   PGW_NP_OTHER,
	   "6.12: PTE_PRESENT_INVALID (bit 11) set: no swap entry");
	ok(dec_in(m16, PGW_PTE, UINT64_C(0x00e0000047040f82), v612).np_kind ==
		   PGW_NP_PROTNONE, "6.12: PAGE_NONE stays protnone");
	ok(dec_in(m4, PGW_PTE, UINT64_C(0x04e00000423b0f82), v61).np_kind ==
		   PGW_NP_PROTNONE, "6.1: PAGE_NONE stays protnone");

	/* One entry, two eras: why the layout comes from the version. */
	struct pgw_entry a = dec_in(m4, PGW_PTE, off << 8 | 1 << 3, v61),
			 b = dec_in(m4, PGW_PTE, off << 8 | 1 << 3, v612);
	ok(a.swap_type == 1 && a.swap_offset == off &&
	   b.swap_type == 16 && b.swap_offset == 0x123,
	   "6.1's entry read as 6.12's: another type and offset");
}

int main(void)
{
	descriptors();
	invalid_entries();
	swap_entries();
	granule_64k();
	small_tops();
	two_roots();
	hostile();
	half_table();
	return tap_done();
}
