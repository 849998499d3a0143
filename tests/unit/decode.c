/*
 * Entry decoding for every mode, table-driven: each case is a raw entry at
 * a level and everything mode->decode must say about it.  Expected values
 * are written from the Intel SDM (vol. 3, 4.3-4.5) and the kernel's
 * pgtable_64.h / pgtable-2level.h / pgtable-3level.h encodings, not from
 * the decoder.
 */
#include "tap.h"

#include "pgwalk.h"

#define B(n) (UINT64_C(1) << (n))
#define NP PGW_ENT_NOT_PRESENT
#define TBL PGW_ENT_TABLE
#define LEAF PGW_ENT_LEAF

enum { P = PGW_F_PRESENT, RW = PGW_F_RW, US = PGW_F_USER, PWT = PGW_F_PWT,
       PCD = PGW_F_PCD, A = PGW_F_ACCESSED, D = PGW_F_DIRTY, PS = PGW_F_PS,
       G = PGW_F_GLOBAL, PAT = PGW_F_PAT, NX = PGW_F_NX, ENC = PGW_F_ENC,
       SHR = PGW_F_SHARED };

/* Linux's swap PTE encodings, written out as the headers define them:
 * pgtable_64.h and pgtable-3level.h keep the offset inverted in bits 9..58
 * and the type in 59..63; pgtable-2level.h has the type in 1..5 and the
 * offset from bit 9. */
#define SWP64(type, off) \
	(((~(uint64_t)(off)) << 14 >> 5) | ((uint64_t)(type) << 59))
#define SWP32(type, off) (((uint64_t)(type) << 1) | ((uint64_t)(off) << 9))
/* L1TF: a non-present frame stored inverted over `width` address bits. */
#define INV(pfn, width) \
	((~((uint64_t)(pfn) << 12)) & (B(width) - 1) & ~(B(12) - 1))

struct dcase {
	const char *what;
	const char *mode;        /* a mode name, or a test variant below */
	enum pgw_level lvl;
	uint64_t raw;
	enum pgw_entry_kind kind;
	uint64_t addr;
	uint32_t flags;
	uint64_t reserved;
	enum pgw_np_kind np;
	uint64_t np_pfn;
	unsigned swap_type;
	uint64_t swap_off;
	unsigned pkey;
	uint32_t perm;           /* checked when non-zero */
	uint64_t enc, shared;    /* the encryption bits decoded with */
};

/* AMD SME/SEV's C-bit on EPYC parts (CPUID 0x8000001F EBX[5:0]), and
 * TDX's shared bit with a 52-bit guest physical address width. */
#define CBIT47 B(47)
#define CBIT51 B(51)

static const struct dcase cases[] = {
	/* ---- x86-64 4-level: every flag on a 4 KiB PTE ---- */
	{ "x86-64 pte: every flag", "x86-64", PGW_PTE,
	  0x80000000123451ffull, LEAF, 0x12345000,
	  P | RW | US | PWT | PCD | A | D | PAT | G | NX, 0, 0, 0, 0, 0, 0,
	  RW | US | NX },
	{ "x86-64 pte: present only", "x86-64", PGW_PTE, 0x12345001, LEAF,
	  0x12345000, P, 0, 0, 0, 0, 0, 0, 0 },
	{ "x86-64 pte: bits 9-11 and 52-58 are the OS's, ignored", "x86-64",
	  PGW_PTE, 0x07f0000012345e01ull, LEAF, 0x12345000, P, 0, 0, 0, 0,
	  0, 0, 0 },
	{ "x86-64 pte: rw", "x86-64", PGW_PTE, 0x1003, LEAF, 0x1000, P | RW },
	{ "x86-64 pte: user", "x86-64", PGW_PTE, 0x1005, LEAF, 0x1000, P | US },
	{ "x86-64 pte: pwt", "x86-64", PGW_PTE, 0x1009, LEAF, 0x1000, P | PWT },
	{ "x86-64 pte: pcd", "x86-64", PGW_PTE, 0x1011, LEAF, 0x1000, P | PCD },
	{ "x86-64 pte: accessed", "x86-64", PGW_PTE, 0x1021, LEAF, 0x1000,
	  P | A },
	{ "x86-64 pte: dirty", "x86-64", PGW_PTE, 0x1041, LEAF, 0x1000, P | D },
	{ "x86-64 pte: bit 7 is PAT, not PS", "x86-64", PGW_PTE, 0x1081, LEAF,
	  0x1000, P | PAT },
	{ "x86-64 pte: global", "x86-64", PGW_PTE, 0x1101, LEAF, 0x1000,
	  P | G },
	{ "x86-64 pte: nx", "x86-64", PGW_PTE, B(63) | 0x1001, LEAF, 0x1000,
	  P | NX, 0, 0, 0, 0, 0, 0, NX },
	{ "x86-64 pte: protection key 10", "x86-64", PGW_PTE,
	  (UINT64_C(10) << 59) | 0x1001, LEAF, 0x1000, P, 0, 0, 0, 0, 0, 10 },
	{ "x86-64 pte: frame at 2^51", "x86-64", PGW_PTE, B(51) | 0x1001,
	  LEAF, B(51) | 0x1000, P },

	/* ---- x86-64 large pages ---- */
	{ "x86-64 pmd: 2 MiB page", "x86-64", PGW_PMD, 0x40000083, LEAF,
	  0x40000000, P | RW | PS },
	{ "x86-64 pmd: 2 MiB page, PAT at bit 12, D and G", "x86-64", PGW_PMD,
	  0x400011e3, LEAF, 0x40000000, P | RW | A | D | PS | G | PAT },
	{ "x86-64 pmd: bit 13 of a 2 MiB page is reserved", "x86-64", PGW_PMD,
	  0x40002081, LEAF, 0x40000000, P | PS, B(13) },
	{ "x86-64 pmd: bit 20 of a 2 MiB page is reserved", "x86-64", PGW_PMD,
	  0x40100081, LEAF, 0x40000000, P | PS, B(20) },
	{ "x86-64 pmd: table (dirty/global not decoded)", "x86-64", PGW_PMD,
	  0x5000167, TBL, 0x5000000, P | RW | US | A },
	{ "x86-64 pud: 1 GiB page", "x86-64", PGW_PUD, 0xc00000e3, LEAF,
	  0xc0000000, P | RW | A | D | PS },
	{ "x86-64 pud: 1 GiB page above 4 GiB", "x86-64", PGW_PUD,
	  0x1c0000081ull, LEAF, 0x1c0000000ull, P | PS },
	{ "x86-64 pud: bits 13-29 of a 1 GiB page are reserved", "x86-64",
	  PGW_PUD, 0xc0000081 | B(13) | B(29), LEAF, 0xc0000000, P | PS,
	  B(13) | B(29) },
	{ "x86-64 pud: table", "x86-64", PGW_PUD, 0x3000063, TBL, 0x3000000,
	  P | RW | A },
	{ "x86-64 pgd: PS in a PML4E is reserved", "x86-64", PGW_PGD,
	  0x1000083, TBL, 0x1000000, P | RW, B(7) },
	{ "x86-64 pgd: table with NX (PTI kernel copy)", "x86-64", PGW_PGD,
	  B(63) | 0x1000067, TBL, 0x1000000, P | RW | US | A | NX, 0, 0, 0,
	  0, 0, 0, RW | US | NX },

	/* ---- reserved physical-address bits (a 46-bit MAXPHYADDR) ---- */
	{ "phys46 pte: bit 46 reserved", "phys46", PGW_PTE, B(46) | 0x1001,
	  LEAF, 0x1000, P, B(46) },
	{ "phys46 pte: bits 46-51 reserved", "phys46", PGW_PTE,
	  (B(52) - B(46)) | 0x1001, LEAF, 0x1000, P, B(52) - B(46) },
	{ "phys46 pte: bit 45 is a frame bit", "phys46", PGW_PTE,
	  B(45) | 0x1001, LEAF, B(45) | 0x1000, P },
	{ "phys46 pmd: table above phys_bits", "phys46", PGW_PMD,
	  B(47) | 0x2003, TBL, 0x2000, P | RW, B(47) },

	/* ---- NX reserved where the mode has none (EFER.NXE=0) ---- */
	{ "pae-nonx pte: bit 63 reserved", "pae-nonx", PGW_PTE,
	  B(63) | 0x1001, LEAF, 0x1000, P, B(63) },

	/* ---- la57 ---- */
	{ "la57 pgd: table", "la57", PGW_PGD, 0x2000067, TBL, 0x2000000,
	  P | RW | US | A },
	{ "la57 pgd: PS in a PML5E is reserved", "la57", PGW_PGD, 0x2000081,
	  TBL, 0x2000000, P, B(7) },
	{ "la57 p4d: PS in a PML4E is reserved", "la57", PGW_P4D, 0x2000081,
	  TBL, 0x2000000, P, B(7) },
	{ "la57 pud: 1 GiB page", "la57", PGW_PUD, 0x40000081, LEAF,
	  0x40000000, P | PS },

	/* ---- PAE ---- */
	{ "pae pgd: PDPTE with P, PWT, PCD", "pae", PGW_PGD, 0x3000019, TBL,
	  0x3000000, P | PWT | PCD, 0, 0, 0, 0, 0, 0, RW | US },
	{ "pae pgd: PDPTE RW and US are reserved", "pae", PGW_PGD, 0x3000007,
	  TBL, 0x3000000, P, B(1) | B(2), 0, 0, 0, 0, 0, RW | US },
	{ "pae pgd: PDPTE with Accessed set, as Linux's are (0x...021)", "pae",
	  PGW_PGD, 0x4ea2021, TBL, 0x4ea2000, P, 0, 0, 0, 0, 0, 0, RW | US },
	{ "pae pgd: PDPTE with bits 5-8 set: accepted like A", "pae",
	  PGW_PGD, 0x3000000 | B(5) | B(6) | B(7) | B(8) | 1, TBL, 0x3000000,
	  P, 0, 0, 0, 0, 0, 0, RW | US },
	{ "pae pgd: PDPTE with Accessed and RW: only RW is reserved", "pae",
	  PGW_PGD, 0x3000023, TBL, 0x3000000, P, B(1), 0, 0, 0, 0, 0,
	  RW | US },
	{ "pae pgd: PDPTE NX is reserved", "pae", PGW_PGD, B(63) | 0x3000001,
	  TBL, 0x3000000, P, B(63) },
	{ "pae pgd: PDPTE above 4 GiB", "pae", PGW_PGD, 0x123456001ull, TBL,
	  0x123456000ull, P },
	{ "pae pmd: 2 MiB page above 4 GiB with NX", "pae", PGW_PMD,
	  B(63) | 0x140000083ull, LEAF, 0x140000000ull, P | RW | PS | NX },
	{ "pae pmd: bit 13 of a 2 MiB page is reserved", "pae", PGW_PMD,
	  0x40002081, LEAF, 0x40000000, P | PS, B(13) },
	{ "pae pmd: table", "pae", PGW_PMD, 0x5000067, TBL, 0x5000000,
	  P | RW | US | A },
	{ "pae pte: 4 KiB above 4 GiB, every flag", "pae", PGW_PTE,
	  B(63) | 0x2345671ffull, LEAF, 0x234567000ull,
	  P | RW | US | PWT | PCD | A | D | PAT | G | NX },
	{ "pae pte: no protection keys in PAE", "pae", PGW_PTE,
	  (UINT64_C(10) << 59) | 0x1001, LEAF, 0x1000, P, 0, 0, 0, 0, 0, 0 },

	/* ---- i386 2-level ---- */
	{ "i386 pte: every flag", "i386", PGW_PTE, 0x123451ff, LEAF,
	  0x12345000, P | RW | US | PWT | PCD | A | D | PAT | G },
	{ "i386 pgd: table", "i386", PGW_PGD, 0x1dcf067, TBL, 0x1dcf000,
	  P | RW | US | A },
	{ "i386 pgd: 4 MiB page", "i386", PGW_PGD, 0x00400083, LEAF,
	  0x00400000, P | RW | PS },
	{ "i386 pgd: 4 MiB page, PAT at bit 12", "i386", PGW_PGD, 0xc0401181,
	  LEAF, 0xc0400000, P | PS | G | PAT },
	{ "i386 pgd: PSE-36 frame above 4 GiB", "i386", PGW_PGD,
	  0x00400081 | (0x12u << 13), LEAF, 0x1200400000ull, P | PS },
	{ "i386 pgd: PSE-36 frame at the top (PA bit 39)", "i386", PGW_PGD,
	  0xffc00081 | (0xffu << 13), LEAF, 0xffffc00000ull, P | PS },
	{ "i386 pgd: bit 21 of a 4 MiB page is reserved", "i386", PGW_PGD,
	  0x00400081 | B(21), LEAF, 0x00400000, P | PS, B(21) },

	/* ---- not present ---- */
	{ "x86-64 none", "x86-64", PGW_PTE, 0, NP, 0, 0, 0, PGW_NP_NONE },
	{ "i386 none", "i386", PGW_PTE, 0, NP, 0, 0, 0, PGW_NP_NONE },
	{ "x86-64 protnone, PFN inverted over 52 bits", "x86-64", PGW_PTE,
	  B(63) | INV(0x7d73, 52) | 0x160, NP, 0, 0, 0, PGW_NP_PROTNONE,
	  0x7d73 },
	{ "x86-64 protnone, PFN inverted over 46 bits", "x86-64", PGW_PTE,
	  INV(0x7d73, 46) | 0x120, NP, 0, 0, 0, PGW_NP_PROTNONE, 0x7d73 },
	{ "x86-64 protnone, PFN not inverted (pre-L1TF kernel)", "x86-64",
	  PGW_PTE, 0x7d73120, NP, 0, 0, 0, PGW_NP_PROTNONE, 0x7d73 },
	{ "x86-64 protnone pmd (2 MiB), inverted", "x86-64", PGW_PMD,
	  INV(0x3000000 >> 12, 52) | 0x1a0, NP, 0, 0, 0,
	  PGW_NP_PROTNONE, 0x3000 },
	{ "pae protnone, PFN inverted over 44 bits", "pae", PGW_PTE,
	  INV(0x3419, 44) | 0x120, NP, 0, 0, 0, PGW_NP_PROTNONE, 0x3419 },
	{ "i386 protnone, PFN never inverted", "i386", PGW_PTE, 0x3419120, NP,
	  0, 0, 0, PGW_NP_PROTNONE, 0x3419 },
	{ "i386 protnone, high frame not taken for inverted", "i386",
	  PGW_PTE, 0xfffff120, NP, 0, 0, 0, PGW_NP_PROTNONE, 0xfffff },
	{ "x86-64 swap type 0", "x86-64", PGW_PTE, SWP64(0, 0x1234), NP, 0, 0,
	  0, PGW_NP_SWAP, 0, 0, 0x1234 },
	{ "x86-64 swap type 3 offset 0x1234", "x86-64", PGW_PTE,
	  SWP64(3, 0x1234), NP, 0, 0, 0, PGW_NP_SWAP, 0, 3, 0x1234 },
	{ "x86-64 swap type 22 (last swap file)", "x86-64", PGW_PTE,
	  SWP64(22, 0xabcdef), NP, 0, 0, 0, PGW_NP_SWAP, 0, 22, 0xabcdef },
	{ "x86-64 swap, 50-bit offset", "x86-64", PGW_PTE,
	  SWP64(1, B(50) - 1), NP, 0, 0, 0, PGW_NP_SWAP, 0, 1, B(50) - 1 },
	{ "x86-64 hwpoison (type 23)", "x86-64", PGW_PTE, SWP64(23, 0x7d73),
	  NP, 0, 0, 0, PGW_NP_HWPOISON, 0, 23, 0x7d73 },
	{ "x86-64 migration read (type 24)", "x86-64", PGW_PTE,
	  SWP64(24, 0x7d73), NP, 0, 0, 0, PGW_NP_MIGRATION, 0, 24, 0x7d73 },
	{ "x86-64 migration write (type 26)", "x86-64", PGW_PTE,
	  SWP64(26, 0x7d73), NP, 0, 0, 0, PGW_NP_MIGRATION, 0, 26, 0x7d73 },
	{ "x86-64 device private (type 27)", "x86-64", PGW_PTE,
	  SWP64(27, 0x42), NP, 0, 0, 0, PGW_NP_DEVICE, 0, 27, 0x42 },
	{ "x86-64 device exclusive (type 30)", "x86-64", PGW_PTE,
	  SWP64(30, 0x42), NP, 0, 0, 0, PGW_NP_DEVICE, 0, 30, 0x42 },
	{ "x86-64 pte marker (type 31) is other", "x86-64", PGW_PTE,
	  SWP64(31, 0), NP, 0, 0, 0, PGW_NP_OTHER, 0, 31, 0 },
	{ "pae swap type 5 offset 0x777", "pae", PGW_PTE, SWP64(5, 0x777), NP,
	  0, 0, 0, PGW_NP_SWAP, 0, 5, 0x777 },
	{ "pae migration (type 25)", "pae", PGW_PTE, SWP64(25, 0x3419), NP, 0,
	  0, 0, PGW_NP_MIGRATION, 0, 25, 0x3419 },
	{ "la57 swap type 2", "la57", PGW_PTE, SWP64(2, 0x99), NP, 0, 0, 0,
	  PGW_NP_SWAP, 0, 2, 0x99 },
	{ "i386 swap type 5 offset 0x1234", "i386", PGW_PTE, SWP32(5, 0x1234),
	  NP, 0, 0, 0, PGW_NP_SWAP, 0, 5, 0x1234 },
	{ "i386 swap type 1, largest offset", "i386", PGW_PTE,
	  SWP32(1, 0x7fffff), NP, 0, 0, 0, PGW_NP_SWAP, 0, 1, 0x7fffff },
	{ "i386 hwpoison (type 23)", "i386", PGW_PTE, SWP32(23, 0x10), NP, 0,
	  0, 0, PGW_NP_HWPOISON, 0, 23, 0x10 },
	{ "i386 migration (type 24)", "i386", PGW_PTE, SWP32(24, 0x10), NP, 0,
	  0, 0, PGW_NP_MIGRATION, 0, 24, 0x10 },
	{ "i386 device (type 28)", "i386", PGW_PTE, SWP32(28, 0x10), NP, 0, 0,
	  0, PGW_NP_DEVICE, 0, 28, 0x10 },

	/* ---- memory encryption: bits of the address field that are no
	 * frame bits (the entries are an SME 4.12 kernel's, from
	 * libkdumpfile's tests/xlat-linux-x86_64-4.12-sme.data) ---- */
	{ "x86-64 pte, C-bit 47: direct-map page 0", "x86-64", PGW_PTE,
	  0x8000800000000163ull, LEAF, 0, P | RW | A | D | G | NX | ENC,
	  .enc = CBIT47 },
	{ "x86-64 pte, bit 47 without a mask is a frame bit", "x86-64",
	  PGW_PTE, 0x8000800000000163ull, LEAF, B(47),
	  P | RW | A | D | G | NX },
	{ "x86-64 pgd, C-bit 47: table pointer", "x86-64", PGW_PGD,
	  0x00008016a400e067ull, TBL, 0x16a400e000ull, P | RW | US | A | ENC,
	  .enc = CBIT47 },
	{ "x86-64 pud, C-bit 47: 1 GiB page", "x86-64", PGW_PUD,
	  0x80008001000001e3ull, LEAF, 0x100000000ull,
	  P | RW | A | D | PS | G | NX | ENC, .enc = CBIT47 },
	{ "x86-64 pmd, C-bit 47: 2 MiB kernel text, read-only", "x86-64",
	  PGW_PMD, 0x00008016a30001e1ull, LEAF, 0x16a3000000ull,
	  P | A | D | PS | G | ENC, .enc = CBIT47 },
	{ "x86-64 pte, C-bit 47 clear: MMIO mapped decrypted", "x86-64",
	  PGW_PTE, 0x80000000fed00173ull, LEAF, 0xfed00000ull,
	  P | RW | PCD | A | D | G | NX, .enc = CBIT47 },
	{ "x86-64 pte, C-bit 51", "x86-64", PGW_PTE, CBIT51 | 0x1001, LEAF,
	  0x1000, P | ENC, .enc = CBIT51 },
	{ "phys46 pmd, C-bit 47 above MAXPHYADDR is not reserved", "phys46",
	  PGW_PMD, CBIT47 | 0x2003, TBL, 0x2000, P | RW | ENC, .enc = CBIT47 },
	{ "phys46 pmd, C-bit 47: bit 48 still reserved", "phys46", PGW_PMD,
	  CBIT47 | B(48) | 0x2003, TBL, 0x2000, P | RW | ENC, B(48),
	  .enc = CBIT47 },
	{ "x86-64 pte, TDX shared bit 51", "x86-64", PGW_PTE,
	  CBIT51 | 0x1063, LEAF, 0x1000, P | RW | A | D | SHR,
	  .shared = CBIT51 },
	{ "x86-64 pte, C-bit and shared bit both known, C-bit set", "x86-64",
	  PGW_PTE, CBIT47 | 0x5001, LEAF, 0x5000, P | ENC, .enc = CBIT47,
	  .shared = CBIT51 },
	{ "x86-64 pte, C-bit 47 and protection key 10", "x86-64", PGW_PTE,
	  (UINT64_C(10) << 59) | CBIT47 | 0x1001, LEAF, 0x1000, P | ENC, 0, 0,
	  0, 0, 0, 10, .enc = CBIT47 },
	{ "la57 p4d, C-bit 51: table pointer", "la57", PGW_P4D,
	  CBIT51 | 0x2000067, TBL, 0x2000000, P | RW | US | A | ENC,
	  .enc = CBIT51 },
	{ "pae pte, C-bit 47", "pae", PGW_PTE, CBIT47 | 0x2345001, LEAF,
	  0x2345000, P | ENC, .enc = CBIT47 },
	{ "i386 pte: 32-bit entries carry no encryption bit", "i386",
	  PGW_PTE, 0x00101001, LEAF, 0x00101000, P, .enc = B(20) },
	/* pfn_pte: the frame inverted, ANDed with PTE_PFN_MASK (which
	 * leaves the C-bit out), then the protection's C-bit ORed in. */
	{ "x86-64 protnone, C-bit 47, PFN inverted over 52 bits", "x86-64",
	  PGW_PTE, B(63) | (INV(0x7d73, 52) & ~CBIT47) | CBIT47 | 0x160, NP,
	  0, 0, 0, PGW_NP_PROTNONE, 0x7d73, .enc = CBIT47 },
	{ "x86-64 protnone, C-bit 47, PFN inverted over 46 bits", "x86-64",
	  PGW_PTE, INV(0x7d73, 46) | CBIT47 | 0x120, NP, 0, 0, 0,
	  PGW_NP_PROTNONE, 0x7d73, .enc = CBIT47 },
	{ "x86-64 protnone, C-bit 47, not inverted", "x86-64", PGW_PTE,
	  CBIT47 | 0x7d73120, NP, 0, 0, 0, PGW_NP_PROTNONE, 0x7d73,
	  .enc = CBIT47 },
	{ "x86-64 swap entry: the offset keeps bit 47", "x86-64", PGW_PTE,
	  SWP64(3, 0x1234), NP, 0, 0, 0, PGW_NP_SWAP, 0, 3, 0x1234,
	  .enc = CBIT47 },
};

static struct pgw_mode phys46, pae_nonx;

static const struct pgw_mode *mode_for(const char *name)
{
	if (strcmp(name, "phys46") == 0)
		return &phys46;
	if (strcmp(name, "pae-nonx") == 0)
		return &pae_nonx;
	return pgw_mode_by_name(name);
}

static void decode_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct dcase *c = &cases[i];
		const struct pgw_mode *m = mode_for(c->mode);
		const struct pgw_enc_bits enc = { c->enc, c->shared };
		struct pgw_entry e;
		bool good;

		m->decode(m, c->lvl, c->raw, &enc, &e);
		good = e.raw == c->raw && e.kind == c->kind &&
		       e.reserved == c->reserved && e.pkey == c->pkey;
		if (c->kind != NP)
			good = good && e.addr == c->addr && e.flags == c->flags;
		else
			good = good && e.np_kind == c->np;
		if (c->kind == NP && c->np == PGW_NP_PROTNONE)
			good = good && e.np_pfn == c->np_pfn;
		if (c->kind == NP && c->np != PGW_NP_PROTNONE &&
		    c->np != PGW_NP_NONE)
			good = good && e.swap_type == c->swap_type &&
			       e.swap_offset == c->swap_off;
		if (c->perm)
			good = good && e.perm == c->perm;
		if (!ok(good, "%s (0x%" PRIx64 ")", c->what, c->raw))
			printf("#   got kind %d addr 0x%" PRIx64 " flags 0x%x "
			       "reserved 0x%" PRIx64 " np %d pfn 0x%" PRIx64
			       " swap %u/0x%" PRIx64 " pkey %u perm 0x%x\n",
			       e.kind, e.addr, e.flags, e.reserved, e.np_kind,
			       e.np_pfn, e.swap_type, e.swap_offset, e.pkey,
			       e.perm);
	}
}

/* A flag bit alone on an otherwise plain present entry, at every level
 * that may hold a leaf, in every mode: exactly that flag comes back. */
static void single_flags(void)
{
	static const struct { unsigned bit; uint32_t flag; bool leaf_only; }
		bitflag[] = {
		{ 1, RW, false }, { 2, US, false }, { 3, PWT, false },
		{ 4, PCD, false }, { 5, A, false }, { 6, D, true },
		{ 8, G, true }, { 63, NX, false },
	};
	const struct pgw_mode *const *modes = pgw_modes();
	unsigned bad = 0, n = 0;

	for (size_t mi = 0; modes[mi]; mi++) {
		const struct pgw_mode *m = modes[mi];
		/* x86 bits: the AArch64 modes have their own test
		 * (arm64_decode.c). */
		if (m->hints.granule)
			continue;
		for (int lvl = 0; lvl < PGW_NLEVELS; lvl++) {
			if (!m->level[lvl].bits || !m->level[lvl].leaf_ok)
				continue;
			bool large = lvl != PGW_PTE;
			uint64_t base = pgw_level_span(m, (enum pgw_level)lvl) |
					1 | (large ? B(7) : 0);
			for (size_t k = 0; k < sizeof(bitflag) /
						   sizeof(bitflag[0]); k++) {
				struct pgw_entry e;
				if (bitflag[k].bit >= m->entry_size * 8u)
					continue;
				m->decode(m, (enum pgw_level)lvl,
					  base | B(bitflag[k].bit), NULL, &e);
				uint32_t want = P | bitflag[k].flag |
						(large ? PS : 0);
				n++;
				if (e.flags != want || e.reserved ||
				    e.kind != LEAF) {
					bad++;
					printf("# %s %s bit %u: flags 0x%x "
					       "want 0x%x\n", m->name,
					       m->level[lvl].name,
					       bitflag[k].bit, e.flags, want);
				}
			}
		}
	}
	ok(bad == 0 && n > 40, "every flag alone, every leaf level, every "
	   "mode (%u cases)", n);
}

static void canonical(void)
{
	static const struct { const char *mode; uint64_t va; bool ok; } c[] = {
		{ "x86-64", 0, true },
		{ "x86-64", 0x00007fffffffffffull, true },
		{ "x86-64", 0x0000800000000000ull, false },
		{ "x86-64", 0x00f0000000000000ull, false },
		{ "x86-64", 0xffff7fffffffffffull, false },
		{ "x86-64", 0xffff800000000000ull, true },
		{ "x86-64", 0xffffffffffffffffull, true },
		{ "la57", 0x00007fffffffffffull, true },
		{ "la57", 0x0000800000000000ull, true },
		{ "la57", 0x00f0000000000000ull, true },
		{ "la57", 0x00ffffffffffffffull, true },
		{ "la57", 0x0100000000000000ull, false },
		{ "la57", 0xfeffffffffffffffull, false },
		{ "la57", 0xff00000000000000ull, true },
		{ "la57", 0xffff800000000000ull, true },
		{ "pae", 0xffffffffull, true },
		{ "pae", 0x100000000ull, false },
		{ "i386", 0xc0000000ull, true },
		{ "i386", 0xffffffff80000000ull, false },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ok(pgw_mode_canonical(pgw_mode_by_name(c[i].mode), c[i].va) ==
			   c[i].ok,
		   "%s: 0x%" PRIx64 " is %scanonical", c[i].mode, c[i].va,
		   c[i].ok ? "" : "not ");
}

static void spans(void)
{
	static const struct {
		const char *mode;
		uint64_t span[PGW_NLEVELS];   /* 0: folded */
		unsigned entries[PGW_NLEVELS];
	} c[] = {
		{ "i386", { B(22), 0, 0, 0, B(12) }, { 1024, 0, 0, 0, 1024 } },
		{ "pae", { B(30), 0, 0, B(21), B(12) }, { 4, 0, 0, 512, 512 } },
		{ "x86-64", { B(39), 0, B(30), B(21), B(12) },
		  { 512, 0, 512, 512, 512 } },
		{ "la57", { B(48), B(39), B(30), B(21), B(12) },
		  { 512, 512, 512, 512, 512 } },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const struct pgw_mode *m = pgw_mode_by_name(c[i].mode);
		bool good = true;
		uint64_t cover = 1;
		for (int l = 0; l < PGW_NLEVELS; l++) {
			unsigned n = m->level[l].bits ? 1u << m->level[l].bits
						      : 0;
			good &= n == c[i].entries[l];
			if (n)
				good &= pgw_level_span(m, (enum pgw_level)l) ==
					c[i].span[l];
		}
		/* The top table covers the whole address space. */
		cover = pgw_level_span(m, PGW_PGD) * c[i].entries[PGW_PGD];
		good &= m->va_bits == 64 || cover == B(m->va_bits);
		ok(good, "%s: level spans and table sizes", c[i].mode);
	}
}

static void cr3_and_names(void)
{
	const struct pgw_enc_bits c47 = { .enc = CBIT47 };
	ok(pgw_cr3_table(pgw_mode_by_name("x86-64"),
			 0x8000000012345fffull, NULL) == 0x12345000,
	   "x86-64: CR3 PCID bits and bit 63 are masked");
	ok(pgw_cr3_table(pgw_mode_by_name("x86-64"), 0x00008016a400a001ull,
			 &c47) == 0x16a400a000ull,
	   "x86-64: a CR3 with the C-bit (__sme_pa) selects the table below");
	ok(pgw_cr3_table(pgw_mode_by_name("x86-64"), 0x00008016a400a001ull,
			 NULL) == 0x8016a400a000ull,
	   "x86-64: without encryption bits, bit 47 is an address bit");
	ok(pgw_cr3_table(pgw_mode_by_name("la57"), 0x28fe001, NULL) ==
		   0x28fe000,
	   "la57: CR3 low bits masked");
	ok(pgw_cr3_table(pgw_mode_by_name("pae"), 0x1363a18, NULL) ==
		   0x1363a00,
	   "pae: CR3 keeps the 32-byte aligned PDPT address");
	ok(pgw_cr3_table(pgw_mode_by_name("i386"), 0x1dcf018, NULL) ==
		   0x1dcf000,
	   "i386: CR3 PWT/PCD masked");
	static const struct { const char *alias, *name; } al[] = {
		{ "x86_64", "x86-64" }, { "4level", "x86-64" },
		{ "5level", "la57" }, { "2level", "i386" }, { "ia32", "i386" },
	};
	for (size_t i = 0; i < sizeof(al) / sizeof(al[0]); i++)
		ok(pgw_mode_by_name(al[i].alias) == pgw_mode_by_name(al[i].name),
		   "mode alias %s is %s", al[i].alias, al[i].name);
	ok(pgw_mode_by_name("sparc") == NULL, "unknown mode name is NULL");
}

int main(void)
{
	phys46 = *pgw_mode_by_name("x86-64");
	phys46.phys_bits = 46;
	pae_nonx = *pgw_mode_by_name("pae");
	pae_nonx.quirks &= ~(unsigned)PGW_Q_NX;

	decode_cases();
	single_flags();
	canonical();
	spans();
	cr3_and_names();
	return tap_done();
}
