/*
 * A synthetic x86-64 Linux kernel in 8 MiB of memory, for the tests of
 * the Linux readers: page tables (the direct map at 0xffff888000000000
 * and the kernel image map at 0xffffffff80000000, both 2 MiB pages over
 * all of memory, root at 0x1000), kallsyms tables (ksymwriter.h), a BTF
 * blob (btfwriter.h), init_task and a circular task list in the direct
 * map, mm_structs and their pgd pages, and the VMCOREINFO text naming
 * it all.  Tests change the memory (ks_set) before writing the ELF core.
 *
 *   0x001000  PML4          0x200000  kallsyms tables (kernel image)
 *   0x002000  PDPT, PD ...  0x280000  BTF
 *   0x400000  task_structs  0x300000  init_task
 *   0x500000  mm_structs    0x340000  init_uts_ns
 *   0x600000  pgd pages
 */
#ifndef PGW_KSYNTH_H
#define PGW_KSYNTH_H

#include "btfwriter.h"
#include "ksymwriter.h"

#define KS_RAM (UINT64_C(8) << 20)
#define KS_DM UINT64_C(0xffff888000000000)
#define KS_KT UINT64_C(0xffffffff80000000)
#define KS_ROOT UINT64_C(0x1000)
#define KS_NTASKS 6
#define KS_TASK_STRIDE 0x400u

static inline uint64_t ks_dm(uint64_t pa) { return KS_DM + pa; }
static inline uint64_t ks_kt(uint64_t pa) { return KS_KT + pa; }

struct ksynth_opts {
	bool text_only;   /* kallsyms without data symbols (no init_task,
			     no __start_BTF): like the i386 kernels */
	bool no_btf;      /* no BTF blob in memory at all */
	int vmas;         /* BW_VMAS_*: BTF has the VMA reader's structs,
			     kallsyms the functions it compares pointers
			     with (pgw-mkvmas) */
	bool infer_stack; /* (with inferable) flags at KS_INFER_FLAGS_STACKED
			     and, before it as in every task_struct, usage
			     and stack: KS_STACK(i) */
	bool inferable;   /* (with text_only and no_btf) a layout the
			     inference can find: task_structs with
			     active_mm, real_parent and parent (KS_INFER),
			     an init_mm, every process's pgd a root */
	int unlisted;     /* 61, 62 or 64: VMCOREINFO lists no kallsyms
			     tables (before 6.0), which are laid out as
			     scripts/kallsyms.c writes them up to 6.1
			     (markers after the names), in 6.2-6.3
			     (seqs_of_names after the markers) or from 6.4
			     (num_syms first, offsets after the index) */
	bool absolute;    /* kallsyms_addresses (absolute, 8 bytes a
			     symbol, sorted by address as nm -n lists
			     them) instead of offsets and a relative base:
			     listed, VMCOREINFO names them as 6.0+ kernels
			     without KALLSYMS_BASE_RELATIVE do; unlisted
			     61/62, in their place before num_syms, as
			     before 4.6; unlisted 64, after the token
			     index */
	int threads;      /* BW_THREADS_*: BTF has thread links, every
			     task its signal_struct (KS_SIGNAL) and kernel
			     stack (KS_STACK), and pid 10 two more threads,
			     pids 11 and 12 (KS_THREAD), "worker-a" and
			     "worker-b" */
	bool text_bounds; /* kallsyms also has _etext, __start_rodata and
			     __end_rodata (KS_ETEXT, KS_RODATA...), and the
			     direct map's 2 MiB page holding them is
			     read-only, as mark_rodata_ro leaves it */
	int modules;      /* BW_MODULES_*: BTF has struct module as that
			     era has it, kallsyms `modules` (KS_MODULES),
			     and two modules are loaded (ks_modules) */
	bool modules_unlisted; /* (with modules) kallsyms without `modules`,
			     as a kernel without CONFIG_KALLSYMS_ALL */
	bool vsyscall;    /* kallsyms also has __vsyscall_page
			     (KS_VSYSCALL), the frame the kernel maps at
			     0xffffffffff600000 (not mapped here) */
};

/*
 * With modules: the module area's 4 KiB pages from KS_MOD_AREA (the
 * kernel map's PD entry 256, its PT at frame KS_MOD_PT) map the 2 MiB
 * from frame KS_MOD_FRAME, read-only and executable;
 * the list head `modules` lies in the kernel's data.  Two modules, newest
 * first: "alpha" (text KS_MOD_AREA, 0x3000 bytes; data + 0x10000, 0x2000
 * bytes, holding its struct module at + 0x10100) and "be\x1bta" (an
 * escape byte in its name; text + 0x20000, 0x1000 bytes; data + 0x30000,
 * 0x1000 bytes, its struct module there); alpha keeps its own symbols
 * (ks_module_syms), be\x1bta none.  alpha's text holds the
 * string PGW-MODULE-TEXT at + 0x100.  Eras before 6.4 have one core
 * range from the text's start to the data's end.
 */
#define KS_MODULES UINT64_C(0x338000)
#define KS_MOD_AREA UINT64_C(0xffffffffa0000000)
#define KS_MOD_FRAME UINT64_C(0x600000)
#define KS_MOD_PT UINT64_C(0x7ca)
#define KS_MOD_ALPHA (KS_MOD_AREA + 0x10100)
#define KS_MOD_BETA (KS_MOD_AREA + 0x30000)

/* With vsyscall: the kernel's vsyscall page (a frame). */
#define KS_VSYSCALL UINT64_C(0x3c1000)
/* inferable: the offsets of a task_struct BTF never describes, and
 * init_mm (in the kernel image's data, pgd the kernel root). */
static const struct bw_offsets ks_infer_offsets = {
	.task_size = 256, .flags = 4, .tasks = 16, .mm = 32, .ids = 48,
	.comm = 80, .comm_len = 16, .mm_size = 128, .pgd = 72,
};
#define KS_INFER_ACTIVE_MM 40
#define KS_INFER_REAL_PARENT 56
#define KS_INIT_MM UINT64_C(0x320000)
/* infer_stack: task_struct.stack, usage, then flags. */
#define KS_INFER_STACK 104
#define KS_INFER_FLAGS_STACKED 116

/* With text_bounds: the kernel text and read-only data (frames). */
#define KS_STEXT UINT64_C(0x200000)
#define KS_ETEXT UINT64_C(0x2ff800)
#define KS_RODATA UINT64_C(0x380000)
#define KS_ERODATA UINT64_C(0x3c0000)

struct ksynth {
	struct iw_mem mem;
	struct bw_offsets bo;
	uint64_t task[KS_NTASKS];     /* task_struct VAs; task[0] init_task */
	uint64_t mm[KS_NTASKS];       /* 0: none */
	uint64_t pgd_pa[KS_NTASKS];   /* 0: none or unmapped */
	int32_t pid[KS_NTASKS];
	const char *comm[KS_NTASKS];
	bool kthread[KS_NTASKS];
	uint64_t btf_va, btf_size;
	struct kw_tables kt;
	uint64_t names_va, num_va, token_table_va, token_index_va,
		offsets_va, base_va;
	char vmcoreinfo[2048];
};

/* Write n bytes of v at kernel VA va (direct or image map). */
static inline void ks_set(struct ksynth *k, uint64_t va, uint64_t v,
			  unsigned n)
{
	uint64_t pa = va >= KS_KT ? va - KS_KT : va - KS_DM;
	iw_frame(&k->mem, (pa + n - 1) >> 12);
	iw_le(k->mem.b.p + pa, v, n);
}

static inline void ks_put(struct ksynth *k, uint64_t va, const void *p,
			  size_t n)
{
	uint64_t pa = va >= KS_KT ? va - KS_KT : va - KS_DM;
	iw_frame(&k->mem, (pa + n - 1) >> 12);
	memcpy(k->mem.b.p + pa, p, n);
}

/* Point task i's tasks.next at task j's list_head (j < 0: at va), and
 * j's tasks.prev back, as list_add does. */
static inline void ks_link(struct ksynth *k, int i, int j, uint64_t va)
{
	uint64_t to = j >= 0 ? k->task[j] + k->bo.tasks : va;
	ks_set(k, k->task[i] + k->bo.tasks, to, 8);
	if (j >= 0)
		ks_set(k, to + 8, k->task[i] + k->bo.tasks, 8);
}

static inline void ks_tables(struct ksynth *k)
{
	/* 2 MiB pages over all memory in both maps. */
	iw_frame(&k->mem, KS_RAM / IW_PAGE - 1);
	iw_entry(&k->mem, 1, 273, 8, 0x2000 | IW_TBL);
	iw_entry(&k->mem, 2, 0, 8, 0x3000 | IW_TBL);
	iw_entry(&k->mem, 1, 511, 8, 0x4000 | IW_TBL);
	iw_entry(&k->mem, 4, 510, 8, 0x5000 | IW_TBL);
	for (unsigned i = 0; i < KS_RAM >> 21; i++) {
		uint64_t leaf = (uint64_t)i << 21 | IW_P | IW_RW | IW_PS |
				IW_A | IW_D | IW_G | IW_NX;
		iw_entry(&k->mem, 3, i, 8, leaf);
		iw_entry(&k->mem, 5, i, 8, leaf);
	}
}

static inline void ks_tasks(struct ksynth *k, bool inferable)
{
	static const struct {
		int32_t pid;
		const char *comm;
		bool kthread, mm, mapped;
	} t[KS_NTASKS] = {
		{ 0, "swapper/0", true, false, false },
		{ 1, "init", false, true, true },
		{ 2, "kthreadd", true, false, false },
		{ 10, "\x1b[31mred\\x", false, true, true },
		{ 20, "lost-pgd", false, true, false },
		{ 30, "sixteen-letters!", false, true, true },
	};
	const struct bw_offsets *o = &k->bo;

	for (int i = 0; i < KS_NTASKS; i++) {
		k->task[i] = i == 0 ? ks_kt(0x300000) :
			     ks_dm(0x400000 + (uint64_t)i * KS_TASK_STRIDE);
		k->pid[i] = t[i].pid;
		k->comm[i] = t[i].comm;
		k->kthread[i] = t[i].kthread;
		ks_set(k, k->task[i] + o->flags,
		       t[i].kthread ? 0x00200040 : 0x00400100, 4);
		ks_set(k, k->task[i] + o->ids, (uint32_t)t[i].pid, 4);
		ks_set(k, k->task[i] + o->ids + 4, (uint32_t)t[i].pid, 4);
		ks_put(k, k->task[i] + o->comm, t[i].comm,
		       strnlen(t[i].comm, 16));
		k->mm[i] = k->pgd_pa[i] = 0;
		if (t[i].mm) {
			k->mm[i] = ks_dm(0x500000 + (uint64_t)i * 0x100);
			uint64_t pgd = ks_dm(0x600000 + (uint64_t)i * 0x1000);
			if (t[i].mapped || inferable)
				k->pgd_pa[i] = pgd - KS_DM;
			else
				pgd = UINT64_C(0xffff888100000000);
			ks_set(k, k->mm[i] + o->pgd, pgd, 8);
		}
		ks_set(k, k->task[i] + o->mm, k->mm[i], 8);
		if (!inferable)
			continue;
		/* init_task borrows init_mm; kernel threads have none. */
		ks_set(k, k->task[i] + KS_INFER_ACTIVE_MM,
		       i == 0 ? ks_kt(KS_INIT_MM) : k->mm[i], 8);
		/* init_task is its own parent; kthreadd's children its. */
		uint64_t parent = k->task[i == 0 || t[i].pid <= 2 ? 0 :
					 t[i].kthread ? 2 : 1];
		ks_set(k, k->task[i] + KS_INFER_REAL_PARENT, parent, 8);
		ks_set(k, k->task[i] + KS_INFER_REAL_PARENT + 8, parent, 8);
	}
	if (inferable)
		ks_set(k, ks_kt(KS_INIT_MM) + o->pgd, ks_kt(KS_ROOT), 8);
	for (int i = 0; i < KS_NTASKS; i++)
		ks_link(k, i, (i + 1) % KS_NTASKS, 0);
}

/* With threads: each task's signal_struct, and pid 10's other threads
 * (copies of its task_struct but for pid and comm). */
#define KS_SIGNAL(i) ks_dm(0x480000 + (uint64_t)(i) * 0x100)
#define KS_THREAD(j) ks_dm(0x401800 + (uint64_t)(j) * KS_TASK_STRIDE)
#define KS_THREADED 3            /* task index of pid 10 */
/* With threads: task i's 16 KiB kernel stack (threads: KS_NTASKS + j). */
#define KS_STACK(i) ks_dm(0x440000 + (uint64_t)(i) * 0x4000)

/* A ring of list_heads at the given addresses, in order. */
static inline void ks_ring(struct ksynth *k, const uint64_t *node, int n)
{
	for (int i = 0; i < n; i++) {
		ks_set(k, node[i], node[(i + 1) % n], 8);
		ks_set(k, node[i] + 8, node[(i + n - 1) % n], 8);
	}
}

static inline void ks_threads(struct ksynth *k, int threads)
{
	static const char *const comm[2] = { "worker-a", "worker-b" };
	uint8_t copy[KS_TASK_STRIDE];
	uint64_t *t = k->task;

	memcpy(copy, k->mem.b.p + (t[KS_THREADED] - KS_DM), sizeof(copy));
	for (int j = 0; j < 2; j++) {
		ks_put(k, KS_THREAD(j), copy, sizeof(copy));
		ks_set(k, KS_THREAD(j) + k->bo.ids, (uint32_t)(11 + j), 4);
		ks_set(k, KS_THREAD(j) + k->bo.comm, 0, 8);
		ks_set(k, KS_THREAD(j) + k->bo.comm + 8, 0, 8);
		ks_put(k, KS_THREAD(j) + k->bo.comm, comm[j], strlen(comm[j]));
		ks_set(k, KS_THREAD(j) + k->bo.tasks, 0, 8);
		ks_set(k, KS_THREAD(j) + k->bo.tasks + 8, 0, 8);
		ks_set(k, KS_THREAD(j) + BW_STACK, KS_STACK(KS_NTASKS + j), 8);
	}
	for (int i = 0; i < KS_NTASKS; i++)
		ks_set(k, t[i] + BW_STACK, KS_STACK(i), 8);
	for (int i = 0; i < KS_NTASKS; i++) {
		bool many = i == KS_THREADED;
		uint64_t group[3] = { t[i] + BW_THREAD_GROUP,
				      KS_THREAD(0) + BW_THREAD_GROUP,
				      KS_THREAD(1) + BW_THREAD_GROUP };
		ks_ring(k, group, many ? 3 : 1);
		if (threads != BW_THREADS_SIGNAL)
			continue;
		uint64_t node[4] = { KS_SIGNAL(i) + BW_THREAD_HEAD,
				     t[i] + BW_THREAD_NODE,
				     KS_THREAD(0) + BW_THREAD_NODE,
				     KS_THREAD(1) + BW_THREAD_NODE };
		ks_set(k, KS_SIGNAL(i) + 4, many ? 3 : 1, 4);
		ks_ring(k, node, many ? 4 : 2);
		ks_set(k, t[i] + BW_SIGNAL, KS_SIGNAL(i), 8);
		if (many)
			for (int j = 0; j < 2; j++)
				ks_set(k, KS_THREAD(j) + BW_SIGNAL,
				       KS_SIGNAL(i), 8);
	}
}

/* With vmas: the functions the VMA reader names VMAs and files by. */
#define KS_SPECIAL_MAPPING_NAME ks_kt(0x201300)
#define KS_SIMPLE_DNAME ks_kt(0x201400)

/* unlisted: after the names, the markers (one u32: the first name's
 * offset, 0) and 6.2's seqs_of_names (3 bytes a symbol), each aligned to
 * 8, as kallsyms.c's ALGN. */
static inline uint64_t ks_markers(struct ksynth *k, uint64_t va,
				  int unlisted)
{
	va = (va + 7) & ~UINT64_C(7);
	ks_set(k, va, 0, 4);
	va = (va + 4 + 7) & ~UINT64_C(7);
	if (unlisted == 62) {
		for (uint32_t i = 0; i < k->kt.num; i++)
			ks_set(k, va + 3 * i, (uint64_t)(i + 1) << 8, 3);
		va = (va + 3 * (uint64_t)k->kt.num + 7) & ~UINT64_C(7);
	}
	return va;
}

/* 6.4+'s order (scripts/kallsyms.c since "change the output order"):
 * num_syms, names, markers, token table, token index, offsets, relative
 * base, seqs_of_names, each aligned to 8. */
static inline void ks_kallsyms_64(struct ksynth *k, uint64_t va,
				  bool absolute)
{
	k->num_va = va;
	ks_set(k, va, k->kt.num, 4);
	k->names_va = va + 8;
	ks_put(k, k->names_va, k->kt.names.p, k->kt.names.len);
	k->token_table_va = ks_markers(k, k->names_va + k->kt.names.len, 61);
	ks_put(k, k->token_table_va, k->kt.token_table.p,
	       k->kt.token_table.len);
	k->token_index_va = (k->token_table_va + k->kt.token_table.len + 7) &
			    ~UINT64_C(7);
	ks_put(k, k->token_index_va, k->kt.token_index.p, 512);
	k->offsets_va = (k->token_index_va + 512 + 7) & ~UINT64_C(7);
	ks_put(k, k->offsets_va, k->kt.offsets.p, k->kt.offsets.len);
	k->base_va = (k->offsets_va + k->kt.offsets.len + 7) & ~UINT64_C(7);
	/* No relative base after absolute addresses. */
	uint64_t seqs = k->base_va;
	if (!absolute) {
		ks_set(k, k->base_va, k->kt.relative_base, 8);
		seqs += 8;
	}
	for (uint32_t i = 0; i < k->kt.num; i++)
		ks_set(k, seqs + 3 * i, (uint64_t)(i + 1) << 8, 3);
}

static int ks_by_addr(const void *a, const void *b)
{
	uint64_t x = ((const struct kw_sym *)a)->addr,
		 y = ((const struct kw_sym *)b)->addr;
	return x < y ? -1 : x > y;
}

/* kallsyms tables at 0x200000, in the kernel's order. */
static inline void ks_kallsyms(struct ksynth *k, const struct ksynth_opts *o)
{
	bool text_only = o->text_only, text_bounds = o->text_bounds,
	     vmas = o->vmas, vsyscall = o->vsyscall;
	int unlisted = o->unlisted;
	struct kw_sym all[] = {
		{ 'T', "_stext", ks_kt(0x200000) },
		{ 'T', "_text", ks_kt(0x200000) },
		{ 't', "do_one_initcall", ks_kt(0x201230) },
		{ 'T', "start_kernel", ks_kt(0x2ff000) },
		{ 'D', "init_task", k->task[0] },
		{ 'D', "init_top_pgt", ks_kt(KS_ROOT) },
		{ 'D', "init_uts_ns", ks_kt(0x340000) },
		{ 'A', "cpu_number", 0x1f02c },
		{ 'R', "__start_BTF", k->btf_va },
		{ 'R', "__stop_BTF", k->btf_va + k->btf_size },
	};
	size_t n = text_only ? 4 : sizeof(all) / sizeof(all[0]) -
				   (k->btf_size ? 0 : 2);
	struct kw_sym syms[sizeof(all) / sizeof(all[0]) + 7];
	uint64_t va = ks_kt(0x200000);

	memcpy(syms, all, n * sizeof(all[0]));
	if (text_bounds) {
		syms[n++] = (struct kw_sym){ 'T', "_etext", ks_kt(KS_ETEXT) };
		syms[n++] = (struct kw_sym){ 'R', "__start_rodata",
					     ks_kt(KS_RODATA) };
		syms[n++] = (struct kw_sym){ 'R', "__end_rodata",
					     ks_kt(KS_ERODATA) };
	}
	if (vmas) {
		syms[n++] = (struct kw_sym){ 't', "special_mapping_name",
					     KS_SPECIAL_MAPPING_NAME };
		syms[n++] = (struct kw_sym){ 'T', "simple_dname",
					     KS_SIMPLE_DNAME };
	}
	if (vsyscall)
		syms[n++] = (struct kw_sym){ 'D', "__vsyscall_page",
					     ks_kt(KS_VSYSCALL) };
	if (o->modules && !o->modules_unlisted)
		syms[n++] = (struct kw_sym){ 'd', "modules",
					     ks_kt(KS_MODULES) };
	if (o->absolute)
		qsort(syms, n, sizeof(syms[0]), ks_by_addr);
	kw_build(syms, n, !text_only, &k->kt);
	if (o->absolute)
		kw_absolute(syms, n, 8, &k->kt);
	if (unlisted == 64) {
		ks_kallsyms_64(k, va + 8, o->absolute);
		return;
	}
	k->offsets_va = va;
	ks_put(k, va, k->kt.offsets.p, k->kt.offsets.len);
	va = (va + k->kt.offsets.len + 7) & ~UINT64_C(7);
	if (!o->absolute) {
		k->base_va = va;
		ks_set(k, va, k->kt.relative_base, 8);
		va += 8;
	}
	/* Before 4.6 num_syms was an unsigned long: the same bytes. */
	k->num_va = va;
	ks_set(k, k->num_va, k->kt.num, 4);
	k->names_va = va + 8;
	ks_put(k, k->names_va, k->kt.names.p, k->kt.names.len);
	k->token_table_va = unlisted ?
		ks_markers(k, k->names_va + k->kt.names.len, unlisted) :
		(k->names_va + k->kt.names.len + 64) & ~UINT64_C(7);
	ks_put(k, k->token_table_va, k->kt.token_table.p,
	       k->kt.token_table.len);
	k->token_index_va = (k->token_table_va + k->kt.token_table.len + 7) &
			    ~UINT64_C(7);
	ks_put(k, k->token_index_va, k->kt.token_index.p, 512);
}

/* Write n bytes of v at module-area VA va (through the direct map). */
static inline void ks_mod_set(struct ksynth *k, uint64_t va, uint64_t v,
			      unsigned n)
{
	ks_set(k, ks_dm(KS_MOD_FRAME + (va - KS_MOD_AREA)), v, n);
}

/* One module's struct at mod: name, list links, ranges as era keeps
 * them (text at text, data at data). */
static inline void ks_module(struct ksynth *k, int era, uint64_t mod,
			     const char *name, uint64_t prev, uint64_t next,
			     uint64_t text, uint64_t text_size, uint64_t data,
			     uint64_t data_size)
{
	ks_put(k, ks_dm(KS_MOD_FRAME + (mod - KS_MOD_AREA) + BW_MODULE_NAME),
	       name, strlen(name) + 1);
	ks_mod_set(k, mod + BW_MODULE_LIST, next, 8);
	ks_mod_set(k, mod + BW_MODULE_LIST + 8, prev, 8);
	uint64_t r = mod + BW_MODULE_RANGES;
	if (era == BW_MODULES_64) {
		ks_mod_set(k, r, text, 8);
		ks_mod_set(k, r + 8, text_size, 4);
		ks_mod_set(k, r + BW_MOD_MEM_SIZE, data, 8);
		ks_mod_set(k, r + BW_MOD_MEM_SIZE + 8, data_size, 4);
	} else if (era == BW_MODULES_45) {
		ks_mod_set(k, r, text, 8);
		ks_mod_set(k, r + 8, data + data_size - text, 4);
		ks_mod_set(k, r + 12, text_size, 4);
		ks_mod_set(k, r + 16, text_size, 4);
		ks_mod_set(k, r + 20, text_size, 4);
	} else {
		ks_mod_set(k, mod + BW_MOD_OLD_CORE, text, 8);
		ks_mod_set(k, mod + BW_MOD_OLD_CORE_SIZE,
			   data + data_size - text, 4);
		ks_mod_set(k, mod + BW_MOD_OLD_CORE_TEXT, text_size, 4);
	}
}

/* alpha's own symbols (ELF64): its struct mod_kallsyms at + 0x10400
 * (4.6+), the symbol table at + 0x10800, the strings at + 0x10c00; the
 * pointers in struct module (BW_MOD_SYMS) as era keeps them.  Symbol 0
 * is ELF's null one; then a function at the text's start, a mapping
 * symbol $x at + 8, a function at + 0x100, an undefined one (printk),
 * a data symbol at the data's start, an unnamed one at + 0x200. */
static inline void ks_module_syms(struct ksynth *k, int era)
{
	static const struct {
		const char *name;
		uint64_t off;          /* from KS_MOD_AREA */
		uint16_t shndx;
		uint64_t size;
	} syms[] = {
		{ "", 0, 0, 0 },              { "alpha_init", 0, 1, 0x100 },
		{ "$x", 8, 1, 0 },            { "alpha_work", 0x100, 1, 0x80 },
		{ "printk", 0, 0, 0 },        { "alpha_data", 0x10000, 2, 8 },
		{ "", 0x200, 1, 0 },
	};
	uint64_t mk = KS_MOD_AREA + 0x10400, tab = KS_MOD_AREA + 0x10800,
		 str = KS_MOD_AREA + 0x10c00, at = 1;
	unsigned n = sizeof(syms) / sizeof(syms[0]);

	for (unsigned i = 0; i < n; i++) {
		uint64_t s = tab + i * 24;
		uint64_t name = syms[i].name[0] ? at : 0;
		ks_mod_set(k, s, name, 4);
		ks_mod_set(k, s + 6, syms[i].shndx, 2);
		ks_mod_set(k, s + 8, syms[i].shndx ?
			   KS_MOD_AREA + syms[i].off : 0, 8);
		ks_mod_set(k, s + 16, syms[i].size, 8);
		for (size_t c = 0; name && c <= strlen(syms[i].name); c++)
			ks_mod_set(k, str + at++, (uint8_t)syms[i].name[c], 1);
	}
	uint64_t holder = era == BW_MODULES_44 ? KS_MOD_ALPHA + BW_MOD_SYMS :
						 mk;
	if (era != BW_MODULES_44)
		ks_mod_set(k, KS_MOD_ALPHA + BW_MOD_SYMS, mk, 8);
	ks_mod_set(k, holder, tab, 8);
	ks_mod_set(k, holder + 8, n, 4);
	ks_mod_set(k, holder + 16, str, 8);
}

/* The module area's page and ks_modules' two modules on the list. */
static inline void ks_modules(struct ksynth *k, int era)
{
	uint64_t head = ks_kt(KS_MODULES);
	uint64_t a = KS_MOD_ALPHA + BW_MODULE_LIST,
		 b = KS_MOD_BETA + BW_MODULE_LIST;

	iw_frame(&k->mem, (KS_MOD_FRAME >> 12) + 0x1ff);
	iw_frame(&k->mem, KS_MOD_PT);
	iw_entry(&k->mem, 5, 256, 8, KS_MOD_PT << 12 | IW_TBL);
	for (unsigned i = 0; i < 512; i++)
		iw_entry(&k->mem, KS_MOD_PT, i, 8, (KS_MOD_FRAME + i * 4096) |
			 IW_P | IW_A | IW_D | IW_G);
	ks_set(k, head, a, 8);
	ks_set(k, head + 8, b, 8);
	ks_put(k, ks_dm(KS_MOD_FRAME + 0x100), "PGW-MODULE-TEXT", 15);
	ks_module(k, era, KS_MOD_ALPHA, "alpha", head, b, KS_MOD_AREA,
		  0x3000, KS_MOD_AREA + 0x10000, 0x2000);
	ks_module(k, era, KS_MOD_BETA, "be\x1bta", a, head,
		  KS_MOD_AREA + 0x20000, 0x1000, KS_MOD_AREA + 0x30000,
		  0x1000);
	ks_module_syms(k, era);
}

static inline void ks_vmcoreinfo(struct ksynth *k, bool absolute)
{
	int n = snprintf(k->vmcoreinfo, sizeof(k->vmcoreinfo),
		 "OSRELEASE=6.1.0-synthetic\nPAGESIZE=4096\n"
		 "SYMBOL(init_top_pgt)=%llx\nNUMBER(phys_base)=0\n"
		 "SYMBOL(_stext)=%llx\nSYMBOL(init_uts_ns)=%llx\n"
		 "SYMBOL(kallsyms_names)=%llx\n"
		 "SYMBOL(kallsyms_num_syms)=%llx\n"
		 "SYMBOL(kallsyms_token_table)=%llx\n"
		 "SYMBOL(kallsyms_token_index)=%llx\n",
		 (unsigned long long)ks_kt(KS_ROOT),
		 (unsigned long long)ks_kt(0x200000),
		 (unsigned long long)ks_kt(0x340000),
		 (unsigned long long)k->names_va,
		 (unsigned long long)k->num_va,
		 (unsigned long long)k->token_table_va,
		 (unsigned long long)k->token_index_va);
	char *at = k->vmcoreinfo + n;
	size_t room = sizeof(k->vmcoreinfo) - (size_t)n;
	if (absolute)
		snprintf(at, room, "SYMBOL(kallsyms_addresses)=%llx\n",
			 (unsigned long long)k->offsets_va);
	else
		snprintf(at, room, "SYMBOL(kallsyms_offsets)=%llx\n"
			 "SYMBOL(kallsyms_relative_base)=%llx\n",
			 (unsigned long long)k->offsets_va,
			 (unsigned long long)k->base_va);
}

static inline void ks_build(struct ksynth *k, const struct ksynth_opts *o)
{
	memset(k, 0, sizeof(*k));
	k->bo = o->inferable ? ks_infer_offsets : bw_default;
	if (o->inferable && o->infer_stack)
		k->bo.flags = KS_INFER_FLAGS_STACKED;
	k->bo.vmas = o->vmas;
	k->bo.threads = o->threads;
	k->bo.modules = o->modules;
	if (o->vmas)
		k->bo.mm_size = MM_SIZE;
	ks_tables(k);
	if (!o->no_btf) {
		uint32_t size;
		uint8_t *blob = bw_blob(&k->bo, 0, &size);
		k->btf_va = ks_kt(0x280010);
		k->btf_size = size;
		ks_put(k, k->btf_va, blob, size);
		free(blob);
	}
	ks_tasks(k, o->inferable);
	for (int i = 0; o->inferable && o->infer_stack && i < KS_NTASKS; i++)
		ks_set(k, k->task[i] + KS_INFER_STACK, KS_STACK(i), 8);
	if (o->threads)
		ks_threads(k, o->threads);
	if (o->modules)
		ks_modules(k, o->modules);
	ks_kallsyms(k, o);
	if (o->text_bounds)     /* the direct map of the text: read-only */
		iw_entry(&k->mem, 3, KS_STEXT >> 21, 8,
			 KS_STEXT | IW_P | IW_PS | IW_A | IW_D | IW_G | IW_NX);
	ks_vmcoreinfo(k, o->absolute);
	if (o->unlisted) {
		/* Cut the text before its first kallsyms line. */
		char *cut = strstr(k->vmcoreinfo, "SYMBOL(kallsyms_");
		if (cut)
			*cut = '\0';
	}
}

/* The ELF core: x86-64, VMCOREINFO, all memory in one PT_LOAD. */
static inline void ks_elf(const struct ksynth *k, struct iw_buf *out)
{
	struct iw_elf e = { .is64 = true, .machine = 62,
			    .vmcoreinfo = k->vmcoreinfo };
	iw_elf_build(&e, &k->mem, out, NULL);
}

/* Write the memory as a raw image, or the ELF core: 0 or -1. */
static inline int ks_write(const struct ksynth *k, const char *path,
			   bool raw)
{
	if (raw)
		return iw_write_file(path, k->mem.b.p, k->mem.b.len);
	struct iw_buf elf = { 0 };
	ks_elf(k, &elf);
	int rc = iw_write_file(path, elf.p, elf.len);
	iw_free(&elf);
	return rc;
}

static inline void ks_free(struct ksynth *k)
{
	kw_free(&k->kt);
	iw_free(&k->mem.b);
}

#endif
