/*
 * pgwalk: walk x86 and AArch64 page tables inside memory dumps.
 *
 * The library is everything but src/cli/.  It never prints and never exits:
 * every fallible call returns an enum pgw_status and fills a caller-owned
 * struct pgw_err whose message reads like a backtrace ("kdump: pfn 0x1f:
 * zlib: data error").
 *
 * Layers, bottom up; each uses only those below it (tests/cli/layers.t):
 *   errors  status codes, messages, names (src/lib/)
 *   images  a physical address space read from a dump file (src/formats/)
 *   modes   paging modes as data and the x86 and AArch64 entry decoders:
 *           hardware only, no image and no walk (src/arch/)
 *   walker  one step that reads and classifies an entry, used to
 *           translate one address, walk a range and coalesce it into runs;
 *           virtual memory read through a space (src/walk/)
 *   Linux   policy above the walker: which mode and root, PTI pairs, the
 *           direct map, memory-map eras and KASLR bases; and what Linux
 *           leaves in memory, read without symbol files: VMCOREINFO, the
 *           kernel root, every process's root, kallsyms, BTF and the task
 *           list (src/linux/)
 */
#ifndef PGWALK_H
#define PGWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * libpgwalk.so exports exactly what this header declares: the library is
 * compiled with -fvisibility=hidden (mk/shared.mk), and everything below
 * has default visibility.
 */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define PGW_PAGE_SHIFT 12
#define PGW_PAGE_SIZE  (UINT64_C(1) << PGW_PAGE_SHIFT)

/* ---- the library ------------------------------------------------------- */

/* The library's version, "MAJOR.MINOR" (the file VERSION; the soname
 * carries MAJOR): what a caller that loads it at run time checks. */
const char *pgw_version(void);

/* ---- errors ------------------------------------------------------------ */

enum pgw_status {
	PGW_OK = 0,
	PGW_E_ARG,          /* caller passed something impossible */
	PGW_E_IO,           /* the operating system refused a read/open/map */
	PGW_E_FORMAT,       /* the image is malformed or truncated */
	PGW_E_UNSUPPORTED,  /* valid input this build cannot handle */
	PGW_E_NOMEM,
	PGW_E_NODATA,       /* the physical page is not in the image */
	PGW_E_NOTFOUND,     /* a looked-up item (CPU, note, key) is absent */
	PGW_E_LIMIT,        /* a safety bound (entry budget) stopped the work */
	PGW_E_STOPPED,      /* a caller's callback asked a walk to stop */
	PGW_E_UNMAPPED,     /* a virtual address does not translate */
};

/*
 * Why a physical page is not in the image (with PGW_E_NODATA).  Each has a
 * stable key (pgw_absence_key) used in every output format.
 */
enum pgw_absence {
	PGW_ABSENT_NONE = 0,     /* the page is there */
	PGW_ABSENT_OUTSIDE,      /* no range of the image covers it ("outside") */
	PGW_ABSENT_EXCLUDED,     /* a filtered dump left it out ("excluded") */
	PGW_ABSENT_TRUNCATED,    /* its data lies past the end of a cut file
				    ("truncated") */
	PGW_ABSENT_MISSING,      /* an incomplete dump never wrote it
				    ("missing") */
	PGW_ABSENT_OTHER_FILE,   /* another file of a split dump holds it
				    ("other-file") */
	PGW_ABSENT_CORRUPT,      /* its data is damaged: bad CRC, descriptor or
				    stream ("corrupt") */
};
#define PGW_NABSENCES 7
const char *pgw_absence_key(enum pgw_absence why);

struct pgw_err {
	enum pgw_status status;
	int errnum;              /* errno where the OS said no, else 0 */
	enum pgw_absence absence;/* PGW_E_NODATA: why (else PGW_ABSENT_NONE) */
	char msg[512];
};

/* A short description of a status ("not in image"). */
const char *pgw_status_name(enum pgw_status status);

/* ---- images: physical memory ------------------------------------------- */

struct pgw_image;
struct pgw_space;

/* A contiguous stretch of physical memory the image holds (for `info`). */
struct pgw_phys_range {
	uint64_t start;
	uint64_t size;
};

/*
 * CPU state from the image's notes.  Fields are valid where has_* says so:
 * a CPU whose note could not be read keeps its place (so --cpu=N names the
 * same CPU) with every has_* false, and `info` shows it without registers.
 */
struct pgw_cpu {
	bool has_cr;        /* cr0, cr2, cr3, cr4 */
	bool has_efer;
	uint64_t cr0, cr2, cr3, cr4, efer;
	bool has_cs;        /* QEMU note: code segment selector and flags */
	uint32_t cs_selector, cs_flags;
	bool has_rip;
	uint64_t rip;
	bool has_idt;        /* QEMU note: IDTR base (the CPU entry area on 4.15+) */
	uint64_t idt_base;
};

struct pgw_image_open_opts {
	const char *format;  /* NULL: probe; else an image format name */
	uint64_t raw_base;   /* raw images: physical address of byte 0 */
	const char *raw_base_why; /* raw images: what chose raw_base (NULL:
				     nothing; else `info` shows it) */
	/* Read pages a filtered dump excluded as zeros (crash's
	 * --zero_excluded): they are then in the image for every reader,
	 * and only pgw_image_evidence still counts them excluded. */
	bool zero_excluded;
	/* Threads the scans of physical memory (VMCOREINFO, the kernel
	 * root, roots) run on; 0 or 1: the calling thread alone.  Each
	 * worker reads through an image of its own (the file opened
	 * again), so the answers are those of one thread, in the same
	 * order. */
	unsigned threads;
};

enum pgw_status pgw_image_open(struct pgw_image **img_ret, const char *path,
			       const struct pgw_image_open_opts *opts,
			       struct pgw_err *err);
void pgw_image_close(struct pgw_image *img);

/*
 * Copy the 4 KiB page of physical frame pfn into buf (PGW_PAGE_SIZE bytes).
 * A frame outside the image, or left out by a filtered dump, is
 * PGW_E_NODATA with err->absence saying why: never zeros (unless the image
 * was opened with zero_excluded: then an excluded one is).  (The library's
 * own walker reads pages in place; the pointers it uses would dangle for a
 * caller, so callers get copies.)
 */
enum pgw_status pgw_image_read_page(struct pgw_image *img, uint64_t pfn,
				    void *buf, struct pgw_err *err);
/* Copy len bytes of physical memory; fails whole if any page is absent. */
enum pgw_status pgw_image_read(struct pgw_image *img, uint64_t pa, void *buf,
			       size_t len, struct pgw_err *err);
/*
 * Is frame pfn's data in the image, and if not, why?  PGW_ABSENT_NONE when
 * it is.  Cheap: from the image's index (segments, bitmaps, page
 * descriptors), never decompressing.  It agrees with reading the page
 * except for damage only decoding finds (a bad compressed stream, an AVML
 * chunk whose CRC is wrong): such a page is NONE here and PGW_E_NODATA
 * (PGW_ABSENT_CORRUPT) when read.
 */
enum pgw_absence pgw_image_page_state(struct pgw_image *img, uint64_t pfn);
/*
 * How many bytes of physical [pa, pa + len) are not in the image: the
 * bytes whose 4 KiB page pgw_image_page_state calls absent.  When counts
 * is not NULL, counts[why] gets the bytes for each reason and
 * counts[PGW_ABSENT_NONE] the bytes that are there (they sum to len; a
 * range running past 2^64 is cut there).  Fast over segments and bitmaps
 * (a 1 GiB page costs a few bitmap words and, in a kdump, the descriptors
 * of its pages once), so a dump can ask it of every range it prints.
 */
uint64_t pgw_image_absent_bytes(struct pgw_image *img, uint64_t pa,
				uint64_t len, uint64_t counts[PGW_NABSENCES]);

/*
 * What the image holds of the memory it describes (`info`).  Counted in
 * 4 KiB pages; a page the image describes in part counts whole.  Damage
 * only decoding finds (see pgw_image_page_state) is not counted.
 */
struct pgw_evidence {
	/* Every page the image describes as memory is in it. */
	bool complete;
	/* Nothing is truncated, missing or corrupt: the file is what its
	 * writer made (a filtered dump is intact but not complete). */
	bool intact;
	/* The writer flagged the dump incomplete (kdump). */
	bool marked_incomplete;
	uint64_t pages_ram;      /* pages described as memory */
	uint64_t pages_dumped;   /* of them, pages whose data is in the image */
	/* The image was opened with zero_excluded: the pages counted
	 * excluded below read as zeros. */
	bool zero_excluded;
	/* Of pages_ram, the pages not in the image, by reason;
	 * [PGW_ABSENT_NONE] is 0.  pages_dumped plus these is pages_ram. */
	uint64_t pages_absent[PGW_NABSENCES];
	/* The file is at least this many bytes shorter than its headers say
	 * it should be (0: nothing known missing).  A lower bound: where the
	 * lost part's length is not recorded (AVML), only what is. */
	uint64_t file_bytes_missing;
};
/*
 * Fill ev.  Computed once per image and kept; the first call may read
 * every page descriptor of a kdump, in time bounded by the file's size,
 * whatever the headers claim.
 */
void pgw_image_evidence(struct pgw_image *img, struct pgw_evidence *ev_ret);
/*
 * Pages whose data the file really holds: never more than the file's
 * allocated bytes in pages (so a sparse file, or headers claiming memory
 * the file lacks, do not count), O(1).  The default entry budget is based
 * on it.
 */
uint64_t pgw_image_held_pages(const struct pgw_image *img);

const char *pgw_image_path(const struct pgw_image *img);
const char *pgw_image_format(const struct pgw_image *img);
/* The i-th image format's name ("elf", "kdump", ...: what
 * pgw_image_open_opts.format takes), in probe order; NULL past the last. */
const char *pgw_image_format_name(size_t i);
/* ELF e_machine (EM_386 = 3, EM_X86_64 = 62, EM_AARCH64 = 183) and class
 * (32/64); 0 if none. */
unsigned pgw_image_machine(const struct pgw_image *img);
unsigned pgw_image_class(const struct pgw_image *img);
size_t pgw_image_ranges(const struct pgw_image *img,
			const struct pgw_phys_range **ranges_ret);
/* CPUs from the notes, in note order; never more than PGW_MAX_CPUS
 * (Linux's own limit), whatever the file repeats. */
#define PGW_MAX_CPUS 8192
size_t pgw_image_cpus(const struct pgw_image *img,
		      const struct pgw_cpu **cpus_ret);
/* NT_PRSTATUS notes seen (a CPU count that does not need QEMU notes). */
size_t pgw_image_prstatus_count(const struct pgw_image *img);
/*
 * What each NT_PRSTATUS note saved of its CPU, in note order (CPU order;
 * at most PGW_MAX_CPUS): the stack and instruction pointers and the code
 * segment (has_regs: the note has the x86-64 or i386 layout).  pid is
 * the writer's: the running task's in a kernel's kdump, the CPU's number
 * plus one in QEMU's dumps, so it names no task by itself.
 */
struct pgw_prstatus {
	int32_t pid;
	bool has_regs;
	uint64_t sp, ip;
	uint32_t cs;                 /* its low 2 bits: the privilege level */
};
size_t pgw_image_prstatus(const struct pgw_image *img,
			  const struct pgw_prstatus **prstatus_ret);
/*
 * An AArch64 NT_PRSTATUS's registers (the kernel's struct user_pt_regs).
 * QEMU writes one per vCPU, in CPU order, with the stack pointer of the
 * CPU's current EL (SP_EL1 in EL1h) and no system register: no TTBR.
 */
struct pgw_arm64_regs {
	uint64_t x[31], sp, pc, pstate;
};
/* PSTATE.M[3:2]: the exception level an AArch64 CPU was in. */
#define PGW_ARM64_PSTATE_EL(pstate) ((unsigned)((pstate) >> 2) & 3u)
/*
 * Where a raw image's RAM starts, from its own content: img is the file
 * at path opened as raw with byte 0 at physical 0.  VMCOREINFO found in
 * it that walks so keeps 0; an arm64 one that does not has its kernel's
 * tables tried with byte 0 at NUMBER(PHYS_OFFSET) (unbiased on a kernel
 * built for more VA bits than it runs), the one under which
 * swapper_pg_dir maps itself and _stext chosen.  Without VMCOREINFO, or
 * another architecture's, 0 stays, undecided.  PGW_E_NOTFOUND when an
 * arm64 kernel's tables walk at none of them (err says so, with the
 * hint to give the base).
 */
struct pgw_raw_base {
	uint64_t base;
	bool decided;                /* evidence chose it (else 0, assumed) */
	char why[320];
};
enum pgw_status pgw_raw_base_find(struct pgw_image *img, const char *path,
				  const struct pgw_image_open_opts *opts,
				  struct pgw_raw_base *rb_ret,
				  struct pgw_err *err);
/* The registers of each AArch64 NT_PRSTATUS (392-byte descriptors), in
 * note order, at most PGW_MAX_CPUS. */
size_t pgw_image_arm64_regs(const struct pgw_image *img,
			    const struct pgw_arm64_regs **regs_ret);
/*
 * Format-specific facts for `info` as "key", "value" pairs; may be 0.  Keys
 * are unique and none is ever dropped: a fact that happened again (a
 * second unreadable CPU note) keeps its first value with "(N times)"
 * after it.
 */
size_t pgw_image_facts(const struct pgw_image *img,
		       const char *const **keys_ret,
		       const char *const **values_ret);

/* VMCOREINFO as parsed key=value lines; NULL when absent. */
const char *pgw_vmcoreinfo_get(const struct pgw_image *img, const char *key);
/*
 * Numeric value: hex for SYMBOL()/KERNELOFFSET, decimal (signed) otherwise.
 * The whole value must be a number that fits 64 bits (a negative one, as
 * the kernel prints phys_base, as its two's complement): PGW_E_NOTFOUND
 * when the key is absent, PGW_E_FORMAT (err says why) when its value is
 * not such a number.  *val_ret is written only on success.
 */
enum pgw_status pgw_vmcoreinfo_number(const struct pgw_image *img,
				      const char *key, uint64_t *val_ret,
				      struct pgw_err *err);
/* pgw_vmcoreinfo_number without the reason: true when it succeeds. */
bool pgw_vmcoreinfo_u64(const struct pgw_image *img, const char *key,
			uint64_t *val_ret);
size_t pgw_vmcoreinfo_count(const struct pgw_image *img);
/*
 * When the image holds two VMCOREINFO notes that disagree (a key with two
 * values: two kernels' roots, say), the first key, both values, in words
 * (raw image bytes: escape them); NULL when they agree or there is one.
 * The first note's values are the ones read; callers that rely on them
 * must say the answer may be about the wrong kernel.
 */
const char *pgw_vmcoreinfo_conflict(const struct pgw_image *img);

/* ---- paging modes (src/arch/: hardware only) -------------------------- */

/* The five logical levels, top down, as Linux names them. */
enum pgw_level {
	PGW_PGD = 0,
	PGW_P4D,
	PGW_PUD,
	PGW_PMD,
	PGW_PTE,
	PGW_NLEVELS
};

/* Decoded entry flags (hardware bits, named once). */
enum pgw_flag {
	PGW_F_PRESENT  = 1u << 0,
	PGW_F_RW       = 1u << 1,
	PGW_F_USER     = 1u << 2,
	PGW_F_PWT      = 1u << 3,
	PGW_F_PCD      = 1u << 4,
	PGW_F_ACCESSED = 1u << 5,
	PGW_F_DIRTY    = 1u << 6,
	PGW_F_PS       = 1u << 7,   /* large page (upper levels) */
	PGW_F_GLOBAL   = 1u << 8,
	PGW_F_PAT      = 1u << 9,   /* bit 7 in a PTE, bit 12 in a large page */
	PGW_F_NX       = 1u << 10,
	PGW_F_ENC      = 1u << 11,  /* memory encryption: the entry's
					encryption bit is set (AMD SME/SEV
					C-bit; see struct pgw_enc_bits) */
	PGW_F_SHARED   = 1u << 12,  /* the entry's shared bit is set: the page
					is shared with the host (Intel TDX) */
	PGW_F_PXN      = 1u << 13,  /* AArch64: privileged execute-never (PXN,
					or PXNTable above): EL1 may not
					execute */
	PGW_F_UXN      = 1u << 14,  /* AArch64: unprivileged execute-never
					(UXN, or UXNTable above): EL0 may not
					execute */
	PGW_F_CONT     = 1u << 15,  /* AArch64: the contiguous hint: one of an
					aligned run of entries (16 of 4 KiB or
					64 KiB pages, 128 of 16 KiB pages ...)
					mapping one contiguous block alike */
};
#define PGW_NFLAGS 16
/* Short lower-case names in bit order: "present", "rw", "user", ... */
const char *pgw_flag_name(unsigned bit_index);

/* What a non-present entry means, as Linux writes them. */
enum pgw_np_kind {
	PGW_NP_NONE = 0,     /* all zero: nothing there */
	PGW_NP_PROTNONE,     /* PROT_NONE mapping: frame known, access denied */
	PGW_NP_SWAP,         /* swap entry: type and offset */
	PGW_NP_MIGRATION,    /* migration entry (a swap type above MAX_SWAPFILES) */
	PGW_NP_DEVICE,       /* device-private / exclusive entry */
	PGW_NP_HWPOISON,
	PGW_NP_OTHER,        /* non-zero, not present, none of the above */
	PGW_NP_SWAP_UNKNOWN, /* a swap-family entry (swap, migration ...)
				whose layout the kernel's version does not
				tell: no type or offset is given */
};
/* Stable lower-case key: "none", "protnone", "swap", "migration", "device",
 * "hwpoison", "other", "swap-layout-unknown". */
const char *pgw_np_kind_key(enum pgw_np_kind kind);
/* Whether entries of this kind carry a swap type and offset (swap,
 * migration, device, hwpoison): pgw_entry.swap_type and swap_offset. */
bool pgw_np_kind_numbered(enum pgw_np_kind kind);

enum pgw_entry_kind {
	PGW_ENT_NOT_PRESENT = 0,
	PGW_ENT_TABLE,       /* points to the next level's table */
	PGW_ENT_LEAF,        /* maps a frame of the level's size */
};

/*
 * Memory encryption: bits inside an entry's physical-address field that
 * are attributes of the page, not part of its frame.  AMD SME and SEV put
 * the C-bit there (its position from CPUID 0x8000001F EBX[5:0], 47 or 51
 * on EPYC parts; Linux's sme_me_mask, exported as VMCOREINFO
 * NUMBER(sme_mask)): set means encrypted.  Intel TDX puts the shared bit
 * at the top of the guest physical address (bit 47 or 51): set means
 * shared with the host.  Linux sets them in entries and in CR3 alike
 * (__sme_pa, cc_mkdec) and reads frames without them (__PHYSICAL_MASK).
 * Zero: none.  A decoder removes both from the frame and reports them as
 * PGW_F_ENC and PGW_F_SHARED.
 */
struct pgw_enc_bits {
	uint64_t enc;        /* set: encrypted (AMD C-bit) */
	uint64_t shared;     /* set: shared (TDX) */
	/* Not encryption: the other thing the OS layer knows about entries
	 * that one entry does not say.  Where the kernel puts a swap entry's
	 * type and offset, for decoders whose layout changed across kernel
	 * versions (AArch64); NULL: unknown, and no type or offset is read
	 * from such an entry.  x86's layout is fixed and needs none. */
	const struct pgw_swap_layout *swap;
};

/*
 * A kernel era's swap entries in a mode's non-present leaves (and the
 * block levels' migration entries), as data: pgw_space_open chooses it
 * from the kernel's version (VMCOREINFO OSRELEASE), the decoder only
 * reads it.  Types count up from the swap files to the special ones in
 * Linux's order (include/linux/swap.h): hwpoison, migration, device,
 * then PTE markers up to the top type.
 */
struct pgw_swap_layout {
	const char *name;       /* "arm64-5.19" ...: the first kernel of the era */
	uint64_t zero_bits;     /* bits no swap entry sets (present, PROT_NONE
				   markers): one set is no swap entry */
	uint8_t type_shift, type_bits;
	uint8_t offset_shift, offset_bits;
	uint8_t swapfiles;      /* MAX_SWAPFILES: the first special type */
	uint8_t hwpoison, migration, device;  /* how many types of each */
};

struct pgw_entry {
	/* 64-bit fields first, then 32-bit, then the byte: 64 bytes, no
	 * padding (a batch copies entries by the million). */
	uint64_t raw;
	uint64_t addr;       /* table or frame physical base (masked, without
				encryption bits) */
	uint64_t reserved;   /* reserved bits that are set (an anomaly) */
	/* non-present entries */
	uint64_t np_pfn;     /* PROT_NONE: the real frame (L1TF inversion
				undone, encryption bits removed) */
	uint64_t swap_offset;
	enum pgw_entry_kind kind;
	uint32_t flags;      /* enum pgw_flag bits */
	uint32_t perm;       /* the bits this entry contributes to the mode's
				pgw_perm_rule; a PAE PDPTE restricts nothing:
				RW|USER */
	enum pgw_np_kind np_kind;   /* non-present entries */
	unsigned swap_type;
	uint8_t pkey;        /* protection key (bits 59..62 of a 64-bit
				mode's leaf), 0 if none */
};

struct pgw_level_desc {
	const char *name;     /* "pgd", "p4d", "pud", "pmd", "pte" */
	const char *hw_name;  /* Intel's: "PML4", "PDPT", "PD", "PT" */
	uint8_t shift;        /* lowest VA bit of this level's index */
	uint8_t bits;         /* index width; 0 = folded (passes through) */
	bool leaf_ok;         /* a PS entry may map a page here */
};

enum pgw_mode_quirk {
	PGW_Q_NX          = 1u << 0,  /* bit 63 is NX */
	PGW_Q_PSE36       = 1u << 1,  /* 4 MiB PDEs carry PA bits 32..39 in 13..20 */
	PGW_Q_PDPTE_NOPERM = 1u << 2, /* PAE PDPTEs: no RW/US/A/NX, bits reserved */
	PGW_Q_CANONICAL   = 1u << 3,  /* VA is sign-extended from va_bits-1 */
	PGW_Q_TBI         = 1u << 4,  /* the top byte (bits 56..63) of a VA is
					 ignored (AArch64 TBI0/TBI1: tagged
					 addresses): bit 55 stands for it */
	PGW_Q_LPA2        = 1u << 5,  /* AArch64 52-bit descriptors, 4/16 KiB
					 granules (TCR.DS=1): OA[49:12] in
					 place, OA[51:50] in bits 9..8 */
	PGW_Q_LPA64K      = 1u << 6,  /* AArch64 52-bit descriptors, 64 KiB
					 granule (FEAT_LPA): OA[51:48] in bits
					 15..12 */
};

/*
 * How entries' permission bits combine down a walk into the effective
 * permissions of a page (ptdump's effective_prot): and_bits are granted
 * only when every level grants them, or_bits imposed when any level does.
 * Each entry contributes its pgw_entry.perm (the decoder gives a level
 * that restricts nothing, like a PAE PDPTE, all of and_bits).
 */
struct pgw_perm_rule {
	uint32_t and_bits;     /* x86: PGW_F_RW | PGW_F_USER */
	uint32_t or_bits;      /* x86: PGW_F_NX */
};

/*
 * What says a CPU runs in a mode: the control-register state that selects
 * it (SDM vol. 3, 4.1.1) and the ELF machine of its cores.  Detection
 * iterates the modes and keeps the first whose hints a CPU matches.
 */
struct pgw_mode_hints {
	uint64_t cr4_set;      /* CR4 bits the mode needs set */
	uint64_t cr4_clear;    /* ... and clear */
	bool long_mode;        /* EFER.LMA */
	unsigned elf_machine;  /* ELF e_machine: EM_386 = 3, EM_X86_64 = 62,
				  EM_AARCH64 = 183 */
	unsigned granule;      /* AArch64: the translation granule in bytes
				  (the kernel's PAGESIZE); 0 elsewhere */
};

/*
 * A paging mode as data.  Every table lies inside one page, aligned to its
 * size; a level with bits == 0 is folded.  A mode is one such struct and
 * a decoder: any caller's works with the walker (tests/unit/toy_mode.c),
 * and the ones listed in src/arch/modes.c are also named and detected.
 */
struct pgw_mode {
	const char *name;      /* "i386", "pae", "x86-64", "la57",
				  "arm64-4k-48", ... */
	const char *desc;
	uint8_t entry_size;    /* 4 or 8 bytes */
	uint8_t va_bits;       /* 32, 48, 57 */
	uint8_t phys_bits;     /* highest physical address bits an entry holds */
	uint64_t root_mask;    /* CR3 (TTBR) bits that address the top table */
	unsigned quirks;       /* enum pgw_mode_quirk */
	/*
	 * 0: one root for the whole space.  Else two roots, chosen by this
	 * VA bit (AArch64: 55, TTBR0 below, TTBR1 above), each covering
	 * 2^va_bits bytes: [0, 2^va_bits) from pgw_space.root and
	 * [2^64 - 2^va_bits, 2^64) from pgw_space.root_upper; the VAs
	 * between them are outside the space (non-canonical).
	 */
	uint8_t root_select_bit;
	struct pgw_perm_rule perm;
	struct pgw_mode_hints hints;
	struct pgw_level_desc level[PGW_NLEVELS];
	/* Decode a raw entry at level lvl, enc's bits (NULL: none) being
	 * attributes, not frame bits.  Pure; no image access. */
	void (*decode)(const struct pgw_mode *mode, enum pgw_level lvl,
		       uint64_t raw, const struct pgw_enc_bits *enc,
		       struct pgw_entry *out);
};

const struct pgw_mode *pgw_mode_by_name(const char *name);
/* All modes, NULL-terminated, shallowest first (detection relies on the
 * order: see pgw_detect_mode). */
const struct pgw_mode *const *pgw_modes(void);
/* Levels the mode does not fold (2 for i386, 4 for x86-64). */
unsigned pgw_mode_depth(const struct pgw_mode *mode);
/* "i386", "x86-64", "arm64" for the ELF machines of the modes; "none"
 * for 0, "other" for any other. */
const char *pgw_machine_name(unsigned elf_machine);
/* Whether va lies in the mode's address space (x86-64: is canonical). */
bool pgw_mode_canonical(const struct pgw_mode *mode, uint64_t va);
/* Size mapped by one entry at lvl (a leaf there, or the span of a table). */
uint64_t pgw_level_span(const struct pgw_mode *mode, enum pgw_level lvl);
/* Top-table address a CR3 value selects in this mode (PCID, bit 63 and
 * enc's bits masked; enc may be NULL). */
uint64_t pgw_cr3_table(const struct pgw_mode *mode, uint64_t cr3,
		       const struct pgw_enc_bits *enc);

/* ---- the walker (src/walk/) ------------------------------------------- */

/*
 * One address space: an image, a mode and a root table.  A value the
 * caller owns: build it with pgw_space_open, or fill it directly (zero
 * every field you do not set, as designated initializers do: fields added
 * later keep zero as "none").
 */
struct pgw_space {
	struct pgw_image *img;
	const struct pgw_mode *mode;
	uint64_t root;          /* physical address of the top table */
	struct pgw_enc_bits enc;/* memory-encryption bits of its entries */
	/* Modes with two roots (pgw_mode.root_select_bit): the top table of
	 * the upper half (AArch64 TTBR1); root is the lower half's (TTBR0).
	 * In such a mode a root of 0 means that half has no table: its
	 * addresses stop not-present at the top level, as a CPU's with
	 * TCR_EL1.EPDn set. */
	uint64_t root_upper;
};

/*
 * Why a walk stopped short of a frame: the one vocabulary translate
 * (pgw_xlat.stop), range walks (pgw_hole.stop) and runs (pgw_run.stop)
 * share.  Each has a stable short key (pgw_stop_key, the name in quotes
 * below) and a human text (pgw_stop_text).
 */
enum pgw_stop {
	PGW_STOP_OK = 0,             /* "ok": a frame was reached */
	PGW_STOP_NOT_PRESENT,        /* "not-present": an entry on the path is
					not present (or empty) */
	PGW_STOP_NONCANONICAL,       /* "non-canonical": the VA lies outside the
					mode's address space (the x86-64
					canonical gap) */
	PGW_STOP_RESERVED,           /* "reserved-bits": an entry on the path has
					reserved bits set */
	PGW_STOP_TABLE_NOT_IN_IMAGE, /* "table-not-in-image": the next table's
					page is not in the image (filtered out,
					outside its ranges) */
	PGW_STOP_TABLE_BEYOND_MEMORY,/* "table-beyond-memory": the next table
					lies past the end of physical memory: a
					corrupt entry, not a filtered page */
	PGW_STOP_CYCLE,              /* "cycle": the entry points at a table
					already on the walk's path (range walks;
					translate follows it as the CPU does) */
	PGW_STOP_BAD_LEAF,           /* "bad-leaf": a table entry at a level
					with no level below it */
	PGW_STOP_READ_ERROR,         /* "read-error": the image could not be
					read (detail in pgw_xlat.io or the
					walk's error) */
	PGW_STOP_BEYOND_SPACE,       /* "beyond-address-space": the VA lies
					above the top of a mode without a
					canonical gap (i386 and PAE: at or
					above 4 GiB) */
};
#define PGW_NSTOPS 10
const char *pgw_stop_key(enum pgw_stop stop);
const char *pgw_stop_text(enum pgw_stop stop);

/* One level as the walk saw it. */
struct pgw_step {
	uint64_t table;         /* physical address of the table read */
	uint64_t entry_pa;      /* physical address of the entry */
	enum pgw_level level;
	unsigned index;
	bool read_ok;           /* false: the table page is not in the image */
	struct pgw_entry entry; /* valid when read_ok */
};

struct pgw_xlat {
	uint64_t va;
	enum pgw_stop stop;     /* PGW_STOP_OK: pa is the answer */
	enum pgw_level level;   /* leaf level, or where the walk stopped */
	uint64_t pa;            /* physical address of va (OK only) */
	uint64_t page_size;     /* size of the leaf page (OK only) */
	bool data_in_image;     /* the final frame's data is in the image */
	enum pgw_absence data_absence;  /* if not, why (OK only) */
	enum pgw_absence table_absence; /* stops TABLE_NOT_IN_IMAGE and
					   TABLE_BEYOND_MEMORY: why the
					   table's page is not in the image
					   (pgw_xlat_error says more) */
	uint32_t eff_flags;     /* effective permissions (the mode's perm rule:
				   x86 ANDs USER/RW down the levels, ORs NX) */
	unsigned nsteps;
	struct pgw_step step[PGW_NLEVELS];
};

struct pgw_xlat_cache;

/*
 * Translate one address, every level's step reported.  Always fills
 * out; returns out->stop.  Through cache (pgw_xlat_cache_new; NULL: none,
 * walked from the root) the answer is the same byte for byte, the
 * remembered steps copied into out: for a batch that shows every level.
 * One that wants only answers asks pgw_translate_many.
 */
enum pgw_stop pgw_translate(const struct pgw_space *space,
			    struct pgw_xlat_cache *cache, uint64_t va,
			    struct pgw_xlat *out);

/*
 * Why the walk in x could not read its last table (stops READ_ERROR,
 * TABLE_NOT_IN_IMAGE and TABLE_BEYOND_MEMORY): the image's own message
 * ("physical 0x1f000: page excluded from the dump (filtered, dump level
 * 31)"), made when asked by reading that page again (an image never
 * changes), so that a translation carries no message.  PGW_OK, err
 * untouched, for any other stop.
 */
enum pgw_status pgw_xlat_error(const struct pgw_space *space,
			       const struct pgw_xlat *x, struct pgw_err *err);

/*
 * An answer without its walk, what a batch wants of each address: 64
 * bytes where a pgw_xlat is 536.  The fields are pgw_xlat's of the same
 * names, the leaf entry's flags and pkey, and the non-present details of
 * the entry a NOT_PRESENT walk stopped at; every field that does not
 * apply is 0.
 */
struct pgw_answer {
	uint64_t pa;            /* OK: the physical address of va */
	uint64_t page_size;     /* OK: the leaf's size */
	uint64_t np_pfn;        /* NOT_PRESENT, PGW_NP_PROTNONE: the frame */
	uint64_t swap_offset;   /* NOT_PRESENT, the swap family */
	enum pgw_stop stop;
	enum pgw_level level;   /* the leaf's level, or where the walk stopped */
	enum pgw_absence absence;  /* OK: why the frame's data is not in the
				      image (NONE: it is); TABLE_NOT_IN_IMAGE,
				      TABLE_BEYOND_MEMORY: why the table is
				      not */
	uint32_t flags;         /* OK: the leaf entry's own flags */
	uint32_t eff_flags;     /* OK: effective permissions */
	enum pgw_np_kind np_kind;  /* NOT_PRESENT: what the entry means */
	unsigned swap_type;     /* NOT_PRESENT, the swap family */
	uint8_t pkey;           /* OK: the leaf's protection key */
};

/* The answer of a translation (pgw_translate's). */
void pgw_xlat_answer(const struct pgw_xlat *x, struct pgw_answer *a_ret);

/*
 * A paging-structure cache for batches of addresses, like the CPU's: for
 * each level above the last, the walk down to that level remembered per
 * span one of its entries maps (x86-64: 512 GiB, 1 GiB and 2 MiB; i386:
 * 4 MiB), so an address near an earlier one reads only its last-level
 * entry, and one in a hole met before (of any size) at most one.
 * Entries read from an image never change; the cache empties itself when
 * used with another image (one opened where a closed one was, too),
 * mode, root or encryption mask.  Fixed size (about 750 KiB, touched as
 * used), one per caller; NULL when out of memory.
 */
struct pgw_xlat_cache *pgw_xlat_cache_new(void);
void pgw_xlat_cache_free(struct pgw_xlat_cache *cache);

/*
 * The answers of va[0 .. n-1], in order, into out[0 .. n-1]: each the
 * pgw_xlat_answer of pgw_translate's walk.  Through cache (NULL: every
 * address walked from the root), and without the walk where the cache
 * holds it: the usual address of a batch (one of a page or a hole met
 * before) costs a look into the cache and one entry read, two thirds of
 * a walk through the cache that reports its steps.
 */
void pgw_translate_many(const struct pgw_space *space,
			struct pgw_xlat_cache *cache, const uint64_t *va,
			size_t n, struct pgw_answer *out);

/* ---- virtual memory ---------------------------------------------------- */

/*
 * Copy len bytes of virtual memory from va through space, page by page
 * (4 KiB, 2 MiB, 1 GiB or 4 MiB pages alike).  It stops at the first byte
 * it cannot read: PGW_E_UNMAPPED when the address does not translate (the
 * message says why: not present, non-canonical, page table not in image,
 * reserved bits ... and at which level), PGW_E_NODATA with err->absence
 * set when the data page is not in the image (never zeros).  *done_ret
 * (may be NULL) says how many bytes were copied, also on failure.
 */
enum pgw_status pgw_read_virt(const struct pgw_space *space, uint64_t va,
			      void *buf, size_t len, size_t *done_ret,
			      struct pgw_err *err);

/*
 * What cannot be read at va, and how far that goes, so a reader that
 * carries on (pgwalk read --skip-unreadable) skips it in one step: stop
 * PGW_STOP_OK with absence set is a mapped frame the image lacks (pa is
 * va's physical address; the gap is its 4 KiB page); any other stop is
 * why va does not translate, the gap every address the stopping entry
 * (or the missing table, at `level`) covers.  False when va can be read.
 */
struct pgw_read_gap {
	uint64_t va;
	uint64_t end;           /* exclusive; 0 means 2^64 */
	enum pgw_stop stop;
	enum pgw_level level;   /* where the walk stopped, or the leaf */
	uint64_t pa;            /* PGW_STOP_OK: the frame's address of va */
	enum pgw_absence absence;  /* data or table not in the image: why */
};
bool pgw_read_gap(const struct pgw_space *space, uint64_t va,
		  struct pgw_read_gap *gap_ret);

/* ---- range walk -------------------------------------------------------- */

/* A present leaf mapping found by a range walk. */
struct pgw_leaf {
	uint64_t va;            /* start of the page */
	uint64_t pa;
	uint64_t size;
	enum pgw_level level;
	struct pgw_entry entry; /* the leaf entry itself */
	uint32_t eff_flags;     /* effective permissions down the levels */
	uint64_t reserved;      /* reserved bits set on any entry of the path */
	/*
	 * Pages of `size` from va that all map the one frame pa: 1 for an
	 * ordinary leaf; more when a shared table that maps one frame
	 * everywhere (KASAN's shadow, a hostile image) is met again and its
	 * whole span is reported at once (see expand_shared).
	 */
	uint64_t count;
};

struct pgw_hole {
	uint64_t va;
	uint64_t end;           /* exclusive; 0 means 2^64 */
	enum pgw_level level;   /* where nothing was found */
	enum pgw_stop stop;     /* why (never PGW_STOP_OK or READ_ERROR: a
				   table that cannot be read for another
				   reason than absence ends the walk) */
	uint64_t entry_pa;      /* the entry responsible (not for NONCANONICAL) */
	struct pgw_entry entry; /* that entry, decoded (np_kind for evidence) */
	enum pgw_absence absence; /* TABLE_NOT_IN_IMAGE and TABLE_BEYOND_MEMORY:
				     why the table's page is not in the image
				     (the failed read's err.absence) */
};

/* Return 0 to go on, non-zero to stop the walk (PGW_E_STOPPED, the value in
 * *stopped_ret). */
struct pgw_walk_ops {
	int (*leaf)(void *arg, const struct pgw_leaf *leaf);
	/* Holes are reported per entry; callers coalesce. */
	int (*hole)(void *arg, const struct pgw_hole *hole);
	/* A table about to be walked for level lvl, covering VAs from va. */
	int (*table)(void *arg, enum pgw_level lvl, uint64_t table_pa,
		     uint64_t va);
};

struct pgw_walk_opts {
	uint64_t start;         /* inclusive */
	uint64_t end;           /* exclusive; 0 means 2^64 (or the mode's top) */
	uint64_t max_entries;   /* entry budget; 0 = default */
	/* Report every page of a shared uniform table as its own leaf (each
	 * counting against the budget) instead of one repeated leaf. */
	bool expand_shared;
};
/*
 * Default entry budget: the larger of
 *  - 2^20 + 2^12 = 1052672, just above the largest walk a 32-bit space can
 *    need (a fully populated PAE space is 1050628 entries, i386 1049600),
 *    so no 32-bit walk ever hits it, while small hostile images whose
 *    tables share or loop to 2^27 and more entries stop in well under a
 *    second (man pgwalk, LIMITS); and
 *  - 512 entries per page whose data the file holds
 *    (pgw_image_held_pages: not what headers claim, not a sparse file's
 *    holes): the most a walk can examine that reads each page as a table
 *    at most once, so a big machine's real address spaces never hit it.
 *    Only tables walked again and again (shared, or hostile) can, and
 *    shared tables that map one frame everywhere are reported at once
 *    instead (see pgw_leaf.count).
 */
#define PGW_DEFAULT_MAX_ENTRIES ((UINT64_C(1) << 20) + (UINT64_C(1) << 12))
#define PGW_BUDGET_ENTRIES_PER_PAGE 512
uint64_t pgw_default_budget(struct pgw_image *img);

struct pgw_walk_stats {
	uint64_t entries;       /* entries examined */
	uint64_t tables;        /* tables read */
	uint64_t leaves;
	uint64_t cycles;
	uint64_t shared;        /* shared uniform tables reported at once */
};

/*
 * Walk [start, end) in address order, calling ops for every leaf and hole.
 * Returns PGW_OK, PGW_E_LIMIT when the budget ran out, PGW_E_STOPPED when
 * a callback asked to stop (*stopped_ret is its value), or the error of a
 * table page that could not be read for another reason than absence.
 */
enum pgw_status pgw_walk_range(const struct pgw_space *space,
			       const struct pgw_walk_opts *opts,
			       const struct pgw_walk_ops *ops, void *arg,
			       struct pgw_walk_stats *stats_ret, int *stopped_ret,
			       struct pgw_err *err);

/*
 * Work on many spaces of one image (walks of every root) on the image's
 * threads (pgw_image_open_opts.threads): run(arg, i, space, err) for
 * each i in [0, n), in a worker, with spaces[i] on an image of the
 * worker's own (it may read the image, nothing run shares); then, in the
 * calling thread and in order, merge(arg, i, status, err) with run's
 * result as soon as runs 0 .. i are done; a non-zero merge stops (runs
 * after it are dropped, merged no more).  On one thread, or when no
 * worker can start, each run and merge happen in turn in the calling
 * thread with spaces[i] itself.  Returns PGW_OK (every run merged, or a
 * merge stopped) or PGW_E_NOMEM.
 */
struct pgw_space_jobs {
	const struct pgw_space *spaces;   /* n of them, all on one image */
	size_t n;
	/* (The return type on a line of its own: tests/cli/install.t
	 * reads a name followed by a parenthesis as a function's.) */
	enum pgw_status
	(*run)(void *arg, size_t i, const struct pgw_space *space,
	       struct pgw_err *err);
	int (*merge)(void *arg, size_t i, enum pgw_status st,
		     const struct pgw_err *err);
	void *arg;
};
enum pgw_status pgw_space_jobs_run(const struct pgw_space_jobs *jobs,
				   struct pgw_err *err);

/* ---- reverse map: physical -> virtual (src/walk/rmap.c) --------------- */

/*
 * Every virtual address that maps a physical address, in the spaces added.
 * Build: pgw_rmap_new, then pgw_rmap_add once per space (one range walk
 * each; `owner` is the caller's name for the space, returned with each
 * hit), then pgw_rmap_finish; then look up as many addresses as you like
 * (each a binary descent plus a step per hit).  Memory: one small record
 * per run of leaves whose VA and PA run on together.
 */
struct pgw_rmap;

struct pgw_rmap_hit {
	uint32_t owner;          /* as given to pgw_rmap_add */
	uint64_t pa;             /* the address looked up */
	uint64_t va;             /* a virtual address that maps it */
	uint64_t page_size;
	/* > 1: a shared table mapping one frame everywhere (pgw_leaf.count):
	 * va and each of the next pages - 1 pages of page_size after it map
	 * pa */
	uint64_t pages;
	enum pgw_level level;
	uint32_t flags;          /* the leaf entry's own bits */
	uint32_t eff_flags;      /* effective permissions down the levels */
	/* A PROT_NONE entry (a pte or a huge pmd): not present to the CPU,
	 * every access faults, but it holds the frame, as the kernel's
	 * pte_present() and rmap count it (flags and eff_flags 0). */
	bool protnone;
};

struct pgw_rmap_stats {
	uint64_t ranges;         /* records kept */
	uint64_t tables_not_in_image;  /* holes where a table the image lacks
					  hid what it maps */
	uint64_t budget_stops;   /* spaces whose walk the budget cut short */
};

enum pgw_status pgw_rmap_new(struct pgw_rmap **rm_ret, struct pgw_err *err);
/*
 * Walk [opts->start, opts->end) of space and add its leaves.  Returns
 * PGW_OK, PGW_E_LIMIT when the budget cut the walk (what it saw is kept;
 * the stats count it), or the walk's or the allocation's error.
 */
enum pgw_status pgw_rmap_add(struct pgw_rmap *rm,
			     const struct pgw_space *space,
			     const struct pgw_walk_opts *opts, uint32_t owner,
			     struct pgw_walk_stats *stats_ret,
			     struct pgw_err *err);
/*
 * Move what was added to from into rm, after what rm holds, as if from's
 * spaces had been added to rm then (its counts too); from is left empty.
 * PGW_OK or PGW_E_NOMEM (then nothing moved).  For maps built apart, on
 * threads (pgw_space_jobs_run), and put together in order.
 */
enum pgw_status pgw_rmap_take(struct pgw_rmap *rm, struct pgw_rmap *from,
			      struct pgw_err *err);
/* Index what was added (needed before lookups; cheap to repeat). */
void pgw_rmap_finish(struct pgw_rmap *rm);
/*
 * The mappings of pa, by owner then va, in hits[0 .. max); returns how
 * many there are (more than max: call again with room for them all).
 */
size_t pgw_rmap_lookup(const struct pgw_rmap *rm, uint64_t pa,
		       struct pgw_rmap_hit *hits, size_t max);
void pgw_rmap_stats(const struct pgw_rmap *rm,
		    struct pgw_rmap_stats *stats_ret);
void pgw_rmap_free(struct pgw_rmap *rm);

/* ---- search: patterns in memory (src/walk/search.c, patterns.c) ------ */

/*
 * Bytes, hex with ?? for any byte, POSIX extended regular expressions and
 * YARA rules, looked for in one address space in address order (its
 * PROT_NONE pages too: Linux still knows their frames; a match may run
 * across pages that follow one another virtually, whatever their frames)
 * or in physical memory, every frame the image describes once.  A page
 * the image lacks is counted by its absence reason, never searched as
 * zeros.  Patterns are compiled once (pgw_patterns_add) and may serve
 * many searches; a search reads them, never changes them.
 */
enum pgw_pattern_kind {
	PGW_PATTERN_STRING,      /* these bytes, as given */
	PGW_PATTERN_WIDE,        /* a string as UTF-16LE: each byte, then 0 */
	PGW_PATTERN_HEX,         /* hex pairs, ?? any byte, spaces between */
	PGW_PATTERN_REGEX,       /* POSIX ERE over bytes (the C locale) */
	PGW_PATTERN_YARA,        /* the path of a YARA rules file */
};
/* The longest string or hex pattern, in bytes; the longest match of a
 * regular expression (each is tried on windows of twice this many bytes,
 * so none costs more than a window's work a byte); YARA conditions hold
 * over 256 KiB of memory whose pages follow one another at a time. */
#define PGW_PATTERN_MAX 4096
#define PGW_REGEX_MAX 1024
/* The most context a hit carries on each side of its match. */
#define PGW_SEARCH_CONTEXT_MAX 4096

struct pgw_patterns;

enum pgw_status pgw_patterns_new(struct pgw_patterns **pat_ret,
				 struct pgw_err *err);
/*
 * Compile text (copied) as kind and append it; hits name it by its index,
 * in the order added.  PGW_E_ARG when it is no pattern (err->msg says why:
 * "is empty", "is longer than 4096 bytes", ...); for YARA (libyara,
 * loaded with dlopen at the first rules), PGW_E_UNSUPPORTED without
 * libyara, PGW_E_IO (errnum) when the file cannot be opened, PGW_E_ARG
 * when the rules do not compile (libyara's first message and the count).
 */
enum pgw_status pgw_patterns_add(struct pgw_patterns *pat,
				 enum pgw_pattern_kind kind, const char *text,
				 struct pgw_err *err);
size_t pgw_patterns_count(const struct pgw_patterns *pat);
/* "string", "wide", "hex", "regex", "yara": how a hit names its kind. */
const char *pgw_pattern_kind_key(enum pgw_pattern_kind kind);
void pgw_patterns_free(struct pgw_patterns *pat);

struct pgw_search_opts {
	/* A space's stretch, [start, end) (end 0: the top), and the walk's
	 * entry budget (0: the default); unused for physical memory. */
	uint64_t start, end;
	uint64_t max_entries;
	size_t context;          /* bytes before and after each match to
				    give (at most PGW_SEARCH_CONTEXT_MAX) */
	uint64_t max_hits;       /* give at most this many (0: all); the
				    rest are only counted */
};

struct pgw_search_hit {
	uint64_t addr;           /* where it starts: the va in a space, the
				    pa in physical memory */
	uint64_t pa;             /* its first byte's physical address */
	size_t pattern;          /* its pattern's index */
	enum pgw_pattern_kind kind;
	const char *text;        /* the pattern as added */
	const char *rule, *rule_string;   /* a YARA match: its rule's and
					     string's names; else NULL */
	const uint8_t *match;    /* the bytes matched, as far as they can be
				    read again (size may be short of the
				    match when a page went since) */
	size_t size;
	uint64_t context_start;  /* the address (as addr) of context[0] */
	const uint8_t *context;  /* context bytes before, the match, and
				    after, as far as they can be read */
	size_t context_len;
	size_t before;           /* of them, the bytes before the match */
	/* > 1: a shared table maps this frame at this many pages of
	 * page_size from the leaf's va; its first page alone is searched */
	uint64_t same_frame_pages;
	uint64_t page_size;
};

struct pgw_search_stats {
	uint64_t hits;           /* every match found */
	uint64_t given;          /* of them, given (opts.max_hits) */
	uint64_t bytes_searched;
	uint64_t not_in_image[PGW_NABSENCES];   /* bytes, by reason */
	uint64_t tables_not_in_image;  /* holes under a table the image
					  lacks: what they map is unknown */
};

/*
 * Search space (NULL: physical memory) of img for every pattern; fn gets
 * each hit in address order (pointers valid during the call) and returns
 * 0 to go on, non-zero to stop.  Returns PGW_OK, PGW_E_LIMIT when the
 * entry budget cut the walk (the rest was not searched), PGW_E_STOPPED,
 * PGW_E_NOMEM when matches were lost, PGW_E_UNSUPPORTED when libyara
 * could not scan, or the walk's error; stats_ret (may be NULL) is filled
 * in every case.
 */
typedef int (*pgw_search_fn)(void *arg, const struct pgw_search_hit *hit);
enum pgw_status pgw_search(const struct pgw_patterns *pat,
			   struct pgw_image *img,
			   const struct pgw_space *space,
			   const struct pgw_search_opts *opts,
			   pgw_search_fn fn, void *arg,
			   struct pgw_search_stats *stats_ret,
			   struct pgw_err *err);

/* ---- Linux policy (src/linux/): modes, roots, spaces, layouts --------- */

/*
 * Mode detection: which mode, and the rule that decided.  The rules, first
 * that applies: the CPUs with paging on whose registers match a mode's
 * hints (all of them, and VMCOREINFO's explicit pgtable_l5_enabled or
 * CONFIG_X86_PAE, must agree; see pgw_mode_choice.conflict); VMCOREINFO
 * (pgtable_l5_enabled, CONFIG_X86_PAE, the width of the kernel root
 * symbol); with root_hint, a validation walk among the
 * ELF machine's modes (all for raw images) keeping the one under which a
 * direct map is consistent; the ELF machine's shallowest mode.
 */
enum pgw_mode_rule {
	PGW_MODE_NAMED = 0,      /* the caller named it */
	PGW_MODE_CPU,            /* a CPU's registers */
	PGW_MODE_VMCOREINFO,     /* VMCOREINFO */
	PGW_MODE_VALIDATION,     /* a validation walk from the root hint */
	PGW_MODE_MACHINE,        /* only the ELF machine: its shallowest mode,
				    assumed */
	PGW_MODE_SCAN,           /* the kernel-root scan (pgw_space_open) */
};
struct pgw_mode_choice {
	const struct pgw_mode *mode;
	enum pgw_mode_rule rule;
	char why[256];
	/* Non-empty when sources disagree (one CPU's registers against the
	 * others' or VMCOREINFO's): who said what.  The mode is then the
	 * majority's (ties: the mode a validation walk from the first CPU's
	 * CR3 confirms, else VMCOREINFO's) and why says so. */
	char conflict[256];
};
struct pgw_enc_choice;
/* enc: the memory-encryption bits declared so far (NULL: none); the
 * validation walk infers a C-bit not declared (source PGW_ENC_NONE) in
 * each mode it tries, see pgw_enc_infer. */
enum pgw_status pgw_detect_mode(struct pgw_image *img, uint64_t root_hint,
				bool have_root_hint,
				const struct pgw_enc_choice *enc,
				struct pgw_mode_choice *choice_ret,
				struct pgw_err *err);

/*
 * Find the kernel direct map: the linear mapping of physical 0 upward at a
 * 2 MiB-aligned base in the upper half (64-bit modes: the first such leaf
 * a bounded walk meets) or at one of the 32-bit PAGE_OFFSETs, confirmed by
 * sample addresses.  Used to validate a guessed mode and to infer
 * page_offset_base (KASLR).
 */
bool pgw_find_direct_map(const struct pgw_space *space, uint64_t *base_ret,
			 unsigned *matches_ret);
/* How many sample addresses it checks in this image: 5 in low memory,
 * and on larger machines up to 6 more, those of 1, 4, 16, 64, 256 GiB
 * and 1 TiB that lie in the image's physical ranges; 3 must map
 * linearly. */
unsigned pgw_direct_map_samples(struct pgw_image *img);

/* PTI: does `table` look like the user copy of a top table? */
struct pgw_pti {
	bool is_user_root;
	uint64_t kernel_table;      /* the kernel copy paired with it */
	unsigned user_kernel_half;  /* present kernel-half entries: user copy */
	unsigned kernel_kernel_half;/* and kernel copy */
};
void pgw_pti_check(struct pgw_image *img, const struct pgw_mode *mode,
		   const struct pgw_enc_bits *enc, uint64_t table,
		   struct pgw_pti *pti_ret);

/* A task's comm (TASK_COMM_LEN is 16; room for a kernel that grows it). */
#define PGW_TASK_COMM_MAX 64

/* Roots: where a walk starts. */
enum pgw_root_source {
	PGW_ROOT_CR3_OPTION,   /* --cr3 */
	PGW_ROOT_CPU,          /* --cpu=N, from the image's notes */
	PGW_ROOT_VMCOREINFO,   /* kernel root symbol via phys_base */
	PGW_ROOT_CPU0,         /* fallback: CPU 0's CR3 */
	PGW_ROOT_TABLE,        /* --root: a top table's address */
	PGW_ROOT_TASK,         /* --pid, --comm: the task's mm->pgd, from the
				  task list */
	PGW_ROOT_SCAN,         /* the kernel root found by the kernel-root
				  scan (pgw_space_open, without VMCOREINFO) */
	PGW_ROOT_TTBR_OPTION,  /* --ttbr0, --ttbr1 (modes with two roots) */
};

struct pgw_root {
	uint64_t cr3;          /* value as given or read (PCID etc. intact) */
	uint64_t table;        /* physical address of the top table */
	enum pgw_root_source source;
	int cpu;               /* for PGW_ROOT_CPU / CPU0 */
	int32_t pid;           /* for PGW_ROOT_TASK */
	uint8_t comm[PGW_TASK_COMM_MAX]; /* for PGW_ROOT_TASK: its comm, raw
					    bytes, NUL-padded */
	size_t comm_len;
	char why[256];         /* "CPU 1 CR3 0x295e000", "SYMBOL(init_top_pgt)..."
				  (a comm in it is escaped: \xNN) */
	/* Modes with two roots (pgw_mode.root_select_bit): each half's top
	 * table, 0 for none (pgw_space.root and root_upper).  table is the
	 * one the request named: the kernel's is the upper, a process's
	 * (--root, --pid, --comm) the lower, with the kernel's above it. */
	uint64_t lower, upper;
};

/* Which root; all zero asks for the kernel's own (else CPU 0's). */
struct pgw_root_request {
	bool have_cr3;
	uint64_t cr3;
	bool have_cpu;
	unsigned cpu;          /* with have_cpu: that CPU's CR3 */
	bool kernel_half;      /* PTI: use the kernel root paired with a user CR3 */
	bool have_table;
	uint64_t table;        /* with have_table: this top table (--root: an
				  address `roots` lists; no PCID bits) */
	bool have_pid;
	int32_t pid;           /* with have_pid: the root of this process */
	const char *comm;      /* non-NULL: the root of the one process whose
				  comm is this (raw bytes) */
	bool kernel;           /* the kernel's own root (VMCOREINFO's; from
				  pgw_space_open also one found by scan),
				  never a CPU's CR3 */
	/* Modes with two roots: TTBR0_EL1 and TTBR1_EL1 values (ASID and
	 * CnP ignored).  One alone keeps the other half: TTBR1 the kernel's,
	 * TTBR0 none. */
	bool have_ttbr0, have_ttbr1;
	uint64_t ttbr0, ttbr1;
	struct pgw_enc_bits enc;  /* cleared from the CR3 and the entries read
				     (pgw_space_open fills it in) */
	/* A process's root (pid, comm, arm64's --cpu) reads the task list:
	 * kept here for the caller's later asks (NULL: read and dropped). */
	struct pgw_linux_kernel *kernel_memo;
};

/*
 * The root req asks for, in mode: --cr3, --cpu, --root, a process (pid or
 * comm: its mm->pgd, read through the kernel root's space with
 * pgw_linux_tasks), else the kernel's own from VMCOREINFO, else (unless
 * req->kernel) CPU 0's CR3.  It never scans: without VMCOREINFO a
 * process or the kernel root needs pgw_space_open.  PGW_E_NOTFOUND when
 * there is none (no such process, a kernel thread, an ambiguous comm, no
 * task list: the message says which) or its top table is not in the
 * image, PGW_E_ARG when kernel_half is asked of a table that is no PTI
 * user copy or --root is no top table's address.
 */
enum pgw_status pgw_root_resolve(struct pgw_image *img,
				 const struct pgw_mode *mode,
				 const struct pgw_root_request *req,
				 struct pgw_root *root_ret, struct pgw_err *err);

/*
 * Memory encryption (struct pgw_enc_bits): where the bits come from, in
 * order: the caller (--sme-mask, --shared-mask), VMCOREINFO
 * NUMBER(sme_mask) (Linux 4.14+ exports it on every x86-64 kernel, 0
 * without SME), else the page tables themselves (pgw_enc_infer).  Each
 * must be one bit of the address field (12..51) or 0.
 */
enum pgw_enc_source {
	PGW_ENC_NONE = 0,        /* "none": nothing declared or inferred */
	PGW_ENC_OPTION,          /* "option": the caller's */
	PGW_ENC_VMCOREINFO,      /* "vmcoreinfo": NUMBER(sme_mask) */
	PGW_ENC_INFERRED,        /* "inferred": from the page tables */
};
const char *pgw_enc_source_key(enum pgw_enc_source src);

/* What the caller knows; have_* false: not given. */
struct pgw_enc_request {
	bool have_enc;
	uint64_t enc;            /* the C-bit mask (--sme-mask; 0: none) */
	bool have_shared;
	uint64_t shared;         /* TDX's shared bit (--shared-mask) */
};

struct pgw_enc_choice {
	struct pgw_enc_bits bits;
	enum pgw_enc_source source;        /* of bits.enc */
	enum pgw_enc_source shared_source; /* of bits.shared: NONE or OPTION */
	/* Inference: present entries examined, and of them how many had
	 * the bit it found set. */
	uint64_t examined, agreed;
	char why[256];
};

/*
 * Infer the C-bit from the tables under cr3 (a CR3 value or a top
 * table's address) in mode: one bit above the image's memory (so never
 * needed to address it) that is set in at least 7/8 of the present
 * entries of the top table and the tables below it (at most
 * PGW_ENC_INFER_TABLES tables read), with which the tables those entries
 * point to are in the image, and no second such bit in half of them (at
 * least 16 present entries).  A CR3 whose table is not in the image may
 * carry the bit itself.  ch->bits.shared, a caller's shared bit, is kept
 * and never a candidate.  Cheap and bounded; true and ch->bits.enc,
 * source (PGW_ENC_INFERRED), examined and agreed filled when it finds
 * one, else false; either way what was seen is appended to ch->why.
 * 64-bit long modes only.
 */
#define PGW_ENC_INFER_TABLES 64
bool pgw_enc_infer(struct pgw_image *img, const struct pgw_mode *mode,
		   uint64_t cr3, struct pgw_enc_choice *ch);

/*
 * The kernel keeps its VMCOREINFO text twice (kernel/crash_core.c): in a
 * zeroed page it appends "KEY=value\n" lines to (vmcoreinfo_data), and
 * copied into an ELF note (vmcoreinfo_note, page aligned: a 12-byte
 * header, the name "VMCOREINFO", the text at byte 24) that /proc/vmcore
 * and QEMU's vmcoreinfo device export.  Both begin "OSRELEASE=".  Memory
 * may hold more than one kernel's (a kdump capture kernel's and the
 * crashed kernel's; a forged page): pgw_vmcoreinfo_find_in_memory lists
 * every candidate and chooses by evidence.
 */
enum pgw_vmci_place {
	PGW_VMCI_NOTE = 0,       /* "note": the ELF note */
	PGW_VMCI_DATA,           /* "data": the page the kernel appends to */
};

struct pgw_vmci_candidate {
	uint64_t pa;             /* the note's header, or the data page */
	enum pgw_vmci_place place;
	bool valid;
	bool chosen;             /* the one adopted */
	/* Valid ones: the kernel root its facts name, and the evidence for
	 * it: CPUs whose CR3 selects that root (or its PTI user copy), and
	 * CPUs on other roots that map its _stext where it does. */
	uint64_t kernel_root;
	unsigned cpus_on_root, cpus_map_text;
	char why[200];           /* what validated it, or why it was rejected
				    ("PAGESIZE=8192, not 4096") */
};
#define PGW_VMCI_MAX_LISTED 16

/*
 * What pgw_space_open's scans of every page found, for a caller to keep
 * and give back (pgw_space_request.hint) when it opens the same image
 * again: the pages where the facts lie, not the facts.  A hint only
 * narrows where to look: the pages are read and checked again as the
 * scan checks them, and unless that gives the verdicts the hint records
 * (every VMCOREINFO page still begins like one and is valid or not as it
 * was; the kernel root is still the one valid table), the hint is
 * dropped and every page is scanned.  What it cannot check is that no
 * other page would be found: a caller gives it back only for an image
 * whose identity (size, mtime, bytes) is unchanged.
 */
struct pgw_facts_hint {
	/* VMCOREINFO in memory: every page that began like it (0 when more
	 * than PGW_VMCI_MAX_LISTED did, or none), in address order, and
	 * whether each was valid. */
	size_t nvmci;
	uint64_t vmci_pa[PGW_VMCI_MAX_LISTED];
	bool vmci_valid[PGW_VMCI_MAX_LISTED];
	/* The kernel-root scan, asked for kroot_asked (NULL: any mode) with
	 * kroot_enc, found kroot, the only valid table, under kroot_mode. */
	bool have_kroot;
	const struct pgw_mode *kroot_asked;
	struct pgw_enc_bits kroot_enc;
	uint64_t kroot;
	const struct pgw_mode *kroot_mode;
};

/*
 * What a caller asks of pgw_space_open.  Zero-initialise it and set what
 * is known; every field left zero is "not asked" (detect, choose).
 */
struct pgw_space_request {
	const char *mode;              /* a mode name; NULL: detect it */
	struct pgw_root_request root;  /* --cr3 (also the validation walk's
					  root), --cpu, PTI kernel half */
	struct pgw_enc_request enc;    /* --sme-mask, --shared-mask */
	/* --vmcoreinfo=PA: adopt the VMCOREINFO found in memory at PA (a
	 * candidate `info` lists), even over the image's own note. */
	bool have_vmcoreinfo_pa;
	uint64_t vmcoreinfo_pa;
	/* Where earlier scans of this image found the facts (a cache of
	 * them): NULL, or pages to look at instead of every page, each
	 * checked again as the scan checks it (pgw_facts_hint). */
	const struct pgw_facts_hint *hint;
};

/*
 * Where the kernel's facts (VMCOREINFO: mode, kernel root, phys_base,
 * KASLR offset, layout) came from.  pgw_space_open looks for them in
 * memory only when the image's note is missing or damaged and the mode or
 * the root cannot be had without them.
 */
enum pgw_facts_source {
	PGW_FACTS_UNCHECKED = 0, /* not needed: nothing was looked for */
	PGW_FACTS_NOTE,          /* the image's VMCOREINFO note */
	PGW_FACTS_MEMORY,        /* VMCOREINFO text found in memory and adopted
				    (pgw_vmcoreinfo_find_in_memory) */
	PGW_FACTS_NONE,          /* none in the image or in memory */
};
struct pgw_facts_why {
	enum pgw_facts_source source;
	uint64_t pa;             /* PGW_FACTS_MEMORY: where it was found */
	bool note_damaged;       /* the image has a note that did not validate */
	bool kernel_root_scanned;/* pgw_kernel_root_scan ran (mode or root) */
	char why[320];
	/* Memory searched: every candidate (the first PGW_VMCI_MAX_LISTED),
	 * and whether valid ones name different kernel roots. */
	size_t ncandidates, nlisted;
	struct pgw_vmci_candidate cand[PGW_VMCI_MAX_LISTED];
	bool conflict;
	char choice[320];        /* which was adopted and why */
	/* The scans' finds, to give back as a hint (nothing: no scan ran,
	 * or found nothing a hint can hold), and which hint held. */
	struct pgw_facts_hint found;
	bool vmci_hinted, kroot_hinted;
};

/* How a space was chosen, for saying so. */
struct pgw_space_why {
	struct pgw_mode_choice mode;   /* the mode and the rule that chose it */
	struct pgw_root root;          /* the root, its source and why */
	struct pgw_enc_choice enc;     /* the encryption bits and why */
	struct pgw_facts_why facts;    /* the kernel's facts, if looked for */
};

/*
 * Choose the encryption bits (req->enc, else VMCOREINFO), the mode
 * (req->mode, else pgw_detect_mode), the bits again when none were
 * declared (pgw_enc_infer from the root's CR3) and the root
 * (pgw_root_resolve), and fill *space_ret.  When the image has no valid
 * VMCOREINFO note and the mode or the root needs the kernel's facts,
 * VMCOREINFO is looked for in memory first and adopted (its
 * NUMBER(sme_mask) then declares the C-bit); when there is none, the
 * kernel-root scan finds the kernel's top table and its mode (each looks
 * at every page once: see pgw_scan_opts), reading entries with the bits
 * chosen so far.  why_ret says how each was chosen; when the root fails,
 * why_ret->mode still holds the mode (NULL mode: none could be chosen).
 * PGW_E_ARG for an unknown mode name or encryption bits that are no
 * single bit of the address field, PGW_E_NOTFOUND for no mode or no
 * root.
 */
enum pgw_status pgw_space_open(struct pgw_image *img,
			       const struct pgw_space_request *req,
			       struct pgw_space *space_ret,
			       struct pgw_space_why *why_ret,
			       struct pgw_err *err);

/* Memory-map layouts: a kernel era's regions with this image's bases. */

/*
 * A kernel era's virtual memory map with this image's bases filled in.
 * Regions tile [0, top of the VA space) in address order; stretches the
 * kernel leaves unused are regions too (key "unused"), so every address
 * has exactly one region.
 */
struct pgw_region {
	const char *key;        /* stable short name: "vmalloc", "unused" */
	const char *name;       /* ptdump-style label: "vmalloc() Area" */
	uint64_t start;
	uint64_t end;           /* exclusive; 0 means 2^64 */
};

/* Where a base address came from. */
enum pgw_base_source {
	PGW_BASE_LAYOUT = 0,    /* fixed by the kernel era (not randomized) */
	PGW_BASE_VMCOREINFO,    /* read from VMCOREINFO */
	PGW_BASE_CPU,           /* read from CPU state in the image */
	PGW_BASE_OPTION,        /* given on the command line */
	PGW_BASE_INFERRED,      /* inferred from the page tables */
	PGW_BASE_DEFAULT,       /* could not be read or inferred: era default */
};
const char *pgw_base_source_name(enum pgw_base_source src);

struct pgw_layout_base {
	const char *name;       /* "page_offset_base", "vmalloc_base", ... */
	uint64_t value;
	enum pgw_base_source source;
	char why[200];
};

#define PGW_LAYOUT_MAX_REGIONS 48
#define PGW_LAYOUT_MAX_BASES   10

struct pgw_layout {
	const char *name;       /* "x86-64-4.20", "i386", ... */
	const char *desc;
	char why[200];          /* how the layout was chosen */
	size_t nregions;
	struct pgw_region region[PGW_LAYOUT_MAX_REGIONS];
	size_t nbases;
	struct pgw_layout_base base[PGW_LAYOUT_MAX_BASES];
};

/* Bases the caller already knows (command line); value 0 = not given. */
struct pgw_layout_request {
	const char *name;       /* layout name, NULL: choose by OSRELEASE/mode */
	uint64_t page_offset_base;
	uint64_t vmalloc_base;
	uint64_t vmemmap_base;
};

/* Layout names, NULL-terminated, and a one-line description of each. */
const char *const *pgw_layout_names(void);
const char *pgw_layout_describe(const char *name);
/*
 * Where a kernel of layout `name` puts region `key` ("direct_map") when
 * nothing moved it: the era's own default, no image needed (to say that
 * an address was, say, the 2.6.11 direct map).  False when the layout is
 * not one of mode's, has no such region, or its bounds are not fixed.
 */
bool pgw_layout_default_region(const char *name, const struct pgw_mode *mode,
			       const char *key, uint64_t *start_ret,
			       uint64_t *end_ret);

/*
 * Choose the layout for space->mode and fill in its bases: read from
 * VMCOREINFO, the request or CPU state where the image says them, else
 * inferred from the page tables: the kernel's own root's when VMCOREINFO
 * names it (a process's tables, or a PTI user copy, map little of the
 * kernel half), else space's (see src/linux/layout.c).
 */
enum pgw_status pgw_layout_resolve(const struct pgw_space *space,
				   const struct pgw_layout_request *req,
				   struct pgw_layout *layout_ret,
				   struct pgw_err *err);

/* ---- runs: coalesced mappings and holes, like ptdump (src/walk/) ------ */

/* Index of the region holding va (a region map is plain data, whoever
 * filled it). */
size_t pgw_layout_find(const struct pgw_layout *layout, uint64_t va);

enum pgw_run_kind {
	PGW_RUN_MAP = 0,
	PGW_RUN_HOLE,
};

/*
 * A map run is leaves with contiguous VA and PA, one page size, the same
 * effective permissions (RW/USER/NX down the levels), the same GLOBAL,
 * PCD, PWT, PAT, ENC and SHARED bits and the same protection key, inside
 * one region.  A hole run is adjacent
 * unmapped entries of one stop reason inside one region; its level is the
 * highest (closest to the root) level at which nothing was found.
 */
struct pgw_run {
	enum pgw_run_kind kind;
	uint64_t va;
	uint64_t end;           /* exclusive; 0 means 2^64 */
	enum pgw_level level;
	size_t region;          /* index into the layout; 0 without one */
	uint64_t entries;       /* leaves (maps) or entries (holes) merged */
	/* maps */
	uint64_t pa;            /* physical address of va */
	uint64_t page_size;
	uint32_t flags;         /* flags every leaf of the run has (AND) */
	uint32_t eff_flags;     /* effective RW/USER/NX */
	uint8_t pkey;           /* protection key of every leaf (0: none) */
	bool same_frame;        /* every page maps the one frame pa (a shared
				   uniform table, or one frame mapped again
				   and again): pa does not advance */
	uint64_t stride;        /* 0, or (with opts.patterns) a repeating
				   pattern: one page of page_size maps pa at
				   va, va + stride, ... below end, nothing
				   between (ESPfix maps its frame every 16th
				   page); entries counts the empty ones too */
	/* holes */
	enum pgw_stop stop;     /* why nothing is mapped */
	enum pgw_np_kind np_kind;  /* non-present entries with meaning (only
				      with non_present; else PGW_NP_NONE) */
	uint64_t np_pfn;        /* PROTNONE: frame of va */
	unsigned swap_type;     /* swap family: of the first entry */
	uint64_t swap_offset;
	uint64_t entry_pa;      /* first responsible entry (0: none) */
	uint64_t entry_raw;
	enum pgw_absence absence;  /* a table not in the image: why (holes of
				      one absence only merge) */
};

struct pgw_run_ops {
	int (*run)(void *arg, const struct pgw_run *run);
	/* Entering region idx (before its first run); may be NULL. */
	int (*region)(void *arg, size_t idx);
	/* A table about to be walked (pgw_walk_ops.table); may be NULL. */
	int (*table)(void *arg, enum pgw_level lvl, uint64_t table_pa,
		     uint64_t va);
};

struct pgw_run_opts {
	struct pgw_walk_opts walk;
	bool leaves;            /* one map run per leaf, no coalescing */
	bool non_present;       /* PROT_NONE/swap/... entries as their own
				   hole runs (never as maps) */
	bool patterns;          /* one page of one frame every `stride`
				   bytes with empty entries between: one map
				   run (pgw_run.stride), not a map and a hole
				   per page */
	const struct pgw_layout *layout;  /* region breaks; may be NULL */
};

/*
 * Walk like pgw_walk_range and report runs in address order.  Streams:
 * one open run at a time, so memory stays flat however large the space.
 */
enum pgw_status pgw_walk_runs(const struct pgw_space *space,
			      const struct pgw_run_opts *opts,
			      const struct pgw_run_ops *ops, void *arg,
			      struct pgw_walk_stats *stats_ret,
			      int *stopped_ret, struct pgw_err *err);

/* ---- Linux introspection ----------------------------------------------- */

/*
 * Names without symbol files: the kernel's own kallsyms tables (which
 * VMCOREINFO locates), its BTF type information (found through kallsyms,
 * or by a bounded scan of its read-only data) and, with both, its task
 * list.  Everything is read through a space holding the kernel's page
 * tables (the kernel root); every read and count is bounded, and hostile
 * tables give an error, not a crash.  Strings from the image (symbol
 * names, comm) are raw bytes: escape them before printing.
 */

/* kallsyms: where the tables are (kernel virtual addresses).  addresses:
 * absolute kallsyms_addresses (before Linux 4.6, or
 * CONFIG_KALLSYMS_BASE_RELATIVE off), 0 when offsets and relative_base
 * (then 0) hold the addresses. */
struct pgw_kallsyms_tables {
	uint64_t names, num_syms, token_table, token_index, offsets,
		relative_base, addresses;
};
struct pgw_kallsyms;

/* Longest symbol name with its type letter and NUL (KSYM_NAME_LEN, 6.1+). */
#define PGW_KSYM_NAME_MAX 512

/* The tables' addresses from the image's VMCOREINFO (base-relative
 * offsets, or absolute kallsyms_addresses): PGW_E_NOTFOUND, saying which
 * line is missing, when it does not list them (before Linux 6.0);
 * PGW_E_UNSUPPORTED when it names a variant this reader does not decode
 * (offsets relative to their own place, without kallsyms_relative_base). */
enum pgw_status pgw_kallsyms_tables_vmcoreinfo(
	struct pgw_image *img, struct pgw_kallsyms_tables *tables_ret,
	struct pgw_err *err);
/*
 * Read and decode the tables: base-relative offsets (4.6+) with or
 * without absolute percpu, or absolute addresses (tables->addresses);
 * one- and two-byte name lengths (6.1+).  The caller closes the result.
 */
enum pgw_status pgw_kallsyms_read(const struct pgw_space *kernel,
				  const struct pgw_kallsyms_tables *tables,
				  struct pgw_kallsyms **ks_ret,
				  struct pgw_err *err);
/* Both, then check the symbols VMCOREINFO also names (_stext, ...)
 * decode to its addresses.  When VMCOREINFO lists no tables (before
 * Linux 6.0), they are looked for in the kernel's read-only data between
 * _stext and init_uts_ns (up to 6.3's order or 6.4's; base-relative
 * offsets or absolute addresses, 32- or 64-bit) and accepted when _stext
 * decodes to VMCOREINFO's (pgw_kallsyms_info's scanned); PGW_E_NOTFOUND
 * saying both when neither works. */
enum pgw_status pgw_kallsyms_open(const struct pgw_space *kernel,
				  struct pgw_kallsyms **ks_ret,
				  struct pgw_err *err);
void pgw_kallsyms_close(struct pgw_kallsyms *ks);

/* The first symbol called name: its address and type letter (type_ret
 * may be NULL).  PGW_E_NOTFOUND when there is none. */
enum pgw_status pgw_kallsyms_lookup(const struct pgw_kallsyms *ks,
				    const char *name, uint64_t *addr_ret,
				    char *type_ret, struct pgw_err *err);

struct pgw_ksym {
	char type;                   /* nm's letter: T, t, D, b, ... */
	uint64_t addr;
	char name[PGW_KSYM_NAME_MAX];
};
size_t pgw_kallsyms_count(const struct pgw_kallsyms *ks);
/* Symbol idx in table order (idx < count). */
void pgw_kallsyms_get(const struct pgw_kallsyms *ks, size_t idx,
		      struct pgw_ksym *sym_ret);

/*
 * The symbol addr lies in, as the kernel's %pS names it: the last symbol
 * at or below addr (of several at one address the first in table order,
 * as kallsyms_lookup picks), *offset_ret bytes into it.  PGW_E_NOTFOUND
 * when no symbol of the table holds addr: below the kernel image (_text),
 * at or past the table's last symbol, or past a symbol that ends a
 * section (_etext, _edata, __init_end, __bss_stop, _end, __stop_*,
 * __end_* ...) -- never the nearest name of unrelated memory.  Module
 * symbols are not in kallsyms' tables: a module's address has none.
 */
enum pgw_status pgw_kallsyms_symbol(const struct pgw_kallsyms *ks,
				    uint64_t addr, struct pgw_ksym *sym_ret,
				    uint64_t *offset_ret);

struct pgw_kallsyms_info {
	uint32_t symbols;
	uint32_t data_symbols;       /* types d D b B r R: few or none means
					CONFIG_KALLSYMS_ALL is off */
	bool absolute;               /* absolute kallsyms_addresses */
	bool absolute_percpu;        /* negative offsets seen */
	bool big_lengths;            /* two-byte name lengths seen */
	size_t names_bytes;          /* compressed names decoded */
	struct pgw_kallsyms_tables tables;
	bool scanned;                /* found by scanning the kernel's read-only
					data: VMCOREINFO does not list them
					(before Linux 6.0) */
};
void pgw_kallsyms_info(const struct pgw_kallsyms *ks,
		       struct pgw_kallsyms_info *info_ret);

/* BTF: the kernel's own type information, parsed by libbpf. */
struct pgw_kernel_btf;

/* Largest BTF blob read (a distribution kernel's is 4-6 MiB). */
#define PGW_KERNEL_BTF_MAX (UINT64_C(64) << 20)

/*
 * Find the kernel's BTF: between kallsyms' __start_BTF and __stop_BTF;
 * when kallsyms holds text symbols only (CONFIG_KALLSYMS_ALL off) or ks
 * is NULL, by scanning the kernel's read-only data after the kallsyms
 * tables (up to init_uts_ns, at most PGW_KERNEL_BTF_MAX bytes) for a BTF
 * header that validates, lies inside that window and describes
 * task_struct (at most 8 such headers are parsed).  PGW_E_NOTFOUND with
 * the reason when the kernel has none; a scan that could not cover its
 * window returns why (PGW_E_LIMIT, or the read's status).
 */
enum pgw_status pgw_kernel_btf_open(const struct pgw_space *kernel,
				    const struct pgw_kallsyms *ks,
				    struct pgw_kernel_btf **kb_ret,
				    struct pgw_err *err);
/* Parse a BTF blob already in memory (copied; size at most
 * PGW_KERNEL_BTF_MAX). */
enum pgw_status pgw_kernel_btf_from_blob(const void *blob, size_t size,
					 struct pgw_kernel_btf **kb_ret,
					 struct pgw_err *err);
void pgw_kernel_btf_close(struct pgw_kernel_btf *kb);

struct pgw_kernel_btf_info {
	uint64_t va;                 /* where the blob is (0: not from memory) */
	uint64_t size;
	uint32_t types;
	char how[200];               /* "kallsyms __start_BTF", "scan ..." */
};
void pgw_kernel_btf_info(const struct pgw_kernel_btf *kb,
			 struct pgw_kernel_btf_info *info_ret);

enum pgw_btf_shape {
	PGW_BTF_INT = 0,             /* integers, enums, bools, chars */
	PGW_BTF_PTR,
	PGW_BTF_ARRAY,
	PGW_BTF_COMPOSITE,           /* struct or union */
	PGW_BTF_OTHER,
};
struct pgw_btf_member {
	uint64_t offset;             /* bytes from the start of the type */
	uint64_t size;               /* bytes (pointers: BTF's pointer size) */
	enum pgw_btf_shape shape;    /* typedefs and qualifiers resolved */
	uint64_t elems;              /* arrays: element count */
};
/*
 * Member `member` of struct (or union) `type`, looking inside anonymous
 * structs and unions; a bitfield, or a member not at a byte boundary, is
 * refused (PGW_E_UNSUPPORTED).
 */
enum pgw_status pgw_kernel_btf_member(const struct pgw_kernel_btf *kb,
				      const char *type, const char *member,
				      struct pgw_btf_member *member_ret,
				      struct pgw_err *err);
/* Size in bytes of struct (or union) `type`. */
enum pgw_status pgw_kernel_btf_struct_size(const struct pgw_kernel_btf *kb,
					   const char *type,
					   uint64_t *size_ret,
					   struct pgw_err *err);

/* Where the task-list walk finds what it reads, in bytes. */
struct pgw_task_layout {
	unsigned ptr_size;           /* 4 or 8 */
	uint32_t task_size;          /* sizeof(struct task_struct) */
	uint32_t tasks;              /* task_struct.tasks (a list_head) */
	uint32_t list_next;          /* list_head.next */
	uint32_t pid, tgid;          /* 4-byte pid_t */
	uint32_t comm, comm_size;
	uint32_t flags, flags_size;  /* 4 or 8 bytes */
	uint32_t mm;                 /* task_struct.mm */
	uint32_t mm_pgd;             /* mm_struct.pgd */
	uint32_t real_parent;        /* task_struct.real_parent; 0: not known */
	/* For ps, where BTF has them (0: not known; no such field is at
	 * a task_struct's first byte): */
	uint32_t state, state_size;  /* __state (5.14+, 4 bytes) or state */
	uint32_t exit_state;         /* EXIT_ZOMBIE, EXIT_DEAD */
	uint32_t cpu;                /* thread_info.cpu (5.16+) or cpu: the CPU
					it runs or last ran on */
	uint32_t on_cpu;             /* running on that CPU now */
	uint32_t start_time;         /* ns of monotonic time at fork */
	/* A process's other threads (pgw_linux_task_threads): signal and
	 * signal_struct.thread_head, with each task's thread_node (3.14+);
	 * else the thread_group ring (before 6.7).  0: not known. */
	uint32_t signal, signal_thread_head, thread_node;
	uint32_t thread_group;
	uint32_t stack;              /* task_struct.stack: its kernel stack */
	uint32_t active_mm;          /* the mm a kernel thread borrows */
};
/* The layout from BTF, checked: sizes, shapes, fields inside the struct. */
enum pgw_status pgw_task_layout_btf(const struct pgw_kernel_btf *kb,
				    unsigned ptr_size,
				    struct pgw_task_layout *layout_ret,
				    struct pgw_err *err);

/* include/linux/sched.h: "I am a kernel thread" (2.6.27+). */
#define PGW_PF_KTHREAD UINT32_C(0x00200000)
/* At most this many tasks (processes: the list links thread-group
 * leaders); also at most one per task_struct-sized piece of the image. */
#define PGW_TASKS_MAX (UINT32_C(1) << 18)

struct pgw_task {
	uint64_t task;               /* its task_struct (kernel VA) */
	int32_t pid, tgid;
	uint32_t flags;
	bool kthread;                /* flags has PF_KTHREAD */
	uint8_t comm[PGW_TASK_COMM_MAX]; /* raw bytes, NUL-padded */
	size_t comm_len;             /* bytes before the first NUL */
	uint64_t mm;                 /* 0: none (kernel thread, exiting) */
	uint64_t pgd;                /* mm->pgd, a kernel VA (0: no mm) */
	bool has_pgd_pa;
	uint64_t pgd_pa;             /* its physical address: the root */
	uint64_t real_parent;        /* its task_struct (0: not known) */
	int32_t ppid;                /* real_parent's tgid; -1: not known */
	/* Each with its layout field (has_*: the layout knows it). */
	bool has_state, has_cpu, has_on_cpu, has_start_time;
	uint32_t state, exit_state;
	uint32_t cpu;
	bool on_cpu;
	uint64_t start_time;
	uint64_t stack;              /* its kernel stack (0: not known) */
	/* pgw_linux_task_current: a CPU's saved registers show it running
	 * there (its stack pointer in this task's kernel stack, or in user
	 * mode its CR3 this task's root; arm64's EL0: its pc and stack
	 * pointer mapped by this task's tables). */
	bool has_current;
	uint32_t current_cpu;
	enum pgw_current_by {
		PGW_CURRENT_STACK = 1, PGW_CURRENT_CR3, PGW_CURRENT_USER_PC,
	} current_by;
	uint64_t active_mm;          /* 0: none, or the layout lacks it */
	char why[160];               /* mm but no pgd_pa: why */
};

/*
 * A task's state as ps and crash spell it: "RU" running, "IN"
 * interruptible, "UN" uninterruptible, "ID" idle (uninterruptible without
 * load), "ST" stopped, "TR" traced, "ZO" zombie, "DE" dead, "??" a
 * value none of these; NULL when the layout has no state.
 */
const char *pgw_task_state_key(const struct pgw_task *task);

/*
 * Follow init_task.tasks around the list until it is back at init_task
 * (which comes first).  A list that loops elsewhere, runs longer than
 * max_tasks (0: PGW_TASKS_MAX) or than the image could hold, or reaches
 * an unreadable task ends with an error saying so, and *tasks_ret and
 * *n_ret hold what was read until then (free them either way).  A link
 * to an address that does not translate, or to a frame outside RAM, is
 * a damaged list (PGW_E_FORMAT); only a page the image left out or lost
 * is PGW_E_NODATA.
 */
enum pgw_status pgw_linux_task_list(const struct pgw_space *kernel,
				    uint64_t init_task,
				    const struct pgw_task_layout *layout,
				    size_t max_tasks,
				    struct pgw_task **tasks_ret, size_t *n_ret,
				    struct pgw_err *err);
/*
 * Every thread of the processes pgw_linux_task_list read (leaders, n of
 * them, init_task first): each leader followed by its other threads in
 * the order its thread list (signal->thread_head, else thread_group)
 * links them, each read as the list's tasks are (its own pid and comm,
 * tgid, ppid, mm and root).  PGW_E_UNSUPPORTED when the layout has no
 * thread links (the inferred layout: *all_ret is then a copy of the
 * leaders).  A thread list that loops, reaches a task of another thread
 * group, runs past PGW_TASKS_MAX tasks in all, or cannot be read ends
 * with an error saying so; *all_ret and *n_ret hold what was read until
 * then, the leaders after it included (free with pgw_linux_tasks_free).
 */
enum pgw_status pgw_linux_task_threads(const struct pgw_space *kernel,
				       const struct pgw_task_layout *layout,
				       const struct pgw_task *leaders,
				       size_t n, struct pgw_task **all_ret,
				       size_t *n_ret, struct pgw_err *err);
/*
 * Which task each CPU was running, from the registers the dump saved
 * (NT_PRSTATUS: stack pointer and code segment; QEMU's CPU notes: CR3):
 * in kernel mode the stack pointer lies in one task's kernel stack
 * (task_struct.stack, THREAD_SIZE: 16 KiB on 64-bit kernels, 8 KiB on
 * 32-bit); in user mode CR3 is a task's root (the PTI and PCID bits
 * aside), and names a task only when one task has it, or one of the
 * threads sharing it says it is on that CPU (on_cpu and cpu).  AArch64
 * notes hold no TTBR: there (THREAD_SIZE 16 KiB, or the 64 KiB page) a
 * CPU in EL0 names the task whose tables map its pc and stack pointer,
 * when one does or one of those says it is on that CPU.  Sets
 * has_current, current_cpu and current_by; a CPU whose registers match
 * no task, or more than one, marks none.  Returns the number of CPUs with
 * registers (0: the image saved none, e.g. a raw image).
 */
size_t pgw_linux_task_current(const struct pgw_space *kernel,
			      const struct pgw_task_layout *layout,
			      struct pgw_task *tasks, size_t n);
const char *pgw_current_by_key(enum pgw_current_by by);
/*
 * The layout without BTF, inferred from the image and anchored on
 * init_task (kallsyms' when it has one, else the comm "swapper/0" in the
 * kernel image): each field found by a property no other has, then
 * checked against facts the guess does not control (init_task's pid 0,
 * the tasks ring, distinct pids, printable comms, init_mm's pgd the
 * kernel root, every mm's pgd a top table sharing the kernel root's
 * kernel half, PF_KTHREAD where there is no mm).  A guess that fails
 * any check, or two that pass, name nothing: PGW_E_NOTFOUND or
 * PGW_E_FORMAT with why.  why says what was found (ks may be NULL).
 */
enum pgw_status pgw_task_layout_infer(const struct pgw_space *kernel,
				      const struct pgw_kallsyms *ks,
				      uint64_t *init_task_ret,
				      struct pgw_task_layout *layout_ret,
				      char *why, size_t why_size,
				      struct pgw_err *err);

/* How the task list was read: what the names rest on. */
enum pgw_tasks_method {
	PGW_TASKS_BTF = 0,       /* "vmcoreinfo+btf": kallsyms where VMCOREINFO
				    lists it, the layout from BTF */
	PGW_TASKS_SCANNED_BTF,   /* "scanned-kallsyms+btf": kallsyms found by
				    scanning the kernel (VMCOREINFO before
				    6.0 lists none), the layout from BTF */
	PGW_TASKS_INFERRED,      /* "inferred-layout": no BTF;
				    pgw_task_layout_infer */
};
const char *pgw_tasks_method_key(enum pgw_tasks_method method);

struct pgw_tasks_how {
	enum pgw_tasks_method method;
	uint64_t init_task;
	struct pgw_task_layout layout;
	char why[480];               /* what was found, in words */
};

/*
 * All of it from the image: kallsyms from VMCOREINFO, init_task, BTF, the
 * layout, the list; without BTF (or init_task) the inferred layout.  When
 * neither works, PGW_E_NOTFOUND and a message a command can print
 * ("no BTF: ...; inferred layout: ...").  how_ret (may be NULL) says
 * which method named the tasks.
 */
enum pgw_status pgw_linux_tasks_how(const struct pgw_space *kernel,
				    struct pgw_task **tasks_ret, size_t *n_ret,
				    struct pgw_tasks_how *how_ret,
				    struct pgw_err *err);
/* The same, without saying how. */
enum pgw_status pgw_linux_tasks(const struct pgw_space *kernel,
				struct pgw_task **tasks_ret, size_t *n_ret,
				struct pgw_err *err);
void pgw_linux_tasks_free(struct pgw_task *tasks);

/*
 * The kernel's metadata read once for many asks (a command choosing a
 * root by --pid and then naming addresses asks for the task list twice):
 * kallsyms, BTF and the task list (as pgw_linux_tasks_how reads it),
 * each read when first asked for and kept, answer and error alike, until
 * pgw_linux_kernel_free.  Everything is read through the first kernel
 * space given (kernel memory reads alike through every root of one
 * kernel); a space of another image, mode or encryption starts over.
 */
struct pgw_linux_kernel;
enum pgw_status pgw_linux_kernel_new(struct pgw_linux_kernel **lk_ret,
				     struct pgw_err *err);
void pgw_linux_kernel_free(struct pgw_linux_kernel *lk);
/* The task list, read once: the tasks stay lk's (how_ret may be NULL;
 * *st and err as pgw_linux_tasks_how gives them, *n_ret tasks read
 * before any error). */
const struct pgw_task *pgw_linux_kernel_tasks(struct pgw_linux_kernel *lk,
					      const struct pgw_space *kernel,
					      size_t *n_ret,
					      struct pgw_tasks_how *how_ret,
					      enum pgw_status *st,
					      struct pgw_err *err);
/* kallsyms, opened once: it stays lk's. */
enum pgw_status pgw_linux_kernel_kallsyms(struct pgw_linux_kernel *lk,
					  const struct pgw_space *kernel,
					  const struct pgw_kallsyms **ks_ret,
					  struct pgw_err *err);

/*
 * What the task list and the VMA reader rest on, for a caller to keep and
 * give back (pgw_linux_kernel_hint) when it opens the same image again:
 * kallsyms and BTF need not be parsed then.  A hint is checked before it
 * is used: the same kernel space; the kallsyms tables' span and the BTF
 * blob hash as they did (a sample of their pages: the first, the last
 * and 14 between); VMCOREINFO lists the kallsyms tables exactly when the
 * method says it does; and the list read with the hint's init_task and
 * layout is whole and holds to what every kernel's does (init_task first
 * with pid 0, no mm, PF_KTHREAD and a comm beginning "swapper"; every
 * entry a thread-group leader, pid == tgid; no two entries with one
 * pid).  Else it is dropped (why said) and everything is read.
 */
#define PGW_VMA_LAYOUT_WORDS 56
#define PGW_VMA_FNS 5
struct pgw_kernel_facts {
	const struct pgw_mode *mode;  /* the kernel space read through */
	uint64_t root, root_upper;
	struct pgw_enc_bits enc;
	struct pgw_tasks_how how;     /* method (BTF or scanned BTF), init_task,
					 layout, why */
	uint64_t ks_lo, ks_hi, ks_hash;       /* the kallsyms tables */
	uint64_t btf_va, btf_size, btf_hash;  /* the BTF blob */
	/* The VMA reader's layout and the function addresses it compares
	 * (words only the library reads), when it was opened. */
	bool have_vma;
	uint32_t vma_layout[PGW_VMA_LAYOUT_WORDS];
	uint64_t vma_fn[PGW_VMA_FNS];
};
/* Give lk an earlier command's facts (NULL: none); before it reads. */
void pgw_linux_kernel_hint(struct pgw_linux_kernel *lk,
			   const struct pgw_kernel_facts *hint);
/* What a later command can be given, from what lk read or the hint that
 * held; false when there is nothing (no task list read, one inferred
 * without BTF, or one that failed a check). */
bool pgw_linux_kernel_found(const struct pgw_linux_kernel *lk,
			    struct pgw_kernel_facts *found_ret);
/* Whether the hint was used (tasks, and the VMA reader's layout), or why
 * not (why_not; "" when no hint was tried). */
struct pgw_kernel_hint_use {
	bool tasks, vma;
	char why_not[240];
};
void pgw_linux_kernel_hint_use(const struct pgw_linux_kernel *lk,
			       struct pgw_kernel_hint_use *use_ret);

/*
 * Loaded modules: the kernel's `modules` list read through BTF's struct module
 * -- its list, name, state and the memory it occupies, as each era keeps
 * it: 6.4+ mem[MOD_TEXT..MOD_INIT_RODATA] (struct module_memory base and
 * size), 4.5-6.3 core_layout, init_layout (and data_layout where the
 * kernel has one; struct module_layout base and size), before 4.5
 * module_core/core_size and module_init/init_size.  Without BTF there
 * are no module names (never guessed).
 */
struct pgw_modules;

/* The longest name read (the kernel's MODULE_NAME_LEN: 56 or 60). */
#define PGW_MODULE_NAME_MAX 64
/* Ranges kept per module (6.4+: 7 memory types). */
#define PGW_MODULE_RANGES_MAX 8
/* At most this many modules; a range at most this many bytes (every
 * architecture's module area is smaller). */
#define PGW_MODULES_MAX 16384u
#define PGW_MODULE_RANGE_MAX (UINT64_C(2) << 30)

struct pgw_module_range {
	uint64_t base, size;         /* [base, base + size), kernel VAs */
	uint64_t text_size;          /* bytes of text at its start (6.4+:
					text and init_text whole; before:
					the layout's text size) */
	const char *kind;            /* 6.4+: "text", "data", "rodata",
					"ro_after_init", "init_text",
					"init_data", "init_rodata"; older:
					"core", "init", "data" */
};
struct pgw_module {
	uint64_t module;             /* its struct module (kernel VA) */
	uint8_t name[PGW_MODULE_NAME_MAX]; /* raw bytes, NUL-terminated */
	size_t name_len;
	uint32_t state;              /* 0 live, 1 coming, 2 going, 3 unformed */
	unsigned nranges;            /* ranges of non-zero size, range[0] the
					one /proc/modules' address starts
					(text, or core) when it has one */
	struct pgw_module_range range[PGW_MODULE_RANGES_MAX];
	/* Its own symbols (0: none known): the ELF symbol table the
	 * kernel keeps for it (mod->kallsyms, 4.6+; mod->symtab before). */
	uint64_t symtab, strtab;
	uint32_t num_symtab;
};

/*
 * Read the list (ks and kb: the kernel's kallsyms and BTF).  PGW_OK: the
 * whole list.  Otherwise the error, and *mods_ret (when not NULL) holds
 * the modules read before it: a list that loops or comes back the wrong
 * way (a next whose prev is not where it came from), a name without its
 * NUL, a state no kernel has, a range outside the kernel half or larger
 * than PGW_MODULE_RANGE_MAX is damage (PGW_E_FORMAT); a link into a page
 * the image lacks PGW_E_NODATA; more than PGW_MODULES_MAX PGW_E_LIMIT.
 * Without kallsyms' `modules` (a kernel without CONFIG_KALLSYMS_ALL) the
 * head is found from a struct module: the first place in the small-page
 * mappings within 2 GiB of _stext that reads as one (a printable name
 * ending in its NUL, a state of the four, links into the kernel half,
 * a range holding the struct itself), whose ring comes back through a
 * node in the kernel image.  No head that way, or BTF without struct
 * module: PGW_E_NOTFOUND.
 */
enum pgw_status pgw_modules_open(const struct pgw_space *kernel,
				 const struct pgw_kallsyms *ks,
				 const struct pgw_kernel_btf *kb,
				 struct pgw_modules **mods_ret,
				 struct pgw_err *err);
void pgw_modules_close(struct pgw_modules *mods);
/* How the list was found and read, in words. */
const char *pgw_modules_how(const struct pgw_modules *mods);
size_t pgw_modules_count(const struct pgw_modules *mods);
const struct pgw_module *pgw_modules_get(const struct pgw_modules *mods,
					 size_t idx);
/*
 * The module's own symbol addr lies in, as the kernel's %pS finds it
 * (find_kallsyms_symbol): of its symbols that are defined, named, and no
 * mapping symbol ($x, $d, .L...), the last at or below addr, which
 * reaches to the next such symbol or the end of the range's text -- here
 * also in the same range as addr, and never past where it reaches, so a
 * data address is never named by a text symbol before it.  PGW_E_NOTFOUND when none is (or the
 * module keeps no symbols); a table that cannot be read, its error.  At
 * most PGW_MODULE_SYMS_MAX symbols are read.
 */
#define PGW_MODULE_SYMS_MAX (UINT32_C(1) << 18)
enum pgw_status pgw_modules_symbol(const struct pgw_space *kernel,
				   const struct pgw_module *m, uint64_t addr,
				   struct pgw_ksym *sym_ret,
				   uint64_t *offset_ret, struct pgw_err *err);
/* The module whose range holds addr (NULL: none), which range, and how
 * far into it. */
const struct pgw_module *pgw_modules_find(const struct pgw_modules *mods,
					  uint64_t addr, unsigned *range_ret,
					  uint64_t *offset_ret);

/* ---- a process's memory map: its VMAs (src/linux/vma*.c, dpath.c) ----- */

/*
 * What /proc/PID/maps prints, read from the image through BTF: each
 * vm_area_struct of an mm from its maple tree (6.1+) or its mmap list
 * (before 6.1), with the file's device, inode and path as the kernel's
 * d_path gives it (dentries walked up through mounts to the global root,
 * " (deleted)" for an unlinked file, the pseudo names of files that were
 * never linked: memfd, SysV and MAP_SHARED anonymous memory, hugetlb),
 * or [heap], [stack], [vdso], [vvar] and [anon:NAME] where the kernel
 * prints them.  Without BTF: PGW_E_NOTFOUND and why.
 */
struct pgw_linux_mm;

/*
 * How a VMA is named.  PATH: a file (name holds d_path's answer);
 * NAMED: a bracketed name the kernel gives ([heap], [stack], a special
 * mapping's [vdso] or [vvar], [anon:NAME]); NONE: an anonymous mapping
 * the kernel prints no name for; UNKNOWN: the image does not say (why
 * holds the reason, name is empty: never a guess).
 */
enum pgw_vma_naming {
	PGW_VMA_NONE, PGW_VMA_PATH, PGW_VMA_NAMED, PGW_VMA_UNKNOWN,
};

/* The longest name kept: the kernel's d_path buffer is a page. */
#define PGW_VMA_NAME_MAX 4096

struct pgw_vma {
	uint64_t vma;                /* its vm_area_struct (kernel VA) */
	uint64_t start, end;         /* [start, end) */
	uint64_t flags;              /* vm_flags (PGW_VM_*) */
	uint64_t pgoff;              /* bytes into the file (0 without one,
					as /proc prints it) */
	uint64_t file;               /* its struct file (0: anonymous) */
	uint32_t dev;                /* the file system's s_dev: major << 20
					| minor (0 without a file) */
	uint64_t ino;                /* the file's inode number */
	uint64_t huge_page_size;     /* a hugetlb VMA's, from its file
					system's hstate (0: none, or not
					known) */
	enum pgw_vma_naming naming;
	uint32_t name_at, name_len;  /* the name: bytes of the set's names */
	char why[160];               /* UNKNOWN: why */
};

/* vm_flags bits that do not move between kernels (include/linux/mm.h). */
#define PGW_VM_READ     UINT64_C(0x1)
#define PGW_VM_WRITE    UINT64_C(0x2)
#define PGW_VM_EXEC     UINT64_C(0x4)
#define PGW_VM_SHARED   UINT64_C(0x8)

/* One mm's VMAs in address order, and whether that is all of them. */
struct pgw_vmas {
	uint64_t mm;
	struct pgw_vma *vma;
	size_t n;
	const char *names;           /* the names' bytes (not NUL-ended; a
					name may hold any byte) */
	bool complete;               /* false: why says where it stopped */
	enum pgw_status status;      /* !complete: what stopped it */
	char why[256];
	/* mm->exe_file, the running executable: its d_path name in names
	 * (exe_len 0: none, or not known: exe_why) */
	uint32_t exe_at, exe_len;
	char exe_why[160];
	/* owned by the set */
	char *names_buf;
	size_t names_len, names_cap;
};

/*
 * Everything the maps need, read once: kallsyms, BTF and the layouts of
 * the structs (mm_struct, vm_area_struct, file, dentry, mount ...), and
 * the task list (pgw_linux_tasks).  PGW_E_NOTFOUND without kallsyms or
 * BTF, PGW_E_UNSUPPORTED for a kernel whose structs differ from what is
 * read; err says which.
 */
enum pgw_status pgw_linux_mm_open(const struct pgw_space *kernel,
				  struct pgw_linux_mm **lm_ret,
				  struct pgw_err *err);
/* The same from what lk has read or reads (it must outlive lm). */
enum pgw_status pgw_linux_mm_open_in(struct pgw_linux_kernel *lk,
				     const struct pgw_space *kernel,
				     struct pgw_linux_mm **lm_ret,
				     struct pgw_err *err);
void pgw_linux_mm_close(struct pgw_linux_mm *lm);
/* The task list read by pgw_linux_mm_open, with how it ended (PGW_OK,
 * or the status of the error it stopped at, copied to *err). */
const struct pgw_task *pgw_linux_mm_tasks(const struct pgw_linux_mm *lm,
					  size_t *n_ret, enum pgw_status *st,
					  struct pgw_err *err);

/*
 * The VMAs of mm (a kernel VA, struct mm_struct).  A tree or list the
 * image damaged, or cut short by a page it lacks, ends the set early
 * (complete false, status and why say where); the VMAs before are kept.
 * Returns PGW_OK with a set (maybe incomplete), or an error and none.
 */
enum pgw_status pgw_linux_vmas(struct pgw_linux_mm *lm, uint64_t mm,
			       struct pgw_vmas **vmas_ret,
			       struct pgw_err *err);
/* The VMAs of process pid (PGW_E_NOTFOUND: no such process, or a kernel
 * thread). */
enum pgw_status pgw_linux_vmas_of_pid(struct pgw_linux_mm *lm, int32_t pid,
				      struct pgw_vmas **vmas_ret,
				      struct pgw_err *err);
/* The VMA holding va, or NULL. */
const struct pgw_vma *pgw_vmas_find(const struct pgw_vmas *vmas,
				    uint64_t va);
void pgw_vmas_free(struct pgw_vmas *vmas);

/* "rwxp" as /proc prints it, into buf (5 bytes). */
void pgw_vma_perms(uint64_t flags, char buf[5]);
/*
 * vm_flags bit `bit` as smaps' VmFlags names it ("rd", "wr", "mr" ...:
 * fs/proc/task_mmu.c's mnemonics at 6.1's x86-64 bits): "??" for a bit
 * without one, as the kernel prints it, NULL for the protection-key bits
 * (smaps prints those as ProtectionKey).
 */
const char *pgw_vma_flag_name(unsigned bit);

/*
 * What the page tables hold of a VMA, smaps-style (pgw_vma_measure): each
 * byte of [start, end) is in exactly one of present, protnone, swap,
 * other_np, empty and unknown.  rss is smaps' Rss: present and PROT_NONE
 * pages but the kernel's special ones (the zero page, PFN mappings) and
 * hugetlb pages, which smaps counts apart (hugetlb).  thp: present
 * leaves above the pte level outside hugetlb VMAs (smaps' AnonHugePages
 * for an anonymous VMA).  kernel_page_size: 4096, a hugetlb VMA's
 * hstate's page size (pgw_vma.huge_page_size), else its leaves', 0 when
 * neither says.
 */
struct pgw_vma_usage {
	uint64_t present;            /* present leaves */
	uint64_t rss;
	uint64_t protnone;           /* PROT_NONE, populated */
	uint64_t swap;               /* swap entries */
	uint64_t other_np;           /* migration, device, hwpoison, other */
	uint64_t empty;              /* nothing there (never touched) */
	uint64_t unknown;            /* under a page table the image lacks */
	uint64_t thp, hugetlb;
	uint64_t kernel_page_size;
	uint64_t not_in_image;       /* present, the data not in the image */
	bool complete;               /* false: the walk's budget stopped it */
};

/* A page's (or, for an unmapped stretch, a run's) state (--pages). */
enum pgw_page_state {
	PGW_PAGE_PRESENT,            /* "present" */
	PGW_PAGE_PROTNONE,           /* "protnone" */
	PGW_PAGE_SWAP,               /* "swap" */
	PGW_PAGE_OTHER_NP,           /* "other-non-present" */
	PGW_PAGE_EMPTY,              /* "empty" */
	PGW_PAGE_UNKNOWN,            /* "table-not-in-image" */
};
#define PGW_NPAGE_STATES 6
const char *pgw_page_state_key(enum pgw_page_state s);

struct pgw_vma_page {
	uint64_t va, end;            /* a leaf's page, or a run of the state */
	enum pgw_page_state state;
	uint64_t pa;                 /* present, protnone: the frame */
	uint64_t page_size;          /* present, protnone: the leaf's */
	bool in_image;               /* present: its data is in the image */
	bool special;                /* present: the kernel's special bit (the
					zero page, a PFN mapping) */
	const struct pgw_entry *entry;  /* the leaf or non-present entry
					   (NULL for an unknown run) */
};

/*
 * Walk the page tables of user (a process's space) over vma's range and
 * fill *usage; page (may be NULL) is called for each leaf and each run of
 * one state, in address order (non-zero stops: PGW_E_STOPPED).  The
 * entry budget is the walk's default.
 */
typedef int (*pgw_vma_page_fn)(void *arg, const struct pgw_vma_page *p);
enum pgw_status pgw_vma_measure(const struct pgw_space *user,
				const struct pgw_vma *vma,
				struct pgw_vma_usage *usage_ret,
				pgw_vma_page_fn page, void *arg,
				struct pgw_err *err);

/* ---- scans of physical memory (src/linux/) ----------------------------- */

/*
 * The finders below look at every page of an image once, without symbols:
 * cheap on raw, ELF and LiME images (each page is read in place), costly
 * where every page must be decompressed (kdump, AVML: ~25 us a page), so
 * those get a budget of their own.  What a budget cut short is said in
 * the stats, never silently.
 */
#define PGW_SCAN_MAX_PAGES   (UINT64_C(1) << 26)  /* 256 GiB of memory */
#define PGW_SCAN_MAX_DECODED (UINT64_C(1) << 16)  /* 256 MiB decompressed */

struct pgw_scan_opts {
	uint64_t max_pages;      /* pages looked at; 0: PGW_SCAN_MAX_PAGES */
	uint64_t max_decoded;    /* of those, pages decompressed (kdump,
				    AVML); 0: PGW_SCAN_MAX_DECODED */
	uint64_t max_entries;    /* entries all validation walks together may
				    examine; 0: pgw_default_budget(img) */
	struct pgw_enc_bits enc; /* memory-encryption bits of the entries
				    (a space's enc); zero: none */
	bool have_pa;            /* VMCOREINFO: choose the candidate at pa,
				    not by evidence */
	uint64_t pa;
	/* Look at these pages only (physical addresses, ascending: where an
	 * earlier scan found something), not at every page. */
	const uint64_t *only;
	size_t nonly;
};

struct pgw_scan_stats {
	uint64_t pages;          /* pages the image's physical ranges hold */
	uint64_t scanned;        /* pages looked at */
	uint64_t absent;         /* of those, not in the image (filtered out,
				    damaged): nothing was read there */
	uint64_t holes;          /* of those, in holes of a sparse file or
				    excluded pages read as zeros
				    (zero_excluded): zeros, in which no
				    finder finds anything, not read */
	uint64_t candidates;     /* pages (PAE: 32-byte slots) that passed the
				    quick test */
	uint64_t entries;        /* entries the validation walks examined */
	uint64_t decoded;        /* pages decompressed (kdump, AVML): those
				    scanned and those the finder read to
				    judge them (a PAE slot's directory),
				    against max_decoded; 0 elsewhere */
	bool complete;           /* every page looked at, every walk done */
	char why[200];           /* when not complete: which budget stopped
				    what */
};

/* ---- kernel facts found in memory (src/linux/) -------------------------- */


/* Where a candidate lies (enum pgw_vmci_place, with the candidates
 * above pgw_space_open): "note" or "data". */
const char *pgw_vmci_place_key(enum pgw_vmci_place place);

/* What VMCOREINFO text says about the kernel, checked by walking. */
struct pgw_vmci_check {
	const struct pgw_mode *mode;   /* the mode its numbers and symbols imply */
	uint64_t kernel_root;    /* its kernel root: maps itself (and _stext) */
	unsigned lines;
	/* Not checked rather than wrong: a table the check walks through is
	 * not in the image (a filtered or cut dump), for this reason. */
	enum pgw_absence unverified;
	char why[200];
};

/*
 * Check the image's own VMCOREINFO (a note, or text adopted below): a
 * damaged note is PGW_E_FORMAT, none PGW_E_NOTFOUND, one whose root
 * cannot be walked because a table is not in the image PGW_E_NODATA
 * (err->absence says why), each with the reason.
 */
enum pgw_status pgw_vmcoreinfo_validate(struct pgw_image *img,
					struct pgw_vmci_check *check_ret,
					struct pgw_err *err);

#define PGW_VMCI_TEXT_MAX 4096       /* VMCOREINFO_BYTES: one page */

struct pgw_vmci_found {
	struct pgw_vmci_candidate chosen;
	struct pgw_vmci_check check;
	uint64_t text_pa;        /* the text's first byte */
	size_t len;
	char text[PGW_VMCI_TEXT_MAX + 1];   /* NUL-terminated */
	size_t ncandidates;      /* pages that began like VMCOREINFO */
	size_t nvalid;
	size_t nlisted;          /* the first candidates, in address order */
	struct pgw_vmci_candidate cand[PGW_VMCI_MAX_LISTED];
	bool conflict;           /* valid candidates name different roots */
	char choice[320];        /* which was chosen and by what evidence */
	struct pgw_scan_stats scan;
};

/*
 * Find VMCOREINFO in physical memory and validate each candidate: only
 * "KEY=value" lines as the kernel writes them (80-byte lines, printable
 * values), PAGESIZE=4096, well-formed SYMBOL()/NUMBER() values, and a
 * kernel page-table symbol whose table walks (maps itself, and _stext).
 * Among valid candidates, evidence chooses: most CPUs running on its
 * root, then most CPUs whose root maps its _stext where its own does,
 * then a note before a data page, then the first in memory; found->choice
 * says which and why, and found->conflict whether valid ones name
 * different kernel roots.  opts->have_pa chooses the candidate at opts->pa
 * instead (PGW_E_NOTFOUND, with its rejection, unless it is one and
 * valid).  PGW_E_NOTFOUND (with the first rejections in err) when none
 * validates.  The caller may then
 * pgw_image_adopt_vmcoreinfo(img, found->text, found->len,
 * found->chosen.pa, err).
 */
enum pgw_status pgw_vmcoreinfo_find_in_memory(struct pgw_image *img,
					      const struct pgw_scan_opts *opts,
					      struct pgw_vmci_found *found_ret,
					      struct pgw_err *err);

/*
 * Use VMCOREINFO text found in memory as if it were the image's note
 * (src/formats/): it replaces a note already parsed (a damaged one), so
 * mode detection, root resolution and layouts read it; `info` facts and
 * pgw_vmcoreinfo_in_memory say where it came from.
 */
enum pgw_status pgw_image_adopt_vmcoreinfo(struct pgw_image *img,
					   const char *text, size_t len,
					   uint64_t source_pa,
					   struct pgw_err *err);
/* True (and where) when the VMCOREINFO in use was found in memory. */
bool pgw_vmcoreinfo_in_memory(const struct pgw_image *img,
			      uint64_t *source_pa_ret);

/*
 * Without VMCOREINFO (older kernels): the kernel's own top-level table,
 * found as a page whose user half is empty and whose kernel half maps a
 * linear direct map that maps the table itself, and (x86-64) a kernel
 * text mapping from __START_KERNEL_map that holds it; with the mode under
 * which it does.  mode NULL tries every mode.  i386 process tables are
 * exact copies of swapper_pg_dir's kernel half, so a freed one with an
 * empty user half ties with it: ties go to a table a CPU's CR3 selects,
 * then to swapper_pg_dir's neighbours in head_32.S (initial_page_table,
 * which shares its kernel half, 8 KiB below; empty_zero_page after it),
 * then to the lowest; `ntied` counts the others.
 */
struct pgw_kernel_root_found {
	const struct pgw_mode *mode;
	uint64_t table;
	uint64_t direct_map;     /* VA of physical 0 (page_offset_base or
				    PAGE_OFFSET) */
	uint64_t text_va;        /* x86-64: the kernel text mapping's VA of the
				    table; 0 on 32-bit */
	size_t ntied;            /* other tables that did as well */
	struct pgw_enc_bits enc; /* its tables' encryption bits: the
				    caller's (pgw_scan_opts.enc), else, for
				    a table that walks only without a C-bit,
				    the one pgw_enc_infer finds there */
	char why[256];
	struct pgw_scan_stats scan;
};
enum pgw_status pgw_kernel_root_scan(struct pgw_image *img,
				     const struct pgw_mode *mode,
				     const struct pgw_scan_opts *opts,
				     struct pgw_kernel_root_found *found_ret,
				     struct pgw_err *err);

/* ---- roots: every page-table root in physical memory (src/linux/) ------- */

/*
 * What a root found by the scan is.  Every top table Linux makes for an
 * mm copies the kernel half of the kernel's own (pgd_ctor's
 * clone_pgd_range; PAE shares the kernel page directory, or copies it
 * under PTI), so candidates are tables whose kernel half mostly equals
 * the kernel root's; the walk of their user half says what they are.
 */
enum pgw_root_kind {
	PGW_RK_KERNEL = 0,       /* "kernel": the kernel root */
	PGW_RK_PROCESS,          /* "process": maps user pages */
	PGW_RK_EMPTY,            /* "empty": user half holds nothing: a freed
				    table (exit_mmap clears the user entries
				    before pgd_free) or an mm not yet filled */
	PGW_RK_TABLES_ONLY,      /* "tables-only": user tables, no page mapped
				    (text_poke's poking_mm, an mm torn down) */
	PGW_RK_SUPERVISOR_ONLY,  /* "supervisor-only": maps no user-accessible
				    page, mostly an identity map
				    (trampoline_pgd, EFI's efi_mm, i386
				    initial_page_table) */
	PGW_RK_KERNEL_IMAGE,     /* "kernel-image": lies inside the kernel
				    image, yet is not the kernel root */
	PGW_RK_SHARED_TABLES,    /* "shared-tables": its user tables are
				    another root's too (a stale copy) */
	PGW_RK_BAD_USER_HALF,    /* "bad-user-half": entries no kernel writes
				    (reserved bits, past memory, a cycle) */
	PGW_RK_FOREIGN,          /* "foreign-kernel-half": a CPU's CR3 selects
				    it, but its kernel half is not the
				    kernel root's */
	PGW_RK_UNVERIFIED,       /* "unverified": its user half was not
				    walked (the entry budget ran out, or its
				    table is not in the image) */
};
#define PGW_NROOT_KINDS 10
const char *pgw_root_kind_key(enum pgw_root_kind kind);

/* A kernel-half entry of a root that differs from the kernel root's. */
struct pgw_root_diff {
	enum pgw_level level;    /* PGW_PGD; PAE: PGW_PMD for an entry of the
				    root's own kernel page directory */
	unsigned index;          /* in that table */
	uint64_t entry_pa;       /* physical address of the root's entry */
	uint64_t raw;            /* the root's entry */
	uint64_t kernel_raw;     /* the kernel root's entry there */
};
#define PGW_ROOT_MAX_DIFFS 32    /* recorded per root (all are counted) */

struct pgw_root_found {
	uint64_t table;          /* top table (PTI: the kernel copy) */
	enum pgw_root_kind kind;
	char why[256];           /* the reason for the kind */
	uint64_t pti_user;       /* PTI: its user copy (table + 4 KiB); 0 */
	unsigned ncpus;          /* CPUs whose CR3 selects it or its user copy
				    (which: pgw_roots.cpu_root) */
	uint64_t user_bytes;     /* mapped below the kernel half */
	uint64_t user_leaves;
	uint64_t user_access_leaves; /* of those, user-accessible */
	uint64_t user_tables;    /* tables walked there */
	unsigned kernel_entries; /* kernel-half entries compared (PAE: of the
				    kernel page directories) */
	unsigned kernel_same;    /* of those, equal to the kernel root's
				    (accessed/dirty bits aside) */
	unsigned ndiffs;         /* entries that differ (PAE: with the PDPTE
				    of a directory copy that differs) */
	size_t diff;             /* first recorded one in pgw_roots.diffs */
	unsigned ndiffs_listed;  /* recorded (at most PGW_ROOT_MAX_DIFFS) */
	size_t other;            /* shared-tables: a root sharing them */
};

struct pgw_roots {
	const struct pgw_mode *mode;
	struct pgw_enc_bits enc; /* the bits its entries were read with */
	uint64_t kernel_root;    /* the top table of the root given */
	uint64_t kernel_start;   /* first VA of the kernel half */
	size_t n;
	struct pgw_root_found *root;  /* the kernel root first, then by address */
	size_t ndiffs;
	struct pgw_root_diff *diffs;
	size_t ncpus;            /* the image's CPUs */
	long *cpu_root;          /* per CPU: index in root[] of what its CR3
				    selects; -1: no CR3 in the image */
	uint64_t freed_slots;    /* PAE: slots whose kernel entry matched but
				    whose user entries are no PDPTEs (freed
				    pgd_cache objects: SLUB's free pointer
				    sits at byte 16) */
	struct pgw_scan_stats scan;
};

struct pgw_roots_opts {
	struct pgw_scan_opts scan;
};

/*
 * Every root in physical memory: the kernel root, every top table whose
 * kernel half mostly (at least half of its entries) equals the kernel
 * root's, and every CPU's CR3 (PTI user copies are folded into their
 * kernel copy).  Linear in the image: one quick look per page (PAE: per
 * 32-byte slot), then one walk of each candidate's user half.
 */
enum pgw_status pgw_roots_scan(struct pgw_image *img,
			       const struct pgw_mode *mode,
			       uint64_t kernel_root,
			       const struct pgw_roots_opts *opts,
			       struct pgw_roots **roots_ret,
			       struct pgw_err *err);
void pgw_roots_free(struct pgw_roots *roots);
/* The root whose table or PTI user copy is at `table` (an mm->pgd's
 * physical address), or -1. */
long pgw_roots_find(const struct pgw_roots *roots, uint64_t table);

/*
 * The cross-view: the roots the scan found against the task list
 * (pgw_linux_tasks).  A task owns the root its mm->pgd's physical address
 * is (the table or its PTI user copy: pgw_roots_find).  Two views of one
 * thing disagree only where something is wrong or in passing: a root no
 * task owns (an orphan: a freed table, text_poke's mm, an identity map,
 * or a process hidden from the task list) and a task whose root the scan
 * did not find (its table is not in the image, lies outside the scan, or
 * does not share the kernel's kernel half).
 */
struct pgw_roots_view {
	size_t nroots, ntasks;
	/* Owners of root i: owner[first_owner[i]] up to (not including)
	 * owner[first_owner[i + 1]], task indices in task-list order. */
	size_t *first_owner;     /* nroots + 1 entries */
	size_t *owner;
	long *task_root;         /* per task: its root's index; -1: none (no
				    mm, or a root the scan did not find) */
	size_t norphans;         /* roots, the kernel's aside, no task owns */
	size_t nsuspicious;      /* of them, ones pgw_orphan_reason calls
				    suspicious */
	size_t nunowned;         /* tasks with an mm whose root the scan did
				    not find */
};
/*
 * Also names the shared-tables roots by what the task list says is live
 * (the scan only knew the CPUs'): one a task owns is a process, and one
 * no task owns that shares the tables of a root a task owns is a process
 * too (a hidden one: live processes do not share these tables).
 */
enum pgw_status pgw_roots_view_build(struct pgw_roots *roots,
				     const struct pgw_task *tasks,
				     size_t ntasks,
				     struct pgw_roots_view **view_ret,
				     struct pgw_err *err);
void pgw_roots_view_free(struct pgw_roots_view *view);
/* Root i of the view: is it an orphan (no owner, not the kernel's)? */
bool pgw_roots_view_orphan(const struct pgw_roots_view *view, size_t i);
/* Is task i one whose mm's root the scan did not find? */
bool pgw_roots_view_unowned(const struct pgw_roots_view *view,
			    const struct pgw_task *tasks, size_t i);
/*
 * Why a root of this kind belongs to no task; *suspicious_ret (may be
 * NULL) says whether that is unexpected: a root that maps user pages
 * (kind process), or whose user half or kernel half no kernel writes,
 * points at a process the task list does not show.
 */
const char *pgw_orphan_reason(enum pgw_root_kind kind,
			      bool *suspicious_ret);
/*
 * Why the scan did not find task's root (a task with an mm): no
 * translatable mm->pgd, its table not in the image, a scan cut short, or
 * a kernel half too unlike the kernel root's (compared here).
 */
void pgw_unowned_reason(struct pgw_image *img, const struct pgw_roots *roots,
			const struct pgw_task *task, char *why, size_t n);

/* ---- check: what is wrong in an address space (src/linux/) ------------ */

/*
 * Rules, each with a stable key (pgw_rule_key, the name in quotes).  What
 * each one looks at, and what it exempts, is man pgwalk's CHECK RULES.
 */
enum pgw_rule {
	PGW_RULE_WX = 0,             /* "wx": writable and executable */
	PGW_RULE_USER_KERNEL,        /* "user-kernel": user-accessible in the
					kernel half */
	PGW_RULE_KERNEL_HALF,        /* "kernel-half-mismatch": a root's
					kernel-half entry is not the kernel
					root's */
	PGW_RULE_TEXT_ALIAS,         /* "text-writable-alias": kernel text or
					read-only data writable elsewhere */
	PGW_RULE_PT_WRITABLE,        /* "pt-writable": a page table mapped
					user-accessible */
	PGW_RULE_RESERVED,           /* "reserved-bits" */
	PGW_RULE_BEYOND_RAM,         /* "beyond-ram": frames past RAM and
					the 32-bit device window */
	PGW_RULE_ORPHAN,             /* "orphan-root" (cross-view) */
	PGW_RULE_UNOWNED,            /* "unowned-task" (cross-view) */
	PGW_RULE_NO_NX,              /* "no-nx": the mode has no NX bit */
	/* The rules only VMAs make possible (pgw_check_vmas): */
	PGW_RULE_OUTSIDE_VMA,        /* "outside-vma": a user mapping no VMA
					covers (page tables written behind
					the kernel's back) */
	PGW_RULE_BEYOND_VMA,         /* "beyond-vma": a leaf writable or
					executable where its VMA is not */
	PGW_RULE_ANON_EXEC,          /* "anon-exec": an executable VMA with
					no file (JIT, or injected code) */
	PGW_RULE_DELETED_EXE,        /* "deleted-exe": the running
					executable's file is deleted (or a
					memfd) */
};
#define PGW_NRULES 14
const char *pgw_rule_key(enum pgw_rule rule);

enum pgw_severity {
	PGW_SEV_INFO = 0,            /* "info": expected, said for the record */
	PGW_SEV_LOW,                 /* "low" */
	PGW_SEV_MEDIUM,              /* "medium" */
	PGW_SEV_HIGH,                /* "high" */
};
#define PGW_NSEVERITIES 4
const char *pgw_severity_key(enum pgw_severity sev);

/* One page-table entry that shows a finding. */
struct pgw_evidence_entry {
	enum pgw_level level;
	uint64_t table;          /* the table's physical address */
	unsigned index;
	uint64_t entry_pa;
	uint64_t entry;          /* its raw value */
};
#define PGW_FINDING_MAX_EVIDENCE 6

struct pgw_finding {
	enum pgw_rule rule;
	enum pgw_severity severity;
	bool has_range;          /* false: no virtual range (cross-view,
				    no-nx) */
	uint64_t va, end;        /* end exclusive; 0 means 2^64 */
	bool has_root;
	uint64_t root;           /* the top table */
	const struct pgw_task *owner;  /* NULL: unknown */
	unsigned nevidence;
	struct pgw_evidence_entry evidence[PGW_FINDING_MAX_EVIDENCE];
	char why[256];
};

struct pgw_check;

/*
 * Gather what every root's check compares with, through the kernel
 * root's space: the kernel half's bounds and entries, the kernel text and
 * read-only data (kallsyms' _stext, _etext, __start_rodata,
 * __end_rodata; pgw_check_text_why says whether they were found), and
 * the end of RAM.
 */
enum pgw_status pgw_check_open(const struct pgw_space *kernel,
			       struct pgw_check **ck_ret,
			       struct pgw_err *err);
void pgw_check_close(struct pgw_check *ck);
/* How the kernel text was bounded; NULL when it is known. */
const char *pgw_check_text_why(const struct pgw_check *ck);

typedef int (*pgw_finding_fn)(void *arg, const struct pgw_finding *f);

struct pgw_check_root_opts {
	bool kernel_root;        /* this is the kernel root: its W+X pages
				    are counted as the kernel counts them */
	bool user_half_only;     /* walk only below the kernel half (a
				    process root whose kernel half the
				    kernel root's check covers) */
	bool kernel_half_only;   /* walk only the kernel half (a PTI user
				    copy, whose user half its kernel
				    copy's walk covers) */
	bool compare_kernel_half;/* list its kernel-half entries that are
				    not the kernel root's (kernel-half-
				    mismatch) */
	const struct pgw_task *owner;  /* for the findings; may be NULL */
	uint64_t max_entries;    /* 0: the default budget */
};

struct pgw_check_stats {
	uint64_t kernel_wx_pages;    /* kernel_root: W+X 4 KiB pages as
					ptdump_check_wx counts them (the
					guard hole and the PCI BIOS area
					left out; no-NX modes included) */
	uint64_t tables_not_in_image;/* holes whose table the image lacks */
	struct pgw_walk_stats walk;
};

/*
 * Walk one root and report its findings, in address order, to fn (a
 * non-zero return stops: PGW_E_STOPPED).  PGW_E_LIMIT when the entry
 * budget stopped the walk (what was found is reported).  Call the kernel
 * root first: the page tables it walks are the ones pt-writable also
 * looks for in the others.
 */
enum pgw_status pgw_check_root(struct pgw_check *ck,
			       const struct pgw_space *space,
			       const struct pgw_check_root_opts *opts,
			       pgw_finding_fn fn, void *arg,
			       struct pgw_check_stats *stats_ret,
			       struct pgw_err *err);

/*
 * Whether check walks a root of this kind (and compares its kernel
 * half): the kernel's, processes', and the kinds that say something is
 * wrong; not the ones Linux makes by design without a process (empty,
 * tables-only, supervisor-only identity maps, kernel-image), which
 * orphan-root reports.
 */
bool pgw_check_kind(enum pgw_root_kind kind);

/*
 * The findings of every root at once: kernel-half-mismatch from the
 * scan's recorded differences, orphan-root and unowned-task from the
 * cross-view (view and tasks may be NULL: no task list).
 */
enum pgw_status pgw_check_roots(struct pgw_check *ck,
				const struct pgw_roots *roots,
				const struct pgw_task *tasks,
				const struct pgw_roots_view *view,
				pgw_finding_fn fn, void *arg,
				struct pgw_err *err);

/*
 * The rules only a process's VMAs make possible, for its space user
 * (the root its mm->pgd names) and its VMAs (pgw_linux_vmas): the user
 * half's user-accessible leaves outside every VMA (outside-vma, high),
 * leaves writable or executable where their VMA is not (beyond-vma,
 * high; executable only in modes with NX), VMAs executable without a
 * file but the kernel's special mappings (anon-exec, info: JITs make
 * them too), and a running executable whose file is deleted or a memfd
 * (deleted-exe, medium).  Findings go to fn in address order, the
 * leaf ones with the walk to them as evidence.  PGW_E_LIMIT when the
 * entry budget (0: the default) stopped the walk.
 */
enum pgw_status pgw_check_vmas(struct pgw_check *ck,
			       const struct pgw_space *user,
			       const struct pgw_vmas *vmas,
			       const struct pgw_task *owner,
			       uint64_t max_entries, pgw_finding_fn fn,
			       void *arg, struct pgw_err *err);

/* ---- diff: what changed between two address spaces (src/walk/) -------- */

/*
 * One side of a diff range: how it is mapped there.  A range of a diff
 * has one page size, effective permissions and attributes on each side
 * it is mapped in, and physically contiguous frames (or one frame again
 * and again: same_frame), as dump's runs.
 */
struct pgw_diff_side {
	bool mapped;
	uint64_t pa;             /* of the range's first byte */
	uint64_t page_size;
	enum pgw_level level;
	uint32_t flags;          /* the first leaf's own flags */
	uint32_t eff_flags;
	bool same_frame;
};

enum pgw_diff_kind {
	PGW_DIFF_ADDED = 0,      /* "added": mapped in b only */
	PGW_DIFF_REMOVED,        /* "removed": mapped in a only */
	PGW_DIFF_CHANGED,        /* "changed": mapped in both, differently */
	PGW_DIFF_UNCOMPARED,     /* "uncompared": a page table of one side
				    is not in its image (what it maps is
				    unknown), or, comparing data, a page
				    mapped alike is not */
};
const char *pgw_diff_kind_key(enum pgw_diff_kind kind);

/* What changed, each with a key (pgw_diff_change_key). */
enum pgw_diff_change {
	PGW_DC_FRAME = 1u << 0,      /* "frame" */
	PGW_DC_PERMS = 1u << 1,      /* "permissions": effective rw/user/nx */
	PGW_DC_PAGE_SIZE = 1u << 2,  /* "page_size" */
	PGW_DC_ATTRS = 1u << 3,      /* "attributes": global, pcd, pwt, pat */
	PGW_DC_DATA = 1u << 4,       /* "data": the bytes differ */
};
#define PGW_NDIFF_CHANGES 5
const char *pgw_diff_change_key(unsigned bit_index);

struct pgw_diff_range {
	enum pgw_diff_kind kind;
	uint64_t va, end;        /* end exclusive; 0 means 2^64 */
	struct pgw_diff_side a, b;
	unsigned changes;        /* enum pgw_diff_change bits (changed) */
	enum pgw_absence absence_a, absence_b;  /* uncompared: why */
	bool table_absent;       /* uncompared: a page table (not data) is
				    not in an image */
};

struct pgw_diff_opts {
	struct pgw_walk_opts walk;   /* the range; the budget of each walk */
	bool data;               /* compare the bytes of pages mapped
				    alike in both */
};

struct pgw_diff_stats {
	uint64_t added, removed, changed, uncompared;    /* bytes */
	uint64_t same;           /* bytes mapped alike (and, with data,
				    equal) */
	uint64_t data_compared;  /* bytes whose data was compared */
	uint64_t table_absent;   /* of uncompared, bytes under a page table
				    an image lacks */
	struct pgw_walk_stats a, b;
};

/*
 * Walk a and b and report, in address order, the ranges mapped in one
 * only or mapped differently, coalesced.  PGW_E_LIMIT when a walk ran out
 * of budget (nothing is reported: a diff of part of a space would call
 * the rest removed), PGW_E_STOPPED when fn returned non-zero.
 */
enum pgw_status pgw_diff_spaces(const struct pgw_space *a,
				const struct pgw_space *b,
				const struct pgw_diff_opts *opts,
				int (*fn)(void *arg,
					  const struct pgw_diff_range *r),
				void *arg, struct pgw_diff_stats *stats_ret,
				struct pgw_err *err);

/* ---- iterators: the walks above, one item at a time (src/walk, linux) - */

/*
 * drgn's pull style beside the callbacks, for a caller that cannot be
 * called back (a language binding): _new takes what the walk takes
 * (copied; pointers inside, as a layout or an owner, must outlive the
 * iterator), _next gives the items in the callbacks' order, each valid
 * until the next call, and NULL after the last: PGW_OK, or, where the walk
 * ended short (PGW_E_LIMIT, a read error), its status with err, returned
 * after every item it found; _stats the walk's stats once _next gave
 * NULL; _free stops a walk not finished (NULL: nothing).  The walk runs
 * in a thread of its own while _next waits for it, never beside the
 * caller, a few dozen items at a time, so memory stays flat however long
 * it is; the image must not be used from another thread meanwhile.
 */
struct pgw_runs_iter;
enum pgw_status pgw_runs_iter_new(const struct pgw_space *space,
				  const struct pgw_run_opts *opts,
				  struct pgw_runs_iter **it_ret,
				  struct pgw_err *err);
enum pgw_status pgw_runs_iter_next(struct pgw_runs_iter *it,
				   const struct pgw_run **run_ret,
				   struct pgw_err *err);
void pgw_runs_iter_stats(const struct pgw_runs_iter *it,
			 struct pgw_walk_stats *stats_ret);
void pgw_runs_iter_free(struct pgw_runs_iter *it);

struct pgw_diff_iter;
enum pgw_status pgw_diff_iter_new(const struct pgw_space *a,
				  const struct pgw_space *b,
				  const struct pgw_diff_opts *opts,
				  struct pgw_diff_iter **it_ret,
				  struct pgw_err *err);
enum pgw_status pgw_diff_iter_next(struct pgw_diff_iter *it,
				   const struct pgw_diff_range **range_ret,
				   struct pgw_err *err);
void pgw_diff_iter_stats(const struct pgw_diff_iter *it,
			 struct pgw_diff_stats *stats_ret);
void pgw_diff_iter_free(struct pgw_diff_iter *it);

/* pgw_search's hits (their bytes the iterator's until the next call);
 * pat must outlive it. */
struct pgw_search_iter;
enum pgw_status pgw_search_iter_new(const struct pgw_patterns *pat,
				    struct pgw_image *img,
				    const struct pgw_space *space,
				    const struct pgw_search_opts *opts,
				    struct pgw_search_iter **it_ret,
				    struct pgw_err *err);
enum pgw_status pgw_search_iter_next(struct pgw_search_iter *it,
				     const struct pgw_search_hit **hit_ret,
				     struct pgw_err *err);
void pgw_search_iter_stats(const struct pgw_search_iter *it,
			   struct pgw_search_stats *stats_ret);
void pgw_search_iter_free(struct pgw_search_iter *it);

/* A root's check findings (pgw_check_root); ck is used, not copied. */
struct pgw_findings_iter;
enum pgw_status pgw_findings_iter_new(struct pgw_check *ck,
				      const struct pgw_space *space,
				      const struct pgw_check_root_opts *opts,
				      struct pgw_findings_iter **it_ret,
				      struct pgw_err *err);
enum pgw_status pgw_findings_iter_next(struct pgw_findings_iter *it,
				       const struct pgw_finding **f_ret,
				       struct pgw_err *err);
void pgw_findings_iter_stats(const struct pgw_findings_iter *it,
			     struct pgw_check_stats *stats_ret);
void pgw_findings_iter_free(struct pgw_findings_iter *it);

/*
 * The roots a scan found (roots, which must outlive it), in order, each
 * with its recorded kernel-half differences (*diffs_ret: the
 * root's ndiffs_listed of them; NULL when none; diffs_ret may be NULL).
 * No walk: always PGW_OK.
 */
struct pgw_roots_iter;
enum pgw_status pgw_roots_iter_new(const struct pgw_roots *roots,
				   struct pgw_roots_iter **it_ret,
				   struct pgw_err *err);
enum pgw_status pgw_roots_iter_next(struct pgw_roots_iter *it,
				    const struct pgw_root_found **root_ret,
				    const struct pgw_root_diff **diffs_ret);
void pgw_roots_iter_free(struct pgw_roots_iter *it);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif /* PGWALK_H */
