/*
 * A small kernel-like BTF blob for tests and fuzz seeds, written with
 * libbpf's BTF writer: struct task_struct, mm_struct and list_head with
 * the members the task walk reads, placed at the offsets asked for, some
 * of them inside anonymous structs and unions (as in 6.1, where
 * mm_struct.pgd lies in an anonymous struct), behind typedefs and
 * qualifiers, plus a bitfield.
 */
#ifndef PGW_BTFWRITER_H
#define PGW_BTFWRITER_H

#include <bpf/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmabtf.h"

struct bw_offsets {
	uint32_t task_size;   /* bytes */
	uint32_t flags;       /* unsigned int */
	uint32_t tasks;       /* struct list_head */
	uint32_t mm;          /* void * */
	uint32_t ids;         /* anonymous union { struct { pid_t pid;
				 const pid_t tgid; }; long both; } */
	uint32_t comm;        /* char[comm_len] */
	uint32_t comm_len;
	uint32_t mm_size;
	uint32_t pgd;         /* in an anonymous struct at mm_struct's
				 start */
	int vmas;             /* BW_VMAS_*: the VMA reader's structs too
				 (vmabtf.h) */
	int era;              /* BW_ERA_*: what ps reads, as one kernel
				 generation's BTF spells it */
	int threads;          /* BW_THREADS_*: thread links */
	int modules;          /* BW_MODULES_*: struct module as one era
				 has it (0: none) */
};

/*
 * struct module (BW_MODULE_SIZE bytes): state (unsigned int, byte 0),
 * list (8), name (char[56], 24), and the memory it occupies as
 * include/linux/module.h had it
 *   BW_MODULES_64  6.4+: mem[7] of struct module_memory {base (0), size
 *                  (8), 24 bytes}, indexed by enum mod_mem_type
 *   BW_MODULES_45  4.5-6.3: core_layout and init_layout, struct
 *                  module_layout {base, size, text_size, ro_size,
 *                  ro_after_init_size}
 *   BW_MODULES_44  before 4.5: module_init, module_core, init_size,
 *                  core_size, init_text_size, core_text_size
 * from BW_MODULE_RANGES on (offsets in the BW_MOD_* names).
 */
#define BW_MODULES_64 64
#define BW_MODULES_45 45
#define BW_MODULES_44 44
#define BW_MODULE_SIZE 512
#define BW_MODULE_LIST 8
#define BW_MODULE_NAME 24
#define BW_MODULE_NAME_LEN 56
#define BW_MODULE_RANGES 128
#define BW_MOD_MEM_SIZE 24          /* one struct module_memory */
#define BW_MOD_LAYOUT_SIZE 24       /* one struct module_layout */
#define BW_MOD_INIT_LAYOUT (BW_MODULE_RANGES + 32)
#define BW_MOD_OLD_INIT 128         /* module_init; module_core at 136, */
#define BW_MOD_OLD_CORE 136         /* init_size 144, core_size 148 */
#define BW_MOD_OLD_INIT_SIZE 144
#define BW_MOD_OLD_CORE_SIZE 148
#define BW_MOD_OLD_INIT_TEXT 152    /* init_text_size; core_text_size 156 */
#define BW_MOD_OLD_CORE_TEXT 156
/* The module's symbols: 4.6+ module.kallsyms (a pointer to struct
 * mod_kallsyms {symtab (0), num_symtab (8), strtab (16)}, 32 bytes), or
 * before (BW_MODULES_44) symtab, num_symtab and strtab in struct module
 * itself, from BW_MOD_SYMS on. */
#define BW_MOD_SYMS 96

/* enum mod_mem_type's names in the kernel's order. */
static const char *const bw_mod_mem_types[] = {
	"MOD_TEXT", "MOD_DATA", "MOD_RODATA", "MOD_RO_AFTER_INIT",
	"MOD_INIT_TEXT", "MOD_INIT_DATA", "MOD_INIT_RODATA",
};

/* struct module and what it holds, for era `era`: 0, or <0 on error. */
static inline int bw_module_types(struct btf *b, int era, int t_uint,
				  int t_char, int t_ptr, int t_list)
{
	int e = 0, t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int t_name = btf__add_array(b, t_int, t_char, BW_MODULE_NAME_LEN);
	int t_part = 0;

	if (era == BW_MODULES_64) {
		int t_enum = btf__add_enum(b, "mod_mem_type", 4);
		for (int i = 0; i < 7; i++)
			e |= btf__add_enum_value(b, bw_mod_mem_types[i], i);
		e |= btf__add_enum_value(b, "MOD_MEM_NUM_TYPES", 7);
		int t_mm = btf__add_struct(b, "module_memory", BW_MOD_MEM_SIZE);
		e |= t_enum | t_mm | btf__add_field(b, "base", t_ptr, 0, 0) |
		     btf__add_field(b, "size", t_uint, 64, 0);
		t_part = btf__add_array(b, t_int, t_mm, 7);
	} else if (era == BW_MODULES_45) {
		t_part = btf__add_struct(b, "module_layout",
					 BW_MOD_LAYOUT_SIZE);
		e |= btf__add_field(b, "base", t_ptr, 0, 0) |
		     btf__add_field(b, "size", t_uint, 64, 0) |
		     btf__add_field(b, "text_size", t_uint, 96, 0) |
		     btf__add_field(b, "ro_size", t_uint, 128, 0) |
		     btf__add_field(b, "ro_after_init_size", t_uint, 160, 0);
	}
	int t_mk = 0;
	if (era != BW_MODULES_44) {
		t_mk = btf__add_struct(b, "mod_kallsyms", 32);
		e |= t_mk | btf__add_field(b, "symtab", t_ptr, 0, 0) |
		     btf__add_field(b, "num_symtab", t_uint, 64, 0) |
		     btf__add_field(b, "strtab", t_ptr, 128, 0);
	}
	int t_mod = btf__add_struct(b, "module", BW_MODULE_SIZE);
	e |= t_name | t_part | t_mod |
	     btf__add_field(b, "state", t_uint, 0, 0) |
	     btf__add_field(b, "list", t_list, BW_MODULE_LIST * 8, 0) |
	     btf__add_field(b, "name", t_name, BW_MODULE_NAME * 8, 0);
	if (era != BW_MODULES_44)
		e |= btf__add_field(b, "kallsyms", t_ptr, BW_MOD_SYMS * 8, 0);
	else
		e |= btf__add_field(b, "symtab", t_ptr, BW_MOD_SYMS * 8, 0) |
		     btf__add_field(b, "num_symtab", t_uint,
				    (BW_MOD_SYMS + 8) * 8, 0) |
		     btf__add_field(b, "strtab", t_ptr,
				    (BW_MOD_SYMS + 16) * 8, 0);
	if (era == BW_MODULES_64)
		e |= btf__add_field(b, "mem", t_part, BW_MODULE_RANGES * 8, 0);
	else if (era == BW_MODULES_45)
		e |= btf__add_field(b, "core_layout", t_part,
				    BW_MODULE_RANGES * 8, 0) |
		     btf__add_field(b, "init_layout", t_part,
				    BW_MOD_INIT_LAYOUT * 8, 0);
	else
		e |= btf__add_field(b, "module_init", t_ptr,
				    BW_MOD_OLD_INIT * 8, 0) |
		     btf__add_field(b, "module_core", t_ptr,
				    BW_MOD_OLD_CORE * 8, 0) |
		     btf__add_field(b, "init_size", t_uint,
				    BW_MOD_OLD_INIT_SIZE * 8, 0) |
		     btf__add_field(b, "core_size", t_uint,
				    BW_MOD_OLD_CORE_SIZE * 8, 0) |
		     btf__add_field(b, "init_text_size", t_uint,
				    BW_MOD_OLD_INIT_TEXT * 8, 0) |
		     btf__add_field(b, "core_text_size", t_uint,
				    BW_MOD_OLD_CORE_TEXT * 8, 0);
	return e;
}

/*
 * Thread links: BW_THREADS_SIGNAL task_struct.signal (byte 160), its
 * thread_node (168) and thread_group (184), and struct signal_struct
 * (64 bytes, thread_head at 16), as 3.14-6.6 have them;
 * BW_THREADS_GROUP thread_group alone (the older ring).  Either way
 * also task_struct.stack (BW_STACK).
 */
#define BW_THREADS_SIGNAL 1
#define BW_THREADS_GROUP 2
#define BW_SIGNAL 160
#define BW_THREAD_NODE 168
#define BW_THREAD_GROUP 184
#define BW_THREAD_HEAD 16
/* With threads: task_struct.stack too (its kernel stack). */
#define BW_STACK 200

/*
 * The fields ps reads beyond the walk, by era (0: none of them, and
 * __state at byte 0, where ps takes no field):
 *   BW_ERA_510  5.10: `long state` (byte 96, 8 bytes), `int cpu` in
 *               task_struct (104), real_parent a plain pointer (112),
 *               start_time (120); kinds up to 5.10's (no ENUM64,
 *               DECL_TAG or TYPE_TAG)
 *   BW_ERA_612  6.12: `unsigned int __state` (88), thread_info (at 128:
 *               flags, syscall_work, status, cpu: cpu at 148),
 *               real_parent a pointer to a TYPE_TAG "rcu" task_struct
 *               (112), start_time (120), a DECL_TAG on task_struct and
 *               an ENUM64 and a FLOAT type, as clang-built 6.x kernels
 *               carry
 */
#define BW_ERA_510 510
#define BW_ERA_612 612
#define BW_ERA_STATE_510 96
#define BW_ERA_STATE_612 88
#define BW_ERA_CPU_510 104
#define BW_ERA_CPU_612 148
#define BW_ERA_PARENT 112
#define BW_ERA_START 120

static const struct bw_offsets bw_default = {
	.task_size = 256, .flags = 4, .tasks = 16, .mm = 32, .ids = 40,
	.comm = 48, .comm_len = 16, .mm_size = 128, .pgd = 72,
};

static inline void bw_check(int id, const char *what)
{
	if (id < 0) {
		fprintf(stderr, "btfwriter: %s: %d\n", what, id);
		exit(2);
	}
}

/* The types; free with btf__free.  Also in task_struct: `bits`, a 3-bit
 * bitfield at byte 8; and struct loop, which nests itself anonymously
 * nloop times. */
static inline struct btf *bw_build(const struct bw_offsets *o, int nloop)
{
	struct btf *b = btf__new_empty();
	int e;

	if (!b) {
		perror("btf__new_empty");
		exit(2);
	}
	int t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int t_uint = btf__add_int(b, "unsigned int", 4, 0);
	int t_char = btf__add_int(b, "char", 1, BTF_INT_CHAR);
	int t_long = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
	int t_pid = btf__add_typedef(b, "pid_t", t_int);
	int t_cpid = btf__add_const(b, t_pid);
	int t_ptr = btf__add_ptr(b, 0);
	int t_comm = btf__add_array(b, t_int, t_char, o->comm_len);
	bw_check(t_comm, "basic types");

	int t_list = btf__add_struct(b, "list_head", 16);
	e = btf__add_field(b, "next", t_ptr, 0, 0) |
	    btf__add_field(b, "prev", t_ptr, 64, 0);
	bw_check(t_list | e, "list_head");

	int t_ids = btf__add_struct(b, NULL, 8);
	e = btf__add_field(b, "pid", t_pid, 0, 0) |
	    btf__add_field(b, "tgid", t_cpid, 32, 0);
	int t_idu = btf__add_union(b, NULL, 8);
	e |= btf__add_field(b, NULL, t_ids, 0, 0) |
	     btf__add_field(b, "both", t_long, 0, 0);
	bw_check(t_ids | t_idu | e, "anonymous ids");

	int t_ti = 0, t_rcu_task = 0, t_u64 = 0;
	if (o->era) {
		t_u64 = btf__add_int(b, "long long unsigned int", 8, 0);
		bw_check(t_u64, "u64");
	}
	if (o->era == BW_ERA_612) {
		t_ti = btf__add_struct(b, "thread_info", 24);
		e = btf__add_field(b, "flags", t_u64, 0, 0) |
		    btf__add_field(b, "syscall_work", t_u64, 64, 0) |
		    btf__add_field(b, "status", t_uint, 128, 0) |
		    btf__add_field(b, "cpu", t_uint, 160, 0);
		bw_check(t_ti | e, "thread_info");
		/* The task_struct is the next type added. */
		int t_tag = btf__add_type_tag(b, "rcu",
					      (int)btf__type_cnt(b) + 1);
		t_rcu_task = btf__add_ptr(b, t_tag);
		bw_check(t_tag | t_rcu_task, "rcu pointer");
	}
	int t_task = btf__add_struct(b, "task_struct", o->task_size);
	/* 5.10 has `state` (below), not __state. */
	e = (o->era == BW_ERA_510 ? 0 :
	     btf__add_field(b, "__state", t_uint, o->era == BW_ERA_612 ?
			    BW_ERA_STATE_612 * 8 : 0, 0)) |
	    btf__add_field(b, "flags", t_uint, o->flags * 8, 0) |
	    btf__add_field(b, "bits", t_uint, 64, 3) |
	    btf__add_field(b, "tasks", t_list, o->tasks * 8, 0) |
	    btf__add_field(b, "mm", t_ptr, o->mm * 8, 0) |
	    btf__add_field(b, NULL, t_idu, o->ids * 8, 0) |
	    btf__add_field(b, "comm", t_comm, o->comm * 8, 0);
	if (o->era)
		e |= btf__add_field(b, "real_parent", o->era == BW_ERA_612 ?
				    t_rcu_task : t_ptr, BW_ERA_PARENT * 8, 0) |
		     btf__add_field(b, "start_time", t_u64, BW_ERA_START * 8,
				    0);
	if (o->threads == BW_THREADS_SIGNAL)
		e |= btf__add_field(b, "signal", t_ptr, BW_SIGNAL * 8, 0) |
		     btf__add_field(b, "thread_node", t_list,
				    BW_THREAD_NODE * 8, 0);
	if (o->threads)
		e |= btf__add_field(b, "thread_group", t_list,
				    BW_THREAD_GROUP * 8, 0) |
		     btf__add_field(b, "stack", t_ptr, BW_STACK * 8, 0);
	if (o->era == BW_ERA_510)
		e |= btf__add_field(b, "state", t_long, BW_ERA_STATE_510 * 8,
				    0) |
		     btf__add_field(b, "cpu", t_int, BW_ERA_CPU_510 * 8, 0);
	if (o->era == BW_ERA_612)
		e |= btf__add_field(b, "thread_info", t_ti,
				    (BW_ERA_CPU_612 - 20) * 8, 0);
	bw_check(t_task | e, "task_struct");
	if (o->threads == BW_THREADS_SIGNAL) {
		int t_sig = btf__add_struct(b, "signal_struct", 64);
		e = btf__add_field(b, "nr_threads", t_int, 32, 0) |
		    btf__add_field(b, "thread_head", t_list,
				   BW_THREAD_HEAD * 8, 0);
		bw_check(t_sig | e, "signal_struct");
	}
	if (o->era == BW_ERA_612) {
		int t_e64 = btf__add_enum64(b, "era_flags", 8, false);
		e = btf__add_enum64_value(b, "ERA_HIGH", UINT64_C(1) << 40) |
		    btf__add_decl_tag(b, "randomize", t_task, -1) |
		    btf__add_float(b, "double", 8);
		bw_check(t_e64 | e, "6.12 kinds");
	}

	int t_ulong = o->vmas ? btf__add_int(b, "long unsigned int", 8, 0) : 0;
	if (o->vmas)
		bw_check(t_ulong | vb_types(b, o->vmas, t_uint, t_char, t_ptr,
					    t_ulong), "VMA types");
	int t_mma = btf__add_struct(b, NULL, o->pgd + 8);
	e = btf__add_field(b, "mmap", t_ptr, 0, 0) |
	    btf__add_field(b, "pgd", t_ptr, o->pgd * 8, 0);
	int t_mm = btf__add_struct(b, "mm_struct", o->mm_size);
	e |= btf__add_field(b, NULL, t_mma, 0, 0);
	if (o->vmas)
		e |= vb_mm_fields(b, o->vmas, t_int, t_ulong, t_ptr);
	bw_check(t_mma | t_mm | e, "mm_struct");

	if (o->modules)
		bw_check(bw_module_types(b, o->modules, t_uint, t_char, t_ptr,
					 t_list), "struct module");

	if (nloop > 0) {
		int t_loop = btf__add_struct(b, "loop", 8);
		for (int i = 0; i < nloop; i++)
			bw_check(btf__add_field(b, NULL, t_loop, 0, 0),
				 "loop");
	}
	return b;
}

/* bw_build's blob in a malloc'd copy. */
static inline uint8_t *bw_blob(const struct bw_offsets *o, int nloop,
			       uint32_t *size_ret)
{
	struct btf *b = bw_build(o, nloop);
	const void *raw = btf__raw_data(b, size_ret);
	uint8_t *copy = malloc(*size_ret);

	if (!raw || !copy) {
		perror("btf__raw_data");
		exit(2);
	}
	memcpy(copy, raw, *size_ret);
	btf__free(b);
	return copy;
}

#endif
