/*
 * pgw-mkkernel [OPTION...] OUT: the synthetic x86-64 kernel of ksynth.h
 * (kallsyms, BTF, a task list) as an image, with processes whose top
 * tables copy the kernel half, for the tests of `pgwalk roots`, --pid and
 * --comm, and of what hostile kernel data does to them.
 *
 * The kernel root (0x1000) maps the direct map, the kernel image and an
 * empty table (0x7d0000).  The processes: pid 1 (init) and pid 10 (comm "\e[31mred\x") have roots
 * (0x601000, 0x603000) mapping a user page at 0x400000 (frames 0x701000,
 * 0x703000); pid 20's mm->pgd does not translate; pid 30's table
 * (0x605000) has no kernel half, so no scan finds it.
 *
 *   --raw               a raw image (no notes): VMCOREINFO's text sits in
 *                       a page of memory (0x7f0000), as the kernel keeps it
 *   --fake-vmcoreinfo   also a fake VMCOREINFO page (0x7e0000) claiming
 *                       PAGESIZE=8192
 *   --no-vmcoreinfo     (with --raw) no real VMCOREINFO in memory
 *   --hex-vmcoreinfo    VMCOREINFO also has a NUMBER() written in hex, as
 *                       6.12 writes NUMBER(VMALLOC_START)=0x...
 *   --second-vmcoreinfo a second valid VMCOREINFO page in memory
 *                       (0x7a0000, "6.1.0-capture") naming another kernel
 *                       root: 0x7b0000, a copy of the kernel root
 *   --no-note           (ELF) no VMCOREINFO note; the text in memory at
 *                       0x7f0000 as --raw has it
 *   --cpu-cr3=PA        (ELF) a QEMU CPU-state note: long mode, this CR3
 *   --cpu-user          (with --cpu-cr3) the CPU in user mode (CS 0x33)
 *   --cpu-sp=VA         (with --cpu-cr3) an NT_PRSTATUS note too, with
 *                       this stack pointer (and the CPU's CS)
 *   --no-btf            no BTF and kallsyms of text symbols only (no
 *                       init_task), as i386 distribution kernels: the task
 *                       layout must be inferred (ksynth.h's inferable
 *                       one); every process has a root with the kernel
 *                       half (pids 20 and 30 too), pid 30 is called
 *                       "fifteen-letters"
 *   --infer-stack       (with --no-btf) task_struct.stack where the
 *                       inference looks for it (before usage and flags):
 *                       KS_STACK(i), flags at 116
 *   --dup-pid           pid 30 claims pid 10 as well (with --no-btf: no
 *                       inferred layout may name anything)
 *   --kallsyms-unlisted=61|62|64  VMCOREINFO lists no kallsyms tables
 *                       (as before Linux 6.0); they are laid out as 6.1
 *                       (the markers after the names), 6.2 (and
 *                       seqs_of_names) or 6.4+ (num_syms first, offsets
 *                       after the token index) write them
 *   --kallsyms-absolute kallsyms_addresses (absolute, sorted) instead of
 *                       offsets and relative base: listed in VMCOREINFO
 *                       as 6.0+ kernels without KALLSYMS_BASE_RELATIVE
 *                       list them, or (--kallsyms-unlisted) where 4.4
 *                       (61, 62) or 6.4+ (64) put them
 *   --kallsyms-slide=N  (with --kallsyms-absolute) every address N bytes
 *                       higher: still sorted, but _stext is not VMCOREINFO's
 *   --threads=signal|group  BTF has thread links (signal_struct's
 *                       thread_head and thread_node, or the thread_group
 *                       ring alone) and pid 10 has two more threads, pids
 *                       11 and 12, "worker-a" and "worker-b" (ksynth.h)
 *   --thread-loop       (with --threads) pid 12's link points back at
 *                       pid 11's: the thread list never comes back
 *   --thread-foreign    (with --threads) pid 12 claims thread group 1
 *   --stale-btf[=after] a second, stale BTF blob (0x260010, before the
 *                       live one; after it: 0x2c0010) whose task_struct
 *                       puts mm at byte 64, where every task holds 0:
 *                       read, it would name no process
 *   --forged-btf        a second BTF blob (0x2e0010) whose task_struct
 *                       puts flags at byte 8, where every task holds 0:
 *                       it reads the same tasks and roots, but no kernel
 *                       thread
 *   --btf-copy          an exact copy of the BTF blob at 0x2c0010
 *   --btf-unlisted      kallsyms of text symbols only (no __start_BTF, no
 *                       init_task), the BTF still in memory: found by a
 *                       scan
 *   --hidden            a process root (0x606000) that no task owns
 *   --hidden-shares     a process root (0x606000) that no task owns, whose
 *                       user half is pid 1's top-level entry 0 (pid 1's
 *                       own page tables) and its own entry 1 (a page at
 *                       0x8000400000)
 *   --same-comm         pid 30 is called "init" too
 *   --loop              the task list loops back to pid 1
 *   --btf-lies          the BTF header claims a 1 MB string section
 *   --kallsyms-wild     kallsyms_offsets overwritten with random numbers
 *   --kallsyms-base=VA  kallsyms_relative_base's eight bytes set to VA
 *   --task-next=VA      init_task's tasks.next set to VA (garbage)
 *   --btf-retype        the BTF's task_struct.mm is an int, not a pointer
 *   --text-bounds       kallsyms has the text and rodata bounds, whose
 *                       direct-map alias is read-only (ksynth.h)
 *   --plant=ANOMALY     one thing `pgwalk check` must find (exactly):
 *     wx          the kernel map's 2 MiB page at 0xffffffff80600000
 *                 loses NX (kernel W+X)
 *     wx-text     the kernel text's own 2 MiB page (_stext) is writable
 *     text-alias  the direct map of the text is writable again (with
 *                 --text-bounds: text and rodata aliases)
 *     hook        pid 1's root has PML4 entry 400 pointing at 0x7c0000,
 *                 where the kernel's points at 0x7d0000
 *     user-pt     pid 10 maps its own page table (its PT) writable at
 *                 user VA 0x401000
 *     user-kernel the direct map's 2 MiB page at 0xffff888000400000 is
 *                 user-accessible (the kernel root's PML4, PDPT and PD
 *                 entries; the processes copy them)
 *     reserved    a 2 MiB page at 0xffffc80000000000 with reserved bit
 *                 13 set
 *     guard-wx    a W+X page at 0xffff800000000000, in the guard hole the
 *                 kernel's own W+X walk skips
 *     beyond-ram  a vmalloc page at 0xffffc80000000000 maps frame
 *                 0x200000000 (8 GiB; RAM is 8 MiB)
 *     self-map    pid 10's root maps itself: its PML4 entry 1 points at
 *                 the PML4 (user, writable), so its page tables are
 *                 user-writable through the cycle
 *     kernel-self-map  the kernel's PML4 entry 300 points at the PML4
 *                 (writable, executable): its tables are W+X
 *     table-beyond-ram  the kernel's PML4 entry 300 points at a table at
 *                 0x200000000 (8 GiB; RAM is 8 MiB)
 *   --vsyscall=real|fake  kallsyms has __vsyscall_page (ksynth.h's
 *                       KS_VSYSCALL) and the kernel maps 0xffffffffff600000
 *                       user-readable and executable, as vsyscall=emulate
 *                       does: to that frame (real) or to 0x700000 (fake)
 *   --modules=64|45|44  two loaded modules (ksynth.h's ks_modules), their
 *                       struct module in BTF as 6.4+ (mem[]), 4.5-6.3
 *                       (core_layout) or earlier kernels (module_core)
 *                       have it
 *   --module-bad=WHAT[,WHAT]  (with --modules) the list lies: loop (be\x1bta's
 *                       next is alpha again), name (be\x1bta's name fills
 *                       its 56 bytes without a NUL), size (alpha's first
 *                       range claims 0xfffff000 bytes), next (alpha's next
 *                       points at 0xffffffffa1000000, mapped nowhere),
 *                       state (alpha's state is 7), symtab (alpha's
 *                       symbol table points at 0xffffffffa1000000)
 *   --modules-unlisted  (with --modules) kallsyms without `modules`, as
 *                       a kernel without CONFIG_KALLSYMS_ALL
 *   --plant=wx-module   (with --modules) the module area's first page
 *                       (alpha's text) is writable as well as executable
 *   --decoy-note        two VMCOREINFO notes: the first names a decoy
 *                       kernel root (0x7b0000: copies of the kernel's
 *                       PML4, its text PDPT and PD, made before --plant),
 *                       the second the real one
 *   --cbit=N            memory encryption: bit N (SME's C-bit) set in every
 *                       present entry of every table, and VMCOREINFO's
 *                       NUMBER(sme_mask) says so (mm->pgd, a virtual
 *                       address, never has it)
 */
#include "ksynth.h"

#include <getopt.h>

static const uint64_t user_va = 0x400000;

/* Root at pa: the kernel half of the kernel's PML4, and a page at
 * user_va mapped through tables at pa + 0x100000... */
static void process_root(struct ksynth *k, uint64_t pa)
{
	uint64_t pfn = pa >> 12, t = pfn + 0x100;

	memcpy(iw_frame(&k->mem, pfn) + 256 * 8,
	       iw_frame(&k->mem, KS_ROOT >> 12) + 256 * 8, 256 * 8);
	/* PDPT, PD, PT in the frames after t; the page itself at t. */
	iw_entry(&k->mem, pfn, 0, 8, (t + 0x10) << 12 | IW_TBL | IW_US);
	iw_entry(&k->mem, t + 0x10, 0, 8, (t + 0x20) << 12 | IW_TBL | IW_US);
	iw_entry(&k->mem, t + 0x20, user_va >> 21, 8,
		 (t + 0x30) << 12 | IW_TBL | IW_US);
	iw_entry(&k->mem, t + 0x30, (user_va >> 12) & 511, 8,
		 t << 12 | IW_P | IW_RW | IW_US | IW_A | IW_D);
	iw_pattern(&k->mem, t);
}

/* --plant, in the processes' tables (after process_root): 0, or -1 for
 * a name that is not one of theirs. */
static int plant_process(struct ksynth *k, const char *what)
{
	/* process_root's tables for pid 10: the PT at frame t + 0x30. */
	uint64_t pt10 = (k->pgd_pa[3] >> 12) + 0x100 + 0x30;

	if (!strcmp(what, "hook")) {
		iw_frame(&k->mem, 0x7c0);
		iw_entry(&k->mem, k->pgd_pa[1] >> 12, 400, 8,
			 UINT64_C(0x7c0000) | IW_TBL);
	} else if (!strcmp(what, "self-map")) {
		iw_entry(&k->mem, k->pgd_pa[3] >> 12, 1, 8,
			 k->pgd_pa[3] | IW_TBL | IW_US);
	} else if (!strcmp(what, "user-pt")) {
		iw_entry(&k->mem, pt10, ((user_va >> 12) & 511) + 1, 8,
			 pt10 << 12 | IW_P | IW_RW | IW_US | IW_A | IW_D |
			 IW_NX);
	} else {
		return -1;
	}
	return 0;
}

/* --plant, in the kernel's tables (before the processes copy them): 0,
 * or -1 for a name that is not one of these. */
static int plant_kernel(struct ksynth *k, const char *what)
{
	if (!strcmp(what, "wx")) {
		iw_entry(&k->mem, 5, 3, 8, UINT64_C(0x600000) | IW_P | IW_RW |
			 IW_PS | IW_A | IW_D | IW_G);
	} else if (!strcmp(what, "wx-text")) {
		/* The kernel text's own 2 MiB page made writable. */
		iw_entry(&k->mem, 5, KS_STEXT >> 21, 8, KS_STEXT | IW_P |
			 IW_RW | IW_PS | IW_A | IW_D | IW_G);
	} else if (!strcmp(what, "text-alias")) {
		iw_entry(&k->mem, 3, KS_STEXT >> 21, 8, KS_STEXT | IW_P |
			 IW_RW | IW_PS | IW_A | IW_D | IW_G | IW_NX);
	} else if (!strcmp(what, "user-kernel")) {
		iw_entry(&k->mem, 1, 273, 8, 0x2000 | IW_TBL | IW_US);
		iw_entry(&k->mem, 2, 0, 8, 0x3000 | IW_TBL | IW_US);
		iw_entry(&k->mem, 3, 2, 8, UINT64_C(0x400000) | IW_P | IW_RW |
			 IW_US | IW_PS | IW_A | IW_D | IW_NX);
	} else if (!strcmp(what, "reserved")) {
		iw_frame(&k->mem, 0x7d1);
		iw_entry(&k->mem, 0x7d0, 0, 8, UINT64_C(0x7d1000) | IW_TBL);
		iw_entry(&k->mem, 0x7d1, 0, 8, UINT64_C(0x200000) | IW_P |
			 IW_RW | IW_PS | IW_A | IW_D | IW_G | IW_NX |
			 UINT64_C(1) << 13);
	} else if (!strcmp(what, "guard-wx")) {
		iw_frame(&k->mem, 0x7c6);
		iw_entry(&k->mem, 1, 256, 8, UINT64_C(0x7c4000) | IW_TBL);
		iw_entry(&k->mem, 0x7c4, 0, 8, UINT64_C(0x7c5000) | IW_TBL);
		iw_entry(&k->mem, 0x7c5, 0, 8, UINT64_C(0x7c6000) | IW_TBL);
		iw_entry(&k->mem, 0x7c6, 0, 8, UINT64_C(0x700000) | IW_P |
			 IW_RW | IW_A | IW_D | IW_G);
	} else if (!strcmp(what, "wx-module")) {
		iw_entry(&k->mem, KS_MOD_PT, 0, 8, KS_MOD_FRAME | IW_P | IW_RW |
			 IW_A | IW_D | IW_G);
	} else if (!strcmp(what, "kernel-self-map")) {
		iw_entry(&k->mem, KS_ROOT >> 12, 300, 8, KS_ROOT | IW_TBL);
	} else if (!strcmp(what, "table-beyond-ram")) {
		iw_entry(&k->mem, KS_ROOT >> 12, 300, 8,
			 UINT64_C(0x200000000) | IW_TBL);
	} else if (!strcmp(what, "beyond-ram")) {
		iw_frame(&k->mem, 0x7d2);
		iw_entry(&k->mem, 0x7d0, 0, 8, UINT64_C(0x7d1000) | IW_TBL);
		iw_entry(&k->mem, 0x7d1, 0, 8, UINT64_C(0x7d2000) | IW_TBL);
		iw_entry(&k->mem, 0x7d2, 0, 8, UINT64_C(0x200000000) | IW_P |
			 IW_RW | IW_A | IW_D | IW_G | IW_NX);
	} else {
		return -1;
	}
	return 0;
}

/* --module-bad: 0, or -1 for a name that is not one of these. */
static int bad_module(struct ksynth *k, int era, const char *what)
{
	uint64_t a = KS_MOD_ALPHA, b = KS_MOD_BETA;

	if (!strcmp(what, "loop")) {
		ks_mod_set(k, b + BW_MODULE_LIST, a + BW_MODULE_LIST, 8);
	} else if (!strcmp(what, "name")) {
		for (unsigned i = 0; i < BW_MODULE_NAME_LEN; i++)
			ks_mod_set(k, b + BW_MODULE_NAME + i, 'x', 1);
	} else if (!strcmp(what, "size")) {
		ks_mod_set(k, a + (era == BW_MODULES_44 ?
				   BW_MOD_OLD_CORE_SIZE :
				   BW_MODULE_RANGES + 8), 0xfffff000, 4);
	} else if (!strcmp(what, "next")) {
		ks_mod_set(k, a + BW_MODULE_LIST,
			   UINT64_C(0xffffffffa1000000), 8);
	} else if (!strcmp(what, "state")) {
		ks_mod_set(k, a, 7, 4);
	} else if (!strcmp(what, "symtab")) {
		/* 4.6+: mod_kallsyms.symtab; before: module.symtab. */
		ks_mod_set(k, era == BW_MODULES_44 ? a + BW_MOD_SYMS :
			   KS_MOD_AREA + 0x10400,
			   UINT64_C(0xffffffffa1000000), 8);
	} else {
		return -1;
	}
	return 0;
}

/* --btf-retype: task_struct.mm's type becomes btfwriter's first type
 * (int): the member record (name "mm", type 7, the pointer; offset
 * bo.mm in bits) found in the blob as libbpf wrote it.  0, or -1 when
 * it is not there. */
static int retype_mm(struct ksynth *k)
{
	uint8_t *b = k->mem.b.p + (k->btf_va - KS_KT);
	uint32_t hdr = b[4] | b[5] << 8 | (uint32_t)b[6] << 16 |
		       (uint32_t)b[7] << 24;
	uint32_t w[4];
	memcpy(w, b + 8, sizeof(w));  /* type_off type_len str_off str_len */
	const char *str = (const char *)b + hdr + w[2];
	uint32_t mm_name = 0;
	for (uint32_t i = 1; i + 3 <= w[3]; i++)
		if (!str[i - 1] && !memcmp(str + i, "mm", 3)) {
			mm_name = i;
			break;
		}
	uint8_t *t = b + hdr + w[0];
	for (uint32_t i = 0; mm_name && i + 12 <= w[1]; i += 4) {
		uint32_t m[3];
		memcpy(m, t + i, sizeof(m));
		if (m[0] == mm_name && m[1] == 7 && m[2] == k->bo.mm * 8) {
			m[1] = 1;
			memcpy(t + i, m, sizeof(m));
			return 0;
		}
	}
	return -1;
}

/* --vsyscall: the fixmap's page at 0xffffffffff600000 (PML4 511, PDPT
 * 511, PD 507, PT 0) to frame pa, with the user bit on every level as
 * set_vsyscall_pgtable_user_bits leaves it. */
static void map_vsyscall(struct ksynth *k, uint64_t pa)
{
	iw_frame(&k->mem, 0x7c9);
	iw_entry(&k->mem, KS_ROOT >> 12, 511, 8, 0x4000 | IW_TBL | IW_US);
	iw_entry(&k->mem, 4, 511, 8, UINT64_C(0x7c8000) | IW_TBL | IW_US);
	iw_entry(&k->mem, 0x7c8, 507, 8, UINT64_C(0x7c9000) | IW_TBL | IW_US);
	iw_entry(&k->mem, 0x7c9, 0, 8, pa | IW_P | IW_US | IW_A | IW_G);
}

/* --decoy-note: a copy of the kernel's tables down to the text PD
 * (frames 1, 4, 5 to 0x7b0, 0x7b1, 0x7b2), linked to each other. */
static void decoy_root(struct ksynth *k)
{
	memcpy(iw_frame(&k->mem, 0x7b0), iw_frame(&k->mem, 1), IW_PAGE);
	memcpy(iw_frame(&k->mem, 0x7b1), iw_frame(&k->mem, 4), IW_PAGE);
	memcpy(iw_frame(&k->mem, 0x7b2), iw_frame(&k->mem, 5), IW_PAGE);
	iw_entry(&k->mem, 0x7b0, 511, 8, UINT64_C(0x7b1000) | IW_TBL);
	iw_entry(&k->mem, 0x7b1, 510, 8, UINT64_C(0x7b2000) | IW_TBL);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "raw", no_argument, NULL, 'r' },
		{ "fake-vmcoreinfo", no_argument, NULL, 'f' },
		{ "no-vmcoreinfo", no_argument, NULL, 'n' },
		{ "hidden", no_argument, NULL, 'h' },
		{ "same-comm", no_argument, NULL, 's' },
		{ "loop", no_argument, NULL, 'l' },
		{ "btf-lies", no_argument, NULL, 'b' },
		{ "kallsyms-wild", no_argument, NULL, 'k' },
		{ "text-bounds", no_argument, NULL, 't' },
		{ "plant", required_argument, NULL, 'p' },
		{ "cbit", required_argument, NULL, 'c' },
		{ "kallsyms-base", required_argument, NULL, 'B' },
		{ "task-next", required_argument, NULL, 'T' },
		{ "btf-retype", no_argument, NULL, 'Y' },
		{ "modules", required_argument, NULL, 'm' },
		{ "module-bad", required_argument, NULL, 'M' },
		{ "modules-unlisted", no_argument, NULL, 'K' },
		{ "vsyscall", required_argument, NULL, 'V' },
		{ "hidden-shares", no_argument, NULL, 'H' },
		{ "decoy-note", no_argument, NULL, 'D' },
		{ "hex-vmcoreinfo", no_argument, NULL, 'x' },
		{ "second-vmcoreinfo", no_argument, NULL, '2' },
		{ "no-note", no_argument, NULL, 'N' },
		{ "cpu-cr3", required_argument, NULL, 'C' },
		{ "cpu-user", no_argument, NULL, 'u' },
		{ "cpu-sp", required_argument, NULL, 'Q' },
		{ "no-btf", no_argument, NULL, 'O' },
		{ "dup-pid", no_argument, NULL, 'P' },
		{ "infer-stack", no_argument, NULL, 'j' },
		{ "kallsyms-unlisted", required_argument, NULL, 'U' },
		{ "kallsyms-absolute", no_argument, NULL, 'a' },
		{ "stale-btf", optional_argument, NULL, 'S' },
		{ "forged-btf", no_argument, NULL, 'g' },
		{ "btf-copy", no_argument, NULL, 'G' },
		{ "btf-unlisted", no_argument, NULL, 'e' },
		{ "threads", required_argument, NULL, 'R' },
		{ "thread-loop", no_argument, NULL, 'W' },
		{ "thread-foreign", no_argument, NULL, 'F' },
		{ "kallsyms-slide", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	bool raw = false, fake = false, no_vmci = false, hidden = false,
	     same = false, loop = false, lies = false, wild = false,
	     bounds = false, retype = false, shares = false, decoy = false,
	     hex = false, second = false, no_note = false,
	     no_btf = false, dup_pid = false, infer_stack = false,
	     stale_after = false, forged = false, btf_copy = false,
	     btf_unlisted = false, absolute = false,
	     stale = false, thread_loop = false, thread_foreign = false;
	int threads = 0, modules = 0;
	char *module_bad = NULL;
	bool modules_unlisted = false;
	uint64_t cr3 = 0, slide = 0, cpu_sp = 0;
	bool cpu_user = false;
	int unlisted = 0;
	const char *plant = "", *base = NULL, *task_next = NULL,
		   *vsyscall = NULL;
	unsigned cbit = 0;
	struct ksynth k;
	int c;

	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'r': raw = true; break;
		case 'f': fake = true; break;
		case 'n': no_vmci = true; break;
		case 'h': hidden = true; break;
		case 's': same = true; break;
		case 'l': loop = true; break;
		case 'b': lies = true; break;
		case 'k': wild = true; break;
		case 't': bounds = true; break;
		case 'p': plant = optarg; break;
		case 'B': base = optarg; break;
		case 'T': task_next = optarg; break;
		case 'Y': retype = true; break;
		case 'H': shares = true; break;
		case 'D': decoy = true; break;
		case 'V':
			vsyscall = optarg;
			if (strcmp(optarg, "real") && strcmp(optarg, "fake")) {
				fprintf(stderr, "pgw-mkkernel: --vsyscall=%s: "
					"real or fake\n", optarg);
				return 64;
			}
			break;
		case 'x': hex = true; break;
		case '2': second = true; break;
		case 'N': no_note = true; break;
		case 'C': cr3 = strtoull(optarg, NULL, 0); break;
		case 'u': cpu_user = true; break;
		case 'Q': cpu_sp = strtoull(optarg, NULL, 0); break;
		case 'O': no_btf = true; break;
		case 'P': dup_pid = true; break;
		case 'j': infer_stack = true; break;
		case 'a': absolute = true; break;
		case 'S':
			stale = true;
			stale_after = optarg && !strcmp(optarg, "after");
			if (optarg && !stale_after) {
				fprintf(stderr, "pgw-mkkernel: --stale-btf=%s: "
					"after, or no value\n", optarg);
				return 64;
			}
			break;
		case 'g': forged = true; break;
		case 'G': btf_copy = true; break;
		case 'e': btf_unlisted = true; break;
		case 'W': thread_loop = true; break;
		case 'F': thread_foreign = true; break;
		case 'R':
			threads = !strcmp(optarg, "signal") ?
					  BW_THREADS_SIGNAL :
				  !strcmp(optarg, "group") ? BW_THREADS_GROUP :
							     -1;
			if (threads < 0) {
				fprintf(stderr, "pgw-mkkernel: --threads=%s: "
					"signal or group\n", optarg);
				return 64;
			}
			break;
		case 'L': slide = strtoull(optarg, NULL, 0); break;
		case 'm':
			modules = atoi(optarg);
			if (modules != BW_MODULES_64 &&
			    modules != BW_MODULES_45 &&
			    modules != BW_MODULES_44) {
				fprintf(stderr, "pgw-mkkernel: --modules=%s: "
					"64, 45 or 44\n", optarg);
				return 64;
			}
			break;
		case 'M': module_bad = optarg; break;
		case 'K': modules_unlisted = true; break;
		case 'U':
			unlisted = atoi(optarg);
			if (unlisted != 61 && unlisted != 62 &&
			    unlisted != 64) {
				fprintf(stderr, "pgw-mkkernel: "
					"--kallsyms-unlisted=%s: 61, 62 or "
					"64\n",
					optarg);
				return 64;
			}
			break;
		case 'c':
			cbit = (unsigned)atoi(optarg);
			if (cbit < 24 || cbit > 51) {
				fprintf(stderr, "pgw-mkkernel: --cbit=%s: a bit "
					"above memory, 24..51\n", optarg);
				return 64;
			}
			break;
		default:
			fprintf(stderr, "usage: pgw-mkkernel [OPTION...] OUT "
				"(see the source)\n");
			return 64;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: pgw-mkkernel [OPTION...] OUT\n");
		return 64;
	}
	ks_build(&k, &(struct ksynth_opts){
			     .text_bounds = bounds,
			     .text_only = no_btf || btf_unlisted,
			     .no_btf = no_btf, .inferable = no_btf,
			     .infer_stack = infer_stack,
			     .vsyscall = vsyscall != NULL,
			     .unlisted = unlisted, .absolute = absolute,
			     .threads = threads, .modules = modules,
			     .modules_unlisted = modules_unlisted });
	for (char *w = module_bad ? strtok(module_bad, ",") : NULL; w;
	     w = strtok(NULL, ","))
		if (!modules || bad_module(&k, modules, w)) {
			fprintf(stderr, "pgw-mkkernel: --module-bad=%s: loop, "
				"name, size, next, state or symtab, with "
				"--modules\n",
				w);
			return 64;
		}
	if (vsyscall)
		map_vsyscall(&k, !strcmp(vsyscall, "real") ? KS_VSYSCALL :
						    UINT64_C(0x700000));
	/* A third kernel-half entry (an empty vmalloc table), as every real
	 * kernel has more than two: the kernel-root scan looks for them. */
	iw_frame(&k.mem, 0x7d0);
	iw_entry(&k.mem, KS_ROOT >> 12, 400, 8, UINT64_C(0x7d0000) | IW_TBL);
	/* ksynth's roots for pids 1 and 10 (tasks 1 and 3), which copy
	 * the kernel half as planted. */
	if (decoy)
		decoy_root(&k);
	int kernel_side = *plant ? plant_kernel(&k, plant) : 0;
	process_root(&k, k.pgd_pa[1]);
	process_root(&k, k.pgd_pa[3]);
	if (no_btf) {
		process_root(&k, k.pgd_pa[4]);
		process_root(&k, k.pgd_pa[5]);
		/* A comm the kernel could have written: NUL-terminated. */
		ks_put(&k, k.task[5] + k.bo.comm, "fifteen-letters", 16);
	}
	if (dup_pid) {
		ks_set(&k, k.task[5] + k.bo.ids, 10, 4);
		ks_set(&k, k.task[5] + k.bo.ids + 4, 10, 4);
	}
	if (hidden)
		process_root(&k, 0x606000);
	if (shares) {
		/* process_root's page for 0x8000400000 (entry 1), then
		 * entry 0 taken from pid 1's root. */
		uint64_t e0 = 0;
		memcpy(&e0, iw_frame(&k.mem, k.pgd_pa[1] >> 12), 8);
		process_root(&k, 0x606000);
		uint8_t *top = iw_frame(&k.mem, 0x606);
		memcpy(top + 8, top, 8);
		memcpy(top, &e0, 8);
	}
	if (kernel_side && plant_process(&k, plant)) {
		fprintf(stderr, "pgw-mkkernel: no anomaly '%s'\n", plant);
		return 64;
	}
	if (same) {
		static const uint8_t zero[16];
		ks_put(&k, k.task[5] + k.bo.comm, zero, sizeof(zero));
		ks_put(&k, k.task[5] + k.bo.comm, "init", 4);
	}
	if (loop)
		ks_link(&k, 3, 1, 0);
	if (lies)
		ks_set(&k, k.btf_va + 20, 1000000, 4);    /* str_len */
	if (wild) {
		unsigned seed = 7;
		for (size_t i = 0; i + 4 <= k.kt.offsets.len; i += 4)
			ks_set(&k, k.offsets_va + i,
			       (uint32_t)rand_r(&seed) * 2654435761u, 4);
	}
	if (base)
		ks_set(&k, k.base_va, strtoull(base, NULL, 0), 8);
	if (threads && thread_loop)
		ks_set(&k, KS_THREAD(1) + (threads == BW_THREADS_SIGNAL ?
					   BW_THREAD_NODE : BW_THREAD_GROUP),
		       KS_THREAD(0) + (threads == BW_THREADS_SIGNAL ?
				       BW_THREAD_NODE : BW_THREAD_GROUP), 8);
	if (threads && thread_foreign)
		ks_set(&k, KS_THREAD(1) + k.bo.ids + 4, 1, 4);
	if (stale) {
		struct bw_offsets o = k.bo;
		uint32_t size;
		o.mm = 64;
		uint8_t *blob = bw_blob(&o, 0, &size);
		ks_put(&k, ks_kt(stale_after ? 0x2c0010 : 0x260010), blob,
		       size);
		free(blob);
	}
	if (forged) {
		struct bw_offsets o = k.bo;
		uint32_t size;
		o.flags = 8;
		uint8_t *blob = bw_blob(&o, 0, &size);
		ks_put(&k, ks_kt(0x2e0010), blob, size);
		free(blob);
	}
	if (btf_copy && k.btf_size)
		ks_put(&k, ks_kt(0x2c0010),
		       k.mem.b.p + (k.btf_va - KS_KT), k.btf_size);
	for (size_t i = 0; absolute && slide && i < k.kt.offsets.len; i += 8) {
		uint64_t a;
		memcpy(&a, k.kt.offsets.p + i, 8);   /* little-endian host */
		ks_set(&k, k.offsets_va + i, a + slide, 8);
	}
	if (task_next)
		ks_link(&k, 0, -1, strtoull(task_next, NULL, 0));
	if (retype && retype_mm(&k) != 0) {
		fprintf(stderr, "pgw-mkkernel: no task_struct.mm in the BTF\n");
		return 2;
	}
	if (cbit) {
		uint64_t mask = UINT64_C(1) << cbit;
		uint8_t *seen = calloc(k.mem.b.len / IW_PAGE, 1);
		if (!seen)
			return 2;
		iw_set_bit_below(&k.mem, KS_ROOT >> 12, 4, mask, seen);
		for (int i = 0; i < KS_NTASKS; i++)
			if (k.pgd_pa[i])
				iw_set_bit_below(&k.mem, k.pgd_pa[i] >> 12, 4,
					      mask, seen);
		if (hidden)
			iw_set_bit_below(&k.mem, 0x606, 4, mask, seen);
		free(seen);
		size_t n = strlen(k.vmcoreinfo);
		snprintf(k.vmcoreinfo + n, sizeof(k.vmcoreinfo) - n,
			 "NUMBER(sme_mask)=%llu\n", (unsigned long long)mask);
	}
	if (hex) {
		size_t n = strlen(k.vmcoreinfo);
		snprintf(k.vmcoreinfo + n, sizeof(k.vmcoreinfo) - n,
			 "NUMBER(VMALLOC_START)=0xffffc90000000000\n");
	}
	if (second) {
		/* Another kernel's facts: its root a copy of this one's, so
		 * it maps itself and _stext as the real one does. */
		char text[sizeof(k.vmcoreinfo)];
		memcpy(iw_frame(&k.mem, 0x7b0), iw_frame(&k.mem, KS_ROOT >> 12),
		       IW_PAGE);
		snprintf(text, sizeof(text), "OSRELEASE=6.1.0-capture\n"
			 "PAGESIZE=4096\nSYMBOL(init_top_pgt)=%llx\n"
			 "NUMBER(phys_base)=0\nSYMBOL(_stext)=%llx\n",
			 (unsigned long long)ks_kt(0x7b0000),
			 (unsigned long long)ks_kt(0x200000));
		ks_put(&k, ks_dm(0x7a0000), text, strlen(text));
	}
	if ((raw || no_note) && !no_vmci)
		ks_put(&k, ks_dm(0x7f0000), k.vmcoreinfo,
		       strlen(k.vmcoreinfo));
	if (fake) {
		char text[sizeof(k.vmcoreinfo)];
		snprintf(text, sizeof(text), "%s", k.vmcoreinfo);
		char *p = strstr(text, "PAGESIZE=4096");
		if (p)
			memcpy(p, "PAGESIZE=8192", 13);
		ks_put(&k, ks_dm(0x7e0000), text, strlen(text));
	}
	int rc;
	if (raw) {
		rc = iw_write_file(argv[optind], k.mem.b.p, k.mem.b.len);
	} else {
		struct iw_buf elf = { 0 };
		struct iw_cpu cpu = {
			.cr0 = 0x80050033, .cr3 = cr3, .cr4 = 0x3606f0,
			.cs_flags = 1u << 21,          /* CS.L: long mode */
			.cs_selector = cpu_user ? 0x33 : 0x10, .sp = cpu_sp,
		};
		struct iw_elf e = { .is64 = true, .machine = 62,
				    .vmcoreinfo = no_note ? NULL : k.vmcoreinfo,
				    .cpus = cr3 ? &cpu : NULL,
				    .ncpus = cr3 ? 1 : 0,
				    .cpu_prstatus = cpu_sp != 0 };
		char first[sizeof(k.vmcoreinfo)];
		if (decoy) {
			/* The decoy's note first: the same text, another
			 * root. */
			char *at = strstr(k.vmcoreinfo, "SYMBOL(init_top_pgt)=");
			size_t head = at ? (size_t)(at - k.vmcoreinfo) : 0;
			const char *nl = at ? strchr(at, '\n') : NULL;
			snprintf(first, sizeof(first),
				 "%.*sSYMBOL(init_top_pgt)=%llx%s", (int)head,
				 k.vmcoreinfo,
				 (unsigned long long)ks_kt(0x7b0000),
				 nl ? nl : "\n");
			e.vmcoreinfo = first;
			e.vmcoreinfo2 = k.vmcoreinfo;
		}
		iw_elf_build(&e, &k.mem, &elf, NULL);
		rc = iw_write_file(argv[optind], elf.p, elf.len);
		iw_free(&elf);
	}
	ks_free(&k);
	return rc ? 2 : 0;
}
